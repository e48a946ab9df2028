// The WebAssembly module's one entry point (docs/web.md): a JSON request naming a command and
// files in emscripten's in-memory file system (web/index.js puts them there), a JSON reply.
// Each command is the CLI's (cli/*_command.cpp) without Boost: the same option mapping
// (animconv/option_values.h) and the same pipeline calls, so the outputs are the CLI's bytes.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "animconv/bake.h"
#include "animconv/batch.h"
#include "animconv/convert.h"
#include "animconv/diff_job.h"
#include "animconv/error.h"
#include "animconv/format.h"
#include "animconv/info_report.h"
#include "animconv/io.h"
#include "animconv/listings.h"
#include "animconv/preview.h"
#include "animconv/summary.h"
#include "libconvert/text.h"
#include "web/src/host.h"
#include "web/src/option_json.h"

namespace animconv::web {
namespace {

using nlohmann::json;

json DiagnosticsJson(const Diagnostics& diagnostics) {
  json list = json::array();
  for (const Diagnostic& diagnostic : diagnostics) {
    list.push_back({{"severity", SeverityName(diagnostic.severity)}, {"text", diagnostic.text}});
  }
  return list;
}

const char* KindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage:
      return "usage";
    case ErrorKind::kBadInput:
      return "bad-input";
    case ErrorKind::kIo:
      return "io";
    case ErrorKind::kInternal:
      return "internal";
  }
  return "internal";
}

// The exit codes of docs/cli.md; `text` is what the CLI prints after "animconv: error: ".
json ErrorJson(ErrorKind kind, const std::string& source, const std::string& location,
               const std::string& message, const std::string& text) {
  return {{"kind", KindName(kind)}, {"exit_code", static_cast<int>(kind)},
          {"file", source},         {"location", location},
          {"message", message},     {"text", text}};
}

json FormatsReply() {
  json list = json::array();
  for (const Format& format : Formats()) {
    json extensions = json::array();
    for (const std::string_view extension : format.extensions) {
      extensions.push_back(std::string(extension));
    }
    list.push_back({{"id", std::string(format.id)},
                    {"description", std::string(format.description)},
                    {"extensions", extensions},
                    {"read", format.read != nullptr},
                    {"write", format.write != nullptr}});
  }
  return {{"formats", list}, {"text", FormatsTable()}};
}

// Runs `job`, which fills `gathered`, and hands those diagnostics to the reply also when it
// throws: they come before the error, as the CLI prints them (cli/diagnostics.h).
template <typename Job>
void KeepingDiagnostics(const Diagnostics& gathered, Diagnostics* reply, Job&& job) {
  try {
    job();
  } catch (...) {
    *reply = gathered;
    throw;
  }
  *reply = gathered;
}

// `animconv convert INPUT -o OUTPUT [--to ID] [options]` (cli/convert_command.cpp).
json Convert(const json& request, Diagnostics* diagnostics) {
  const OptionValues values = ReadOptionJson(request.value("options", json()), OptionSet::kConvert);
  ConvertOptions options;
  ApplyInputOptions(values.input, values.given, &options);
  options.to = request.value("to", std::string());
  ApplyConvertOptions(values.convert, values.given, &options);
  ConvertReport report;
  KeepingDiagnostics(report.diagnostics, diagnostics, [&] {
    ConvertFile(request.at("input").get<std::string>(), request.at("output").get<std::string>(),
                options, &report);
  });
  return {{"input_format", std::string(report.input_format->id)},
          {"output_format", std::string(report.output_format->id)},
          {"input_bytes", report.input_bytes},
          {"output_bytes", report.output_bytes}};
}

// `animconv info INPUT --json [options]` (cli/info_command.cpp).
json Info(const json& request, Diagnostics* diagnostics) {
  const OptionValues values = ReadOptionJson(request.value("options", json()), OptionSet::kInfo);
  ConvertOptions options;
  ApplyInputOptions(values.input, values.given, &options);
  const std::string path = request.at("input").get<std::string>();
  const LoadedAsset loaded = LoadForInfo(path, options, values.convert.bone_map, diagnostics);
  const AssetSummary summary = Summarize(loaded.asset);
  const std::string report = InfoJson(path, loaded, summary);
  return {{"report", json::parse(report)},
          {"report_text", report},
          {"text", InfoText(path, loaded, summary)}};
}

// `animconv diff A B --json [options]` (cli/diff_command.cpp).
json Diff(const json& request, Diagnostics* diagnostics) {
  const OptionValues values = ReadOptionJson(request.value("options", json()), OptionSet::kDiff);
  ConvertOptions options;
  ApplyInputOptions(values.input, values.given, &options);
  DiffOptions diff_options;
  ApplyDiffOptions(values.diff, values.given, &options, &diff_options);
  const std::string a = request.at("inputs").at(0).get<std::string>();
  const std::string b = request.at("inputs").at(1).get<std::string>();
  const bool rows_timed = values.given.count("interval") || values.given.count("fps");
  const DiffJobResult result = RunDiffJob(a, b, options, diff_options, rows_timed, diagnostics);
  // --top is a text-output option (the worst N channels per unit): the npm CLI's, not the API's.
  // size_t is 64 bits natively, 32 here: a larger count than wasm can hold lists everything too.
  const uint64_t top_count =
      request.contains("top") ? ParseUnsignedText("top", request.at("top").get<std::string>()) : 10;
  const size_t top = static_cast<size_t>(std::min<uint64_t>(top_count, SIZE_MAX));
  const std::string report = DiffJson(a, b, result, diff_options);
  return {{"report", json::parse(report)},
          {"report_text", report},
          {"text", DiffText(a, b, result, diff_options, top)}};
}

std::optional<std::string> OptionalText(const json& request, const char* key) {
  if (!request.contains(key) || request.at(key).is_null()) return std::nullopt;
  return request.at(key).get<std::string>();
}

// `animconv bones [--from NAMING] [--to NAMING] [NAME...]` (cli/bones_command.cpp).
json Bones(const json& request) {
  const std::optional<BoneNaming> from = BoneNamingOption("from", OptionalText(request, "from"));
  const std::optional<BoneNaming> to = BoneNamingOption("to", OptionalText(request, "to"));
  const std::vector<std::string> names = request.value("names", std::vector<std::string>());
  if (names.empty()) {
    std::vector<BoneNaming> columns;
    if (from) columns.push_back(*from);
    if (to && to != from) columns.push_back(*to);
    if (columns.empty()) columns.assign(std::begin(kBoneNamings), std::end(kBoneNamings));
    return {{"text", BonesTable(columns)}};
  }
  return {{"text", TranslateBoneNames(names, from, to.value_or(BoneNaming::kVrm1))}};
}

// `animconv bake INPUT -o OUTPUT [options]` (cli/bake_command.cpp).
json Bake(const json& request, Diagnostics* diagnostics) {
  const OptionValues values = ReadOptionJson(request.value("options", json()), OptionSet::kBake);
  P5BakeFileOptions options;
  ApplyBakeOptions(values.bake, values.given, &options);
  P5BakeReport report;
  KeepingDiagnostics(report.diagnostics, diagnostics, [&] {
    BakeP5File(request.at("input").get<std::string>(), request.at("output").get<std::string>(),
               options, &report);
  });
  return {{"clip", report.clip},
          {"node", report.node},
          {"frames", report.frames},
          {"vertices", report.vertices}};
}

// `animconv preview INPUT -o PAGE.html [--model MODEL] [--to ID] [options]`
// (cli/preview_command.cpp): `viewer` is the template's path, the package's own
// dist/animconv_viewer.html unless --viewer names another.
json Preview(const json& request, Diagnostics* diagnostics) {
  const OptionValues values = ReadOptionJson(request.value("options", json()), OptionSet::kConvert);
  PreviewOptions options;
  ApplyInputOptions(values.input, values.given, &options.convert);
  ApplyConvertOptions(values.convert, values.given, &options.convert);
  options.convert.to = request.value("to", std::string());
  options.model = request.value("model", std::string());
  const std::string viewer_template = ReadFile(request.at("viewer").get<std::string>());
  PreviewReport report;
  KeepingDiagnostics(report.convert.diagnostics, diagnostics, [&] {
    PreviewFile(request.at("input").get<std::string>(), request.at("output").get<std::string>(),
                viewer_template, options, &report);
  });
  return {{"input_format", std::string(report.convert.input_format->id)},
          {"output_format", std::string(report.convert.output_format->id)},
          {"output_name", report.output_name},
          {"show", PreviewShowId(report.show)},
          {"page_bytes", report.page_bytes}};
}

// `for_terminal`: names, messages and diagnostics escaped (EscapeForTerminal), as the npm CLI
// prints them while the batch runs and the module cannot be asked to escape them.
json BatchResultJson(const BatchResult& result, bool for_terminal) {
  const auto text = [for_terminal](const std::string& raw) {
    return for_terminal ? EscapeForTerminal(raw) : raw;
  };
  Diagnostics diagnostics = result.diagnostics;
  for (Diagnostic& diagnostic : diagnostics) diagnostic.text = text(diagnostic.text);
  return {{"input", text(result.item.input)},
          {"output", text(result.item.output)},
          {"status", BatchStatusName(result.status)},
          {"message", text(result.message)},
          {"exit_code", result.exit_code},
          {"input_bytes", result.input_bytes},
          {"output_bytes", result.output_bytes},
          {"diagnostics", DiagnosticsJson(diagnostics)}};
}

// `animconv batch INPUT... -o OUTDIR --to FORMAT [options]` (cli/batch_command.cpp), one file at
// a time: the module has no threads, so `jobs` is not used (the outputs are the same). After
// each file the page or npm CLI hears of it (ReportBatchProgress) and may ask to stop
// (BatchStopRequested): no new file is started then, as after the CLI's first Ctrl-C.
BatchOptions ReadBatchOptions(const json& request) {
  const OptionValues values = ReadOptionJson(request.value("options", json()), OptionSet::kConvert);
  BatchOptions options;
  if (request.contains("jobs")) {  // checked as the CLI checks it, though one file runs at a time
    ParseIntegerText("jobs", request.at("jobs").get<std::string>(), INT_MIN, INT_MAX);
  }
  options.inputs = request.value("inputs", std::vector<std::string>());
  options.output_dir = request.value("output_dir", std::string());
  options.to = request.value("to", std::string());
  options.jobs = 1;
  options.overwrite = request.value("overwrite", false);
  options.skip_existing = request.value("skip_existing", false);
  ApplyInputOptions(values.input, values.given, &options.convert);
  ApplyConvertOptions(values.convert, values.given, &options.convert);
  return options;
}

json Batch(const json& request) {
  const BatchOptions options = ReadBatchOptions(request);
  const std::vector<BatchItem> plan = PlanBatch(options);
  std::atomic<bool> stop{false};
  const bool for_terminal = request.value("for_terminal", false);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed_seconds = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  size_t done = 0;
  size_t failed = 0;
  // Each file's result with the lines the CLI prints after it (pipeline/batch_text.cpp).
  const auto progress = [&](const BatchResult& result) {
    ++done;
    if (result.status == BatchStatus::kFailed) ++failed;
    json update = BatchResultJson(result, for_terminal);
    update["file_line"] = BatchFileLine(result, done, plan.size());
    update["failed_line"] = result.status == BatchStatus::kFailed ? BatchFailedLine(result) : "";
    update["status_line"] = BatchStatusLine(done, plan.size(), failed, elapsed_seconds());
    ReportBatchProgress(update.dump(-1, ' ', false, json::error_handler_t::replace).c_str());
    if (BatchStopRequested()) stop = true;
  };
  const std::vector<BatchResult> results = ConvertBatch(plan, options, progress, &stop);
  const double wall_seconds = elapsed_seconds();
  json list = json::array();
  for (const BatchResult& result : results) {
    list.push_back(BatchResultJson(result, for_terminal));
  }
  const BatchEnd end = SummarizeBatch(results, wall_seconds);
  json reply = {{"results", list},        {"wall_seconds", wall_seconds},
                {"stopped", stop.load()}, {"problems", end.problems},
                {"summary", end.summary}, {"exit_code", stop ? 130 : end.exit_code}};
  const std::string report = request.value("report", std::string());
  if (!report.empty()) WriteFileAtomic(report, BatchReportJson(results, wall_seconds));
  return reply;
}

json Run(const json& request, Diagnostics* diagnostics) {
  const std::string command = request.at("command").get<std::string>();
  if (command == "formats") return FormatsReply();
  if (command == "convert") return Convert(request, diagnostics);
  if (command == "info") return Info(request, diagnostics);
  if (command == "diff") return Diff(request, diagnostics);
  if (command == "bones") return Bones(request);
  if (command == "bake") return Bake(request, diagnostics);
  if (command == "batch") return Batch(request);
  if (command == "preview") return Preview(request, diagnostics);
  // The npm CLI's command line, typed as Boost types it when it stores the options, before the
  // command's own checks (a missing input): {set: convert|info|diff|bake|batch|preview, options}.
  if (command == "check-options") {
    const std::string set = request.at("set").get<std::string>();
    const OptionSet option_set = set == "info"   ? OptionSet::kInfo
                                 : set == "diff" ? OptionSet::kDiff
                                 : set == "bake" ? OptionSet::kBake
                                                 : OptionSet::kConvert;
    ReadOptionJson(request.value("options", json()), option_set);
    return json::object();
  }
  if (command == "escape") {
    json texts = json::array();
    for (const json& text : request.at("texts")) {
      texts.push_back(EscapeForTerminal(text.get<std::string>()));
    }
    return {{"texts", texts}};
  }
  ThrowUsage("unknown command '" + command + "'");
}

}  // namespace
}  // namespace animconv::web

// The reply stays valid until the next call (one module instance serves one call at a time).
extern "C" ANIMCONV_API_EXPORT const char* animconv_run(const char* request_text) {
  using animconv::web::ErrorJson;
  static std::string reply;
  animconv::Diagnostics diagnostics;
  nlohmann::json out;
  try {
    const nlohmann::json request = nlohmann::json::parse(request_text);
    out = {{"ok", true}, {"result", animconv::web::Run(request, &diagnostics)}};
  } catch (const animconv::Error& error) {
    out = {{"ok", false},
           {"error", ErrorJson(error.kind(), error.source(), error.location(), error.message(),
                               error.what())}};
  } catch (const std::bad_alloc&) {
    out = {{"ok", false},
           {"error",
            ErrorJson(animconv::ErrorKind::kInternal, "", "", "out of memory", "out of memory")}};
  } catch (const std::exception& error) {
    out = {{"ok", false},
           {"error", ErrorJson(animconv::ErrorKind::kInternal, "", "", error.what(),
                               std::string("internal error: ") + error.what())}};
  }
  out["diagnostics"] = animconv::web::DiagnosticsJson(diagnostics);
  reply = out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return reply.c_str();
}
