// The BVH reader's MOTION section (formats/bvh/bvh_motion.cpp): how frames are laid out on lines,
// the header keywords and the values a rotation cannot be computed from, each against what
// three.js's BVHLoader (r187) and Blender's importer (3.4, import_bvh.py) read from the same text.
#include <gtest/gtest.h>

#include <string>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "formats/bvh/bvh_reader.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::AxisAngle;
using testing::FindChannel;

Asset Read(const std::string& bytes, Diagnostics* diagnostics = nullptr) {
  ReadOptions options;
  options.source = "m.bvh";
  options.diagnostics = diagnostics;
  return ReadBvh(bytes, options);
}

Error ReadError(const std::string& bytes) {
  try {
    Read(bytes);
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << "no error";
  return Error(ErrorKind::kInternal, "", "", "");
}

// 9 channel values a frame: Hips 6, Spine 3 (review 3's extra_per_line.bvh).
constexpr const char* kHead = R"(HIERARCHY
ROOT Hips
{
	OFFSET 0 0 0
	CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
	JOINT Spine
	{
		OFFSET 0 10 0
		CHANNELS 3 Zrotation Xrotation Yrotation
		End Site
		{
			OFFSET 0 10 0
		}
	}
}
MOTION
)";

// A rotation channel's quaternion at a key, against an axis rotation computed here.
void ExpectRotation(const Asset& asset, int node, size_t key, const Quat& expected) {
  const Channel* channel = FindChannel(asset.clips[0], node, Path::kRotation);
  ASSERT_NE(channel, nullptr);
  ASSERT_GT(channel->key_count(), key);
  EXPECT_LT(AngleBetween(expected, Normalized(LoadQuat(channel->key_value(key)))), 1e-12)
      << "node " << node << " key " << key;
}

// Each line one frame with one value too many: BVHLoader and Blender read the first 9 values of
// each line. Read as one stream, frame 2 started with frame 1's extra value: Hips at (0, 1, 90)
// cm instead of (1, 90, 0), the rotations 90° off, with exit 0 and a note on 3 trailing values.
TEST(BvhMotionTest, FrameLinesWithExtraValuesAreReadOneFramePerLine) {
  Diagnostics diagnostics;
  const Asset asset = Read(std::string(kHead) +
                               "Frames: 3\nFrame Time: 0.1\n"
                               "0 90 0 0 0 0 10 0 0 0\n"
                               "1 90 0 0 0 0 20 0 0 0\n"
                               "2 90 0 0 0 0 30 0 0 0\n",
                           &diagnostics);
  const Channel* hips = FindChannel(asset.clips[0], 0, Path::kTranslation);
  ASSERT_NE(hips, nullptr);
  ASSERT_EQ(hips->key_count(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_DOUBLE_EQ(hips->key_value(k)[0], 0.01 * static_cast<double>(k)) << k;
    EXPECT_DOUBLE_EQ(hips->key_value(k)[1], 0.9) << k;
    EXPECT_DOUBLE_EQ(hips->key_value(k)[2], 0) << k;
    ExpectRotation(asset, 1, k, AxisAngle('Z', 10.0 * static_cast<double>(k + 1)));
  }
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(diagnostics[0].text,
            "m.bvh:19:21: 3 frame line(s) hold more values than the 9 the CHANNELS declare; each "
            "frame is read from its own line and the 3 value(s) after its channels are ignored, "
            "as three.js's BVHLoader and Blender read them (check the CHANNELS if those values "
            "are motion)");
}

// Frames wrapped over several lines (no consumer reads them, this reader always did) and several
// frames on one line stay one stream of values, without a warning.
TEST(BvhMotionTest, WrappedFramesAndSeveralFramesALineAreOneStream) {
  for (const std::string values :
       {"0 90 0 0 0\n0 10 0 0\n1 90 0\n0 0 0 20 0 0\n", "0 90 0 0 0 0 10 0 0 1 90 0 0 0 0 20 0 0\n",
        "0 90 0 0 0 0 10 0 0 1\n90 0 0 0 0 20 0 0\n"}) {
    Diagnostics diagnostics;
    const Asset asset =
        Read(std::string(kHead) + "Frames: 2\nFrame Time: 0.1\n" + values, &diagnostics);
    EXPECT_TRUE(diagnostics.empty()) << values;
    const Channel* hips = FindChannel(asset.clips[0], 0, Path::kTranslation);
    ASSERT_NE(hips, nullptr);
    EXPECT_DOUBLE_EQ(hips->key_value(1)[0], 0.01) << values;
    ExpectRotation(asset, 1, 1, AxisAngle('Z', 20));
  }
}

// A frame that ends mid-line where the lines cannot each hold a frame (one holds 5 values) and
// values are left over: neither reading is the file's, so it is refused where it first parts.
TEST(BvhMotionTest, FrameEndingMidLineOfAWrappedFileIsALocatedError) {
  const Error error = ReadError(std::string(kHead) +
                                "Frames: 2\nFrame Time: 0.1\n"
                                "0 90 0 0 0\n0 10 0 0 7\n1 90 0\n0 0 0 20 0 0\n");
  EXPECT_EQ(error.location(), "20:10");
  EXPECT_EQ(error.message(),
            "this value follows frame 1 of 2 on its line, after the frame's 9 channel values, "
            "and 1 value(s) are left after the last frame: the lines hold neither one frame each "
            "(three.js's "
            "BVHLoader and Blender read one frame per line, but a line holds fewer than 9 "
            "values) nor a stream of exactly the declared frames");
}

// One frame plays at 0 s whatever the Frame Time: BVHLoader reads "Frame Time: 0" on a pose.
// With more frames every one would play at 0 s (ErrorsNameLineColumnAndWhatWasExpected).
TEST(BvhMotionTest, ZeroFrameTimeIsAPoseOfOneFrame) {
  const Asset asset = Read(std::string(kHead) + "Frames: 1\nFrame Time: 0\n0 90 0 0 0 0 10 0 0\n");
  EXPECT_EQ(asset.clips[0].duration(), 0);
  ExpectRotation(asset, 1, 0, AxisAngle('Z', 10));
  const Error error = ReadError(std::string(kHead) + "Frames: 2\nFrame Time: 0\n" +
                                "0 90 0 0 0 0 10 0 0\n0 90 0 0 0 0 10 0 0\n");
  EXPECT_EQ(error.location(), "18:13");
  EXPECT_EQ(error.message(), "BVH 'Frame Time:' must be a positive number of seconds, found '0'");
}

// BVHLoader reads the header's numbers by position, Blender compares the words lower-cased.
TEST(BvhMotionTest, HeaderKeywordsInAnyCase) {
  const Asset asset = Read(std::string(kHead) +
                           "frames: 2\nFrame time: 0.25\n0 90 0 0 0 0 10 0 0\n"
                           "0 90 0 0 0 0 20 0 0\n");
  const Channel* spine = FindChannel(asset.clips[0], 1, Path::kRotation);
  ASSERT_NE(spine, nullptr);
  EXPECT_EQ(spine->times_seconds[1], 0.25);
}

// 1e308 degrees is a finite number whose radians are not: the value and its place, not the
// model check's "clip 0 channel 0: value 0 is not finite".
TEST(BvhMotionTest, RotationBeyondRadiansIsLocatedWithItsValue) {
  const Error error = ReadError(std::string(kHead) + "Frames: 2\nFrame Time: 0.1\n" +
                                "0 0 0 0 0 0 0 0 0\n0 0 0 0 -1.7e308 0 0 0 0\n");
  EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
  EXPECT_EQ(error.location(), "20:9");
  EXPECT_EQ(error.message(),
            "Hips.Xrotation (frame 2, value 5 of 9) is -1.7e308 degrees, beyond any angle whose "
            "radians a double holds");
}

}  // namespace
}  // namespace animconv
