#include "cli/interrupt.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "animconv/io.h"

namespace animconv::cli {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void OnSignal(int signal_number) { RemoveTemporariesAndDie(signal_number); }

}  // namespace

void RemoveTemporariesAndDie(int signal_number) noexcept {
  RemovePendingTemporaryFiles();
  // Die by the signal itself (default action), not by an exit code of our own.
  // The handler runs with its signal blocked: unblock it, or raise() would only leave it pending.
  ::signal(signal_number, SIG_DFL);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, signal_number);
  ::pthread_sigmask(SIG_UNBLOCK, &unblock, nullptr);
  ::raise(signal_number);
  ::_exit(128 + signal_number);  // only if the signal was blocked
}

void RemoveTemporariesOnSignals() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  for (const int signal_number : kSignals) {
    struct sigaction previous {};
    ::sigaction(signal_number, nullptr, &previous);
    // A signal ignored by whoever started us (nohup, a shell's background job) stays ignored.
    if (previous.sa_handler == SIG_IGN) continue;
    ::sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace animconv::cli
