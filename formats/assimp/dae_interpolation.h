// What a COLLADA file's own animation samplers say about their interpolation, read from the text
// before Assimp: Assimp 5.2's COLLADA importer reads a sampler's INPUT and OUTPUT and plays every
// segment as a straight line, whatever its INTERPOLATION source says (STEP holds a key's value
// until the next; BEZIER, HERMITE, BSPLINE and CARDINAL curve between them: COLLADA 1.4.1 spec,
// "Curve Interpolation").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace animconv {

// One <channel> whose sampler's segments are not all LINEAR.
struct DaeNonLinearChannel {
  std::string node;    // the target node's name (its id where it has no name), as Assimp names it
  std::string target;  // the channel's target attribute after the node ("rotZ.ANGLE")
  size_t step_segments = 0;
  size_t curve_segments = 0;  // BEZIER, HERMITE, BSPLINE, CARDINAL
};

// The channels of `text` (a COLLADA document) whose segments, every key but the last, are not all
// LINEAR. Markup this scan cannot follow gives no channel (Assimp reports a broken file itself).
std::vector<DaeNonLinearChannel> FindNonLinearDaeChannels(std::string_view text);

// The warning for `channels` (empty when there are none): the nodes, what their keys are, and the
// fix.
std::string NonLinearDaeWarning(const std::vector<DaeNonLinearChannel>& channels);

}  // namespace animconv
