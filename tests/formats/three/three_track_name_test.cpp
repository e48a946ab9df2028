// ParseThreeTrackName (formats/three/three_track_name.cpp): three.js r187
// PropertyBinding.parseTrackName, its grammar's corners, and hostile names.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "formats/three/three_json.h"

namespace animconv {
namespace {

ThreeTrackName Parsed(const std::string& track_name) {
  const std::optional<ThreeTrackName> parsed = ParseThreeTrackName(track_name);
  EXPECT_TRUE(parsed) << track_name;
  return parsed.value_or(ThreeTrackName{});
}

void ExpectParts(const std::string& track_name, const std::vector<std::string>& parts) {
  const ThreeTrackName parsed = Parsed(track_name);
  EXPECT_EQ((std::vector<std::string>{parsed.node, parsed.object, parsed.object_index,
                                      parsed.property, parsed.property_index}),
            parts)
      << track_name;
}

TEST(ThreeTrackNameTest, ParsesTheReferenceTable) {
  // node, object, object index, property, property index
  ExpectParts("hips.quaternion", {"hips", "", "", "quaternion", ""});
  ExpectParts("Face.morphTargetInfluences[smile]",
              {"Face", "", "", "morphTargetInfluences", "smile"});
  ExpectParts(".morphTargetInfluences[3]", {"", "", "", "morphTargetInfluences", "3"});
  ExpectParts("Body.morphTargetInfluences", {"Body", "", "", "morphTargetInfluences", ""});
  ExpectParts(".bones[J_Bip_C_Hips].position", {"", "bones", "J_Bip_C_Hips", "position", ""});
  ExpectParts("mesh.material.opacity", {"mesh", "material", "", "opacity", ""});
  ExpectParts("Armature/Hips.quaternion", {"Hips", "", "", "quaternion", ""});
}

TEST(ThreeTrackNameTest, FollowsTheGrammarsCorners) {
  // ':' and '/' are directory separators: a raw Mixamo name loses its prefix...
  ExpectParts("mixamorig:Hips.quaternion", {"Hips", "", "", "quaternion", ""});
  ExpectParts("a/b:c/Hips.position", {"Hips", "", "", "position", ""});
  // ...except inside brackets, where anything goes (the greedy `.+` even takes ']').
  ExpectParts(".bones[mixamorig:Hips].quaternion",
              {"", "bones", "mixamorig:Hips", "quaternion", ""});
  ExpectParts("n.p[a]b]", {"n", "", "", "p", "a]b"});
  // Dots stay in the node name unless the last segment is an allow-listed object name.
  ExpectParts("my.node.name.position", {"my.node.name", "", "", "position", ""});
  ExpectParts("a.bones.b.position", {"a.bones.b", "", "", "position", ""});
  ExpectParts("rig.bones.position", {"rig", "bones", "", "position", ""});
  ExpectParts("n.map.offset", {"n", "map", "", "offset", ""});
  ExpectParts("Armature.bones[Hips].quaternion", {"Armature", "bones", "Hips", "quaternion", ""});
  // The allow-list overrides an object the expression found (three.js does the same).
  ExpectParts("a.bones.x[1].position", {"a", "bones", "1", "position", ""});
  ExpectParts("hips.position[x]", {"hips", "", "", "position", "x"});
}

TEST(ThreeTrackNameTest, RejectsWhatThreeJsCannotParse) {
  for (const char* name : {"", "hips", "hips.", ".", "a//b.position", "x[1].position", "a.b[c]d.e",
                           "n.p[]", "n.p[a\nb]", "n.[x].p"}) {
    EXPECT_FALSE(ParseThreeTrackName(name)) << name;
  }
}

TEST(ThreeTrackNameTest, LongHostileNamesParseInLinearTime) {
  std::string dots(1'000'000, '.');
  EXPECT_FALSE(ParseThreeTrackName(dots));
  std::string brackets = "n.o[";
  for (int i = 0; i < 200'000; ++i) brackets += "].p";
  EXPECT_TRUE(ParseThreeTrackName(brackets));
}

// --- Clip layouts ---

}  // namespace
}  // namespace animconv
