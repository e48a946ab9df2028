#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <iostream>

#include "animconv/error.h"
#include "animconv/listings.h"
#include "cli/commands.h"

namespace animconv::cli {
namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "animconv bones [--from NAMING] [--to NAMING] [NAME...]";

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
  const auto text = [&map](const char* option) -> std::optional<std::string> {
    if (!map.count(option)) return std::nullopt;
    return map[option].as<std::string>();
  };
  const std::optional<BoneNaming> from = BoneNamingOption("from", text("from"));
  const std::optional<BoneNaming> to = BoneNamingOption("to", text("to"));
  if (!map.count("name")) {
    std::vector<BoneNaming> columns;
    if (from) columns.push_back(*from);
    if (to && to != from) columns.push_back(*to);
    if (columns.empty()) columns.assign(std::begin(kBoneNamings), std::end(kBoneNamings));
    std::cout << BonesTable(columns);
    return 0;
  }
  std::cout << TranslateBoneNames(map["name"].as<std::vector<std::string>>(), from,
                                  to.value_or(BoneNaming::kVrm1));
  return 0;
}

}  // namespace animconv::cli
