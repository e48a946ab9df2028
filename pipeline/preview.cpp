#include "animconv/preview.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "animconv/error.h"
#include "animconv/info_report.h"
#include "animconv/io.h"
#include "animconv/summary.h"
#include "formats/common/base64.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_document.h"

namespace animconv {
namespace {

// What the page shows and which conversion makes it (docs/cli.md, "preview": the choice table).
struct PreviewPlan {
  const char* format_id = "glb";
  PreviewShow show = PreviewShow::kGltf;
  bool onto_model = false;      // convert with --skeleton MODEL
  bool embed_model = false;     // the page needs the model's own file (a .vrma or three.js clip)
  bool input_is_model = false;  // ... which is the glTF input itself
};

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string Stem(const std::string& path) {
  std::string name = BaseName(path);
  const size_t dot = name.find('.', 1);
  return dot == std::string::npos ? name : name.substr(0, dot);
}

bool IsGltfFamily(const Format* format) {
  return format && (format->id == "gltf" || format->id == "glb");
}

bool HasMeshes(const Rig& rig) {
  for (const Node& node : rig.nodes) {
    if (node.mesh) return true;
  }
  return false;
}

// A VRM model: the VRMC_vrm (1.0) or VRM (0.x) extension on the glTF document.
bool IsVrm(const LoadedAsset& model) {
  const auto* document = dynamic_cast<const GltfDocument*>(model.asset.source_document.get());
  if (!document) return false;
  const auto extensions = document->json.find("extensions");
  return extensions != document->json.end() && extensions->is_object() &&
         (extensions->contains("VRMC_vrm") || extensions->contains("VRM"));
}

// The page loads a model from its bytes alone: a glTF whose buffers or images are files beside it
// cannot come along. `bytes` is the file as read (it was read once by LoadAsset already, so its
// JSON is known to parse).
void RequireSelfContained(std::string_view bytes, const std::string& path) {
  std::string_view text = bytes;
  if (SniffGlb(bytes) && bytes.size() >= 20) {  // glTF 2.0 §4.4: the JSON chunk comes first
    uint32_t length = 0;
    for (int i = 3; i >= 0; --i) length = length << 8 | static_cast<unsigned char>(bytes[12 + i]);
    text = bytes.substr(20, length);
  }
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (!document.is_object()) return;
  for (const char* kind : {"buffers", "images"}) {
    const auto list = document.find(kind);
    if (list == document.end() || !list->is_array()) continue;
    for (const auto& entry : *list) {
      const auto uri = entry.is_object() ? entry.find("uri") : entry.end();
      if (uri == entry.end() || !uri->is_string()) continue;
      if (uri->get_ref<const std::string&>().rfind("data:", 0) == 0) continue;
      ThrowUsage(
          fmt::format("'{}' refers to the file '{}' beside it, which a preview page cannot "
                      "carry; make it one file first (animconv convert {} -o {}.glb)",
                      path, uri->get<std::string>(), path, Stem(path)));
    }
  }
}

const char* kFormatsShown = "vrma, glb, three or bvh";

PreviewPlan ChoosePlan(const LoadedAsset& input, const LoadedAsset* model, bool model_is_vrm,
                       bool skeleton_given, const std::string& to) {
  const bool input_meshes = IsGltfFamily(input.format) && HasMeshes(input.asset.rig);
  PreviewPlan plan;
  if (to.empty()) {
    if (model && model_is_vrm && !skeleton_given) {
      plan = {"vrma", PreviewShow::kVrmaOnVrm, false, true, false};
    } else if (model) {
      plan = {"glb", PreviewShow::kGltf, true, false, false};
    } else if (input_meshes) {
      plan = {"glb", PreviewShow::kGltf, false, false, false};
    } else if (HumanBoneNode(input.asset.rig, HumanBone::kHips) >= 0) {
      plan = {"vrma", PreviewShow::kVrmaOnHumanoid, false, false, false};
    } else {
      plan = {"bvh", PreviewShow::kBvh, false, false, false};
    }
    return plan;
  }
  if (to == "vrma") {
    if (model && (!model_is_vrm || skeleton_given)) {
      ThrowUsage(
          "--to vrma plays on a VRM model (three-vrm-animation) or a generated humanoid; "
          "the model is not a VRM, or --skeleton retargets onto it: leave out --to, or "
          "give --to glb");
    }
    return model ? PreviewPlan{"vrma", PreviewShow::kVrmaOnVrm, false, true, false}
                 : PreviewPlan{"vrma", PreviewShow::kVrmaOnHumanoid, false, false, false};
  }
  if (to == "glb") {
    if (!model && !input_meshes) {
      ThrowUsage(
          "--to glb: the output has no meshes to show (the input is not a glTF model); "
          "give --model MODEL.glb, or leave out --to");
    }
    return {"glb", PreviewShow::kGltf, model != nullptr, false, false};
  }
  if (to == "three") {
    if (!model && !input_meshes) {
      ThrowUsage(
          "--to three: a three.js clip plays on a model's nodes; give --model MODEL.glb "
          "(the clip is retargeted onto it), or a glTF model as the input");
    }
    return model ? PreviewPlan{"three", PreviewShow::kThreeOnModel, true, true, false}
                 : PreviewPlan{"three", PreviewShow::kThreeOnModel, false, true, true};
  }
  if (to == "bvh") {
    if (model) ThrowUsage("--to bvh plays the BVH's own skeleton; leave out --model");
    return {"bvh", PreviewShow::kBvh, false, false, false};
  }
  ThrowUsage(fmt::format("a preview shows {} output, not '{}'", kFormatsShown, to));
}

const char* Describe(PreviewShow show) {
  switch (show) {
    case PreviewShow::kGltf:
      return "played on its own meshes and skeleton by three.js GLTFLoader";
    case PreviewShow::kVrmaOnVrm:
      return "played on the VRM model by three-vrm-animation (createVRMAnimationClip)";
    case PreviewShow::kVrmaOnHumanoid:
      return "played on a generated humanoid by three-vrm-animation";
    case PreviewShow::kThreeOnModel:
      return "played on the model's nodes by three.js AnimationClip.parse";
    case PreviewShow::kBvh:
      return "played on its own skeleton by three.js BVHLoader";
  }
  return "";
}

nlohmann::json FileJson(const std::string& name, std::string_view bytes) {
  return {{"name", name}, {"base64", Base64Encode(bytes)}};
}

}  // namespace

const char* PreviewShowId(PreviewShow show) {
  switch (show) {
    case PreviewShow::kGltf:
      return "gltf";
    case PreviewShow::kVrmaOnVrm:
      return "vrma-on-vrm";
    case PreviewShow::kVrmaOnHumanoid:
      return "vrma-on-humanoid";
    case PreviewShow::kThreeOnModel:
      return "three-on-model";
    case PreviewShow::kBvh:
      return "bvh";
  }
  return "";
}

std::string RenderPreview(const std::string& input, std::string_view viewer_template,
                          const PreviewOptions& options, PreviewReport* report) {
  const size_t placeholder = viewer_template.find(kPreviewDataPlaceholder);
  if (placeholder == std::string_view::npos ||
      viewer_template.find(kPreviewDataPlaceholder, placeholder + 1) != std::string_view::npos) {
    throw Error(ErrorKind::kBadInput, "the preview viewer", "",
                fmt::format("it must hold {} once (rebuild it: "
                            "web/app/build_viewer.mjs)",
                            kPreviewDataPlaceholder));
  }
  const std::string& skeleton = options.convert.skeleton;
  if (!options.model.empty() && !skeleton.empty() && options.model != skeleton) {
    ThrowUsage(
        "--model and --skeleton name different models; --skeleton MODEL alone retargets "
        "onto MODEL and shows it");
  }
  const std::string model_path = options.model.empty() ? skeleton : options.model;
  Diagnostics* diagnostics = &report->convert.diagnostics;
  ConvertOptions convert = options.convert;
  convert.skeleton.clear();

  LoadedAsset loaded = LoadAsset(input, convert, diagnostics);
  const std::string info = InfoText(input, loaded, Summarize(loaded.asset));
  std::optional<LoadedAsset> model;
  std::string model_bytes;
  if (!model_path.empty()) {
    ConvertOptions model_options;
    model_options.max_input_bytes = convert.max_input_bytes;
    model_options.read.limits = convert.read.limits;
    model.emplace(LoadAsset(model_path, model_options, nullptr));
    if (!IsGltfFamily(model->format)) {
      ThrowUsage(fmt::format("the model '{}' is {}, not a glTF/GLB/VRM model the page can load",
                             model_path, model->format->id));
    }
  }
  const PreviewPlan plan = ChoosePlan(loaded, model ? &*model : nullptr, model && IsVrm(*model),
                                      !skeleton.empty(), options.convert.to);
  if (plan.embed_model) {
    const std::string& embedded = plan.input_is_model ? input : model_path;
    model_bytes = ReadFile(embedded, convert.max_input_bytes);
    RequireSelfContained(model_bytes, embedded);
  }
  if (plan.onto_model) convert.skeleton = model_path;
  convert.to = plan.format_id;
  report->show = plan.show;
  report->convert.output_format = FindFormat(plan.format_id);
  const std::string bytes = ConvertLoadedAsset(std::move(loaded), input, convert, &report->convert);
  report->output_name =
      Stem(input) + std::string(report->convert.output_format->extensions.front());

  nlohmann::json diagnostic_lines = nlohmann::json::array();
  for (const Diagnostic& diagnostic : report->convert.diagnostics) {
    if (diagnostic.severity == Severity::kDebug) continue;
    diagnostic_lines.push_back(
        fmt::format("{}: {}", SeverityName(diagnostic.severity), diagnostic.text));
  }
  const nlohmann::json data = {
      {"input", BaseName(input)},
      {"what", fmt::format("{} ({}) converted to {} ({}, {} bytes){}, {}", BaseName(input),
                           report->convert.input_format->id, report->output_name,
                           report->convert.output_format->id, bytes.size(),
                           plan.onto_model ? fmt::format(" onto '{}'", BaseName(model_path)) : "",
                           Describe(plan.show))},
      {"show", PreviewShowId(plan.show)},
      {"output", FileJson(report->output_name, bytes)},
      {"model", plan.embed_model
                    ? FileJson(BaseName(plan.input_is_model ? input : model_path), model_bytes)
                    : nlohmann::json(nullptr)},
      {"diagnostics", diagnostic_lines},
      {"info", info}};
  // '<' as \u003c (only strings hold one): no name from the input can close the <script> block
  // the data sits in. Invalid UTF-8 in a name becomes U+FFFD rather than an exception.
  std::string json = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string escaped;
  escaped.reserve(json.size());
  for (const char c : json) {
    if (c == '<') {
      escaped += "\\u003c";
    } else {
      escaped += c;
    }
  }
  std::string page;
  page.reserve(viewer_template.size() + escaped.size());
  page.append(viewer_template.substr(0, placeholder));
  page.append(escaped);
  page.append(viewer_template.substr(placeholder + kPreviewDataPlaceholder.size()));
  report->page_bytes = page.size();
  return page;
}

void PreviewFile(const std::string& input, const std::string& output,
                 std::string_view viewer_template, const PreviewOptions& options,
                 PreviewReport* report) {
  for (const std::string* path : {&input, &options.model, &options.convert.skeleton}) {
    if (!path->empty() && (*path == output || SameFile(*path, output))) {
      ThrowUsage(
          fmt::format("the output '{}' is an input of the preview; choose another name", output));
    }
  }
  WriteFileAtomic(output, RenderPreview(input, viewer_template, options, report));
}

}  // namespace animconv
