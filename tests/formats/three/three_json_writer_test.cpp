#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "animconv/axes.h"
#include "animconv/convert.h"
#include "animconv/error.h"
#include "formats/csv/unity_csv.h"
#include "formats/three/three_json.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::ordered_json;
using testing::MakeAsset;
using testing::MakeChannel;

Asset SmallAsset() {
  Asset asset = MakeAsset({"mixamorig:Hips", "Face"});
  asset.rig.nodes[1].morph_target_count = 2;
  auto& channels = asset.clips[0].channels;
  channels.push_back(MakeChannel(0, Path::kRotation, {0, 0.1}, {0, 0, 0, 1, 0, 0.6, 0, 0.8}, 4));
  channels.push_back(MakeChannel(0, Path::kTranslation, {0, 0.1}, {0, 1, 0, 0, 1.1, 0}, 3));
  channels.push_back(MakeChannel(1, Path::kWeights, {0, 0.1, 0.2}, {0, 1, 0.5, -0.25, 1.5, 0}, 2,
                                 Interpolation::kStep));
  return asset;
}

TEST(ThreeJsonWriterTest, WritesToJsonLayoutInToJsonKeyOrder) {
  const ordered_json clip = ordered_json::parse(WriteThreeJson(SmallAsset(), {}));
  std::vector<std::string> keys;
  for (const auto& item : clip.items()) keys.push_back(item.key());
  // three.js r187 AnimationClip.toJSON: name, duration, tracks, uuid, blendMode, userData (a JSON
  // string).
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "duration", "tracks", "uuid", "blendMode",
                                            "userData"}));
  EXPECT_EQ(clip["name"], "clip");
  EXPECT_DOUBLE_EQ(clip["duration"].get<double>(), 0.2);
  EXPECT_EQ(clip["blendMode"], 2500);
  EXPECT_TRUE(clip["userData"].is_string());
  // What the format cannot say, for our own reader (docs/formats/threejs.md): no facing known.
  EXPECT_EQ(clip["userData"], R"({"animconv":{"handedness":"right"}})");
  EXPECT_EQ(clip["uuid"].get<std::string>().size(), 36u);
  EXPECT_EQ(clip["uuid"].get<std::string>()[14], '8');  // derived, not random (RFC 9562 v8)
  // The same input gives the same bytes, uuid included.
  EXPECT_EQ(WriteThreeJson(SmallAsset(), {}), WriteThreeJson(SmallAsset(), {}));
}

struct CollectingSink : PieceSink {
  void Publish(std::string_view piece) override { streamed += piece; }
  void PublishKept(std::string_view piece, std::shared_ptr<const void>) override {
    streamed += piece;
  }
  void PublishOwned(std::string piece) override {
    streamed += piece;
    ++owned;
  }
  std::string streamed;
  size_t owned = 0;
};

// A large clip's tracks are formatted on every core and appended in order as they are done; a
// streamed output hands them over on the way, and the bytes are those of the unstreamed one.
TEST(ThreeJsonWriterTest, AStreamedLargeClipIsTheSameBytes) {
  std::vector<std::string> names;
  for (int b = 0; b < 40; ++b) names.push_back("bone" + std::to_string(b));
  Asset asset = MakeAsset(names);
  std::vector<double> times;
  for (int k = 0; k < 1000; ++k) times.push_back(k / 30.0);
  for (int b = 0; b < 40; ++b) {
    std::vector<double> values;
    for (int k = 0; k < 1000; ++k) {
      const double angle = 0.001 * k * (b + 1);
      values.insert(values.end(), {std::sin(angle), 0, 0, std::cos(angle)});
    }
    // Every fifth bone on times of its own: tracks that share a times array and tracks that do
    // not, in one clip.
    std::vector<double> own_times = times;
    if (b % 5 == 4) own_times.back() += 0.01;
    asset.clips[0].channels.push_back(MakeChannel(b, Path::kRotation, own_times, values, 4));
  }
  const std::string joined = WriteThreeJson(asset, {});
  for (int run = 0; run < 5; ++run) {
    CollectingSink sink;
    WriteOptions options;
    options.piece_sink = &sink;
    TextPieces pieces = WriteThreeJsonPieces(asset, options);
    pieces.Flush();
    ASSERT_EQ(sink.streamed, joined) << run;
    ASSERT_EQ(pieces.size(), joined.size()) << run;
    // Each values array is handed over with its memory, to be freed once written.
    ASSERT_EQ(sink.owned, 40u) << run;
  }
}

TEST(ThreeJsonWriterTest, TracksUseSanitisedNamesTypesAndInterpolationCodes) {
  const ordered_json clip = ordered_json::parse(WriteThreeJson(SmallAsset(), {}));
  const auto& tracks = clip["tracks"];
  ASSERT_EQ(tracks.size(), 3u);
  EXPECT_EQ(tracks[0]["name"], "mixamorigHips.quaternion");
  EXPECT_EQ(tracks[0]["type"], "quaternion");
  EXPECT_FALSE(tracks[0].contains("interpolation"));  // linear is the default: not written
  EXPECT_EQ(tracks[1]["name"], "mixamorigHips.position");
  EXPECT_EQ(tracks[1]["type"], "vector");
  EXPECT_EQ(tracks[2]["name"], "Face.morphTargetInfluences");
  EXPECT_EQ(tracks[2]["type"], "number");
  EXPECT_EQ(tracks[2]["interpolation"], 2300);
  // Negative and >1 weights are kept; all targets per key.
  EXPECT_EQ(tracks[2]["values"], ordered_json::parse("[0,1,0.5,-0.25,1.5,0]"));
  std::vector<std::string> keys;
  for (const auto& item : tracks[2].items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "times", "values", "interpolation", "type"}));
}

TEST(ThreeJsonWriterTest, PerTargetMorphTracksSplitTheWeights) {
  Asset asset = SmallAsset();
  WriteOptions options;
  options.three_morph_tracks = ThreeMorphTracks::kPerTarget;
  ordered_json clip = ordered_json::parse(WriteThreeJson(asset, options));
  ASSERT_EQ(clip["tracks"].size(), 4u);
  EXPECT_EQ(clip["tracks"][2]["name"], "Face.morphTargetInfluences[0]");
  EXPECT_EQ(clip["tracks"][2]["values"], ordered_json::parse("[0,0.5,1.5]"));
  EXPECT_EQ(clip["tracks"][3]["name"], "Face.morphTargetInfluences[1]");
  EXPECT_EQ(clip["tracks"][3]["values"], ordered_json::parse("[1,-0.25,0]"));
  asset.rig.nodes[1].morph_target_names = {"smile", "blink"};
  clip = ordered_json::parse(WriteThreeJson(asset, options));
  EXPECT_EQ(clip["tracks"][3]["name"], "Face.morphTargetInfluences[blink]");
  asset.rig.nodes[1].morph_target_names = {"a]b", "c"};
  EXPECT_THROW(WriteThreeJson(asset, options), Error);
  // Names the dictionary cannot find a target by go by index (review of session 35): an empty one
  // and one with a line break (parseTrackName threw on the clip), and one two targets share (the
  // dictionary keeps the last: both tracks bound it).
  for (const auto& [names, first, second] :
       {std::tuple<std::vector<std::string>, std::string, std::string>{{"", "x"}, "[0]", "[x]"},
        {{"a\nb", "x"}, "[0]", "[x]"},
        {{"a", "a"}, "[0]", "[1]"}}) {
    asset.rig.nodes[1].morph_target_names = names;
    clip = ordered_json::parse(WriteThreeJson(asset, options));
    EXPECT_EQ(clip["tracks"][2]["name"], "Face.morphTargetInfluences" + first);
    EXPECT_EQ(clip["tracks"][3]["name"], "Face.morphTargetInfluences" + second);
  }
  // ... unless another target is called by that index, or the names are a partial list.
  asset.rig.nodes[1].morph_target_names = {"", "0"};
  EXPECT_THROW(WriteThreeJson(asset, options), Error);
  asset.rig.nodes[1].morph_target_names = {"a", "a"};
  asset.rig.nodes[1].morph_targets_partial = true;
  EXPECT_THROW(WriteThreeJson(asset, options), Error);
}

// Per-target tracks name only the targets a clip animates, in its order ("[1]" then "[0]"): one
// track of every target would put them on the mesh's targets by position, so the default writes
// them per target again, and --morph-tracks all refuses them. (The default used to write one
// track: three.js then played [blink] of a mesh "smile,blink,angry" on smile, exit 0.)
TEST(ThreeJsonWriterTest, PartialMorphTargetListsAreWrittenPerTarget) {
  const Asset asset = ReadThreeJson(R"({"name":"c","tracks":[
      {"name":"Face.morphTargetInfluences[1]","times":[0,1],"values":[0,1],"type":"number"},
      {"name":"Face.morphTargetInfluences[0]","times":[0,1],"values":[0.5,0.25],"type":"number"},
      {"name":"Head.morphTargetInfluences[blink]","times":[0,1],"values":[0,1],"type":"number"},
      {"name":"Body.morphTargetInfluences","times":[0,1],"values":[0,1,1,0],"type":"number"}]})",
                                    {});
  const ordered_json clip = ordered_json::parse(WriteThreeJson(asset, {}));
  const auto& tracks = clip["tracks"];
  ASSERT_EQ(tracks.size(), 4u);
  EXPECT_EQ(tracks[0]["name"], "Face.morphTargetInfluences[1]");
  EXPECT_EQ(tracks[0]["values"], ordered_json::parse("[0,1]"));
  EXPECT_EQ(tracks[1]["name"], "Face.morphTargetInfluences[0]");
  EXPECT_EQ(tracks[1]["values"], ordered_json::parse("[0.5,0.25]"));
  EXPECT_EQ(tracks[2]["name"], "Head.morphTargetInfluences[blink]");
  EXPECT_EQ(tracks[3]["name"], "Body.morphTargetInfluences");  // a whole list stays whole
  WriteOptions all;
  all.three_morph_tracks = ThreeMorphTracks::kAll;
  try {
    WriteThreeJson(asset, all);
    ADD_FAILURE() << "--morph-tracks all wrote a partial target list as one track";
  } catch (const Error& error) {
    EXPECT_NE(error.message().find("names only the morph targets of 'Face' it animates (1, 0)"),
              std::string::npos)
        << error.message();
  }
}

// A rig read from three.js is named as its objects are: the names are written as they are, not as
// GLTFLoader would rename a glTF's nodes ("Bone.001" became "Bone001", "my bone" "my_bone", and the
// tracks bound nothing); a name parseTrackName cannot read back as a node goes through the
// skeleton's bones, and the mixer's root stays the root ('.position' used to become
// '_1.position').
TEST(ThreeJsonWriterTest, ThreeJsObjectNamesAreKept) {
  const std::string input = R"({"name":"c","tracks":[
      {"name":"Bone.001.quaternion","times":[0],"values":[0,0,0,1],"type":"quaternion"},
      {"name":".bones[mixamorig:Spine].quaternion","times":[0],"values":[0,0,0,1],
        "type":"quaternion"},
      {"name":"my bone.scale","times":[0],"values":[1,1,1],"type":"vector"},
      {"name":"x.material.quaternion","times":[0],"values":[0,0,0,1],"type":"quaternion"},
      {"name":".position","times":[0],"values":[0,0,1],"type":"vector"},
      {"name":".morphTargetInfluences[walk_0]","times":[0],"values":[1],"type":"number"}]})";
  const Asset asset = ReadThreeJson(input, {});
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  const ordered_json clip = ordered_json::parse(WriteThreeJson(asset, options));
  std::vector<std::string> names;
  for (const auto& track : clip["tracks"]) names.push_back(track["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"Bone.001.quaternion",
                                             ".bones[mixamorig:Spine].quaternion", "my bone.scale",
                                             ".position", ".morphTargetInfluences[walk_0]"}));
  EXPECT_TRUE(diagnostics.empty());
  // Every written name reads back as the object it came from.
  const Asset again = ReadThreeJson(clip.dump(), {});
  ASSERT_EQ(again.rig.nodes.size(), asset.rig.nodes.size());
  for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
    EXPECT_EQ(again.rig.nodes[n].name, asset.rig.nodes[n].name);
  }
  // A line break is part of a node name three.js parses ("a\nb.quaternion"), but not of a bone
  // accessor's ('.bones[...]' is '.+'), which a ':' needs: such a name binds nothing.
  Asset renamed = asset;
  renamed.rig.nodes[0].name = "a\nb";
  EXPECT_EQ(ordered_json::parse(WriteThreeJson(renamed, {}))["tracks"][0]["name"],
            "a\nb.quaternion");
  renamed.rig.nodes[0].name = "a:\nb";
  EXPECT_THROW(WriteThreeJson(renamed, {}), Error);
}

// Names one name once sanitised take GLTFLoader's suffixes, as a model it loads names them, with
// the warning docs/formats/threejs.md promises (there was none).
TEST(ThreeJsonWriterTest, NamesThatCollideOnceSanitisedAreAWarning) {
  Asset asset = MakeAsset({"a.b", "ab"});
  auto& channels = asset.clips[0].channels;
  channels.push_back(MakeChannel(0, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  channels.push_back(MakeChannel(1, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  const ordered_json clip = ordered_json::parse(WriteThreeJson(asset, options));
  EXPECT_EQ(clip["tracks"][0]["name"], "ab.quaternion");
  EXPECT_EQ(clip["tracks"][1]["name"], "ab_1.quaternion");
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].text.find("'ab' as 'ab_1'"), std::string::npos) << diagnostics[0].text;
}

TEST(ThreeJsonWriterTest, NumbersAreShortestFloat32Text) {
  Asset asset = MakeAsset({"n"});
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, 1.0 / 3}, {0.1, 0.2, 0.3, 1.0 / 3, 0, 0}, 3));
  const std::string text = WriteThreeJson(asset, {});
  EXPECT_NE(text.find("\"times\":[0,0.33333334]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"values\":[0.1,0.2,0.3,0.33333334,0,0]"), std::string::npos) << text;
}

TEST(ThreeJsonWriterTest, ArrayModeWritesEveryClip) {
  Asset asset = SmallAsset();
  asset.clips.push_back(asset.clips[0]);
  asset.clips[1].name = "second";
  EXPECT_THROW(WriteThreeJson(asset, {}), Error);  // two clips need --three-array or --clip
  WriteOptions options;
  options.three_array = true;
  const ordered_json clips = ordered_json::parse(WriteThreeJson(asset, options));
  ASSERT_TRUE(clips.is_array());
  ASSERT_EQ(clips.size(), 2u);
  EXPECT_EQ(clips[1]["name"], "second");
  EXPECT_NE(clips[0]["uuid"], clips[1]["uuid"]);
}

TEST(ThreeJsonWriterTest, RefusesCubicSplinesAndFloat32TimeCollisions) {
  Asset asset = MakeAsset({"n"});
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kWeights, {0, 1}, {0, 0, 0, 0, 1, 0}, 1, Interpolation::kCubicSpline));
  asset.rig.nodes[0].morph_target_count = 1;
  EXPECT_THROW(WriteThreeJson(asset, {}), Error);
  asset.clips[0].channels[0] = MakeChannel(0, Path::kWeights, {1, 1 + 1e-12}, {0, 1}, 1);
  EXPECT_THROW(WriteThreeJson(asset, {}), Error);
}

TEST(ThreeJsonWriterTest, EscapesNames) {
  Asset asset = MakeAsset({"a\"b\\c"});
  asset.clips[0].name = "line\nbreak";
  asset.clips[0].channels.push_back(MakeChannel(0, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  const ordered_json clip = ordered_json::parse(WriteThreeJson(asset, {}));
  EXPECT_EQ(clip["name"], "line\nbreak");
  EXPECT_EQ(clip["tracks"][0]["name"], "a\"b\\c.quaternion");
}

TEST(ThreeJsonWriterTest, ArticleRowsBecomeMirroredUnitTracks) {
  const Asset asset =
      ReadUnityCsv(testing::ReadText(testing::SourcePath("data/unity/anim.csv")), {});
  const ordered_json clip =
      ordered_json::parse(RenderAsset(asset, *FindFormat("three"), ConvertOptions{}));
  EXPECT_EQ(clip["tracks"].size(), 55u);
  EXPECT_EQ(clip["tracks"][54]["name"], "upperChest.quaternion");
  const auto& hips = clip["tracks"][0]["values"];
  // (0.030,-0.014,-0.005,0.999) normalised and mirrored through Z: (-x,-y,z,w).
  EXPECT_NEAR(hips[0].get<double>(), -0.030013, 1e-6);
  EXPECT_NEAR(hips[1].get<double>(), 0.014006, 1e-6);
  EXPECT_NEAR(hips[2].get<double>(), -0.005002, 1e-6);
}

}  // namespace
}  // namespace animconv
