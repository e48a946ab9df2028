// The two listing commands' texts, `animconv formats` and `animconv bones` (docs/cli.md): the CLI
// prints them, the web API returns them, so both builds list the same.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animconv/bone_names.h"

namespace animconv {

// `animconv formats`: a header line and one line per registered format (this build's registry).
std::string FormatsTable();

// `--from`/`--to` of `animconv bones`: unset for an empty text; a usage error naming `option`
// for anything but unity, vrm0, vrm1 or mixamo.
std::optional<BoneNaming> BoneNamingOption(const char* option,
                                           const std::optional<std::string>& id);

// `animconv bones` without names: the humanoid bones in Unity HumanBodyBones order, one column per
// naming, and which VRM versions require each.
std::string BonesTable(const std::vector<BoneNaming>& columns);

// `animconv bones NAME...`: each name in `to`, one per line. Every name is checked first, so an
// error (kBadInput: no such bone, or none in `to`; kUsage: a name that is two bones) leaves no
// partial text.
std::string TranslateBoneNames(const std::vector<std::string>& names,
                               std::optional<BoneNaming> from, BoneNaming to);

}  // namespace animconv
