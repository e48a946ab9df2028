// The preview job (animconv/preview.h): which conversion a page shows, that the page holds exactly
// the bytes `convert` writes, the data block's escaping and the refusals. A one-line template
// stands in for the real viewer (web/app/test/preview_test.mjs plays real pages in Chromium).
#include "animconv/preview.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "animconv/io.h"
#include "formats/common/base64.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::ErrorKindOf;
using testing::SourcePath;
using testing::TempDir;

const std::string kTemplate = "<pre id=data>/*ANIMCONV_PREVIEW_DATA*/</pre>";

std::string Shared(const std::string& relative) {
  return std::string(ANIMCONV_SHARED_DATA_DIR) + "/" + relative;
}

// The data block of a page made from kTemplate.
nlohmann::json PageData(const std::string& page) {
  const std::string head = "<pre id=data>";
  const std::string tail = "</pre>";
  EXPECT_EQ(page.rfind(head, 0), 0u);
  EXPECT_EQ(page.substr(page.size() - tail.size()), tail);
  return nlohmann::json::parse(page.substr(head.size(), page.size() - head.size() - tail.size()));
}

std::string Decoded(const nlohmann::json& file) {
  std::string bytes;
  EXPECT_TRUE(Base64Decode(file.at("base64").get<std::string>(), &bytes));
  return bytes;
}

// What `animconv convert input -o output` writes with `options`.
std::string Converted(const std::string& input, const std::string& output_name,
                      ConvertOptions options) {
  TempDir dir;
  ConvertFile(input, dir.File(output_name), options);
  return ReadFile(dir.File(output_name));
}

struct Shown {
  nlohmann::json data;
  PreviewReport report;
};

Shown Preview(const std::string& input, const PreviewOptions& options) {
  Shown shown;
  shown.data = PageData(RenderPreview(input, kTemplate, options, &shown.report));
  return shown;
}

TEST(PreviewTest, AHumanoidClipPlaysAsTheVrmaConvertWritesOnTheGeneratedHumanoid) {
  const std::string csv = SourcePath("data/unity/walk.csv");
  const Shown shown = Preview(csv, {});
  EXPECT_EQ(shown.data["show"], "vrma-on-humanoid");
  EXPECT_EQ(shown.report.output_name, "walk.vrma");
  EXPECT_EQ(shown.data["output"]["name"], "walk.vrma");
  EXPECT_TRUE(shown.data["model"].is_null());
  EXPECT_EQ(Decoded(shown.data["output"]), Converted(csv, "walk.vrma", {}));
  EXPECT_EQ(shown.data["input"], "walk.csv");
  // The conversion's own diagnostics, as the CLI prints them, and the input's `info`.
  EXPECT_NE(shown.data["diagnostics"].dump().find("info: retargeted onto the normalised T-pose"),
            std::string::npos);
  EXPECT_NE(shown.data["info"].get<std::string>().find("unity-csv"), std::string::npos);
}

TEST(PreviewTest, AGltfModelInputPlaysAsItsOwnGlbWithTheClip) {
  const std::string gltf = SourcePath("data/gltf/morph_cube.gltf");
  const Shown shown = Preview(gltf, {});
  EXPECT_EQ(shown.data["show"], "gltf");
  EXPECT_EQ(Decoded(shown.data["output"]), Converted(gltf, "morph_cube.glb", {}));
}

TEST(PreviewTest, ConvertOptionsShapeTheConversionShown) {
  const std::string bvh = SourcePath("data/bvh/cmu_walk.bvh");
  PreviewOptions options;
  options.convert.ground = true;
  options.convert.to = "bvh";
  const Shown shown = Preview(bvh, options);
  EXPECT_EQ(shown.data["show"], "bvh");
  ConvertOptions convert;
  convert.ground = true;
  EXPECT_EQ(Decoded(shown.data["output"]), Converted(bvh, "cmu_walk.bvh", convert));
}

TEST(PreviewTest, AVrmModelPlaysTheVrmaThroughThreeVrmAnimationAndTravelsInThePage) {
  const std::string model = Shared("vrm/vrmaddon_skinned_mesh_parent_vrm1.vrm");
  if (!std::filesystem::exists(model)) GTEST_SKIP() << model << " is absent";
  const std::string csv = SourcePath("data/unity/walk.csv");
  PreviewOptions options;
  options.model = model;
  const Shown shown = Preview(csv, options);
  EXPECT_EQ(shown.data["show"], "vrma-on-vrm");
  EXPECT_EQ(Decoded(shown.data["output"]), Converted(csv, "walk.vrma", {}));
  EXPECT_EQ(shown.data["model"]["name"], "vrmaddon_skinned_mesh_parent_vrm1.vrm");
  EXPECT_EQ(Decoded(shown.data["model"]), ReadFile(model));
  // --skeleton retargets onto it instead: the page shows the model's glb with the clip.
  options.model.clear();
  options.convert.skeleton = model;
  const Shown onto = Preview(csv, options);
  EXPECT_EQ(onto.data["show"], "gltf");
  ConvertOptions convert;
  convert.skeleton = model;
  EXPECT_EQ(Decoded(onto.data["output"]), Converted(csv, "walk.glb", convert));
  // A three.js clip plays on the model it was retargeted onto, which comes along.
  options.convert.skeleton.clear();
  options.model = model;
  options.convert.to = "three";
  const Shown three = Preview(csv, options);
  EXPECT_EQ(three.data["show"], "three-on-model");
  EXPECT_EQ(Decoded(three.data["output"]), Converted(csv, "walk.json", convert));
  EXPECT_EQ(Decoded(three.data["model"]), ReadFile(model));
}

TEST(PreviewTest, NamesWithAngleBracketsCannotCloseTheDataBlock) {
  TempDir dir;
  const std::string odd = dir.File("walk <pre><script>x.csv");
  std::filesystem::copy_file(SourcePath("data/unity/walk.csv"), odd);
  PreviewReport report;
  const std::string page = RenderPreview(odd, kTemplate, {}, &report);
  const std::string block = page.substr(13, page.size() - 13 - 6);
  EXPECT_EQ(block.find('<'), std::string::npos);
  EXPECT_EQ(PageData(page)["input"], "walk <pre><script>x.csv");
}

TEST(PreviewTest, ChoicesTheViewerCannotPlayAreUsageErrors) {
  const std::string csv = SourcePath("data/unity/walk.csv");
  PreviewReport report;
  PreviewOptions options;
  options.convert.to = "csv";  // the viewer plays vrma, glb, three and bvh
  EXPECT_EQ(ErrorKindOf([&] { RenderPreview(csv, kTemplate, options, &report); }),
            ErrorKind::kUsage);
  options.convert.to = "glb";  // a glb of a CSV has no meshes to show
  EXPECT_EQ(ErrorKindOf([&] { RenderPreview(csv, kTemplate, options, &report); }),
            ErrorKind::kUsage);
  options.convert.to = "three";  // a three.js clip needs a model to play on
  EXPECT_EQ(ErrorKindOf([&] { RenderPreview(csv, kTemplate, options, &report); }),
            ErrorKind::kUsage);
  options.convert.to.clear();
  options.model = SourcePath("data/bvh/cmu_walk.bvh");  // not a glTF model
  EXPECT_EQ(ErrorKindOf([&] { RenderPreview(csv, kTemplate, options, &report); }),
            ErrorKind::kUsage);
  options.model = SourcePath("data/gltf/walk.glb");
  options.convert.skeleton = SourcePath("data/gltf/morph_cube.gltf");  // two different models
  EXPECT_EQ(ErrorKindOf([&] { RenderPreview(csv, kTemplate, options, &report); }),
            ErrorKind::kUsage);
}

TEST(PreviewTest, AModelWithFilesBesideItCannotTravelInThePage) {
  // morph_cube.gltf with its buffer moved out into morph_cube.bin beside it.
  TempDir dir;
  nlohmann::json gltf =
      nlohmann::json::parse(testing::ReadText(SourcePath("data/gltf/morph_cube.gltf")));
  const std::string uri = gltf["buffers"][0]["uri"].get<std::string>();
  std::string bytes;
  ASSERT_TRUE(Base64Decode(uri.substr(uri.find(',') + 1), &bytes));
  testing::WriteText(dir.File("morph_cube.bin"), bytes);
  gltf["buffers"][0]["uri"] = "morph_cube.bin";
  testing::WriteText(dir.File("morph_cube.gltf"), gltf.dump());
  PreviewOptions options;
  options.convert.to = "three";  // the three.js clip plays on the input, which must come along
  PreviewReport report;
  try {
    RenderPreview(dir.File("morph_cube.gltf"), kTemplate, options, &report);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(error.what()).find("'morph_cube.bin' beside it"), std::string::npos)
        << error.what();
  }
  // The glb the default choice writes carries its buffer inside: that one plays.
  EXPECT_EQ(PageData(RenderPreview(dir.File("morph_cube.gltf"), kTemplate, {}, &report))["show"],
            "gltf");
}

TEST(PreviewTest, ATemplateWithoutExactlyOnePlaceholderIsRefused) {
  const std::string csv = SourcePath("data/unity/walk.csv");
  PreviewReport report;
  for (const std::string& viewer : {std::string("<html></html>"), kTemplate + kTemplate}) {
    EXPECT_EQ(ErrorKindOf([&] { RenderPreview(csv, viewer, {}, &report); }), ErrorKind::kBadInput);
  }
}

TEST(PreviewTest, NothingIsWrittenOnAnErrorAndNeverOverAnInput) {
  TempDir dir;
  const std::string csv = SourcePath("data/unity/walk.csv");
  PreviewOptions options;
  options.convert.to = "csv";
  PreviewReport report;
  EXPECT_EQ(
      ErrorKindOf([&] { PreviewFile(csv, dir.File("page.html"), kTemplate, options, &report); }),
      ErrorKind::kUsage);
  EXPECT_EQ(dir.FileCount(), 0u);
  EXPECT_EQ(ErrorKindOf([&] { PreviewFile(csv, csv, kTemplate, {}, &report); }), ErrorKind::kUsage);
  PreviewFile(csv, dir.File("page.html"), kTemplate, {}, &report);
  EXPECT_EQ(ReadFile(dir.File("page.html")).size(), report.page_bytes);
}

}  // namespace
}  // namespace animconv
