#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <iostream>

#include "animconv/bone_names.h"
#include "animconv/error.h"
#include "cli/commands.h"

namespace animconv::cli {
namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "animconv bones [--from NAMING] [--to NAMING] [NAME...]";

std::optional<BoneNaming> NamingOption(const po::variables_map& map, const char* option) {
  if (!map.count(option)) return std::nullopt;
  const std::string& id = map[option].as<std::string>();
  const std::optional<BoneNaming> naming = ParseBoneNaming(id);
  if (!naming)
    ThrowUsage(fmt::format("--{} must be unity, vrm0, vrm1 or mixamo, not '{}'", option, id));
  return naming;
}

const char* Required(HumanBone bone) {
  const HumanBoneInfo& info = GetHumanBoneInfo(bone);
  if (info.required_vrm1) return "0.x 1.0";
  return info.required_vrm0 ? "0.x" : "";
}

void PrintTable(const std::vector<BoneNaming>& namings) {
  std::string header = fmt::format("{:>2}", "#");
  for (const BoneNaming naming : namings) header += fmt::format("  {:<26}", BoneNamingId(naming));
  std::cout << header << "  required\n";
  for (int i = 0; i < kHumanBoneCount; ++i) {
    const HumanBone bone = static_cast<HumanBone>(i);
    std::string row = fmt::format("{:>2}", i);
    for (const BoneNaming naming : namings) {
      row += fmt::format("  {:<26}", HumanBoneName(bone, naming).value_or("-"));
    }
    std::cout << row << "  " << Required(bone) << "\n";
  }
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

int RunBones(const std::vector<std::string>& args) {
  po::options_description visible("Bones");
  // clang-format off
  visible.add_options()
      ("help,h", "show this help")
      ("from", po::value<std::string>(),
       "naming of the NAMEs: unity, vrm0, vrm1 or mixamo (any mixamorig prefix). Default: any "
       "naming that knows the name; the VRM thumb names 'leftThumbProximal' and "
       "'rightThumbProximal' then need --from, as they are different bones in vrm0 and vrm1")
      ("to", po::value<std::string>(),
       "naming to translate into (default vrm1). Without NAMEs: the columns to list (with "
       "--from; default all four)");
  // clang-format on
  po::options_description all;
  all.add(visible);
  all.add_options()("name", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("name", -1);
  po::variables_map map;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), map);
    po::notify(map);
  } catch (const po::error& error) {
    ThrowUsage(error.what());
  }
  if (map.count("help")) {
    std::cout << kUsage << "\n\n"
              << "Without NAMEs, lists the humanoid bones (Unity HumanBodyBones order) in each "
                 "naming and which are\nrequired by VRM 0.x (17) and VRM 1.0 / VRMA (15). With "
                 "NAMEs, prints each one's name in --to,\none per line.\n\n"
              << visible << "\n";
    return 0;
  }
  const std::optional<BoneNaming> from = NamingOption(map, "from");
  const std::optional<BoneNaming> to = NamingOption(map, "to");
  if (!map.count("name")) {
    std::vector<BoneNaming> columns;
    if (from) columns.push_back(*from);
    if (to && to != from) columns.push_back(*to);
    if (columns.empty()) columns.assign(std::begin(kBoneNamings), std::end(kBoneNamings));
    PrintTable(columns);
    return 0;
  }
  const BoneNaming target = to.value_or(BoneNaming::kVrm1);
  // All names are checked before anything is printed, so a failure leaves no partial output.
  std::vector<std::string> lines;
  for (const std::string& name : map["name"].as<std::vector<std::string>>()) {
    const HumanBone bone = Resolve(name, from);
    const std::optional<std::string> translated = HumanBoneName(bone, target);
    if (!translated) {
      ThrowBadInput("", "",
                    fmt::format("'{}' ({}) has no {} name", name, GetHumanBoneInfo(bone).unity,
                                BoneNamingId(target)));
    }
    lines.push_back(*translated);
  }
  for (const std::string& line : lines) std::cout << line << "\n";
  return 0;
}

}  // namespace animconv::cli
