// Which three.js JSON flavour a text is (`three` or `three-hierarchy`), told by the keys its top
// level holds, found by skimming the text without building values (json_skim.h).
#include <string_view>

#include "formats/common/json_skim.h"
#include "formats/three/three_hierarchy.h"
#include "formats/three/three_json.h"

namespace animconv {
namespace {

struct Outline {
  // Keys of the top-level object.
  bool tracks = false;
  bool hierarchy = false;
  bool bones = false;
  bool animation = false;
  // Keys of an object in the top-level array or in the top-level `animations` array.
  bool clip_tracks = false;
  bool clip_hierarchy = false;

  bool Decided() const {
    return tracks || hierarchy || clip_tracks || clip_hierarchy || (bones && animation);
  }
};

// `place.kinds` holds '{' or '[' for the containers open at depths 1 to 3, the only ones whose
// keys matter.
void NoteKey(std::string_view key, const JsonKeyPlace& place, Outline& outline) {
  const bool top_object = place.kinds[0] == '{';
  if (place.depth == 1 && top_object) {
    outline.tracks |= key == "tracks";
    outline.hierarchy |= key == "hierarchy";
    outline.bones |= key == "bones";
    outline.animation |= key == "animation";
  }
  const bool array_element = place.depth == 2 && !top_object;
  const bool animations_element =
      place.depth == 3 && top_object && place.kinds[1] == '[' && place.top_key == "animations";
  if (array_element || animations_element) {
    outline.clip_tracks |= key == "tracks";
    outline.clip_hierarchy |= animations_element && key == "hierarchy";
  }
}

Outline SkimOutline(std::string_view text) {
  Outline outline;
  SkimJsonKeys(text, [&outline](std::string_view key, const JsonKeyPlace& place) {
    NoteKey(key, place, outline);
    return outline.Decided();
  });
  return outline;
}

}  // namespace

bool SniffThreeJson(std::string_view bytes) {
  const Outline outline = SkimOutline(bytes);
  return outline.tracks || outline.clip_tracks;
}

bool SniffThreeHierarchy(std::string_view bytes) {
  const Outline outline = SkimOutline(bytes);
  return outline.hierarchy || outline.clip_hierarchy || (outline.bones && outline.animation);
}

}  // namespace animconv
