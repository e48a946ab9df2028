// GltfAccessors' takes: a decoded accessor is copied while more channels will take it and moved
// into the last one, so the reader never holds an accessor twice (docs/reliability.md, "The whole
// process").
#include "formats/gltf/gltf_accessors.h"

#include <gtest/gtest.h>

#include <functional>

#include "animconv/error.h"
#include "formats/gltf/gltf_buffers.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv {
namespace {

using testing::GltfFixture;

// The bytes of every bufferView of `gltf`, as LoadBufferViews returns them.
std::vector<std::string> ViewsOf(GltfFixture& gltf) {
  std::vector<std::string> views;
  for (const nlohmann::json& view : gltf.document()["bufferViews"]) {
    views.push_back(
        gltf.binary().substr(view["byteOffset"].get<size_t>(), view["byteLength"].get<size_t>()));
  }
  return views;
}

bool ThrowsInternal(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error.kind() == ErrorKind::kInternal;
  }
  return false;
}

TEST(GltfAccessorsTest, TheLastPlannedTakeMovesTheDecodedValuesEarlierOnesCopy) {
  GltfFixture gltf;
  const size_t times = gltf.AddFloats({0, 0.5f, 1}, "SCALAR", 3);
  const GltfViewBytes views(ViewsOf(gltf));
  const GltfErrors errors("model.gltf");
  // The document as the reader holds it: its accessors and bufferViews packed (GltfLists).
  const GltfContainer container = ParseGltfContainer(gltf.document().dump(), errors);
  GltfAccessors accessors(container.json, container.lists, views, errors, 1 << 20);
  accessors.PlanTake(times);
  accessors.PlanTake(times);
  const double* decoded = accessors.Get(times).values.data();
  const std::vector<double> first = accessors.TakeValues(times);
  EXPECT_EQ(first, (std::vector<double>{0, 0.5, 1}));
  EXPECT_NE(first.data(), decoded);  // a copy: one more take is planned
  EXPECT_EQ(accessors.Get(times).values, first);
  const std::vector<double> last = accessors.TakeValues(times);
  EXPECT_EQ(last, first);
  EXPECT_EQ(last.data(), decoded);  // the cached values themselves, not decoded again
  // Past the plan nothing is left to give: an internal error, never a channel without keys.
  EXPECT_TRUE(ThrowsInternal([&] { accessors.Get(times); }));
  EXPECT_TRUE(ThrowsInternal([&] { accessors.TakeValues(times); }));
}

TEST(GltfAccessorsTest, AnUnplannedTakeIsAnInternalError) {
  GltfFixture gltf;
  const size_t times = gltf.AddFloats({0, 1}, "SCALAR", 2);
  const GltfViewBytes views(ViewsOf(gltf));
  const GltfErrors errors("model.gltf");
  // The document as the reader holds it: its accessors and bufferViews packed (GltfLists).
  const GltfContainer container = ParseGltfContainer(gltf.document().dump(), errors);
  GltfAccessors accessors(container.json, container.lists, views, errors, 1 << 20);
  EXPECT_TRUE(ThrowsInternal([&] { accessors.TakeValues(times); }));
}

}  // namespace
}  // namespace animconv
