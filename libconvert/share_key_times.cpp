#include "animconv/share_key_times.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "animconv/sample.h"

namespace animconv {
namespace {

// A key time as it is compared and written.
double StoredTime(double seconds, const ShareKeyTimesOptions& options) {
  return options.float32_times ? static_cast<double>(static_cast<float>(seconds)) : seconds;
}

std::vector<double> StoredTimes(const Channel& channel, const ShareKeyTimesOptions& options) {
  std::vector<double> times;
  times.reserve(channel.key_count());
  for (double seconds : channel.times_seconds) times.push_back(StoredTime(seconds, options));
  return times;
}

// Distinct time sets, compared by value without copying them.
struct TimesLess {
  bool operator()(const std::vector<double>* a, const std::vector<double>* b) const {
    return *a < *b;
  }
};
using DistinctTimes = std::set<const std::vector<double>*, TimesLess>;

// Channels whose keys can be added exactly (see the header).
bool CanTakeKeys(const Channel& channel) {
  return channel.interpolation != Interpolation::kCubicSpline && channel.key_count() > 0 &&
         channel.width > 0;
}

double ValueBytesPerKey(const Channel& channel, const ShareKeyTimesOptions& options) {
  switch (channel.path) {
    case Path::kRotation:
      return options.rotation_bytes;
    case Path::kTranslation:
    case Path::kScale:
      return options.vector_bytes;
    case Path::kWeights:
      return options.weight_bytes * channel.width;
  }
  return options.vector_bytes;
}

struct TimeSet {
  std::vector<double> times;     // stored times, rising
  std::vector<size_t> channels;  // of the clip
  double value_bytes = 0;        // per key, over its channels
};

std::vector<double> Union(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// Bytes saved by serving both sets' channels with one accessor of their union; negative: more.
double MergeGain(const TimeSet& a, const TimeSet& b, size_t union_size,
                 const ShareKeyTimesOptions& options) {
  const double union_keys = static_cast<double>(union_size);
  const double keys_a = static_cast<double>(a.times.size());
  const double keys_b = static_cast<double>(b.times.size());
  const double saved = options.accessor_bytes + options.time_bytes * (keys_a + keys_b - union_keys);
  const double added =
      (union_keys - keys_a) * a.value_bytes + (union_keys - keys_b) * b.value_bytes;
  return saved - added;
}

size_t UnionSize(const std::vector<double>& a, const std::vector<double>& b) {
  size_t count = 0;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i] < b[j])) {
      ++i;
    } else if (i == a.size() || b[j] < a[i]) {
      ++j;
    } else {
      ++i;
      ++j;
    }
    ++count;
  }
  return count;
}

// `channel` on the stored times `times` (a superset of its own): its own keys as they are, the
// others evaluated on its curve at the time they are written with.
size_t MoveOntoTimes(Channel& channel, const std::vector<double>& times,
                     const ShareKeyTimesOptions& options) {
  const size_t width = static_cast<size_t>(channel.width);
  std::vector<double> seconds;
  std::vector<double> values;
  seconds.reserve(times.size());
  values.reserve(times.size() * width);
  std::vector<double> point(width);
  size_t own = 0;
  size_t added = 0;
  for (double time : times) {
    if (own < channel.key_count() && StoredTime(channel.times_seconds[own], options) == time) {
      seconds.push_back(channel.times_seconds[own]);
      const double* value = channel.key_value(own);
      values.insert(values.end(), value, value + width);
      ++own;
      continue;
    }
    EvaluateChannel(channel, time, point.data());
    seconds.push_back(time);
    values.insert(values.end(), point.begin(), point.end());
    ++added;
  }
  channel.times_seconds = std::move(seconds);
  channel.values = std::move(values);
  return added;
}

}  // namespace

std::optional<Clip> ShareKeyTimes(const Clip& clip, const ShareKeyTimesOptions& options,
                                  ShareKeyTimesReport* report) {
  // The clip's distinct key-time sets, each with the channels on it; those of channels that
  // cannot take keys apart (they count as time accessors all the same).
  std::vector<TimeSet> sets;
  std::map<std::vector<double>, size_t> set_of;
  std::vector<std::vector<double>> fixed;
  for (size_t c = 0; c < clip.channels.size(); ++c) {
    const Channel& channel = clip.channels[c];
    std::vector<double> times = StoredTimes(channel, options);
    if (!CanTakeKeys(channel)) {
      fixed.push_back(std::move(times));
      continue;
    }
    auto [found, inserted] = set_of.emplace(std::move(times), sets.size());
    if (inserted) sets.push_back({found->first, {}, 0});
    TimeSet& set = sets[found->second];
    set.channels.push_back(c);
    set.value_bytes += ValueBytesPerKey(channel, options);
  }
  // The time accessors the clip takes: its sets' and the fixed channels' times, distinct.
  const auto count_time_sets = [&](const std::vector<bool>& alive) {
    DistinctTimes distinct;
    for (size_t s = 0; s < sets.size(); ++s) {
      if (alive[s]) distinct.insert(&sets[s].times);
    }
    for (const std::vector<double>& times : fixed) distinct.insert(&times);
    return distinct.size();
  };
  std::vector<bool> alive(sets.size(), true);
  const size_t before = count_time_sets(alive);
  if (report) report->time_sets_before += before;
  if (sets.size() > options.max_time_sets) {
    if (report) report->time_sets_after += before;
    return std::nullopt;
  }
  // Greedy: merge the pair that saves the most, until no pair saves anything. Ties go to the
  // first pair in order, so the result does not depend on anything but the clip.
  for (;;) {
    double best_gain = 0;
    size_t best_a = 0;
    size_t best_b = 0;
    for (size_t a = 0; a < sets.size(); ++a) {
      if (!alive[a]) continue;
      for (size_t b = a + 1; b < sets.size(); ++b) {
        if (!alive[b]) continue;
        const double gain =
            MergeGain(sets[a], sets[b], UnionSize(sets[a].times, sets[b].times), options);
        if (gain > best_gain) {
          best_gain = gain;
          best_a = a;
          best_b = b;
        }
      }
    }
    if (best_gain <= 0) break;
    TimeSet& into = sets[best_a];
    TimeSet& from = sets[best_b];
    into.times = Union(into.times, from.times);
    into.channels.insert(into.channels.end(), from.channels.begin(), from.channels.end());
    into.value_bytes += from.value_bytes;
    alive[best_b] = false;
  }
  if (report) report->time_sets_after += count_time_sets(alive);
  // The clip is copied only when a channel takes keys (a clip on one time set, as a Unity CSV's,
  // is written as it is).
  std::optional<Clip> shared;
  for (size_t s = 0; s < sets.size(); ++s) {
    if (!alive[s]) continue;
    for (size_t c : sets[s].channels) {
      if (clip.channels[c].key_count() == sets[s].times.size()) continue;
      if (!shared) shared = clip;
      const size_t added = MoveOntoTimes(shared->channels[c], sets[s].times, options);
      if (report) {
        ++report->channels_moved;
        report->keys_added += added;
      }
    }
  }
  return shared;
}

std::string ShareKeyTimesReport::Describe() const {
  return fmt::format(
      "{} key-time set(s) -> {}: {} channel(s) given {} key(s) on their own curves, to share "
      "times (the same motion)",
      time_sets_before, time_sets_after, channels_moved, keys_added);
}

}  // namespace animconv
