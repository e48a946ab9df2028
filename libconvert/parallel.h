// Both cores on one file (issue 18; docs/performance.md, "Against the seed pipeline"): independent
// pieces of one job run on a few threads. Private to the project, like text.h.
#pragma once

#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// Calls body(i) for every i in [0, count), on up to `max_threads` threads (0: one per hardware
// thread), the calling thread among them; each i exactly once, in no particular order. Returns
// when all are done; the first exception a call threw is then rethrown. Serial in builds without
// threads (the WebAssembly build: ANIMCONV_THREADS=0) and for fewer than two pieces, so a caller
// never depends on the threads for its result, only for its speed.
void ParallelFor(size_t count, const std::function<void(size_t)>& body, unsigned max_threads = 0);

// Starts up to `count` threads running `work`, into `threads`. A thread that cannot be started
// (EAGAIN under a limit on threads), and every one in a build without threads, is not an error:
// `work` takes its pieces from a shared counter, so the threads that did start and the caller,
// running `work` too, finish them all. (An exception here used to end the job: an internal error,
// or std::terminate for a vector of running threads destroyed unjoined; session 32.)
void StartThreads(size_t count, const std::function<void()>& work,
                  std::vector<std::thread>* threads);

// How many threads ParallelFor uses with max_threads 0: one per hardware thread, 1 in builds
// without threads. For cutting a job into as many pieces.
unsigned ParallelThreadCount();

// Calls body(clip, index, channel) for every channel of every clip, each exactly once: on every
// core when the channels hold at least 100,000 values between them (about a millisecond of work
// a pass: threads pay off from there), else in order on the calling thread. The passes over
// every key of a large clip (the basis change, rotation normalisation, validation) run so.
void ForEachChannel(std::vector<Clip>& clips,
                    const std::function<void(size_t clip, size_t index, Channel&)>& body);
void ForEachChannel(const std::vector<Clip>& clips,
                    const std::function<void(size_t clip, size_t index, const Channel&)>& body);

}  // namespace animconv
