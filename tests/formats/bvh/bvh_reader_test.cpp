// The BVH reader (formats/bvh/bvh_reader.h). Values are checked against Euler rotations computed
// here, in the channel order three.js's BVHLoader uses (q = q1 · q2 · q3 as listed), and
// positions against OFFSET + channel values (BVHLoader; Blender's importer replaces the OFFSET
// instead, docs/formats/bvh.md), on every joint.
#include "formats/bvh/bvh_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::AxisAngle;
using testing::FindChannel;
using testing::HasNote;
using testing::NodeNamed;

Asset Read(const std::string& bytes, const std::string& source,
           Diagnostics* diagnostics = nullptr) {
  ReadOptions options;
  options.source = source;
  options.diagnostics = diagnostics;
  return ReadBvh(bytes, options);
}

Error ReadError(const std::string& bytes, const ReadOptions& options = {}) {
  try {
    ReadBvh(bytes, options);
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << "no error";
  return Error(ErrorKind::kInternal, "", "", "");
}

void ExpectNear(const Quat& expected, const Quat& actual, const std::string& what) {
  EXPECT_LT(AngleBetween(Normalized(expected), Normalized(actual)), 1e-12) << what;
}

// The root lists rotations before positions and has a non-zero OFFSET, the joints use three
// rotation orders, "Tail" has 3 position channels only (Assimp 5.2 dropped them).
constexpr const char* kBvh = R"(HIERARCHY
ROOT Hips
{
  OFFSET 1 2 3
  CHANNELS 6 Zrotation Xrotation Yrotation Xposition Yposition Zposition
  JOINT Spine
  {
    OFFSET 0 10 0
    CHANNELS 3 Yrotation Xrotation Zrotation
    End Site
    {
      OFFSET 0 5 0
    }
  }
  JOINT Tail
  {
    OFFSET 0 -1 -4
    CHANNELS 3 Xposition Yposition Zposition
    End Site
    {
      OFFSET 0 0 -3
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.05
0 0 0 10 20 30 0 0 0 1 1 1
10 20 30 11 22 33 40 -50 60 1 1 1
0 0 0 12 24 36 0 0 0 1 1 1
)";

TEST(BvhReaderTest, SniffsHierarchyAfterBomAndSpace) {
  EXPECT_TRUE(SniffBvh(kBvh));
  EXPECT_TRUE(SniffBvh("\xEF\xBB\xBF \r\n\tHIERARCHY\r\n"));
  EXPECT_FALSE(SniffBvh("HIERARCHYX"));
  EXPECT_FALSE(SniffBvh("; FBX 7.7.0 project file\n"));
  EXPECT_FALSE(SniffBvh(""));
}

TEST(BvhReaderTest, RigIsTheJointsInFileOrderWithEndSites) {
  const Asset asset = Read(kBvh, "walk.bvh");
  ASSERT_EQ(asset.rig.nodes.size(), 5u);
  const char* names[] = {"Hips", "Spine", "EndSite_Spine", "Tail", "EndSite_Tail"};
  const int parents[] = {-1, 0, 1, 0, 3};
  for (size_t n = 0; n < 5; ++n) {
    EXPECT_EQ(asset.rig.nodes[n].name, names[n]);
    EXPECT_EQ(asset.rig.nodes[n].parent, parents[n]) << names[n];
    EXPECT_EQ(asset.rig.nodes[n].rest_rotation, (Quat{0, 0, 0, 1}));
  }
  EXPECT_TRUE(asset.rig.rest_pose_known);
  EXPECT_DOUBLE_EQ(asset.rig.nodes[2].rest_translation[1], 0.05);  // End Site OFFSET, metres
}

TEST(BvhReaderTest, RotationsFollowTheChannelOrder) {
  const Asset asset = Read(kBvh, "dir/walk.bvh");
  ASSERT_EQ(asset.clips.size(), 1u);
  EXPECT_EQ(asset.clips[0].name, "walk");  // BVH has no clip names: the file stem
  const Channel* hips = FindChannel(asset.clips[0], NodeNamed(asset, "Hips"), Path::kRotation);
  const Channel* spine = FindChannel(asset.clips[0], NodeNamed(asset, "Spine"), Path::kRotation);
  ASSERT_NE(hips, nullptr);
  ASSERT_NE(spine, nullptr);
  // Frame k at exactly k x the "Frame Time" as written.
  ASSERT_EQ(hips->key_count(), 3u);
  for (size_t k = 0; k < 3; ++k) EXPECT_EQ(hips->times_seconds[k], 0.05 * static_cast<double>(k));
  ExpectNear(Multiply(Multiply(AxisAngle('Z', 10), AxisAngle('X', 20)), AxisAngle('Y', 30)),
             LoadQuat(hips->key_value(1)), "hips");
  ExpectNear(Multiply(Multiply(AxisAngle('Y', 40), AxisAngle('X', -50)), AxisAngle('Z', 60)),
             LoadQuat(spine->key_value(1)), "spine");
  // Frames 0 and 2 are at rest, and stay keys: a BVH rotation channel is data.
  ExpectNear({0, 0, 0, 1}, LoadQuat(spine->key_value(2)), "spine at rest");
  // Tail declares no rotation channel: it gets none. No scale channels are invented.
  EXPECT_EQ(FindChannel(asset.clips[0], NodeNamed(asset, "Tail"), Path::kRotation), nullptr);
  for (const Channel& channel : asset.clips[0].channels) EXPECT_NE(channel.path, Path::kScale);
}

TEST(BvhReaderTest, PositionsAreOffsetPlusChannelsOnEveryJointInMetres) {
  const Asset asset = Read(kBvh, "walk.bvh");
  const Channel* hips = FindChannel(asset.clips[0], NodeNamed(asset, "Hips"), Path::kTranslation);
  ASSERT_NE(hips, nullptr);
  EXPECT_DOUBLE_EQ(hips->key_value(2)[0], (1 + 12) * 0.01);
  EXPECT_DOUBLE_EQ(hips->key_value(2)[1], (2 + 24) * 0.01);
  EXPECT_DOUBLE_EQ(hips->key_value(2)[2], (3 + 36) * 0.01);
  // A 3-channel joint's positions are kept too (Assimp 5.2 dropped them).
  const Channel* tail = FindChannel(asset.clips[0], NodeNamed(asset, "Tail"), Path::kTranslation);
  ASSERT_NE(tail, nullptr);
  EXPECT_DOUBLE_EQ(tail->key_value(0)[1], (-1 + 1) * 0.01);
  EXPECT_DOUBLE_EQ(tail->key_value(0)[2], (-4 + 1) * 0.01);
  EXPECT_TRUE(HasNote(asset, "centimetres assumed"));
}

// A subset of the position channels: the others stay at the OFFSET.
TEST(BvhReaderTest, MissingPositionAxesStayAtTheOffset) {
  const Asset asset = Read(R"(HIERARCHY
ROOT Root
{
	OFFSET 5 6 7
	CHANNELS 2 Yposition Xrotation
}
MOTION
Frames: 1
Frame Time: 1
3 90
)",
                           "subset.bvh");
  const Channel* position = FindChannel(asset.clips[0], 0, Path::kTranslation);
  ASSERT_NE(position, nullptr);
  EXPECT_DOUBLE_EQ(position->key_value(0)[0], 0.05);
  EXPECT_DOUBLE_EQ(position->key_value(0)[1], 0.09);
  EXPECT_DOUBLE_EQ(position->key_value(0)[2], 0.07);
  const Channel* rotation = FindChannel(asset.clips[0], 0, Path::kRotation);
  ASSERT_NE(rotation, nullptr);
  ExpectNear(AxisAngle('X', 90), LoadQuat(rotation->key_value(0)), "root");
}

// A position channel that holds the OFFSET in every frame moves nothing and is left out.
TEST(BvhReaderTest, PositionsAtRestAreLeftOut) {
  const Asset asset = Read(R"(HIERARCHY
ROOT Root
{
  OFFSET 1 2 3
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
}
MOTION
Frames: 2
Frame Time: 0.1
0 0 0 0 0 0
0 0 0 0 0 0
)",
                           "still.bvh");
  EXPECT_EQ(FindChannel(asset.clips[0], 0, Path::kTranslation), nullptr);
  EXPECT_NE(FindChannel(asset.clips[0], 0, Path::kRotation), nullptr);
}

TEST(BvhReaderTest, SeveralRootsAreSeveralRootNodes) {
  const Asset asset = Read(R"(HIERARCHY
ROOT A
{
  OFFSET 0 0 0
  CHANNELS 1 Zrotation
}
ROOT B
{
  OFFSET 10 0 0
  CHANNELS 1 Zrotation
  End Site
  {
    OFFSET 0 1 0
  }
}
MOTION
Frames: 1
Frame Time: 0.5
10 20
)",
                           "two.bvh");
  ASSERT_EQ(asset.rig.nodes.size(), 3u);
  EXPECT_EQ(asset.rig.nodes[0].parent, -1);
  EXPECT_EQ(asset.rig.nodes[1].name, "B");
  EXPECT_EQ(asset.rig.nodes[1].parent, -1);
  EXPECT_EQ(asset.rig.nodes[2].parent, 1);
  const Channel* b = FindChannel(asset.clips[0], 1, Path::kRotation);
  ASSERT_NE(b, nullptr);
  ExpectNear(AxisAngle('Z', 20), LoadQuat(b->key_value(0)), "B");
}

// CRLF, tabs, several spaces, values over several lines, lower-case "end site", C-locale
// numbers in every form (sign, exponent, no leading digit) whatever the process locale.
TEST(BvhReaderTest, LayoutAndNumberFormsDoNotMatter) {
  const Asset asset = Read(
      "HIERARCHY\r\nROOT\t Hips\r\n{\r\n\tOFFSET  +1e1 .5 -0.25\r\n\tCHANNELS 3 Xrotation "
      "Yrotation Zrotation\r\n\tend site\r\n\t{\r\n\t\tOFFSET 0 1 0\r\n\t}\r\n}\r\nMOTION\r\n"
      "Frames:\t2\r\nFrame   Time: 2.5E-1\r\n1.0 2\r\n3\r\n-4 5e0 6.\r\n",
      "crlf.bvh");
  EXPECT_DOUBLE_EQ(asset.rig.nodes[0].rest_translation[0], 0.1);
  EXPECT_DOUBLE_EQ(asset.rig.nodes[0].rest_translation[1], 0.005);
  EXPECT_EQ(asset.rig.nodes[1].name, "EndSite_Hips");
  const Channel* rotation = FindChannel(asset.clips[0], 0, Path::kRotation);
  ASSERT_NE(rotation, nullptr);
  ASSERT_EQ(rotation->key_count(), 2u);
  EXPECT_EQ(rotation->times_seconds[1], 0.25);
  ExpectNear(Multiply(Multiply(AxisAngle('X', -4), AxisAngle('Y', 5)), AxisAngle('Z', 6)),
             LoadQuat(rotation->key_value(1)), "frame 2");
}

// A one-frame file is a pose: every declared rotation channel is kept, even at rest.
TEST(BvhReaderTest, OneFramePoseKeepsEveryRotation) {
  std::string pose = kBvh;
  pose.replace(pose.find("Frames: 3"), 9, "Frames: 1");
  pose.erase(pose.find("10 20 30 11"));
  const Asset asset = Read(pose, "pose.bvh");
  EXPECT_NE(FindChannel(asset.clips[0], NodeNamed(asset, "Spine"), Path::kRotation), nullptr);
  EXPECT_EQ(asset.clips[0].duration(), 0);
}

TEST(BvhReaderTest, ZeroFramesIsTheRestPose) {
  std::string rest = kBvh;
  rest.replace(rest.find("Frames: 3"), 9, "Frames: 0");
  rest.erase(rest.find("0 0 0 10 20"));
  const Asset asset = Read(rest, "rest.bvh");
  ASSERT_EQ(asset.clips.size(), 1u);
  EXPECT_TRUE(HasNote(asset, "'Frames: 0': the clip is the rest pose"));
  for (const Channel& channel : asset.clips[0].channels) {
    EXPECT_EQ(channel.path, Path::kRotation);
    ASSERT_EQ(channel.key_count(), 1u);
    ExpectNear({0, 0, 0, 1}, LoadQuat(channel.key_value(0)), "rest");
  }
  EXPECT_EQ(asset.clips[0].channels.size(), 2u);  // Hips and Spine
}

TEST(BvhReaderTest, ValuesAfterTheDeclaredFramesAreAWarning) {
  Diagnostics diagnostics;
  const Asset asset =
      Read(std::string(kBvh) + "1 2 3 4 5 6 7 8 9 1 1 1\n", "long.bvh", &diagnostics);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(diagnostics[0].text,
            "long.bvh:31:1: 12 value(s) after the 3 frame(s) 'Frames:' declares are ignored "
            "(three.js's BVHLoader reads as many frames as declared)");
  EXPECT_EQ(asset.clips[0].channels[0].key_count(), 3u);
}

TEST(BvhReaderTest, FewerValuesThanDeclaredIsALocatedError) {
  std::string bvh = kBvh;
  bvh.erase(bvh.rfind("0 0 0 12"));
  ReadOptions options;
  options.source = "short.bvh";
  // Wide enough that the byte bound (2 bytes a value) lets it through to the values.
  const Error error = ReadError(bvh + "0.000 0.000", options);
  EXPECT_EQ(error.source(), "short.bvh");
  EXPECT_EQ(error.location(), "30:12");
  EXPECT_EQ(error.message(),
            "the file ends in frame 3 after 2 of its 12 channel values, but 'Frames:' declares 3 "
            "frames");
}

TEST(BvhReaderTest, ErrorsNameLineColumnAndWhatWasExpected) {
  struct Case {
    std::string from, to, location, message;
  };
  const Case cases[] = {
      {"HIERARCHY", "HIERARCHIE", "1:1",
       "expected 'HIERARCHY' at the start of a BVH file, found 'HIERARCHIE'"},
      {"  JOINT Tail", "  BONE Tail", "15:3",
       "expected 'JOINT', 'End Site' or '}' in joint 'Hips', found 'BONE'"},
      {"OFFSET 0 10 0", "OFFSET 0 1O 0", "8:14",
       "expected a number for the OFFSET y of 'Spine', found '1O'"},
      {"CHANNELS 3 Yrotation", "CHANNELS 3 Wrotation", "9:16",
       "expected channel 1 of 3 of 'Spine' (Xposition, Yposition, Zposition, Xrotation, "
       "Yrotation or Zrotation), found 'Wrotation'"},
      {"CHANNELS 3 Yrotation", "CHANNELS 9 Yrotation", "9:14",
       "expected a channel count from 0 to 6 for 'Spine', found '9'"},
      {"Xrotation Zrotation", "Xrotation Yrotation", "9:36",
       "channel 'Yrotation' is listed twice for 'Spine'"},
      {"Frames: 3", "Frames: -3", "26:9", "BVH 'Frames:' must be a whole number >= 0, found '-3'"},
      {"Frame Time: 0.05", "Frame Time: 0", "27:13",
       "BVH 'Frame Time:' must be a positive number of seconds, found '0'"},
      {"Frame Time: 0.05", "Frame Time: -1", "27:13",
       "BVH 'Frame Time:' must be a positive number of seconds, found '-1'"},
      {"10 20 30 11", "10 20 30 1,1", "29:10",
       "expected a number for Hips.Xposition (frame 2, value 4 of 12), found '1,1'"},
      {"10 20 30 11", "10 nan 30 11", "29:4",
       "expected a number for Hips.Xrotation (frame 2, value 2 of 12), found 'nan'"},
  };
  for (const Case& c : cases) {
    std::string bvh = kBvh;
    bvh.replace(bvh.find(c.from), c.from.size(), c.to);
    const Error error = ReadError(bvh);
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput) << c.to;
    EXPECT_EQ(error.location(), c.location) << c.to;
    EXPECT_EQ(error.message(), c.message) << c.to;
  }
}

// A missing '}' shows where the next keyword comes instead.
TEST(BvhReaderTest, MissingBraceIsFoundAtMotion) {
  std::string bvh = kBvh;
  bvh.erase(bvh.find("}\nMOTION"), 2);
  const Error error = ReadError(bvh);
  EXPECT_EQ(error.location(), "24:1");
  EXPECT_EQ(error.message(), "expected 'JOINT', 'End Site' or '}' in joint 'Hips', found 'MOTION'");
}

// Numbers each finite whose time or position is not: located, not left to the model's check.
TEST(BvhReaderTest, OverflowingTimesAndPositionsAreLocated) {
  const std::string head = "HIERARCHY\nROOT A\n{\nOFFSET 1e308 0 0\nCHANNELS 1 Xposition\n}\n";
  const Error time = ReadError(head + "MOTION\nFrames: 3\nFrame Time: 1e308\n1\n2\n3\n");
  EXPECT_EQ(time.location(), "9:13");
  EXPECT_EQ(time.message(),
            "BVH 'Frame Time:' 1e+308 s x 3 frames is beyond any time a double holds");
  const Error position = ReadError(head + "MOTION\nFrames: 1\nFrame Time: 1\n1e308\n");
  EXPECT_EQ(position.location(), "10:1");
  EXPECT_EQ(position.message(), "A.Xposition + its OFFSET is beyond any number a double holds");
}

TEST(BvhReaderTest, UnclosedHierarchyEndsAtTheEndOfTheFile) {
  const Error error = ReadError("HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n");
  EXPECT_EQ(error.location(), "5:1");
  EXPECT_EQ(error.message(),
            "expected 'JOINT', 'End Site' or '}' in joint 'Hips', found the end of the file");
}

// Claims are checked against the bytes there are before anything is allocated for them.
TEST(BvhReaderTest, FrameCountBeyondTheFileIsRefusedBeforeAllocating) {
  std::string bvh = kBvh;
  bvh.replace(bvh.find("Frames: 3"), 9, "Frames: 2000000000");
  const Error error = ReadError(bvh);
  EXPECT_EQ(error.location(), "26:9");
  EXPECT_NE(error.message().find("BVH declares 2000000000 frames of 12 channel values, but the "),
            std::string::npos)
      << error.message();
}

TEST(BvhReaderTest, StructureLimitsAreLocated) {
  ReadOptions options;
  options.limits.name_bytes = 4;
  EXPECT_EQ(ReadError(kBvh, options).message(),
            "a joint name of 5 bytes, more than the limit of 4");
  options = {};
  options.limits.nodes = 4;
  const Error nodes = ReadError(kBvh, options);
  EXPECT_EQ(nodes.location(), "20:5");
  EXPECT_EQ(nodes.message(), "BVH declares more than the limit of 4 joints");
  options = {};
  options.limits.keys_per_channel = 2;
  EXPECT_EQ(ReadError(kBvh, options).message(), "BVH declares 3 frames, more than the limit of 2");
  options = {};
  options.limits.channels = 3;
  EXPECT_EQ(ReadError(kBvh, options).message(),
            "BVH joints animate 4 channels, more than the limit of 3");
}

// A million levels: the parser keeps an explicit stack, so only the depth limit stops it.
TEST(BvhReaderTest, MillionLevelsDeepIsALimitErrorNotAStackOverflow) {
  std::string bvh = "HIERARCHY\nROOT n\n{\nOFFSET 0 0 0\n";
  bvh.reserve(30'000'000);
  for (int i = 0; i < 1'000'000; ++i) bvh += "JOINT j\n{\nOFFSET 0 1 0\n";
  ReadOptions options;
  options.limits.depth = 2'000'000;
  options.limits.nodes = 2'000'000;
  const Error error = ReadError(bvh, options);  // no '}' and no MOTION: it ends unclosed
  EXPECT_NE(error.message().find("found the end of the file"), std::string::npos);
  const Error deep = ReadError(bvh);
  EXPECT_EQ(deep.message(), "BVH joints nested 10001 levels deep, more than the limit of 10000");
}

// BVH declares no encoding; a Latin-1 joint name reached the JSON writers as invalid UTF-8
// (fuzz/regressions/assimp/invalid_utf8_joint_name.bvh).
TEST(BvhReaderTest, NamesThatAreNotUtf8AreRepaired) {
  std::string bvh = kBvh;
  bvh.replace(bvh.find("Spine"), 5, "Sp\xA8ne");
  const Asset asset = Read(bvh, "latin1.bvh");
  EXPECT_GE(NodeNamed(asset, "Sp\xEF\xBF\xBDne"), 0);
  EXPECT_TRUE(HasNote(asset, "2 name(s) are not valid UTF-8"));  // the joint and its end site
}

}  // namespace
}  // namespace animconv
