// Converting many files with one set of options (`animconv batch`): planning the output names,
// running ConvertFile on a pool of threads, and the per-file results. Each file is converted
// exactly as `animconv convert` would, so a batch is a pure function of its inputs and can as
// well be split across machines (docs/scale.md).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "animconv/convert.h"

namespace animconv {

struct BatchOptions {
  // Files and folders (folders are walked recursively for files a reader claims by extension).
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string to;  // the output format id (required: a batch has no output file name to go by)
  int jobs = 0;    // parallel conversions; 0 = one per hardware thread
  bool overwrite = false;      // replace existing outputs
  bool skip_existing = false;  // leave existing outputs alone and count them as skipped (resume)
  ConvertOptions convert;
};

struct BatchItem {
  std::string input;
  std::string output;
};

// The outputs mirror the input tree: a folder's files keep their path below the folder, a file
// given by name goes to the top of the output folder; the extension becomes the output format's.
// Error(kUsage) when there are no inputs, both overwrite and skip_existing are set, two inputs
// would write the same output, an output would be another input of the batch (the same file by
// device and inode: inputs are never written) or nothing is found.
std::vector<BatchItem> PlanBatch(const BatchOptions& options);

enum class BatchStatus { kConverted, kSkipped, kFailed, kNotStarted };
const char* BatchStatusName(BatchStatus status);

struct BatchResult {
  BatchItem item;
  BatchStatus status = BatchStatus::kNotStarted;
  std::string message;  // the error for kFailed, the reason for kSkipped
  int exit_code = 0;    // what `animconv convert` would have returned
  double seconds = 0;
  size_t input_bytes = 0;
  size_t output_bytes = 0;
  // What this file's conversion told (ConvertReport::diagnostics); for kFailed, those before the
  // error.
  Diagnostics diagnostics;
};

// Runs the plan on `options.jobs` threads. `progress` is called (from worker threads, one call at
// a time) after each file. When `stop` becomes true no new file is started; files in flight
// finish, so only complete outputs exist (WriteFileAtomic). Results are in plan order. Every
// output folder is created first: Error(kIo) naming the first that cannot be, before any file.
// Every file is written in `options.to`'s format (ConvertOptions::to), whatever its output name
// says; a plan whose output is another of its inputs is refused as PlanBatch refuses it.
std::vector<BatchResult> ConvertBatch(const std::vector<BatchItem>& plan,
                                      const BatchOptions& options,
                                      const std::function<void(const BatchResult&)>& progress,
                                      const std::atomic<bool>* stop);

// The texts `animconv batch` prints on stderr (pipeline/batch_text.cpp), names and messages
// escaped for the terminal. After each file: `BatchFileLine` when stderr is not a terminal
// ("[3/10] failed a.csv: ..."), else `BatchFailedLine` for a failure and the status line
// rewritten in place. At the end: the failures (also with -q), then the summary.
std::string BatchFileLine(const BatchResult& result, size_t done, size_t total);
std::string BatchFailedLine(const BatchResult& result);
std::string BatchStatusLine(size_t done, size_t total, size_t failed, double elapsed_seconds);
struct BatchEnd {
  std::string problems;  // "failed: INPUT: MESSAGE" lines, and "stopped: REASON" once
  std::string summary;   // "N converted, N skipped, N failed, N not started in S s"
  int exit_code = 0;     // the largest exit code of the failed files, 0 when none failed
};
BatchEnd SummarizeBatch(const std::vector<BatchResult>& results, double wall_seconds);

// The --report document: options summary, per-file results and totals, as JSON text. A file's
// warning diagnostics are its `warnings` (texts, in order; left out when there are none).
std::string BatchReportJson(const std::vector<BatchResult>& results, double wall_seconds);

}  // namespace animconv
