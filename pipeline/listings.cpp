// The texts of `animconv formats` and `animconv bones` (animconv/listings.h).
#include "animconv/listings.h"

#include <fmt/format.h>

#include "animconv/error.h"
#include "animconv/format.h"

namespace animconv {
namespace {

const char* Required(HumanBone bone) {
  const HumanBoneInfo& info = GetHumanBoneInfo(bone);
  if (info.required_vrm1) return "0.x 1.0";
  return info.required_vrm0 ? "0.x" : "";
}

std::string Table(const std::vector<BoneNaming>& namings) {
  std::string out;
  std::string header = fmt::format("{:>2}", "#");
  for (const BoneNaming naming : namings) header += fmt::format("  {:<26}", BoneNamingId(naming));
  out += header + "  required\n";
  for (int i = 0; i < kHumanBoneCount; ++i) {
    const HumanBone bone = static_cast<HumanBone>(i);
    std::string row = fmt::format("{:>2}", i);
    for (const BoneNaming naming : namings) {
      row += fmt::format("  {:<26}", HumanBoneName(bone, naming).value_or("-"));
    }
    out += row + "  " + Required(bone) + "\n";
  }
  return out;
}

HumanBone Resolve(const std::string& name, std::optional<BoneNaming> from) {
  if (from) {
    const std::optional<HumanBone> bone = FindHumanBone(name, *from);
    if (!bone) {
      ThrowBadInput("", "",
                    fmt::format("'{}' is not a {} bone name (animconv bones --from {} lists them)",
                                name, BoneNamingId(*from), BoneNamingId(*from)));
    }
    return *bone;
  }
  const std::vector<HumanBone> bones = FindHumanBoneInAnyNaming(name);
  if (bones.empty()) {
    ThrowBadInput("", "",
                  fmt::format("'{}' is not a humanoid bone name in any naming (animconv bones "
                              "lists them)",
                              name));
  }
  if (bones.size() > 1) {
    ThrowUsage(
        fmt::format("'{}' is Unity {} in VRM 0.x but Unity {} in VRM 1.0; give --from vrm0 "
                    "or --from vrm1",
                    name, GetHumanBoneInfo(bones[0]).unity, GetHumanBoneInfo(bones[1]).unity));
  }
  return bones.front();
}

}  // namespace

std::optional<BoneNaming> BoneNamingOption(const char* option,
                                           const std::optional<std::string>& id) {
  if (!id) return std::nullopt;
  const std::optional<BoneNaming> naming = ParseBoneNaming(*id);
  if (!naming) {
    ThrowUsage(fmt::format("--{} must be unity, vrm0, vrm1 or mixamo, not '{}'", option, *id));
  }
  return naming;
}

std::string BonesTable(const std::vector<BoneNaming>& columns) { return Table(columns); }

std::string TranslateBoneNames(const std::vector<std::string>& names,
                               std::optional<BoneNaming> from, BoneNaming to) {
  std::string lines;
  for (const std::string& name : names) {
    const HumanBone bone = Resolve(name, from);
    const std::optional<std::string> translated = HumanBoneName(bone, to);
    if (!translated) {
      ThrowBadInput("", "",
                    fmt::format("'{}' ({}) has no {} name", name, GetHumanBoneInfo(bone).unity,
                                BoneNamingId(to)));
    }
    lines += *translated + "\n";
  }
  return lines;
}

std::string FormatsTable() {
  std::string out = fmt::format("{:<16} {:<5} {:<5} {:<24} {}\n", "id", "read", "write",
                                "extensions", "description");
  for (const Format& format : Formats()) {
    std::string extensions;
    for (const std::string_view extension : format.extensions) {
      extensions += extensions.empty() ? "" : " ";
      extensions += extension;
    }
    out += fmt::format("{:<16} {:<5} {:<5} {:<24} {}\n", format.id, format.read ? "yes" : "-",
                       format.write ? "yes" : "-", extensions, format.description);
  }
  return out;
}

}  // namespace animconv
