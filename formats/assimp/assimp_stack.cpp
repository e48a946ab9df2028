#include "formats/assimp/assimp_stack.h"

#include <fmt/format.h>
#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <exception>

#include "animconv/error.h"

namespace animconv {
namespace {

struct StackJob {
  const std::function<void()>* work;
  std::exception_ptr thrown;
};

void* RunJob(void* argument) {
  auto* job = static_cast<StackJob*>(argument);
  try {
    (*job->work)();
  } catch (...) {
    job->thrown = std::current_exception();
  }
  return nullptr;
}

}  // namespace

size_t AssimpStackBytes(size_t max_depth) {
  constexpr size_t kPerLevel = 4096;
  constexpr size_t kBase = size_t{8} << 20;
  constexpr size_t kMost = size_t{4} << 30;
  return max_depth >= (kMost - kBase) / kPerLevel ? kMost : kBase + max_depth * kPerLevel;
}

void RunOnStack(size_t stack_bytes, const std::function<void()>& work) {
  StackJob job{&work, nullptr};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  int failed = pthread_attr_setstacksize(&attributes, stack_bytes);
  pthread_t thread;
  if (failed == 0) failed = pthread_create(&thread, &attributes, RunJob, &job);
  pthread_attr_destroy(&attributes);
  if (failed != 0) {
    throw Error(ErrorKind::kInternal, "", "",
                fmt::format("cannot start the Assimp reader's thread with a {} MiB stack: {}",
                            stack_bytes >> 20, std::strerror(failed)));
  }
  pthread_join(thread, nullptr);
  if (job.thrown) std::rethrow_exception(job.thrown);
}

}  // namespace animconv
