#include "animconv/batch.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>
#include <utility>

#include "animconv/error.h"
#include "animconv/io.h"
#include "libconvert/parallel.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;

bool ReadableByExtension(const fs::path& path) {
  const std::string name = path.filename().string();
  for (const Format& format : Formats()) {
    if (!format.read) continue;
    for (const std::string_view extension : format.extensions) {
      if (name.size() > extension.size() &&
          std::equal(extension.rbegin(), extension.rend(), name.rbegin(), [](char a, char b) {
            return a == std::tolower(static_cast<unsigned char>(b));
          })) {
        return true;
      }
    }
  }
  return false;
}

// A `.js` file in a folder: three.js's legacy JSONLoader models (format 3, with `bones` and
// `animation`) were saved as `.js`, and `convert` reads them by content. No format claims the
// extension (most `.js` files are code), so a folder's `.js` file is taken only when a reader
// recognises its content, as `convert` would detect it. One larger than the input limit is taken
// too: converting it then reports the limit instead of skipping it silently.
bool ReadableByContent(const fs::path& path, uint64_t max_input_bytes) {
  std::string name = path.filename().string();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (name.size() <= 3 || name.compare(name.size() - 3, 3, ".js") != 0) return false;
  std::error_code error;
  const uintmax_t size = fs::file_size(path, error);
  if (error) return false;
  if (size > max_input_bytes) return true;
  std::string bytes;
  try {
    bytes = ReadFile(path.string(), max_input_bytes);
  } catch (const Error&) {
    return true;  // unreadable: converting it names the problem
  }
  return std::any_of(Formats().begin(), Formats().end(), [&bytes](const Format& format) {
    return format.read && format.sniff && format.sniff(bytes);
  });
}

// Creates every output folder before any file is converted, so a folder that cannot be created
// (a read-only file system, a file in the way) is one error naming it, not a "No such file or
// directory" for each of its files.
void CreateOutputFolders(const std::vector<BatchItem>& plan) {
  std::vector<fs::path> folders;
  for (const BatchItem& item : plan) folders.push_back(fs::path(item.output).parent_path());
  std::sort(folders.begin(), folders.end());
  folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
  for (const fs::path& folder : folders) {
    if (folder.empty()) continue;
    std::error_code error;
    fs::create_directories(folder, error);
    if (error || !fs::is_directory(folder)) {
      throw Error(ErrorKind::kIo, folder.string(), "",
                  "cannot create the output folder: " +
                      (error ? error.message() : std::string("a file of that name is in the way")));
    }
  }
}

// "walk.unity.csv" -> "walk": the longest readable extension goes, so the output does not end in
// ".unity.json".
std::string Stem(const fs::path& path) {
  std::string name = path.filename().string();
  size_t cut = name.rfind('.');
  for (const Format& format : Formats()) {
    for (const std::string_view extension : format.extensions) {
      if (name.size() > extension.size() &&
          name.compare(name.size() - extension.size(), extension.size(), extension) == 0) {
        cut = std::min(cut, name.size() - extension.size());
      }
    }
  }
  return cut == std::string::npos || cut == 0 ? name : name.substr(0, cut);
}

std::string OutputPath(const fs::path& relative, const std::string& output_dir,
                       std::string_view extension) {
  const fs::path folder = fs::path(output_dir) / relative.parent_path();
  return (folder / (Stem(relative) + std::string(extension))).lexically_normal().string();
}

// Inputs are never written: an output that is another input of the batch (the same file, by
// device and inode, however it is spelt: `in/x.csv`, `./in/x.csv`, a link) would be replaced and
// then converted with its new content (`walk.unity.bvh` -> `walk.unity.csv` over the CSV input).
// Refused before anything is written. Only --overwrite replaces an existing file: without it
// such an output is that item's failure ("the output exists"), or with --skip-existing a skip, so
// a batch resumed in its own folder still runs. An output that is its own input is
// `ConvertFile`'s refusal, that file's failure.
void RefuseOutputsOverInputs(const std::vector<BatchItem>& plan, const BatchOptions& options) {
  if (!options.overwrite) return;
  using FileId = std::pair<dev_t, ino_t>;
  const auto identity = [](const std::string& path, FileId* id) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return false;
    *id = {info.st_dev, info.st_ino};
    return true;
  };
  std::map<FileId, const BatchItem*> inputs;
  for (const BatchItem& item : plan) {
    FileId id;
    if (identity(item.input, &id)) inputs.emplace(id, &item);
  }
  for (const BatchItem& item : plan) {
    FileId id;
    if (!identity(item.output, &id)) continue;  // not there: no input is at that path
    const auto found = inputs.find(id);
    if (found == inputs.end() || found->second == &item) continue;
    ThrowUsage(fmt::format(
        "batch: '{}' would be written to '{}', which is the input '{}' of this batch; inputs "
        "are never written: choose another output folder (-o)",
        item.input, item.output, found->second->input));
  }
}

}  // namespace

const char* BatchStatusName(BatchStatus status) {
  switch (status) {
    case BatchStatus::kConverted:
      return "converted";
    case BatchStatus::kSkipped:
      return "skipped";
    case BatchStatus::kFailed:
      return "failed";
    case BatchStatus::kNotStarted:
      return "not started";
  }
  return "?";
}

std::vector<BatchItem> PlanBatch(const BatchOptions& options) {
  if (options.inputs.empty()) ThrowUsage("batch: give at least one input file or folder");
  if (options.overwrite && options.skip_existing) {
    ThrowUsage("give --overwrite or --skip-existing, not both");
  }
  if (options.output_dir.empty()) ThrowUsage("batch: -o OUTDIR is required");
  if (options.to.empty()) ThrowUsage("batch: --to FORMAT is required (animconv formats)");
  const Format& format = DetectOutputFormat("", options.to);
  const std::string_view extension = format.extensions.front();
  std::vector<BatchItem> plan;
  for (const std::string& input : options.inputs) {
    std::error_code error;
    if (fs::is_directory(input, error)) {
      std::vector<fs::path> files;
      for (auto it = fs::recursive_directory_iterator(input, error);
           !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        if (it->is_regular_file(error) &&
            (ReadableByExtension(it->path()) ||
             ReadableByContent(it->path(), options.convert.max_input_bytes))) {
          files.push_back(it->path());
        }
      }
      if (error) {
        throw Error(ErrorKind::kIo, input, "", "cannot list the folder: " + error.message());
      }
      std::sort(files.begin(), files.end());  // a stable plan, whatever the file system's order
      for (const fs::path& file : files) {
        plan.push_back(
            {file.string(), OutputPath(fs::relative(file, input), options.output_dir, extension)});
      }
    } else if (fs::is_regular_file(input, error)) {
      plan.push_back(
          {input, OutputPath(fs::path(input).filename(), options.output_dir, extension)});
    } else {
      ThrowUsage(fmt::format("batch: '{}' is neither a file nor a folder", input));
    }
  }
  if (plan.empty())
    ThrowUsage(
        "batch: no input files found (folders are searched for readable "
        "extensions: animconv formats)");
  std::map<std::string, const BatchItem*> by_output;
  for (const BatchItem& item : plan) {
    const auto [found, inserted] = by_output.emplace(item.output, &item);
    if (!inserted) {
      ThrowUsage(
          fmt::format("batch: '{}' and '{}' would both be written to '{}'; convert them "
                      "in separate batches or rename one",
                      found->second->input, item.input, item.output));
    }
  }
  RefuseOutputsOverInputs(plan, options);
  return plan;
}

std::vector<BatchResult> ConvertBatch(const std::vector<BatchItem>& plan,
                                      const BatchOptions& options,
                                      const std::function<void(const BatchResult&)>& progress,
                                      const std::atomic<bool>* stop) {
  RefuseOutputsOverInputs(plan, options);  // also for a plan not made by PlanBatch
  // Every file is written in the batch's format, whatever its output's name says (`--to three`
  // writes `dance.hierarchy.json` as a three.js clip, not the legacy hierarchy format).
  ConvertOptions convert = options.convert;
  if (!options.to.empty()) convert.to = std::string(DetectOutputFormat("", options.to).id);
  CreateOutputFolders(plan);
  std::vector<BatchResult> results(plan.size());
  for (size_t i = 0; i < plan.size(); ++i) results[i].item = plan[i];
  std::atomic<size_t> next{0};
  std::mutex progress_mutex;
  // An output folder removed while the batch runs fails every later file the same way (after
  // reading and converting it for nothing): the batch stops there, and says why (docs/cli.md).
  std::atomic<bool> folder_gone{false};
  std::string gone_folder;  // written once, under progress_mutex
  auto work = [&]() {
    for (size_t i = next++; i < plan.size(); i = next++) {
      if ((stop && *stop) || folder_gone) return;
      BatchResult& result = results[i];
      const auto start = std::chrono::steady_clock::now();
      std::error_code error;
      const bool exists = fs::exists(result.item.output, error);
      if (exists && options.skip_existing) {
        result.status = BatchStatus::kSkipped;
        result.message = "the output exists (--skip-existing)";
        RemoveStaleTemporaryFiles(result.item.output);  // from a killed run rewriting it
      } else if (exists && !options.overwrite) {
        result.status = BatchStatus::kFailed;
        result.exit_code = static_cast<int>(ErrorKind::kUsage);
        result.message = "the output exists; pass --overwrite or --skip-existing";
      } else {
        ConvertReport report;
        try {
          ConvertFile(result.item.input, result.item.output, convert, &report);
          result.status = BatchStatus::kConverted;
          result.input_bytes = report.input_bytes;
          result.output_bytes = report.output_bytes;
        } catch (const Error& failure) {
          result.status = BatchStatus::kFailed;
          result.exit_code = static_cast<int>(failure.kind());
          result.message = failure.what();
          const fs::path folder = fs::path(result.item.output).parent_path();
          if (failure.kind() == ErrorKind::kIo && !folder.empty() &&
              !fs::is_directory(folder, error)) {
            const std::lock_guard<std::mutex> lock(progress_mutex);
            if (!folder_gone.exchange(true)) gone_folder = folder.string();
          }
        } catch (const std::bad_alloc&) {
          result.status = BatchStatus::kFailed;
          result.exit_code = 4;
          result.message = "out of memory";
        } catch (const std::exception& failure) {
          result.status = BatchStatus::kFailed;
          result.exit_code = 4;
          result.message = std::string("internal error: ") + failure.what();
        }
        result.diagnostics = std::move(report.diagnostics);
      }
      result.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (progress) {
        const std::lock_guard<std::mutex> lock(progress_mutex);
        progress(result);
      }
    }
  };
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const size_t jobs = std::min<size_t>(plan.size(), options.jobs > 0 ? options.jobs : hardware);
  std::vector<std::thread> threads;
  StartThreads(jobs - 1, work, &threads);  // the files come from a shared counter
  work();
  for (std::thread& thread : threads) thread.join();
  if (folder_gone) {
    for (BatchResult& result : results) {
      if (result.status != BatchStatus::kNotStarted) continue;
      result.message = fmt::format(
          "not started: the output folder '{}' was removed during the "
          "batch",
          gone_folder);
    }
  }
  return results;
}

std::string BatchReportJson(const std::vector<BatchResult>& results, double wall_seconds) {
  nlohmann::json files = nlohmann::json::array();
  std::map<std::string, size_t> totals;
  for (const BatchResult& result : results) {
    ++totals[BatchStatusName(result.status)];
    nlohmann::json entry = {{"input", result.item.input},
                            {"output", result.item.output},
                            {"status", BatchStatusName(result.status)},
                            {"seconds", result.seconds},
                            {"input_bytes", result.input_bytes},
                            {"output_bytes", result.output_bytes}};
    if (!result.message.empty()) entry["message"] = result.message;
    if (result.exit_code != 0) entry["exit_code"] = result.exit_code;
    nlohmann::json warnings = nlohmann::json::array();
    for (const Diagnostic& diagnostic : result.diagnostics) {
      if (diagnostic.severity == Severity::kWarning) warnings.push_back(diagnostic.text);
    }
    if (!warnings.empty()) entry["warnings"] = warnings;
    files.push_back(entry);
  }
  const nlohmann::json report = {
      {"files", files}, {"totals", totals}, {"wall_seconds", wall_seconds}};
  // File names are bytes, not necessarily UTF-8: replace what is not (U+FFFD).
  return report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace animconv
