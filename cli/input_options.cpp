#include "cli/input_options.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <iostream>

#include "animconv/error.h"
#include "libconvert/mapped_input.h"
#include "libconvert/memory.h"

namespace animconv::cli {
GivenOptions GivenIn(const po::variables_map& map) {
  GivenOptions given;
  for (const auto& [name, value] : map) {
    if (!value.defaulted()) given.insert(name);
  }
  return given;
}

void AddLimitOptions(po::options_description* description, std::vector<std::string>* texts) {
  const StructureLimits defaults;
  const std::vector<LimitOption>& limits = LimitOptions();
  texts->assign(limits.size(), std::string());
  for (size_t i = 0; i < limits.size(); ++i) {
    const std::string shown = std::to_string(defaults.*limits[i].field);
    description->add_options()(limits[i].name, po::value(&(*texts)[i])->default_value(shown, shown),
                               limits[i].help);
  }
}

void ApplyLimitOptions(const std::vector<std::string>& texts, const po::variables_map& map,
                       StructureLimits* limits) {
  animconv::ApplyLimitOptions(texts, GivenIn(map), limits);
}

po::options_description InputOptions(InputOptionValues* values, bool writes) {
  po::options_description description("Input");
  const char* interval_help =
      writes ? "unity-csv: seconds between rows (default 0.2, the reference exporter's rate). "
               "Output: the grid to sample on when writing unity-csv, or when baking cubic "
               "splines for formats without them"
             : "unity-csv: seconds between rows (default 0.2, the reference exporter's rate)";
  // clang-format off
  description.add_options()
      ("from", po::value(&values->from),
       "input format id (see `animconv formats`); default: detected from content, then "
       "extension")
      ("bones", po::value(&values->bones_file),
       "unity-csv: file with one bone name per line (the article's bone.txt); sets the column "
       "order and count. Default: the 55 HumanBodyBones in enum order (UpperChest last)")
      ("interval", po::value(&values->interval_seconds), interval_help)
      ("fps", po::value(&values->fps), "the same as a rate: --fps 30 = --interval 1/30")
      ("scale", po::value(&values->scale),
       "multiply every length by this after reading (BVH is read as centimetres and FBX in its "
       "own unit, both turned to metres; a BVH in inches needs --scale 2.54)")
      ("max-input-mb", po::value(&values->max_input_mb)->default_value(values->max_input_mb),
       "refuse inputs larger than this many MiB");
  // clang-format on
  AddLimitOptions(&description, &values->limits);
  return description;
}

void ApplyInputOptions(const InputOptionValues& values, const po::variables_map& map,
                       ConvertOptions* options) {
  animconv::ApplyInputOptions(values, GivenIn(map), options);
}

bool ParseCommandLine(const std::vector<std::string>& args, const char* usage,
                      const po::options_description& visible, const std::string& positional_name,
                      po::variables_map* map) {
  po::options_description all;
  all.add(visible);
  all.add_options()(positional_name.c_str(), po::value<std::string>());
  po::positional_options_description positional;
  positional.add(positional_name.c_str(), 1);
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), *map);
    // --help wins over missing required options, so check it before notify() enforces them.
    if (map->count("help")) {
      std::cout << usage << "\n" << visible << "\n";
      return false;
    }
    po::notify(*map);
  } catch (const po::error& error) {
    ThrowUsage(error.what());
  }
  if (!map->count(positional_name)) {
    ThrowUsage(fmt::format("missing {}; usage: {}", positional_name, usage));
  }
  return true;
}

// Below this the default heap is as fast (the job is a few milliseconds either way).
constexpr uint64_t kLargeInputBytes = uint64_t{8} << 20;
// Address space to reserve for the heap, per input byte: a job peaks at 3 x (input + output) at
// most (docs/reliability.md), and an output can be a few times its input. Untouched address
// space costs nothing. Its huge pages are kept only while they prove cheap here
// (libconvert/memory.h; docs/performance.md, "Huge pages only where they are cheap").
constexpr uint64_t kHeapBytesPerInputByte = 8;
// What is faulted in on the idle core while the job's thread reads its inputs, per input byte.
// An input read into the heap takes its first bytes: the thread faults in the back half of them
// (while the job's thread faults in the front half as it reads: half the wait;
// docs/performance.md, "Huge pages only where they are cheap"). A mapped input takes none
// (libconvert/mapped_input.h). Then the next 1.5 x of every input, where the model read from it
// goes (a text of numbers read as doubles: the 50 MB Unity CSV's channels take 75 MB). Measured:
// after a process that freed 1.2 GB, 0.46 s -> 0.39 s for that CSV; unchanged when its memory is
// hot ("Less fresh memory, faulted in on the idle core").
constexpr double kPrefaultFromPerReadByte = 0.5;
constexpr double kModelBytesPerInputByte = 1.5;

void PrepareHeapForInputs(const std::vector<std::string>& paths) {
  uint64_t total = 0;
  uint64_t read_into_heap = 0;
  for (const std::string& path : paths) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
      const auto bytes = static_cast<uint64_t>(info.st_size);
      total += bytes;
      if (!WouldMapInput(bytes)) read_into_heap += bytes;
    }
  }
  if (total >= kLargeInputBytes) {
    LargeJobHeapOptions heap;
    heap.reserve_bytes = static_cast<size_t>(total * kHeapBytesPerInputByte);
    heap.prefault_begin_bytes =
        static_cast<size_t>(static_cast<double>(read_into_heap) * kPrefaultFromPerReadByte);
    heap.prefault_end_bytes = static_cast<size_t>(
        static_cast<double>(read_into_heap) + static_cast<double>(total) * kModelBytesPerInputByte);
    PrepareHeapForLargeJob(heap);
  }
}

}  // namespace animconv::cli
