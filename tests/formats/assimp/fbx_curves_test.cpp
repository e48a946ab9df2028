// The FBX curve scan (formats/assimp/fbx_curves.h): the interpolation Assimp 5.2 drops, read from
// the file itself, ASCII and binary.
#include "formats/assimp/fbx_curves.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "animconv/diagnostic.h"
#include "formats/assimp/assimp.h"

namespace animconv {
namespace {

std::string SharedData(const std::string& relative) {
  return std::string(ANIMCONV_SHARED_DATA_DIR) + "/" + relative;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// One ASCII curve on Cube's Lcl Translation X: 0 -> 10 held (constant), 10 -> 10 linear,
// 10 -> 0 constant-next. 46186158000 FBX ticks are a second.
const char* kAsciiFbx = R"(; FBX 7.7.0 project file
FBXHeaderExtension:  {
	FBXHeaderVersion: 1003
}
Objects:  {
	Model: 100, "Model::Cube", "Mesh" {
		Properties70:  {
			P: "Lcl Translation", "Lcl Translation", "", "A",0,0,0
		}
		Shading: T
	}
	AnimationCurveNode: 200, "AnimCurveNode::T", "" {
		Properties70:  {
			P: "d|X", "Number", "", "A",0
		}
	}
	AnimationCurve: 300, "AnimCurve::", "" {
		Default: 0
		KeyVer: 4009
		KeyTime: *4 {
			a: 0,46186158000,
92372316000,138558474000
		}
		KeyValueFloat: *4 {
			a: 0,10,10,0
		}
		;KeyAttrFlags: Constant, Linear, Constant|ConstantNext, Linear
		KeyAttrFlags: *4 {
			a: 2,1028,258,1028
		}
		KeyAttrDataFloat: *16 {
			a: 0,0,218434821,0,0,0,218434821,0,0,0,218434821,0,0,0,218434821,0
		}
		KeyAttrRefCount: *4 {
			a: 1,1,1,1
		}
	}
}
Connections:  {
	C: "OO",100,0
	C: "OP",200,100, "Lcl Translation"
	C: "OP",300,200, "d|X"
}
)";

TEST(FbxCurvesTest, AsciiConstantKeysAreFoundWithTheirJump) {
  const std::vector<FbxNonLinearCurve> curves = FindNonLinearFbxCurves(kAsciiFbx, 1000);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].node, "Cube");
  EXPECT_EQ(curves[0].property, "Lcl Translation");
  EXPECT_EQ(curves[0].component, 'X');
  EXPECT_EQ(curves[0].constant_keys, 2u);
  EXPECT_EQ(curves[0].cubic_keys, 0u);
  EXPECT_DOUBLE_EQ(curves[0].deviation, 10);  // a held segment is off by its whole jump
  size_t within = 0;
  const std::vector<std::string> warnings = NonLinearCurveWarnings(curves, 0.01, &within);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'Cube' translation"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("up to 0.1 m off"), std::string::npos) << warnings[0];
  EXPECT_EQ(within, 0u);
}

TEST(FbxCurvesTest, CubicSegmentsFollowTheirSlopesAndWeights) {
  // Slopes of the chord with the default weights: the straight line itself.
  for (const double x : {0.0, 0.25, 0.5, 0.9, 1.0}) {
    EXPECT_NEAR(FbxCubicAt(1, 4, 3, 3, 1.0 / 3, 1.0 / 3, x), 1 + 3 * x, 1e-9) << x;
  }
  // Flat ends (an ease): the midpoint is on the line by symmetry, the quarter is below it.
  EXPECT_NEAR(FbxCubicAt(0, 1, 0, 0, 1.0 / 3, 1.0 / 3, 0.5), 0.5, 1e-9);
  EXPECT_NEAR(FbxCubicAt(0, 1, 0, 0, 1.0 / 3, 1.0 / 3, 0.25), 0.15625, 1e-9);  // 3x^2 - 2x^3
}

// magnum's copy of ufbx's interpolation fixture: pCube1's X has Constant, ConstantNext, Linear
// and Cubic keys 2 cm apart (three.js played 1 cm off at 0.75 s with no warning).
TEST(FbxCurvesTest, TheUfbxInterpolationFixtureIsWarnedAbout) {
  const std::string path = SharedData("fbx/magnum-ufbx_animation-interpolation.fbx");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  const std::vector<FbxNonLinearCurve> curves = FindNonLinearFbxCurves(ReadBytes(path), 1000);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].node, "pCube1");
  EXPECT_EQ(curves[0].constant_keys, 6u);
  EXPECT_EQ(curves[0].cubic_keys, 1u);
  EXPECT_NEAR(curves[0].deviation, 2, 1e-6);
  Diagnostics diagnostics;
  ReadOptions options;
  options.source = path;
  options.diagnostics = &diagnostics;
  ReadAssimp(ReadBytes(path), options);
  bool warned = false;
  for (const Diagnostic& d : diagnostics) {
    warned = warned || (d.severity == Severity::kWarning &&
                        d.text.find("'pCube1' translation") != std::string::npos &&
                        d.text.find("up to 0.02 m off") != std::string::npos);
  }
  EXPECT_TRUE(warned);
}

// A binary FBX (zlib-compressed arrays): the multi-take test file's cubic, weighted keys with
// flat tangents ease in and out, 17.3 deg off a line on the 180 deg spin.
TEST(FbxCurvesTest, BinaryCubicKeysAreMeasured) {
  const std::string path = SharedData("fbx/assimp-nonbsd_multiple_animations_test.fbx");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  const std::vector<FbxNonLinearCurve> curves = FindNonLinearFbxCurves(ReadBytes(path), 1000);
  double spin = 0;
  for (const FbxNonLinearCurve& curve : curves) {
    EXPECT_EQ(curve.node, "Box001");
    EXPECT_EQ(curve.constant_keys, 0u);
    if (curve.property == "Lcl Rotation" && curve.component == 'Z') {
      spin = std::max(spin, curve.deviation);
    }
  }
  EXPECT_NEAR(spin, 17.3, 0.1);
}

// Bytes that are not FBX, or break off: no curves, no crash (Assimp reports the file).
TEST(FbxCurvesTest, BrokenInputGivesNoCurves) {
  EXPECT_TRUE(FindNonLinearFbxCurves("", 1000).empty());
  EXPECT_TRUE(FindNonLinearFbxCurves("Objects: { AnimationCurve: 1, \"x\" {", 1000).empty());
  const std::string ascii(kAsciiFbx);
  for (size_t cut = 0; cut < ascii.size(); cut += 37) {
    FindNonLinearFbxCurves(ascii.substr(0, cut), 1000);
  }
  std::string binary("Kaydara FBX Binary  \0\x1a\x00\xe8\x1c\x00\x00", 27);
  binary += std::string(40, '\xff');
  EXPECT_TRUE(FindNonLinearFbxCurves(binary, 1000).empty());
}

}  // namespace
}  // namespace animconv
