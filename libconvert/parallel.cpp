#include "libconvert/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace animconv {

void StartThreads(size_t count, const std::function<void()>& work,
                  std::vector<std::thread>* threads) {
#if ANIMCONV_THREADS
  for (size_t t = 0; t < count; ++t) {
    try {
      threads->emplace_back(work);
    } catch (const std::system_error&) {
      return;
    }
  }
#else
  (void)count, (void)work, (void)threads;
#endif
}

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
    StartThreads(threads - 1, work, &helpers);
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

namespace {

constexpr size_t kParallelValues = 100000;

template <typename Clips, typename Body>
void ForEachChannelOf(Clips& clips, const Body& body) {
  struct Place {
    size_t clip, index;
  };
  std::vector<Place> places;
  size_t values = 0;
  for (size_t c = 0; c < clips.size(); ++c) {
    for (size_t i = 0; i < clips[c].channels.size(); ++i) {
      places.push_back({c, i});
      values += clips[c].channels[i].values.size();
    }
  }
  ParallelFor(
      places.size(),
      [&](size_t p) {
        const Place& place = places[p];
        body(place.clip, place.index, clips[place.clip].channels[place.index]);
      },
      values >= kParallelValues ? 0 : 1);
}

}  // namespace

void ForEachChannel(std::vector<Clip>& clips,
                    const std::function<void(size_t clip, size_t index, Channel&)>& body) {
  ForEachChannelOf(clips, body);
}

void ForEachChannel(const std::vector<Clip>& clips,
                    const std::function<void(size_t clip, size_t index, const Channel&)>& body) {
  ForEachChannelOf(clips, body);
}

}  // namespace animconv
