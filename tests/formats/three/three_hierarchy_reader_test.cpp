#include <gtest/gtest.h>

#include <filesystem>

#include "animconv/error.h"
#include "animconv/format.h"
#include "formats/three/three_hierarchy.h"
#include "formats/three/three_json.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

Asset Read(const std::string& text) {
  ReadOptions options;
  options.source = "anim.hierarchy.json";
  return ReadThreeHierarchy(text, options);
}

// Error location and message of a read that must fail.
std::pair<std::string, std::string> ReadError(const std::string& text) {
  try {
    Read(text);
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.source(), "anim.hierarchy.json");
    return {error.location(), error.message()};
  }
  ADD_FAILURE() << "no error for " << text;
  return {};
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// parseAnimation's tracks keep numbers in Float32Arrays, and so does the reader round them.
double F32(double value) { return static_cast<float>(value); }

// A clip with one hierarchy entry per element of `entries` (JSON text of each entry's keys).
std::string ClipWithKeys(const std::vector<std::string>& entries, const std::string& extra = "") {
  std::string text = R"({"name":"a","fps":30,"length":1)" + extra + R"(,"hierarchy":[)";
  for (size_t h = 0; h < entries.size(); ++h) {
    text += (h ? "," : "") + std::string(R"({"parent":)") + std::to_string(int(h) - 1) +
            R"(,"keys":)" + entries[h] + "}";
  }
  return text + "]}";
}

Asset RiggedAsset() {
  Asset asset = MakeAsset({"hips", "eye", "Spine"});
  asset.rig.nodes[2].parent = 0;
  asset.rig.nodes[0].rest_translation = {0, 1, 0};
  asset.rig.nodes[2].rest_rotation = {0, 0, 1, 0};
  asset.rig.nodes[2].rest_scale = {2, 2, 2};
  asset.rig.rest_pose_known = true;
  // Numbers float32 holds exactly: the writer prints float32 (three.js's Float32Array).
  auto& channels = asset.clips[0].channels;
  channels.push_back(MakeChannel(0, Path::kRotation, {0, 0.25}, {0, 0, 0, 1, 0, 1, 0, 0}, 4));
  channels.push_back(MakeChannel(0, Path::kTranslation, {0.25}, {0, 1, 0}, 3));
  channels.push_back(MakeChannel(2, Path::kScale, {0, 0.5}, {1, 1, 1, 2, 2, 2}, 3));
  return asset;
}

TEST(ThreeHierarchyReaderTest, ReadsWhatTheWriterWrites) {
  const Asset source = RiggedAsset();
  const Asset asset = Read(WriteThreeHierarchy(source, {}));
  ASSERT_EQ(asset.rig.nodes.size(), 3u);
  EXPECT_TRUE(asset.rig.rest_pose_known);
  for (size_t n = 0; n < 3; ++n) {
    const Node& node = asset.rig.nodes[n];
    EXPECT_EQ(node.name, source.rig.nodes[n].name);
    EXPECT_EQ(node.parent, source.rig.nodes[n].parent);
    EXPECT_EQ(node.rest_translation, source.rig.nodes[n].rest_translation);
    EXPECT_EQ(node.rest_rotation, source.rig.nodes[n].rest_rotation);
    EXPECT_EQ(node.rest_scale, source.rig.nodes[n].rest_scale);
  }
  EXPECT_EQ(asset.rig.nodes[0].human_bone, HumanBone::kHips);
  EXPECT_EQ(asset.rig.nodes[2].human_bone, HumanBone::kSpine);
  EXPECT_EQ(asset.coordinates.handedness, Handedness::kRight);
  ASSERT_EQ(asset.clips.size(), 1u);
  const Clip& clip = asset.clips[0];
  EXPECT_EQ(clip.name, "clip");
  EXPECT_EQ(clip.duration_seconds, 0.5);
  // parseAnimation's track order per bone: position, quaternion, scale.
  ASSERT_EQ(clip.channels.size(), 3u);
  const Channel* expected[] = {&source.clips[0].channels[1], &source.clips[0].channels[0],
                               &source.clips[0].channels[2]};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(clip.channels[i].node, expected[i]->node);
    EXPECT_EQ(clip.channels[i].path, expected[i]->path);
    EXPECT_EQ(clip.channels[i].interpolation, Interpolation::kLinear);
    EXPECT_EQ(clip.channels[i].times_seconds, expected[i]->times_seconds);
    EXPECT_EQ(clip.channels[i].values, expected[i]->values);
  }
  ValidateAsset(asset, "anim.hierarchy.json");
}

TEST(ThreeHierarchyReaderTest, Vrm1ThumbNamesShiftTheThumbs) {
  const std::string keys = R"([{"time":0,"rot":[0,0,0,1]}])";
  auto bones = [](const std::string& first, const std::string& second) {
    return R"(,"bones":[{"name":")" + first + R"(","parent":-1},{"name":")" + second +
           R"(","parent":0}])";
  };
  const Asset vrm1 =
      Read(ClipWithKeys({keys, keys}, bones("leftThumbMetacarpal", "leftThumbProximal")));
  EXPECT_EQ(vrm1.rig.nodes[0].human_bone, HumanBone::kLeftThumbProximal);
  EXPECT_EQ(vrm1.rig.nodes[1].human_bone, HumanBone::kLeftThumbIntermediate);
  const Asset vrm0 =
      Read(ClipWithKeys({keys, keys}, bones("leftThumbProximal", "leftThumbIntermediate")));
  EXPECT_EQ(vrm0.rig.nodes[0].human_bone, HumanBone::kLeftThumbProximal);
  EXPECT_EQ(vrm0.rig.nodes[1].human_bone, HumanBone::kLeftThumbIntermediate);
}

TEST(ThreeHierarchyReaderTest, WithoutBonesNodesAreNumberedAndParentsComeFromTheHierarchy) {
  const Asset asset = Read(
      ClipWithKeys({R"([{"time":0,"rot":[0,0,0,1]}])", "[]", R"([{"time":0,"pos":[1,2,3]}])"}));
  ASSERT_EQ(asset.rig.nodes.size(), 3u);
  EXPECT_EQ(asset.rig.nodes[0].name, "bone_0");
  EXPECT_EQ(asset.rig.nodes[1].name, "bone_1");  // no keys, but the index is kept
  EXPECT_EQ(asset.rig.nodes[2].name, "bone_2");
  EXPECT_EQ(asset.rig.nodes[1].parent, 0);
  EXPECT_EQ(asset.rig.nodes[2].parent, 1);
  EXPECT_FALSE(asset.rig.rest_pose_known);
  EXPECT_FALSE(asset.rig.three_object_names);  // made up here, not the skeleton's
  ASSERT_EQ(asset.clips[0].channels.size(), 2u);
  EXPECT_EQ(asset.clips[0].channels[1].node, 2);
  ValidateAsset(asset, "anim.hierarchy.json");
}

TEST(ThreeHierarchyReaderTest, EachPropertyKeepsItsOwnKeys) {
  const Asset asset = Read(ClipWithKeys({R"([
      {"time":0,"pos":[0,0,0],"rot":[0,0,0,1]},
      {"time":0.5,"rot":[0,0.6,0,0.8]},
      {"time":1,"pos":[1,0,0],"scl":[2,2,2]}])"}));
  const auto& channels = asset.clips[0].channels;
  ASSERT_EQ(channels.size(), 3u);
  EXPECT_EQ(channels[0].path, Path::kTranslation);
  EXPECT_EQ(channels[0].times_seconds, (std::vector<double>{0, 1}));
  EXPECT_EQ(channels[1].path, Path::kRotation);
  EXPECT_EQ(channels[1].times_seconds, (std::vector<double>{0, 0.5}));
  EXPECT_EQ(channels[1].values, (std::vector<double>{0, 0, 0, 1, 0, F32(0.6), 0, F32(0.8)}));
  EXPECT_EQ(channels[2].path, Path::kScale);
  EXPECT_EQ(channels[2].times_seconds, (std::vector<double>{1}));
}

// parseAnimation hands blendMode to the clip: an additive clip (2501) was read as a normal one and
// played 90° off (review of session 35). Refused, as the three reader refuses it; 2500 is read.
TEST(ThreeHierarchyReaderTest, AnAdditiveClipIsRefused) {
  const auto [location, message] =
      ReadError(ClipWithKeys({R"([{"time":0,"rot":[0,0,0,1]}])"}, R"(,"blendMode":2501)"));
  EXPECT_EQ(location, "/blendMode");
  EXPECT_TRUE(Contains(message, "clip 'a' is additive (blendMode 2501)")) << message;
  EXPECT_EQ(
      Read(ClipWithKeys({R"([{"time":0,"rot":[0,0,0,1]}])"}, R"(,"blendMode":2500)")).clips.size(),
      1u);
}

TEST(ThreeHierarchyReaderTest, NameAndLengthDefaults) {
  // `animation.name || 'default'`, `animation.length || -1`.
  const std::string keys = R"({"keys":[{"time":0.5,"rot":[0,0,0,1]}]})";
  Asset asset = Read(R"({"hierarchy":[)" + keys + "]}");
  EXPECT_EQ(asset.clips[0].name, "default");
  EXPECT_EQ(asset.clips[0].duration_seconds, std::nullopt);
  asset = Read(R"({"name":"","length":0,"hierarchy":[)" + keys + "]}");
  EXPECT_EQ(asset.clips[0].name, "default");
  EXPECT_EQ(asset.clips[0].duration_seconds, std::nullopt);
  asset = Read(R"({"name":"idle","length":2,"fps":24,"hierarchy":[)" + keys + "]}");
  EXPECT_EQ(asset.clips[0].name, "idle");
  EXPECT_EQ(asset.clips[0].duration_seconds, 2.0);
  // Times are seconds as given: parseAnimation does not scale them by fps (three.js <= r184
  // AnimationClip.parseAnimation).
  EXPECT_EQ(asset.clips[0].channels[0].times_seconds, (std::vector<double>{0.5}));
}

// parseAnimation gives the clip `length` as its duration; keys after it are cut off there.
TEST(ThreeHierarchyReaderTest, KeysAfterTheLengthAreCutOffThere) {
  const Asset asset = Read(R"({"name":"a","length":1.5,"hierarchy":[{"parent":-1,"keys":[
      {"time":0,"pos":[0,0,0]},{"time":1,"pos":[1,0,0]},{"time":2,"pos":[3,0,0]}]}]})");
  ASSERT_EQ(asset.clips[0].channels.size(), 1u);
  EXPECT_EQ(asset.clips[0].channels[0].times_seconds, (std::vector<double>{0, 1, 1.5}));
  EXPECT_EQ(asset.clips[0].channels[0].values, (std::vector<double>{0, 0, 0, 1, 0, 0, 2, 0, 0}));
  EXPECT_EQ(asset.clips[0].duration_seconds, 1.5);
}

TEST(ThreeHierarchyReaderTest, NotesTimesThatLookLikeMilliseconds) {
  WriteOptions options;
  options.hierarchy_time_unit = TimeUnit::kMilliseconds;
  Asset source = RiggedAsset();
  source.clips[0].channels[0].times_seconds = {0, 0.2};
  source.clips[0].channels.resize(1);
  const Asset asset = Read(WriteThreeHierarchy(source, options));
  EXPECT_EQ(asset.clips[0].channels[0].times_seconds, (std::vector<double>{0, 200}));
  ASSERT_EQ(asset.notes.size(), 1u);
  EXPECT_TRUE(Contains(asset.notes[0], "look like milliseconds")) << asset.notes[0];
  EXPECT_TRUE(Read(WriteThreeHierarchy(source, {})).notes.empty());
}

TEST(ThreeHierarchyReaderTest, RefusesMorphTargetKeys) {
  const auto [location, message] =
      ReadError(ClipWithKeys({R"([{"time":0,"morphTargets":["a"]}])"}));
  EXPECT_EQ(location, "/hierarchy/0/keys/0/morphTargets");
  EXPECT_EQ(message,
            "morph target keys are not supported: three.js's own parseAnimation throws on them "
            "when a track's first key has them");
}

// parseAnimation (three.js r125) looks for morphTargets on a track's first key only; on a later
// key it is ignored and the bone's keys play. It used to be refused wherever it was.
TEST(ThreeHierarchyReaderTest, MorphTargetsOnALaterKeyAreIgnoredAsThreeJsDoes) {
  const Asset asset = Read(ClipWithKeys(
      {R"([{"time":0,"pos":[0,0,0]},{"time":1,"pos":[1,0,0],"morphTargets":["a"]}])"}));
  ASSERT_EQ(asset.clips[0].channels.size(), 1u);
  EXPECT_EQ(asset.clips[0].channels[0].path, Path::kTranslation);
  EXPECT_EQ(asset.clips[0].channels[0].values, (std::vector<double>{0, 0, 0, 1, 0, 0}));
}

TEST(ThreeHierarchyReaderTest, RefusesBadKeys) {
  auto [location, message] = ReadError(ClipWithKeys({R"([{"time":0,"rot":[0,0,1]}])"}));
  EXPECT_EQ(location, "/hierarchy/0/keys/0/rot");
  EXPECT_EQ(message, "expected an array of 4 numbers, found 3 elements");
  std::tie(location, message) = ReadError(ClipWithKeys({R"([{"time":0,"rot":[0,0,0,0]}])"}));
  EXPECT_EQ(location, "/hierarchy/0/keys/0/rot");
  EXPECT_EQ(message, "the zero quaternion is no rotation");
  std::tie(location, message) =
      ReadError(ClipWithKeys({R"([{"time":0.5,"pos":[0,0,0]},{"time":0.5,"pos":[1,1,1]}])"}));
  EXPECT_EQ(location, "/hierarchy/0/keys/1/time");
  EXPECT_EQ(message, "'pos' key at 0.5 s: expected times >= 0 and after the previous 'pos' key's");
  std::tie(location, message) = ReadError(ClipWithKeys({R"([{"pos":[0,0,0]}])"}));
  EXPECT_EQ(location, "/hierarchy/0/keys/0");
  std::tie(location, message) = ReadError(ClipWithKeys({R"([{"time":0,"scl":[1,null,1]}])"}));
  EXPECT_EQ(location, "/hierarchy/0/keys/0/scl/1");
  EXPECT_EQ(ReadError(ClipWithKeys({"[3]"})).first, "/hierarchy/0/keys/0");
  EXPECT_EQ(ReadError(ClipWithKeys({R"({"time":0})"})).first, "/hierarchy/0/keys");
}

TEST(ThreeHierarchyReaderTest, RefusesAClipWithoutKeys) {
  // parseAnimation returns null for it.
  const auto [location, message] = ReadError(ClipWithKeys({"[]", R"([{"time":0}])"}));
  EXPECT_EQ(location, "/hierarchy");
  EXPECT_TRUE(Contains(message, "no key with pos, rot or scl")) << message;
  EXPECT_EQ(ReadError(R"({"name":"a"})").first, "");
  EXPECT_EQ(ReadError(R"({"hierarchy":{}})").first, "/hierarchy");
  EXPECT_EQ(ReadError("[]").first, "");
}

TEST(ThreeHierarchyReaderTest, EntriesPairWithBoneRecordsByIndex) {
  const std::string bones = R"(,"bones":[{"name":"root","parent":-1}])";
  auto [location, message] = ReadError(
      ClipWithKeys({R"([{"time":0,"rot":[0,0,0,1]}])", R"([{"time":0,"rot":[0,0,0,1]}])"}, bones));
  EXPECT_EQ(location, "/hierarchy/1");
  EXPECT_EQ(message,
            "hierarchy entry 1 has keys but 'bones' has 1 record(s); parseAnimation "
            "pairs entry h with bones[h]");
  // An entry without keys beyond the records is skipped, as in three.js.
  EXPECT_EQ(Read(ClipWithKeys({R"([{"time":0,"rot":[0,0,0,1]}])", "[]"}, bones)).rig.nodes.size(),
            1u);
  // Bone records without a pose: names only, rest pose unknown.
  EXPECT_FALSE(Read(ClipWithKeys({R"([{"time":0,"rot":[0,0,0,1]}])"}, bones)).rig.rest_pose_known);
}

TEST(ThreeHierarchyReaderTest, RefusesBadBoneRecordsAndParents) {
  const std::string keys = R"([{"time":0,"rot":[0,0,0,1]}])";
  EXPECT_EQ(ReadError(ClipWithKeys({keys}, R"(,"bones":[{"parent":-1}])")).first, "/bones/0/name");
  EXPECT_EQ(ReadError(ClipWithKeys({keys}, R"(,"bones":[{"name":"a","parent":0}])")).first,
            "/bones/0/parent");
  EXPECT_EQ(ReadError(ClipWithKeys({keys}, R"(,"bones":[{"name":"a","parent":1.5}])")).first,
            "/bones/0/parent");
  EXPECT_EQ(ReadError(ClipWithKeys({keys}, R"(,"bones":[{"name":"a","rotq":[0,0,0]}])")).first,
            "/bones/0/rotq");
  EXPECT_EQ(ReadError(ClipWithKeys({keys}, R"(,"bones":{})")).first, "/bones");
  const auto [location, message] = ReadError(R"({"hierarchy":[{"parent":5,"keys":[]}]})");
  EXPECT_EQ(location, "/hierarchy/0/parent");
  EXPECT_EQ(message, "parent 5 of bone 0: expected -1 or the index of another of the 1 bones");
}

// A record's parent past the record count is known to be one only at the end of the array
// (ThreeBoneRecordsSink): it is still refused, before any later record's fault and before a later
// field of its own record (fuzz_three_hierarchy found the first refusal missing: its index then
// read past the parents).
TEST(ThreeHierarchyReaderTest, RefusesARecordParentPastTheRecordCount) {
  const std::string keys = R"([{"time":0,"rot":[0,0,0,1]}])";
  const auto [location, message] =
      ReadError(ClipWithKeys({keys}, R"(,"bones":[{"name":"a"},{"name":"b","parent":7}])"));
  EXPECT_EQ(location, "/bones/1/parent");
  EXPECT_EQ(message, "parent 7 of bone 1: expected -1 or the index of another of the 2 bones");
  EXPECT_EQ(
      ReadError(ClipWithKeys({keys}, R"(,"bones":[{"name":"a","parent":2},{"name":5}])")).first,
      "/bones/0/parent");
  EXPECT_EQ(
      ReadError(ClipWithKeys({keys}, R"(,"bones":[{"name":"a","parent":3,"pos":[0]},{"name":5}])"))
          .first,
      "/bones/0/parent");
  EXPECT_EQ(
      ReadError(ClipWithKeys({keys}, R"(,"bones":[{"name":"a","pos":[0]},{"name":"b"}])")).first,
      "/bones/0/pos");
}

TEST(ThreeHierarchyReaderTest, ParentCyclesAreLocatedWhereTheParentIsGiven) {
  const auto [location, message] =
      ReadError(R"({"hierarchy":[{"parent":1,"keys":[{"time":0,"rot":[0,0,0,1]}]},
                                 {"parent":0,"keys":[]}]})");
  EXPECT_EQ(location, "/hierarchy/0/parent");
  EXPECT_EQ(message, "parent 1 of bone 0 closes a parent cycle");
  // A cycle above a chain that reaches the root, in the second clip of a legacy model.
  const std::string keys = R"("keys":[{"time":0,"rot":[0,0,0,1]}])";
  const std::string animation = R"({"hierarchy":[{"parent":-1,)" + keys +
                                R"(},{"parent":0,"keys":[]},{"parent":4,"keys":[]},)" +
                                R"({"parent":2,"keys":[]},{"parent":3,"keys":[]}]})";
  EXPECT_EQ(ReadError(R"({"animations":[)" + animation + "]}").first,
            "/animations/0/hierarchy/2/parent");
  // Bone records win over hierarchy parents, and so does their pointer.
  EXPECT_EQ(ReadError(R"({"bones":[{"name":"a","parent":-1},{"name":"b","parent":2},)"
                      R"({"name":"c","parent":1}],"animation":{"hierarchy":[{)" +
                      keys + "}]}}")
                .first,
            "/bones/1/parent");
}

// The keys are read while the document is parsed (ThreeHierarchyKeysSink), but a file with
// several faults reports the one the checks meet first, whatever the order of the text.
TEST(ThreeHierarchyReaderTest, ReportsTheFirstFaultInTheOrderOfTheChecks) {
  // Every key an object without morphTargets, before any property's keys.
  EXPECT_EQ(
      ReadError(ClipWithKeys({R"([{"time":0,"rot":[0,0,0,0]},{"time":1,"pos":"x"},5])"})),
      std::make_pair(std::string("/hierarchy/0/keys/2"),
                     std::string("expected a key object {time, pos, rot, scl}, found number")));
  // Then all pos keys, then rot, then scl.
  EXPECT_EQ(ReadError(ClipWithKeys({R"([{"time":0,"rot":[0,0,0,0]},{"time":1,"pos":"x"}])"})),
            std::make_pair(std::string("/hierarchy/0/keys/1/pos"),
                           std::string("expected an array of 3 numbers, found string")));
  EXPECT_EQ(ReadError(ClipWithKeys({R"([{"time":0,"scl":[1]},{"time":1,"rot":[0,0,0,0]}])"})).first,
            "/hierarchy/0/keys/1/rot");
  // A number before the components that are no numbers, as ReadNumbers checks them.
  EXPECT_EQ(ReadError(ClipWithKeys({R"([{"time":0,"pos":[1e39,"a",0]}])"})),
            std::make_pair(std::string("/hierarchy/0/keys/0/pos/1"),
                           std::string("expected a number, found string")));
  // The clip's members, and the bone records, before its entries, wherever the text puts them.
  EXPECT_EQ(ReadError(R"({"hierarchy":[{"keys":[{"time":0,"pos":"x"}]}],"name":5})").first,
            "/name");
  EXPECT_EQ(ReadError(R"({"hierarchy":[{"keys":[{"time":0,"pos":"x"}]}],"length":"1"})").first,
            "/length");
  EXPECT_EQ(
      ReadError(R"({"hierarchy":[{"keys":[{"time":0,"pos":"x"}]}],"bones":[{"name":3}]})").first,
      "/bones/0/name");
  // An earlier entry's fault before a later one's; an entry's parent before its keys.
  EXPECT_EQ(ReadError(ClipWithKeys({R"([{"time":0,"pos":"x"}])", R"([{"pos":[0,0,0]}])"})).first,
            "/hierarchy/0/keys/0/pos");
  EXPECT_EQ(ReadError(R"({"hierarchy":[{"keys":[{"time":0,"pos":"x"}],"parent":7}]})").first,
            "/hierarchy/0/parent");
  // The key count before any key.
  ReadOptions options;
  options.source = "anim.hierarchy.json";
  options.limits.keys_per_channel = 1;
  try {
    ReadThreeHierarchy(ClipWithKeys({R"([{"time":0,"pos":[0,0,0]},{"time":1,"pos":"x"}])"}),
                       options);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.location(), "/hierarchy/0/keys");
    EXPECT_EQ(error.message(), "2 keys, more than the limit of 1");
  }
  // A syntax error anywhere before any of them.
  EXPECT_EQ(ReadError(R"({"hierarchy":[{"keys":[{"time":0,"pos":"x"}]}],"name":5 x})").first,
            "1:57");
}

TEST(ThreeHierarchyReaderTest, EntriesAndBonesPastARefusedOneAreNotKeptAndChangeNoError) {
  // The parser stops keeping at the first entry or bone record the reader refuses
  // (ThreeHierarchyEntriesSink, HierarchyArrayPolicy); the counts the reader checks against are
  // still the file's: entry 0's parent 5 and bone 0's parent 3 are in range of the arrays as
  // written.
  EXPECT_EQ(ReadError(R"({"hierarchy":[{"parent":5},1,{},{},{},{},{"keys":[]}]})"),
            std::make_pair(std::string("/hierarchy/1"),
                           std::string("expected a bone track {parent, keys}, found number")));
  EXPECT_EQ(ReadError(R"({"bones":[{"name":"a","parent":3},{"name":"b"},{"name":7},{"name":"c"}],)"
                      R"("hierarchy":[{"keys":[{"time":0,"pos":[0,0,0]}]}]})"),
            std::make_pair(std::string("/bones/2/name"),
                           std::string("expected the bone's name as a string")));
  EXPECT_EQ(ReadError(R"({"animations":[{"hierarchy":[{"keys":[{"time":0,"pos":[0,0,0]}]}]},)"
                      R"({"name":"x"},{},{}]})"),
            std::make_pair(std::string("/animations/1"),
                           std::string("expected a 'hierarchy' array of bone tracks")));
}

TEST(ThreeHierarchyReaderTest, ARepeatedMemberKeepsItsLastValue) {
  // As nlohmann's tree kept it, for a key's members, an entry's keys and a clip's hierarchy.
  Asset asset =
      Read(R"({"hierarchy":[{"keys":[{"time":5,"pos":[9,9,9]}],"keys":[{"time":0,"time":0.5,)"
           R"("pos":[1,2,3],"pos":[4,5,6]}]}]})");
  ASSERT_EQ(asset.clips[0].channels.size(), 1u);
  EXPECT_EQ(asset.clips[0].channels[0].times_seconds, std::vector<double>{0.5});
  EXPECT_EQ(asset.clips[0].channels[0].values, (std::vector<double>{4, 5, 6}));
  EXPECT_EQ(ReadError(R"({"hierarchy":[{"keys":[{"time":0,"pos":[1,2,3]}],"keys":5}]})"),
            std::make_pair(std::string("/hierarchy/0/keys"),
                           std::string("expected an array, found number")));
  asset = Read(R"({"hierarchy":[{"keys":[{"time":0,"pos":[1,2,3]}]},{"keys":[]}],)"
               R"("hierarchy":[{"keys":[{"time":0,"rot":[0,0,0,1]}]}]})");
  ASSERT_EQ(asset.clips[0].channels.size(), 1u);
  EXPECT_EQ(asset.clips[0].channels[0].path, Path::kRotation);
  EXPECT_EQ(asset.rig.nodes.size(), 1u);
  // A key whose later `pos` is null has no pos (null is "not given").
  EXPECT_EQ(ReadError(ClipWithKeys({R"([{"time":0,"pos":[1,2,3],"pos":null}])"})).first,
            "/hierarchy");
}

TEST(ThreeHierarchyReaderTest, SyntaxErrorsGiveLineAndColumn) {
  const auto [location, message] = ReadError("{\"hierarchy\":[\n  {\"keys\":[}]}");
  EXPECT_EQ(location, "2:12");
  EXPECT_TRUE(Contains(message, "invalid JSON")) << message;
}

TEST(ThreeHierarchyReaderTest, Sniffs) {
  EXPECT_TRUE(SniffThreeHierarchy(WriteThreeHierarchy(RiggedAsset(), {})));
  EXPECT_TRUE(SniffThreeHierarchy(R"({"bones":[],"animation":{}})"));
  EXPECT_TRUE(SniffThreeHierarchy(R"({"metadata":{},"bones":[],"animations":[{"hierarchy":[]}]})"));
  EXPECT_FALSE(SniffThreeHierarchy(R"({"bones":[]})"));
  EXPECT_FALSE(SniffThreeHierarchy(R"({"tracks":[],"x":{"hierarchy":[]}})"));
  EXPECT_FALSE(SniffThreeHierarchy(R"([{"hierarchy":[]}])"));
  EXPECT_FALSE(SniffThreeJson(WriteThreeHierarchy(RiggedAsset(), {})));
  EXPECT_EQ(DetectInputFormat("a.json", WriteThreeHierarchy(RiggedAsset(), {}), "").id,
            "three-hierarchy");
}

// --- Legacy three.js JSON models (shared/data) ---

const std::filesystem::path kLegacy = ANIMCONV_SOURCE_DIR "/../shared/data/threejs/legacy";

TEST(ThreeHierarchyReaderTest, ReadsTheLegacySkinnedModel) {
  const std::filesystem::path file = kLegacy / "threejs_skinned_simple.js";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is absent";
  const std::string text = testing::ReadText(file.string());
  ASSERT_TRUE(SniffThreeHierarchy(text));
  ASSERT_FALSE(SniffThreeJson(text));
  const Asset asset = Read(text);
  ASSERT_EQ(asset.rig.nodes.size(), 2u);
  EXPECT_EQ(asset.rig.nodes[0].name, "leg.R");
  EXPECT_EQ(asset.rig.nodes[1].name, "leg.L");
  EXPECT_TRUE(asset.rig.rest_pose_known);
  EXPECT_EQ(asset.rig.nodes[0].rest_translation, (Vec3{-1.24994, 0.43791, 0.191651}));
  EXPECT_EQ(asset.rig.nodes[1].rest_rotation,
            (Quat{-0.00523507, -0.706875, -0.707296, -0.00579363}));
  // The bone records say both legs are roots; the hierarchy says leg.L's parent is leg.R.
  EXPECT_EQ(asset.rig.nodes[1].parent, -1);
  ASSERT_EQ(asset.notes.size(), 1u);
  EXPECT_TRUE(Contains(asset.notes[0], "/animations/0/hierarchy/1/parent is 0")) << asset.notes[0];
  ASSERT_EQ(asset.clips.size(), 1u);
  const Clip& clip = asset.clips[0];
  EXPECT_EQ(clip.name, "ArmatureAction");
  EXPECT_EQ(clip.duration_seconds, 0.416667);
  ASSERT_EQ(clip.channels.size(), 6u);
  for (const Channel& channel : clip.channels) {
    EXPECT_EQ(channel.key_count(), 11u);
    EXPECT_EQ(channel.times_seconds.back(), F32(0.416667));
  }
  EXPECT_EQ(clip.channels[1].values[0], F32(-0.00643926));  // leg.R's first `rot`
  ValidateAsset(asset, file.string());
  // The bones' own names, which parseAnimation binds: a three.js clip of them keeps them (it
  // wrote 'legR.quaternion', which binds nothing in the model the file describes).
  EXPECT_TRUE(asset.rig.three_object_names);
  EXPECT_NE(WriteThreeJson(asset, {}).find(R"("name":"leg.R.quaternion")"), std::string::npos);
}

TEST(ThreeHierarchyReaderTest, MorphSequenceModelIsNeitherFormat) {
  const std::filesystem::path file = kLegacy / "threejs_animated_sittingBox_morphseq.js";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is absent";
  const std::string text = testing::ReadText(file.string());
  EXPECT_FALSE(SniffThreeHierarchy(text));
  EXPECT_FALSE(SniffThreeJson(text));
  EXPECT_EQ(ReadError(text).first, "");
}

}  // namespace
}  // namespace animconv
