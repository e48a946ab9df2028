// GltfOutputJson and JsonArrayText: the writer's document member by member gives dump()'s bytes,
// refers to the source's members without copying them, and copies one only to change it.
#include "formats/gltf/gltf_output.h"

#include <gtest/gtest.h>

#include <string>

namespace animconv {
namespace {

using nlohmann::json;

// The document's text as the glTF writer assembles it (gltf_writer.cpp WriteDocumentText).
std::string Text(const GltfOutputJson& document) {
  std::string text = "{";
  document.ForEach([&](const std::string& key, const json* value, std::string_view rendered) {
    if (text.size() > 1) text += ",";
    text += json(key).dump() + ":" + (value ? value->dump() : std::string(rendered));
  });
  return text + "}";
}

TEST(JsonArrayTextTest, IsTheDumpOfTheArray) {
  const json elements = json::array({json::object(), {{"b", 1}, {"a", {0.5, -0.0, 1e-7}}}, "é", 3});
  JsonArrayText text;
  EXPECT_TRUE(text.empty());
  for (const json& element : elements) text.Append(element);
  text.AppendText(R"({"z":true})");
  EXPECT_EQ(text.size(), 5u);
  json expected = elements;
  expected.push_back({{"z", true}});
  EXPECT_EQ(text.Take(), expected.dump());
  EXPECT_EQ(text.Take(), "[]");  // taken: empty again
}

TEST(GltfOutputJsonTest, MembersInKeyOrderAsDumpWritesThem) {
  const json source = {{"nodes", {{{"name", "hips"}}}}, {"asset", {{"version", "2.0"}}}};
  GltfOutputJson document;
  for (auto it = source.begin(); it != source.end(); ++it) document.Refer(it.key(), it.value());
  JsonArrayText accessors;
  accessors.Append({{"count", 2}});
  document.SetText("accessors", accessors.Take());
  document["scene"] = 0;
  json expected = source;
  expected["accessors"] = json::array({{{"count", 2}}});
  expected["scene"] = 0;
  EXPECT_EQ(Text(document), expected.dump());
}

TEST(GltfOutputJsonTest, AReferredMemberIsCopiedOnlyToBeChanged) {
  const json source = {{"extensionsUsed", {"VRMC_vrm"}}, {"meshes", json::array()}};
  GltfOutputJson document;
  document.Refer("extensionsUsed", source["extensionsUsed"]);
  document.Refer("meshes", source["meshes"]);
  EXPECT_EQ(document.Find("meshes"), &source["meshes"]);  // the source's own value
  document["extensionsUsed"].push_back("VRMC_vrm_animation");
  EXPECT_EQ(source["extensionsUsed"], json({"VRMC_vrm"}));  // the source is never changed
  EXPECT_EQ(*document.Find("extensionsUsed"), json({"VRMC_vrm", "VRMC_vrm_animation"}));
  EXPECT_NE(document.Find("extensionsUsed"), &source["extensionsUsed"]);
  document.Erase("meshes");
  EXPECT_FALSE(document.Contains("meshes"));
  document.SetText("animations", "[]");
  EXPECT_EQ(document.Find("animations"), nullptr);  // text, not a tree
  EXPECT_TRUE(document.Contains("animations"));
}

}  // namespace
}  // namespace animconv
