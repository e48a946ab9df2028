// `animconv preview`: one self-contained HTML page that plays what a conversion writes, from
// file:// with no server (docs/cli.md, "preview"; docs/web.md, "animconv preview"). The page is the
// viewer template web/app/build_viewer.mjs makes (three.js, three-vrm and the web page's preview
// inlined) with the converted file, the model and the reports put into its data block.
#pragma once

#include <string>
#include <string_view>

#include "animconv/convert.h"

namespace animconv {

// How the page plays the converted file (the viewer's `show`, web/app/viewer/viewer.js).
enum class PreviewShow {
  kGltf,            // a .glb with meshes: the output's own scene and clip (GLTFLoader)
  kVrmaOnVrm,       // a .vrma on the --model VRM (three-vrm-animation's createVRMAnimationClip)
  kVrmaOnHumanoid,  // a .vrma on a generated humanoid (the web page's)
  kThreeOnModel,    // a three.js clip JSON on a model's scene (AnimationClip.parse)
  kBvh,             // a .bvh on its own skeleton (BVHLoader)
};
const char* PreviewShowId(PreviewShow show);  // "gltf", "vrma-on-vrm", ...

struct PreviewOptions {
  // The conversion shown: everything `convert` takes. `convert.to` empty: chosen from the input
  // and the model (docs/cli.md, "preview"); else vrma, glb, three or bvh. `convert.skeleton` is
  // set by the preview from `model` when the choice retargets onto it.
  ConvertOptions convert;
  // --model: a VRM (VRMC_vrm or VRM 0.x) plays a .vrma through three-vrm-animation, as a VRM app
  // plays it; any other glTF model is retargeted onto (--skeleton) and played with the clip.
  std::string model;
};

struct PreviewReport {
  ConvertReport convert;  // the conversion's formats, sizes and diagnostics
  PreviewShow show = PreviewShow::kGltf;
  std::string output_name;  // the converted file's name, as the page shows it
  size_t page_bytes = 0;
};

// The one placeholder of the viewer template the page's data replaces.
inline constexpr std::string_view kPreviewDataPlaceholder = "/*ANIMCONV_PREVIEW_DATA*/";

// The page: `viewer_template` with its placeholder replaced by the data block (the converted file
// and the model in base64, the conversion's diagnostics, the input's `info` text). Errors as
// `convert` gives them, and Error(kUsage) for a choice the viewer cannot play.
std::string RenderPreview(const std::string& input, std::string_view viewer_template,
                          const PreviewOptions& options, PreviewReport* report);

// RenderPreview written atomically to `output`; nothing written on an error. Refuses to write over
// the input or the model.
void PreviewFile(const std::string& input, const std::string& output,
                 std::string_view viewer_template, const PreviewOptions& options,
                 PreviewReport* report);

}  // namespace animconv
