#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "animconv/error.h"
#include "animconv/format.h"
#include "formats/three/three_json.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;

Asset Read(const std::string& text) {
  ReadOptions options;
  options.source = "clip.json";
  return ReadThreeJson(text, options);
}

// Error location and message of a read that must fail.
std::pair<std::string, std::string> ReadError(const std::string& text) {
  try {
    Read(text);
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.source(), "clip.json");
    return {error.location(), error.message()};
  }
  ADD_FAILURE() << "no error for " << text.substr(0, 200);
  return {};
}

// A clip holding `tracks` (JSON text of the track array's elements).
std::string ClipWith(const std::string& tracks) {
  return R"({"name":"c","tracks":[)" + tracks + "]}";
}

const std::string kHipsRotation =
    R"({"name":"hips.quaternion","times":[0,0.5],"values":[0,0,0,1,0,0.6,0,0.8],
      "type":"quaternion"})";

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// three.js keeps track numbers in Float32Arrays, and so does the reader round them.
double F32(double value) { return static_cast<float>(value); }

TEST(ThreeJsonReaderTest, ReadsAClipObject) {
  const Asset asset = Read(R"({"name":"walk","duration":2,"tracks":[)" + kHipsRotation + R"(,
      {"name":"Hips.position","times":[0,1],"values":[0,1,0,0,1.5,0],"type":"vector"},
      {"name":"Face.morphTargetInfluences","times":[0.25],"values":[0.5,-0.25,1.5],
       "interpolation":2300,"type":"number"}],"uuid":"u","blendMode":2500,"userData":"{}"})");
  ASSERT_EQ(asset.clips.size(), 1u);
  const Clip& clip = asset.clips[0];
  EXPECT_EQ(clip.name, "walk");
  EXPECT_EQ(clip.duration_seconds, 2.0);
  // One node per distinct name, first-seen order, no parents; humanoid bones guessed.
  ASSERT_EQ(asset.rig.nodes.size(), 3u);
  EXPECT_EQ(asset.rig.nodes[0].name, "hips");
  EXPECT_EQ(asset.rig.nodes[1].name, "Hips");
  EXPECT_EQ(asset.rig.nodes[2].name, "Face");
  EXPECT_EQ(asset.rig.nodes[0].human_bone, HumanBone::kHips);
  EXPECT_EQ(asset.rig.nodes[2].human_bone, std::nullopt);
  for (const Node& node : asset.rig.nodes) EXPECT_EQ(node.parent, -1);
  EXPECT_FALSE(asset.rig.rest_pose_known);
  EXPECT_EQ(asset.coordinates.handedness, Handedness::kRight);
  EXPECT_EQ(asset.coordinates.facing, Facing::kUnknown);
  ASSERT_EQ(clip.channels.size(), 3u);
  const Channel& rotation = clip.channels[0];
  EXPECT_EQ(rotation.path, Path::kRotation);
  EXPECT_EQ(rotation.interpolation, Interpolation::kLinear);
  EXPECT_EQ(rotation.times_seconds, (std::vector<double>{0, 0.5}));
  EXPECT_EQ(rotation.values, (std::vector<double>{0, 0, 0, 1, 0, F32(0.6), 0, F32(0.8)}));
  EXPECT_EQ(clip.channels[1].path, Path::kTranslation);
  EXPECT_EQ(clip.channels[1].node, 1);
  const Channel& weights = clip.channels[2];
  EXPECT_EQ(weights.path, Path::kWeights);
  EXPECT_EQ(weights.interpolation, Interpolation::kStep);
  EXPECT_EQ(weights.width, 3);
  EXPECT_EQ(asset.rig.nodes[2].morph_target_count, 3);
  EXPECT_TRUE(asset.rig.nodes[2].morph_target_names.empty());
  EXPECT_EQ(weights.values, (std::vector<double>{0.5, -0.25, 1.5}));
  ValidateAsset(asset, "clip.json");
}

TEST(ThreeJsonReaderTest, Vrm1ThumbNamesShiftTheThumbs) {
  auto track = [](const std::string& node) {
    return R"({"name":")" + node +
           R"(.quaternion","times":[0],"values":[0,0,0,1],"type":"quaternion"})";
  };
  // A VRM 1.0 clip: its Metacarpal makes "leftThumbProximal" the intermediate joint.
  const Asset vrm1 = Read(ClipWith(track("leftThumbProximal") + "," + track("leftThumbMetacarpal") +
                                   "," + track("hips")));
  EXPECT_EQ(vrm1.rig.nodes[0].human_bone, HumanBone::kLeftThumbIntermediate);
  EXPECT_EQ(vrm1.rig.nodes[1].human_bone, HumanBone::kLeftThumbProximal);
  EXPECT_EQ(vrm1.rig.nodes[2].human_bone, HumanBone::kHips);
  // Without one it is VRM 0.x's (and Unity's) proximal joint.
  const Asset vrm0 = Read(ClipWith(track("leftThumbProximal") + "," + track("hips")));
  EXPECT_EQ(vrm0.rig.nodes[0].human_bone, HumanBone::kLeftThumbProximal);
}

TEST(ThreeJsonReaderTest, ReadsAnAnimationLoaderArrayAndNamesUnnamedClips) {
  const Asset asset = Read("[" + ClipWith(kHipsRotation) + R"(,{"tracks":[)" + kHipsRotation +
                           R"(]},{"name":"","tracks":[]}])");
  ASSERT_EQ(asset.clips.size(), 3u);
  EXPECT_EQ(asset.clips[0].name, "c");
  EXPECT_EQ(asset.clips[1].name, "animation_1");
  EXPECT_EQ(asset.clips[2].name, "animation_2");
  EXPECT_TRUE(asset.clips[2].channels.empty());  // three.js accepts a clip without tracks
  EXPECT_EQ(asset.rig.nodes.size(), 1u);         // both clips animate the same node
}

TEST(ThreeJsonReaderTest, ReadsTheClipsOfAnObjectLoaderScene) {
  const Asset asset = Read(R"({"metadata":{"version":4.5,"type":"Object"},
      "object":{"type":"Scene","children":[{"type":"Bone","name":"hips"}]},
      "animations":[)" + ClipWith(kHipsRotation) +
                           "]}");
  ASSERT_EQ(asset.clips.size(), 1u);
  EXPECT_EQ(asset.clips[0].channels.size(), 1u);
}

TEST(ThreeJsonReaderTest, DurationRules) {
  auto duration = [](const std::string& member) {
    return Read(R"({)" + member + R"("tracks":[)" + kHipsRotation + "]}").clips[0].duration_seconds;
  };
  EXPECT_EQ(duration(""), std::nullopt);  // from the tracks
  EXPECT_EQ(duration(R"("duration":-1,)"), std::nullopt);
  EXPECT_EQ(duration(R"("duration":null,)"), std::nullopt);
  EXPECT_EQ(duration(R"("duration":0,)"), 0.0);  // kept as it is, like three.js
  EXPECT_EQ(duration(R"("duration":7.5,)"), 7.5);
}

// three.js plays a clip from 0 to its duration: keys after it are cut off there, the channel ending
// on its value at the duration (a .glb of such a clip played them: 30 degrees off after 1 s).
TEST(ThreeJsonReaderTest, KeysAfterTheDurationAreCutOffThere) {
  const std::string tracks = R"("tracks":[
      {"name":"a.position","times":[0,1,2],"values":[0,0,0, 1,0,0, 3,0,0],"type":"vector"},
      {"name":"b.position","times":[0,0.5],"values":[0,0,0, 0,2,0],"type":"vector"},
      {"name":"c.position","times":[0,2],"values":[0,0,0, 0,0,4],"type":"vector",
        "interpolation":2300}])";
  Asset asset = Read(R"({"name":"c","duration":1.5,)" + tracks + "}");
  const Clip& clip = asset.clips[0];
  EXPECT_EQ(clip.duration_seconds, 1.5);
  EXPECT_EQ(clip.channels[0].times_seconds, (std::vector<double>{0, 1, 1.5}));
  EXPECT_EQ(clip.channels[0].values, (std::vector<double>{0, 0, 0, 1, 0, 0, 2, 0, 0}));
  EXPECT_EQ(clip.channels[1].times_seconds, (std::vector<double>{0, 0.5}));  // within: as it was
  EXPECT_EQ(clip.channels[2].times_seconds, (std::vector<double>{0, 1.5}));  // step: still 0
  EXPECT_EQ(clip.channels[2].values, (std::vector<double>{0, 0, 0, 0, 0, 0}));
  ASSERT_EQ(asset.notes.size(), 1u);
  EXPECT_TRUE(Contains(asset.notes[0], "keys after its duration (1.5 s; the last at 2 s)"))
      << asset.notes[0];
  ValidateAsset(asset, "clip.json");
  // Duration 0: every channel its value at 0.
  asset = Read(R"({"name":"c","duration":0,)" + tracks + "}");
  for (const Channel& channel : asset.clips[0].channels) {
    EXPECT_EQ(channel.times_seconds, (std::vector<double>{0}));
    EXPECT_EQ(channel.values, (std::vector<double>{0, 0, 0}));
  }
  ValidateAsset(asset, "clip.json");
  // A duration at or after the last key, or none: nothing is cut.
  for (const std::string duration : {"", R"("duration":2,)", R"("duration":3,)"}) {
    asset = Read(R"({"name":"c",)" + duration + tracks + "}");
    EXPECT_EQ(asset.clips[0].channels[0].times_seconds, (std::vector<double>{0, 1, 2}));
    EXPECT_TRUE(asset.notes.empty());
  }
}

TEST(ThreeJsonReaderTest, FpsMakesTimesFrameNumbersButLeavesDuration) {
  const Asset asset = Read(R"({"fps":25,"duration":10,"tracks":[
      {"name":"n.position","times":[0,5,50],"values":[0,0,0,1,1,1,2,2,2],"type":"vector"}]})");
  EXPECT_EQ(asset.clips[0].channels[0].times_seconds,
            (std::vector<double>{0, F32(5 * (1.0 / 25)), F32(50 * (1.0 / 25))}));
  EXPECT_EQ(asset.clips[0].duration_seconds,
            10.0);  // three.js r187 AnimationClip.parse: not scaled
  ASSERT_EQ(asset.notes.size(), 1u);
  EXPECT_TRUE(Contains(asset.notes[0], "frame numbers")) << asset.notes[0];
  // `json.fps || 1`: 0 means no fps.
  EXPECT_EQ(
      Read(R"({"fps":0,"tracks":[)" + kHipsRotation + "]}").clips[0].channels[0].times_seconds,
      (std::vector<double>{0, 0.5}));
  EXPECT_EQ(ReadError(R"({"fps":-30,"tracks":[]})").first, "/fps");
  EXPECT_EQ(ReadError(R"({"fps":"30","tracks":[]})").first, "/fps");
}

TEST(ThreeJsonReaderTest, TypeAliasesAreCaseInsensitive) {
  const Asset asset = Read(ClipWith(R"(
      {"name":"a.position","times":[0],"values":[1,2,3],"type":"VECTOR3"},
      {"name":"b.scale","times":[0],"values":[1,2,3],"type":"Vector"},
      {"name":"c.quaternion","times":[0],"values":[0,0,0,1],"type":"QuaterNion"},
      {"name":"d.morphTargetInfluences","times":[0],"values":[1,0],"type":"Scalar"},
      {"name":"e.morphTargetInfluences","times":[0],"values":[1],"type":"double"},
      {"name":"f.morphTargetInfluences","times":[0],"values":[1],"type":"float"},
      {"name":"g.morphTargetInfluences","times":[0],"values":[1],"type":"integer"},
      {"name":"h.morphTargetInfluences","times":[0],"values":[1,1],"type":"vector2"})"));
  EXPECT_EQ(asset.clips[0].channels.size(), 8u);
  const auto [location, message] =
      ReadError(ClipWith(R"({"name":"a.position","times":[0],"values":[1,2,3],"type":"vec3"})"));
  EXPECT_EQ(location, "/tracks/0/type");
  EXPECT_TRUE(Contains(message, "'vec3'")) << message;
  EXPECT_EQ(ReadError(ClipWith(R"({"name":"a.position","times":[0],"values":[1,2,3]})")).first,
            "/tracks/0");
}

TEST(ThreeJsonReaderTest, LegacyKeysAreFlattened) {
  const Asset asset = Read(ClipWith(R"(
      {"name":"n.position","type":"vector3","keys":[
        {"time":0,"value":[1,2,3]},{"time":1},{"time":2,"value":[4,5,6]}]},
      {"name":"n.morphTargetInfluences[a]","type":"number","keys":[
        {"time":0,"value":0.5},{"time":2,"value":1}]})"));
  const Channel& position = asset.clips[0].channels[0];
  EXPECT_EQ(position.times_seconds, (std::vector<double>{0, 2}));  // the key without value skipped
  EXPECT_EQ(position.values, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(asset.clips[0].channels[1].values, (std::vector<double>{0.5, 1}));

  auto [location, message] = ReadError(ClipWith(
      R"({"name":"n.position",
        "type":"vector","keys":[{"time":0,"value":[1,2,3]},{"time":1,"value":[1,2]}]})"));
  EXPECT_EQ(location, "/tracks/0/keys/1/value");
  std::tie(location, message) = ReadError(ClipWith(
      R"({"name":"n.position",
        "type":"vector","keys":[{"time":1,"value":[1,2,3]},{"value":[1,2,3]}]})"));
  EXPECT_EQ(location, "/tracks/0/keys/1");
  EXPECT_TRUE(Contains(message, "'time'")) << message;
  std::tie(location, message) = ReadError(ClipWith(
      R"({"name":"n.position",
        "type":"vector","keys":[{"time":1,"value":[1,2,3]},{"time":1,"value":[1,2,3]}]})"));
  EXPECT_EQ(location, "/tracks/0/keys/1/time");
  EXPECT_EQ(ReadError(ClipWith(R"({"name":"n.position","type":"vector","keys":[]})")).first,
            "/tracks/0");
  EXPECT_EQ(ReadError(ClipWith(R"({"name":"n.position","type":"vector"})")).first, "/tracks/0");
}

// --- What is skipped, merged or refused ---

TEST(ThreeJsonReaderTest, SkipsTracksThatAreNotTransformsOrWeights) {
  const Asset asset = Read(ClipWith(kHipsRotation + R"(,
      {"name":"mesh.visible","times":[0],"values":[true],"type":"bool"},
      {"name":"label.text","times":[0],"values":["hi"],"type":"string"},
      {"name":"mesh.material.color","times":[0],"values":[1,0,0],"type":"color"},
      {"name":"mesh.material.opacity","times":[0,1],"values":[1,0],"type":"number"},
      {"name":"mesh.rotation","times":[0],"values":[0,1,0],"type":"vector"})"));
  EXPECT_EQ(asset.clips[0].channels.size(), 1u);
  EXPECT_EQ(asset.rig.nodes.size(), 1u);
  ASSERT_EQ(asset.notes.size(), 1u);
  EXPECT_EQ(asset.notes[0],
            "skipped 5 track(s) that are not node transforms or morph weights: mesh.visible, "
            "label.text, mesh.material.color, mesh.material.opacity, mesh.rotation");
}

TEST(ThreeJsonReaderTest, RefusesSingleComponentTransformTracks) {
  const auto [location, message] =
      ReadError(ClipWith(R"({"name":"n.position[x]","times":[0],"values":[1],"type":"number"})"));
  EXPECT_EQ(location, "/tracks/0/name");
  EXPECT_TRUE(Contains(message, "only component 'x' of position")) << message;
}

TEST(ThreeJsonReaderTest, BonesAccessorsAndDirectoriesNameTheNode) {
  const Asset asset = Read(ClipWith(R"(
      {"name":".bones[mixamorig:Hips].quaternion","times":[0],"values":[0,0,0,1],
        "type":"quaternion"},
      {"name":"Armature/Spine.quaternion","times":[0],"values":[0,0,0,1],"type":"quaternion"},
      {"name":"mixamorig:Hips.position","times":[0],"values":[0,0,0],"type":"vector"},
      {"name":".morphTargetInfluences","times":[0],"values":[1],"type":"number"})"));
  ASSERT_EQ(asset.rig.nodes.size(), 4u);
  EXPECT_EQ(asset.rig.nodes[0].name, "mixamorig:Hips");
  EXPECT_EQ(asset.rig.nodes[1].name, "Spine");
  EXPECT_EQ(asset.rig.nodes[2].name,
            "Hips");  // what three.js binds it to (three.js r187 PropertyBinding.parseTrackName)
  EXPECT_EQ(asset.rig.nodes[3].name, "");  // the mixer's root
  // The root moves every object the other tracks find (its subtree): their parent.
  for (size_t n = 0; n < 3; ++n) EXPECT_EQ(asset.rig.nodes[n].parent, 3);
  EXPECT_EQ(asset.rig.nodes[3].parent, -1);
  // The names are the objects' own: the three.js writer keeps them.
  EXPECT_TRUE(asset.rig.three_object_names);
  ValidateAsset(asset, "clip.json");
}

// `.bones[1]` is bone index 1 of the skeleton in three.js's PropertyBinding (unless a bone is
// named "1"): read as a node named "1", which was silent; now a warning with the fix. A bone
// name is no index and says nothing.
TEST(ThreeJsonReaderTest, ABoneIndexIsReadAsANameWithAWarning) {
  Diagnostics diagnostics;
  ReadOptions options;
  options.source = "clip.json";
  options.diagnostics = &diagnostics;
  const Asset asset = ReadThreeJson(ClipWith(R"(
      {"name":".bones[1].quaternion","times":[0],"values":[0,0,0,1],"type":"quaternion"},
      {"name":".bones[Hips1].quaternion","times":[0],"values":[0,0,0,1],"type":"quaternion"})"),
                                    options);
  EXPECT_EQ(asset.rig.nodes[0].name, "1");
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_NE(diagnostics[0].text.find("track '.bones[1].quaternion' names skeleton bone 1 by "
                                     "index"),
            std::string::npos)
      << diagnostics[0].text;
}

TEST(ThreeJsonReaderTest, InterpolationCodes) {
  auto interpolation = [](const std::string& type, const std::string& code) {
    const std::string values = type == "quaternion" ? "[0,0,0,1,0,0,0,1]" : "[0,0,0,1,1,1]";
    const std::string property = type == "quaternion" ? "quaternion" : "position";
    return Read(ClipWith(R"({"name":"n.)" + property + R"(","times":[0,1],"values":)" + values +
                         code + R"(,"type":")" + type + R"("})"))
        .clips[0]
        .channels[0]
        .interpolation;
  };
  EXPECT_EQ(interpolation("vector", ""), Interpolation::kLinear);
  EXPECT_EQ(interpolation("vector", R"(,"interpolation":2301)"), Interpolation::kLinear);
  EXPECT_EQ(interpolation("vector", R"(,"interpolation":null)"), Interpolation::kLinear);
  EXPECT_EQ(interpolation("vector", R"(,"interpolation":0)"), Interpolation::kLinear);
  EXPECT_EQ(interpolation("vector", R"(,"interpolation":2300)"), Interpolation::kStep);
  EXPECT_EQ(interpolation("quaternion", R"(,"interpolation":2300)"), Interpolation::kStep);
  // Quaternion tracks have no smooth interpolant: three.js plays them linear (§1.3).
  EXPECT_EQ(interpolation("quaternion", R"(,"interpolation":2302)"), Interpolation::kLinear);
  // Unknown codes fall back to the default in setInterpolation.
  EXPECT_EQ(interpolation("vector", R"(,"interpolation":2399)"), Interpolation::kLinear);

  auto [location, message] = ReadError(ClipWith(
      R"({"name":"n.position","times":[0,1],"values":[0,0,0,1,1,1],"interpolation":2302,
        "type":"vector"})"));
  EXPECT_EQ(location, "/tracks/0/interpolation");
  EXPECT_TRUE(Contains(message, "2302 (InterpolateSmooth)")) << message;
  EXPECT_TRUE(Contains(message, "resample")) << message;
  std::tie(location, message) = ReadError(ClipWith(
      R"({"name":"n.quaternion","times":[0,1],"values":[0,0,0,1,0,0,0,1],"interpolation":2303,
        "type":"quaternion"})"));
  EXPECT_EQ(location, "/tracks/0/interpolation");
  EXPECT_TRUE(Contains(message, "2303 (InterpolateBezier)")) << message;
  EXPECT_EQ(
      ReadError(ClipWith(
                    R"({"name":"n.position","times":[0],"values":[0,0,0],"interpolation":"step",
                "type":"vector"})"))
          .first,
      "/tracks/0/interpolation");
}

TEST(ThreeJsonReaderTest, TrackTypeMustFitTheProperty) {
  auto [location, message] = ReadError(ClipWith(
      R"({"name":"n.quaternion","times":[0,1],"values":[0,0,0,1,0,0,0,1],"type":"vector4"})"));
  EXPECT_EQ(location, "/tracks/0/type");
  EXPECT_TRUE(Contains(message, "component-wise")) << message;
  // Held keys look the same whichever track class holds them.
  EXPECT_EQ(Read(ClipWith(
                     R"({"name":"n.quaternion","times":[0],"values":[0,0,0,1],"interpolation":2300,
                "type":"vector"})"))
                .clips[0]
                .channels.size(),
            1u);
  std::tie(location, message) = ReadError(
      ClipWith(R"({"name":"n.position","times":[0],"values":[0,0,0],"type":"quaternion"})"));
  EXPECT_EQ(location, "/tracks/0/type");
}

TEST(ThreeJsonReaderTest, ValueSizeMustMatchTheProperty) {
  auto [location, message] = ReadError(ClipWith(
      R"({"name":"n.position","times":[0,1],"values":[0,0,0,0,1,1,1,1],"type":"vector"})"));
  EXPECT_EQ(location, "/tracks/0/values");
  EXPECT_EQ(message, "track 'n.position' has 4 values per key, expected 3 for translation");
  std::tie(location, message) = ReadError(
      ClipWith(R"({"name":"n.position","times":[0,1],"values":[0,0,0,1,1],"type":"vector"})"));
  EXPECT_EQ(location, "/tracks/0/values");
  EXPECT_EQ(message, "track 'n.position' has 5 values for 2 keys; expected a whole number per key");
  EXPECT_EQ(
      ReadError(
          ClipWith(R"({"name":"n.morphTargetInfluences","times":[0],"values":[],"type":"number"})"))
          .first,
      "/tracks/0/values");
}

TEST(ThreeJsonReaderTest, ReportsTheCubicSplineQuirk) {
  // three.js r187 src/constants.js: toJSON of a GLTFLoader CUBICSPLINE track keeps in-tangent,
  // value and out-tangent per key but drops the interpolation.
  std::string values;
  for (int i = 0; i < 24; ++i) values += (i ? "," : "") + std::to_string(i % 4 == 3 ? 1 : 0);
  auto [location, message] = ReadError(ClipWith(
      R"({"name":"n.quaternion","times":[0,1],"values":[)" + values + R"(],"type":"quaternion"})"));
  EXPECT_EQ(location, "/tracks/0/values");
  EXPECT_TRUE(Contains(message, "12 values per key where rotation needs 4: a glTF CUBICSPLINE"))
      << message;
  EXPECT_TRUE(Contains(message, "sampled")) << message;
  std::tie(location, message) = ReadError(
      ClipWith(R"({"name":"n.scale","times":[0],"values":[0,0,0,1,1,1,0,0,0],"type":"vector"})"));
  EXPECT_TRUE(Contains(message, "CUBICSPLINE")) << message;
}

TEST(ThreeJsonReaderTest, MergesPerTargetMorphTracksWithEqualTimes) {
  const Asset asset = Read(ClipWith(R"(
      {"name":"Face.morphTargetInfluences[smile]","times":[0,1],"values":[0,1],"type":"number"},
      {"name":"Face.position","times":[0],"values":[0,0,0],"type":"vector"},
      {"name":"Face.morphTargetInfluences[blink]","times":[0,1],"values":[0.5,0.25],
        "type":"number"})"));
  const Node& face = asset.rig.nodes[0];
  EXPECT_EQ(face.morph_target_count, 2);
  EXPECT_EQ(face.morph_target_names, (std::vector<std::string>{"smile", "blink"}));
  // Only the targets the clip names, in its order, not the mesh's: writers bind them by name.
  EXPECT_TRUE(face.morph_targets_partial);
  ASSERT_EQ(asset.clips[0].channels.size(), 2u);
  const Channel& weights = asset.clips[0].channels[0];  // where the first morph track was
  EXPECT_EQ(weights.path, Path::kWeights);
  EXPECT_EQ(weights.width, 2);
  EXPECT_EQ(weights.values, (std::vector<double>{0, 0.5, 1, 0.25}));
  ValidateAsset(asset, "clip.json");
}

TEST(ThreeJsonReaderTest, PerTargetMorphTracksMustShareKeys) {
  auto [location, message] = ReadError(ClipWith(R"(
      {"name":"Face.morphTargetInfluences[smile]","times":[0,1],"values":[0,1],"type":"number"},
      {"name":"Face.morphTargetInfluences[blink]","times":[0,2],"values":[0,1],"type":"number"})"));
  EXPECT_EQ(location, "/tracks/1");
  EXPECT_TRUE(Contains(message, "merge into one weights channel only when their keys match"))
      << message;
  std::tie(location, message) = ReadError(ClipWith(R"(
      {"name":"Face.morphTargetInfluences[smile]","times":[0],"values":[0],"type":"number"},
      {"name":"Face.morphTargetInfluences[smile]","times":[0],"values":[1],"type":"number"})"));
  EXPECT_EQ(location, "/tracks/1/name");
  EXPECT_TRUE(Contains(message, "a second time")) << message;
  std::tie(location, message) = ReadError(ClipWith(R"(
      {"name":"Face.morphTargetInfluences","times":[0],"values":[0,1],"type":"number"},
      {"name":"Face.morphTargetInfluences[smile]","times":[0],"values":[1],"type":"number"})"));
  EXPECT_EQ(location, "/tracks/1/name");
}

TEST(ThreeJsonReaderTest, MorphTargetsMustAgreeAcrossClips) {
  // The same targets in another order are reordered to the node's list.
  const Asset asset = Read(R"([{"tracks":[
      {"name":"F.morphTargetInfluences[a]","times":[0],"values":[1],"type":"number"},
      {"name":"F.morphTargetInfluences[b]","times":[0],"values":[2],"type":"number"}]},
    {"tracks":[
      {"name":"F.morphTargetInfluences[b]","times":[0],"values":[3],"type":"number"},
      {"name":"F.morphTargetInfluences[a]","times":[0],"values":[4],"type":"number"}]}])");
  EXPECT_EQ(asset.clips[1].channels[0].values, (std::vector<double>{4, 3}));
  auto [location, message] = ReadError(R"([{"tracks":[
      {"name":"F.morphTargetInfluences[a]","times":[0],"values":[1],"type":"number"}]},
    {"tracks":[
      {"name":"F.morphTargetInfluences[b]","times":[0],"values":[3],"type":"number"}]}])");
  EXPECT_EQ(location, "/1/tracks/0");
  EXPECT_EQ(message,
            "track 'F.morphTargetInfluences[b]' animates 1 morph target(s) of 'F' (b), but an "
            "earlier track animates 1 (a); the clip model needs the same targets in every clip");
  std::tie(location, message) = ReadError(R"([{"tracks":[
      {"name":"F.morphTargetInfluences","times":[0],"values":[1,2],"type":"number"}]},
    {"tracks":[
      {"name":"F.morphTargetInfluences","times":[0],"values":[3,4,5],"type":"number"}]}])");
  EXPECT_EQ(location, "/1/tracks/0");
}

TEST(ThreeJsonReaderTest, RefusesTwoTracksOnOneTarget) {
  const auto [location, message] = ReadError(ClipWith(kHipsRotation + "," + kHipsRotation));
  EXPECT_EQ(location, "/tracks/1/name");
  EXPECT_EQ(message,
            "track 'hips.quaternion' animates the same rotation of 'hips' as track "
            "'hips.quaternion'");
}

TEST(ThreeJsonReaderTest, RefusesAdditiveClips) {
  const auto [location, message] = ReadError(R"({"name":"breathe","blendMode":2501,"tracks":[]})");
  EXPECT_EQ(location, "/blendMode");
  EXPECT_TRUE(Contains(message, "additive")) << message;
}

// --- Keys ---

TEST(ThreeJsonReaderTest, TimesMustIncreaseStrictly) {
  // three.js's validate() lets equal times pass; the model does not.
  auto [location, message] = ReadError(ClipWith(kHipsRotation + R"(,
      {"name":"n.position","times":[0,0.5,0.5],"values":[0,0,0,1,1,1,2,2,2],"type":"vector"})"));
  EXPECT_EQ(location, "/tracks/1/times/2");
  EXPECT_EQ(message,
            "key 2 of track 'n.position' is at 0.5 s, not after key 1 at 0.5 s; expected "
            "strictly increasing times");
  std::tie(location, message) = ReadError(
      ClipWith(R"({"name":"n.position","times":[-0.5],"values":[0,0,0],"type":"vector"})"));
  EXPECT_EQ(location, "/tracks/0/times/0");
  EXPECT_TRUE(Contains(message, ">= 0")) << message;
}

TEST(ThreeJsonReaderTest, ValuesMustBeNumbers) {
  auto [location, message] = ReadError(
      ClipWith(R"({"name":"n.position","times":[0],"values":[0,null,0],"type":"vector"})"));
  EXPECT_EQ(location, "/tracks/0/values/1");
  EXPECT_EQ(message,
            "expected a number, found null (JSON.stringify writes NaN and Infinity as null)");
  std::tie(location, message) = ReadError(
      ClipWith(R"({"name":"n.position","times":["0"],"values":[0,0,0],"type":"vector"})"));
  EXPECT_EQ(location, "/tracks/0/times/0");
  EXPECT_EQ(message, "expected a number, found string");
  EXPECT_EQ(
      ReadError(ClipWith(R"({"name":"n.position","times":0,"values":[0,0,0],"type":"vector"})"))
          .first,
      "/tracks/0/times");
  EXPECT_EQ(ReadError(ClipWith(R"({"name":7,"times":[0],"values":[0,0,0],"type":"vector"})")).first,
            "/tracks/0/name");
}

TEST(ThreeJsonReaderTest, RoundsTrackNumbersToFloat32LikeThreeJs) {
  const Asset asset = Read(ClipWith(
      R"({"name":"n.position","times":[0.1],"values":[123456789012345678901234567890,3e38,-1e-400],
        "type":"vector"})"));
  const Channel& channel = asset.clips[0].channels[0];
  EXPECT_EQ(channel.times_seconds[0], 0.10000000149011612);
  EXPECT_EQ(channel.values, (std::vector<double>{F32(1.2345678901234568e29), F32(3e38), 0}));
  // Beyond float32, three.js would hold Infinity.
  const auto [location, message] = ReadError(
      ClipWith(R"({"name":"n.position","times":[0],"values":[0,1e39,0],"type":"vector"})"));
  EXPECT_EQ(location, "/tracks/0/values/1");
  EXPECT_EQ(message, "1e+39 is beyond float32's range (three.js keeps tracks in Float32Arrays)");
  // Times that are distinct doubles but one float32 are equal times in three.js.
  EXPECT_EQ(ReadError(ClipWith(
                          R"({"name":"n.position","times":[1,1.00000001],"values":[0,0,0,1,1,1],
                "type":"vector"})"))
                .first,
            "/tracks/0/times/1");
}

TEST(ThreeJsonReaderTest, RefusesZeroQuaternions) {
  const auto [location, message] = ReadError(ClipWith(
      R"({"name":"n.quaternion","times":[0,1],"values":[0,0,0,1,0,0,0,0],"type":"quaternion"})"));
  EXPECT_EQ(location, "/tracks/0/values/4");
  EXPECT_EQ(message, "key 1 of track 'n.quaternion' is the zero quaternion, which is no rotation");
}

TEST(ThreeJsonReaderTest, RefusesMalformedTracks) {
  EXPECT_EQ(
      ReadError(ClipWith(R"({"name":"n.position","times":[],"values":[],"type":"vector"})")).first,
      "/tracks/0");
  EXPECT_EQ(ReadError(ClipWith("42")).first, "/tracks/0");
  EXPECT_EQ(
      ReadError(ClipWith(R"({"name":"hips","times":[0],"values":[0],"type":"number"})")).first,
      "/tracks/0/name");
  EXPECT_EQ(ReadError(R"({"name":"c","tracks":{}})").first, "/tracks");
  EXPECT_EQ(ReadError(R"({"animations":[]})").first, "/animations");
  EXPECT_EQ(ReadError("[]").first, "");
  EXPECT_EQ(ReadError(R"({"name":"c"})").second,
            "expected a three.js AnimationClip object (with 'tracks'), an array of them, or an "
            "ObjectLoader scene with 'animations'");
  EXPECT_EQ(ReadError("[1]").first, "/0");
}

// --- Hostile JSON ---

// The tracks' key arrays are read while the document is parsed (MakeThreeTrackSink), but a file
// with several faults reports the one the checks meet first, whatever the order of the text.
TEST(ThreeJsonReaderTest, ReportsTheFirstFaultInTheOrderOfTheChecks) {
  using Failure = std::pair<std::string, std::string>;
  // The clip's members before its tracks, the track's name and type before its keys.
  EXPECT_EQ(ReadError(R"({"tracks":[{"name":"hips.position","type":"vector","times":[0,"x"],)"
                      R"("values":[0,0,0,1,1,1]}],"name":5})"),
            Failure("/name", "expected a string, found number"));
  EXPECT_EQ(
      ReadError(ClipWith(R"({"times":[0,"x"],"values":[0,0,0],"name":5,"type":"vector"})")).first,
      "/tracks/0/name");
  EXPECT_EQ(ReadError(ClipWith(R"({"times":[0,"x"],"name":"h.position","type":"vectorz"})")).first,
            "/tracks/0/type");
  // `values` must be an array before any time is read; times before values.
  EXPECT_EQ(ReadError(ClipWith(R"({"times":[0,"t"],"values":5,"name":"h.position",)"
                               R"("type":"vector"})")),
            Failure("/tracks/0/values", "expected an array, found number"));
  EXPECT_EQ(ReadError(ClipWith(R"({"values":[0,"v",0],"times":[0,"t"],"name":"h.position",)"
                               R"("type":"vector"})")),
            Failure("/tracks/0/times/1", "expected a number, found string"));
  // At the pointer of every layout.
  const std::string null_value =
      R"({"tracks":[{"name":"a.position","type":"vector","times":[0],"values":[0,null,0]}]})";
  EXPECT_EQ(ReadError("[" + ClipWith(kHipsRotation) + "," + null_value + "]"),
            Failure("/1/tracks/0/values/1",
                    "expected a number, found null (JSON.stringify writes NaN and Infinity as "
                    "null)"));
  EXPECT_EQ(ReadError(R"({"animations":[)" + null_value + "]}").first,
            "/animations/0/tracks/0/values/1");
  // Legacy keys: the first faulty key, in key order.
  EXPECT_EQ(ReadError(ClipWith(R"({"name":"h.position","type":"vector","keys":[)"
                               R"({"time":0,"value":[1,2,3]},{"time":"x","value":[1,2,3]},5]})")),
            Failure("/tracks/0/keys/1/time", "expected a number, found string"));
  // A syntax error anywhere before any of them.
  EXPECT_EQ(ReadError(R"({"tracks":[{"name":5}],"name":5 x})").first, "1:33");
}

TEST(ThreeJsonReaderTest, FpsAfterTheTracksStillScalesTheirTimes) {
  const Asset asset = Read(R"({"tracks":[{"name":"hips.position","type":"vector","times":[0,30],)"
                           R"("values":[0,0,0,1,1,1]}],"fps":30})");
  EXPECT_EQ(asset.clips[0].channels[0].times_seconds, (std::vector<double>{0, F32(1)}));
}

TEST(ThreeJsonReaderTest, ARepeatedMemberKeepsItsLastValue) {
  // As nlohmann's tree kept it: a track's times, a clip's tracks.
  Asset asset = Read(ClipWith(R"({"name":"hips.position","type":"vector","times":[5],)"
                              R"("times":[0,0.5],"values":[1,2,3,4,5,6]})"));
  EXPECT_EQ(asset.clips[0].channels[0].times_seconds, (std::vector<double>{0, F32(0.5)}));
  EXPECT_EQ(ReadError(ClipWith(R"({"name":"hips.position","type":"vector","times":[0],)"
                               R"("values":[1,2,3],"times":"x"})")),
            std::make_pair(std::string("/tracks/0/times"),
                           std::string("expected an array, found string")));
  asset = Read(R"({"tracks":[{"name":"a.position","type":"vector","times":[0],"values":[1,2,3]}],)"
               R"("tracks":[)" +
               kHipsRotation + "]}");
  ASSERT_EQ(asset.clips[0].channels.size(), 1u);
  EXPECT_EQ(asset.rig.nodes[0].name, "hips");
}

TEST(ThreeJsonReaderTest, SyntaxErrorsGiveLineAndColumn) {
  auto [location, message] = ReadError("{\"name\":\"c\",\n \"tracks\":[1,]}");
  EXPECT_EQ(location, "2:14");
  EXPECT_TRUE(Contains(message, "invalid JSON: syntax error while parsing value")) << message;
  EXPECT_FALSE(Contains(message, "json.exception")) << message;
  std::tie(location, message) = ReadError("{\"tracks\":[\n\n   1e400]}");
  EXPECT_EQ(location, "3:4");
  EXPECT_EQ(message, "the number 1e400 is out of double range");
  EXPECT_EQ(ReadError("").first, "1:1");
  EXPECT_EQ(ReadError("{\"tracks\":[\"\xFF\"]}").first, "1:13");
}

TEST(ThreeJsonReaderTest, SurvivesDeepNesting) {
  const std::string deep = std::string(200'000, '[') + std::string(200'000, ']');
  // Refused before parsing, at the bracket that opens level 513 (kMaxJsonNesting): a tree of
  // nested arrays holds some 54 bytes of heap per byte of text (fuzz/regressions/three).
  const auto outer = ReadError(deep);
  EXPECT_EQ(outer.first, "1:513");
  EXPECT_NE(outer.second.find("JSON nested deeper than 512 levels"), std::string::npos)
      << outer.second;
  EXPECT_EQ(ReadError(ClipWith(R"({"name":"n.position","times":[0],"values":)" + deep +
                               R"(,"type":"vector"})"))
                .first,
            "1:574");
  // 512 levels are read (and refused for what they hold, not for their depth).
  const std::string deepest = std::string(512, '[') + std::string(512, ']');
  EXPECT_EQ(ReadError(deepest).first, "/0");
  EXPECT_FALSE(SniffThreeJson(deep));
  EXPECT_FALSE(SniffThreeJson(std::string(200'000, '{')));
}

// --- Sniffing ---

// --- Reference data (three.js r187's own output, shared/data) ---

const std::filesystem::path kSharedData = ANIMCONV_SOURCE_DIR "/../shared/data";

// Whether the clip file has a track whose value size is 3x its property's (three.js r187
// src/constants.js).
bool HasCubicSplineQuirk(const json& clips) {
  for (const json& clip : clips) {
    for (const json& track : clip["tracks"]) {
      const size_t per_key = track["values"].size() / track["times"].size();
      const std::string type = track["type"];
      if ((type == "quaternion" && per_key == 12) || (type == "vector" && per_key == 9)) {
        return true;
      }
    }
  }
  return false;
}

// The track name a channel came from in a file whose tracks are `<node>.<property>`.
std::string TrackNameOf(const Asset& asset, const Channel& channel) {
  const char* property = channel.path == Path::kRotation      ? "quaternion"
                         : channel.path == Path::kTranslation ? "position"
                         : channel.path == Path::kScale       ? "scale"
                                                              : "morphTargetInfluences";
  return asset.rig.nodes[channel.node].name + "." + property;
}

void ExpectClipsMatchJson(const Asset& asset, const json& clips, const std::string& file) {
  ASSERT_EQ(asset.clips.size(), clips.size()) << file;
  for (size_t c = 0; c < clips.size(); ++c) {
    const Clip& clip = asset.clips[c];
    const json& expected = clips[c];
    EXPECT_EQ(clip.name, expected["name"]) << file;
    EXPECT_EQ(clip.duration_seconds, expected["duration"].get<double>()) << file;
    ASSERT_EQ(clip.channels.size(), expected["tracks"].size()) << file << " " << clip.name;
    for (size_t t = 0; t < clip.channels.size(); ++t) {
      const Channel& channel = clip.channels[t];
      const json& track = expected["tracks"][t];
      EXPECT_EQ(TrackNameOf(asset, channel), track["name"]) << file;
      EXPECT_EQ(channel.interpolation, Interpolation::kLinear) << file;
      EXPECT_EQ(channel.times_seconds, track["times"].get<std::vector<double>>()) << file;
      EXPECT_EQ(channel.values, track["values"].get<std::vector<double>>()) << file;
    }
  }
}

TEST(ThreeJsonReaderTest, ReadsAndRoundTripsThreeR187Output) {
  const std::filesystem::path folder = kSharedData / "threejs/generated-by-three-r187";
  if (!std::filesystem::exists(folder)) GTEST_SKIP() << folder << " is absent";
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string file = entry.path().string();
    const std::string text = testing::ReadText(file);
    json clips = json::parse(text);
    if (!clips.is_array()) clips = json::array({clips});  // *.clip.json: one clip object
    ++files;
    if (HasCubicSplineQuirk(clips)) {
      EXPECT_TRUE(Contains(ReadError(text).second, "CUBICSPLINE")) << file;
      continue;
    }
    const Asset asset = Read(text);
    ExpectClipsMatchJson(asset, clips, file);
    ValidateAsset(asset, file);
    WriteOptions options;
    options.three_array = true;
    const Asset again = Read(WriteThreeJson(asset, options));
    ASSERT_EQ(again.clips.size(), asset.clips.size()) << file;
    EXPECT_EQ(again.rig.nodes.size(), asset.rig.nodes.size()) << file;
    for (size_t c = 0; c < asset.clips.size(); ++c) {
      EXPECT_EQ(again.clips[c].name, asset.clips[c].name);
      EXPECT_EQ(again.clips[c].duration_seconds, asset.clips[c].duration_seconds);
      ASSERT_EQ(again.clips[c].channels.size(), asset.clips[c].channels.size());
      for (size_t i = 0; i < asset.clips[c].channels.size(); ++i) {
        const Channel& a = asset.clips[c].channels[i];
        const Channel& b = again.clips[c].channels[i];
        EXPECT_EQ(b.node, a.node);
        EXPECT_EQ(b.path, a.path);
        EXPECT_EQ(b.interpolation, a.interpolation);
        EXPECT_EQ(b.times_seconds, a.times_seconds);
        EXPECT_EQ(b.values, a.values);
      }
    }
  }
  EXPECT_EQ(files, 8u);
}

TEST(ThreeJsonReaderTest, ReadsTheLegacyObjectLoaderScene) {
  const std::filesystem::path file =
      kSharedData / "threejs/legacy/threejs_scene-animation_objectloader_v4.4.json";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is absent";
  const std::string text = testing::ReadText(file.string());
  ASSERT_TRUE(SniffThreeJson(text));
  const Asset asset = Read(text);
  ASSERT_EQ(asset.clips.size(), 1u);
  const Clip& clip = asset.clips[0];
  EXPECT_EQ(clip.name, "default");
  ASSERT_EQ(clip.channels.size(), 9u);
  EXPECT_EQ(asset.rig.nodes.size(), 3u);
  EXPECT_EQ(asset.rig.nodes[0].name, "cylinder001");
  // Pre-r74 keys in frames at fps 29: the first key is frame 5, the last 145.
  const Channel& position = clip.channels[0];
  EXPECT_EQ(position.path, Path::kTranslation);
  EXPECT_EQ(position.key_count(), 140u);
  EXPECT_EQ(position.times_seconds.front(), F32(5 * (1.0 / 29)));
  EXPECT_EQ(position.times_seconds.back(), F32(145 * (1.0 / 29)));
  EXPECT_EQ(clip.channels[2].path, Path::kRotation);
  EXPECT_EQ(clip.channels[8].key_count(), 5u);
  EXPECT_DOUBLE_EQ(clip.duration(), 5);
  ValidateAsset(asset, file.string());
}

TEST(ThreeJsonReaderTest, TracksPastTheFirstRefusedOneAreNotKeptAndChangeNoError) {
  // The parser stops keeping a track list at a track the reader refuses whatever follows
  // (ThreeArrayPolicy; docs/reliability.md, "Limits"): the error is the one the whole list gave.
  std::string empties;
  for (int t = 0; t < 1000; ++t) empties += ",{}";
  EXPECT_EQ(ReadError(ClipWith(kHipsRotation + empties + "," + kHipsRotation)),
            std::make_pair(std::string("/tracks/1"), std::string("expected a member 'name'")));
  EXPECT_EQ(ReadError(ClipWith(kHipsRotation + R"(,{"name":"a.position","type":"vec"},{}, 5)")),
            std::make_pair(std::string("/tracks/1/type"),
                           std::string("track 'a.position' has type 'vec', expected one of "
                                       "three.js's: number, vector, quaternion, color, bool, "
                                       "string or an alias such as vector3 or scalar")));
  // The clip's own members are read before its tracks, wherever the text puts them.
  EXPECT_EQ(ReadError(R"({"tracks":[{},{}],"fps":"x"})").first, "/fps");
  // A later clip is not read past a refused one; a list of clips stops at a refused clip too.
  EXPECT_EQ(ReadError("[" + ClipWith("{}") + "," + ClipWith(kHipsRotation) + "]").first,
            "/0/tracks/0");
  EXPECT_EQ(
      ReadError(R"({"animations":[)" + ClipWith(kHipsRotation) + R"(,{},{},{}]})"),
      std::make_pair(std::string("/animations/1"), std::string("expected a member 'tracks'")));
}

TEST(ThreeJsonReaderTest, NamesKeysAndMorphTargetsAreBoundedByTheStructureLimits) {
  // docs/reliability.md, Limits: each at a limit of 3 reads, one past it is a located error.
  ReadOptions options;
  options.source = "clip.json";
  options.limits.name_bytes = 12;  // "a.quaternion"
  options.limits.keys_per_channel = 3;
  options.limits.morph_targets = 3;
  const auto error_of = [&](const std::string& tracks) -> std::pair<std::string, std::string> {
    try {
      ReadThreeJson(ClipWith(tracks), options);
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
      return {error.location(), error.message()};
    }
    return {"", "no error"};
  };
  const std::string keys = R"("times":[0,1,2],"values":[0,0,0,1,0,0,0,1,0,0,0,1])";
  EXPECT_EQ(error_of(R"({"name":"a.quaternion","type":"quaternion",)" + keys + "}").second,
            "no error");
  auto [where, what] = error_of(R"({"name":"ab.quaternion","type":"quaternion",)" + keys + "}");
  EXPECT_EQ(where, "/tracks/0/name");
  EXPECT_NE(what.find("a track name of 13 bytes, more than the limit of 12"), std::string::npos);
  options.limits.name_bytes = 100;
  std::tie(where, what) =
      error_of(R"({"name":"a.quaternion","type":"quaternion","times":[0,1,2,3],"values":[)"
               R"(0,0,0,1,0,0,0,1,0,0,0,1,0,0,0,1]})");
  EXPECT_EQ(where, "/tracks/0");
  EXPECT_NE(what.find("4 keys, more than the limit of 3"), std::string::npos) << what;
  EXPECT_EQ(error_of(R"({"name":"m.morphTargetInfluences","type":"number","times":[0],)"
                     R"("values":[0,0,1]})")
                .second,
            "no error");
  std::tie(where, what) = error_of(R"({"name":"m.morphTargetInfluences","type":"number",)"
                                   R"("times":[0],"values":[0,0,0,1]})");
  EXPECT_EQ(where, "/tracks/0/values");
  EXPECT_NE(what.find("holds 4 morph weights per key, more than the limit of 3"), std::string::npos)
      << what;
  std::string per_target;
  for (int t = 0; t < 4; ++t) {
    per_target += (t ? "," : "") + std::string(R"({"name":"m.morphTargetInfluences[t)") +
                  std::to_string(t) + R"(]","type":"number","times":[0],"values":[1]})";
  }
  std::tie(where, what) = error_of(per_target);
  EXPECT_EQ(where, "/tracks/3");
  EXPECT_NE(what.find("is morph target 4 of its node, more than the limit of 3"), std::string::npos)
      << what;
}

}  // namespace
}  // namespace animconv
