// The WebAssembly module's one entry point (docs/web.md): a JSON request naming a command and
// files in emscripten's in-memory file system (web/index.js puts them there), a JSON reply.
// Each command is the CLI's (cli/*_command.cpp) without Boost: the same option mapping
// (animconv/option_values.h) and the same pipeline calls, so the outputs are the CLI's bytes.
#include <emscripten/emscripten.h>

#include <new>
#include <nlohmann/json.hpp>
#include <string>

#include "animconv/convert.h"
#include "animconv/diff_job.h"
#include "animconv/error.h"
#include "animconv/format.h"
#include "animconv/info_report.h"
#include "animconv/summary.h"
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
  return {{"formats", list}};
}

// `animconv convert INPUT -o OUTPUT [--to ID] [options]` (cli/convert_command.cpp).
json Convert(const json& request, Diagnostics* diagnostics) {
  const OptionValues values = ReadOptionJson(request.value("options", json()), OptionSet::kConvert);
  ConvertOptions options;
  ApplyInputOptions(values.input, values.given, &options);
  options.to = request.value("to", std::string());
  ApplyConvertOptions(values.convert, values.given, &options);
  ConvertReport report;
  try {
    ConvertFile(request.at("input").get<std::string>(), request.at("output").get<std::string>(),
                options, &report);
  } catch (...) {
    *diagnostics = report.diagnostics;
    throw;
  }
  *diagnostics = report.diagnostics;
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
  return {{"report", json::parse(InfoJson(path, loaded, Summarize(loaded.asset)))}};
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
  return {{"report", json::parse(DiffJson(a, b, result, diff_options))}};
}

json Run(const json& request, Diagnostics* diagnostics) {
  const std::string command = request.at("command").get<std::string>();
  if (command == "formats") return FormatsReply();
  if (command == "convert") return Convert(request, diagnostics);
  if (command == "info") return Info(request, diagnostics);
  if (command == "diff") return Diff(request, diagnostics);
  ThrowUsage("unknown command '" + command + "'");
}

}  // namespace
}  // namespace animconv::web

// The reply stays valid until the next call (one module instance serves one call at a time).
extern "C" EMSCRIPTEN_KEEPALIVE const char* animconv_run(const char* request_text) {
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
