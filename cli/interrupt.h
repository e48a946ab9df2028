// What the tool does on SIGINT, SIGTERM, SIGHUP and SIGQUIT (docs/reliability.md): no partial
// output and no hidden temporary file, on every command.
#pragma once

namespace animconv::cli {

// Installs handlers that remove the temporary files of writes in progress
// (RemovePendingTemporaryFiles in animconv/io.h), then end the process by the same signal, so
// the shell reports it as usual (130 for Ctrl-C, 143 for SIGTERM).
void RemoveTemporariesOnSignals();

// What those handlers do; `batch` calls it on a second Ctrl-C (its first one only stops
// starting new files). Async-signal-safe.
[[noreturn]] void RemoveTemporariesAndDie(int signal_number) noexcept;

}  // namespace animconv::cli
