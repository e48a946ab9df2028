#include "libconvert/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <vector>

#if ANIMCONV_THREADS
#include <thread>
#endif

namespace animconv {

unsigned ParallelThreadCount() {
#if ANIMCONV_THREADS
  return std::max(1u, std::thread::hardware_concurrency());
#else
  return 1;
#endif
}

void ParallelFor(size_t count, const std::function<void(size_t)>& body, unsigned max_threads) {
#if ANIMCONV_THREADS
  unsigned threads = max_threads != 0 ? max_threads : ParallelThreadCount();
  threads = static_cast<unsigned>(std::min<size_t>(threads, count));
  if (threads >= 2) {
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    const auto work = [&] {
      for (size_t i = next++; i < count; i = next++) {
        try {
          body(i);
        } catch (...) {
          const std::lock_guard<std::mutex> lock(failure_mutex);
          if (!failure) failure = std::current_exception();
          next = count;  // start nothing new
        }
      }
    };
    std::vector<std::thread> helpers;
    helpers.reserve(threads - 1);
    for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work);
    work();
    for (std::thread& helper : helpers) helper.join();
    if (failure) std::rethrow_exception(failure);
    return;
  }
#else
  (void)max_threads;
#endif
  for (size_t i = 0; i < count; ++i) body(i);
}

}  // namespace animconv
