// Unity per-bone quaternion CSV: one row per sampled frame, per bone localRotation x,y,z,w in
// HumanBodyBones enum order (or a `--bones` list), as written by the `AnimationExporter` script
// of npaka's note.com article "three.js で VRM を表示する (3)" (2021). Details and quirks:
// docs/formats/unity-csv.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "animconv/format.h"

namespace animconv {

bool SniffUnityCsv(std::string_view bytes);
Asset ReadUnityCsv(std::string_view bytes, const ReadOptions& options);
std::string WriteUnityCsv(const Asset& asset, const WriteOptions& options);

// A `bone.txt`: one name per line; blank lines and `#` comments are skipped, duplicates rejected.
std::vector<std::string> ParseBoneList(std::string_view text, const std::string& source);

// The node a column group stands for: by humanoid identity when the name is a humanoid bone,
// else by exact node name; -1 when the rig has none. The writer fills the column from that
// node's rotation channel (and the pipeline counts what the output keeps with it).
int FindUnityCsvColumnNode(const Rig& rig, const std::string& bone_name);

// The 55 HumanBodyBones names in VRM 0.x spelling ("hips", ..., "upperChest"), the default columns.
std::vector<std::string> DefaultUnityBoneNames();

}  // namespace animconv
