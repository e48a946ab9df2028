#include <fmt/format.h>

#include <algorithm>

#include "animconv/error.h"
#include "animconv/sample.h"
#include "formats/common/writer_support.h"
#include "formats/csv/animconv_csv.h"

namespace animconv {
namespace {

const char* const kVectorComponents[] = {"x", "y", "z", "w"};

void AppendCsvField(std::string& out, std::string_view field) {
  const bool quote = field.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!field.empty() && (field.front() == ' ' || field.back() == ' '));
  if (!quote) {
    out += field;
    return;
  }
  out += '"';
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

std::vector<std::string> ComponentNames(const Channel& channel, const Node& node) {
  std::vector<std::string> names;
  for (int i = 0; i < channel.width; ++i) {
    if (channel.path != Path::kWeights) {
      names.emplace_back(kVectorComponents[i]);
    } else if (!node.morph_target_names.empty()) {
      names.push_back(node.morph_target_names[static_cast<size_t>(i)]);
    } else {
      names.push_back(std::to_string(i));
    }
  }
  return names;
}

}  // namespace

std::string WriteAnimconvCsv(const Asset& asset, const WriteOptions&) {
  const Clip& clip = SingleClip(asset, "csv");
  RequireInterpolation(asset, clip, "csv", true);

  std::string out = "time";
  std::vector<double> times;
  for (const Channel& channel : clip.channels) {
    const Node& node = asset.rig.nodes[channel.node];
    // Columns are named after nodes; a nameless one could not be read back.
    if (node.name.empty()) {
      ThrowUsage(fmt::format("csv: node {} has no name to label its columns with", channel.node));
    }
    for (const std::string& component : ComponentNames(channel, node)) {
      out += ',';
      std::string name = node.name + "." + PathName(channel.path) + "." + component;
      if (channel.interpolation == Interpolation::kStep) name += "@step";
      AppendCsvField(out, name);
    }
    times.insert(times.end(), channel.times_seconds.begin(), channel.times_seconds.end());
  }
  out += '\n';
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());

  std::vector<double> value;
  for (const double seconds : times) {
    AppendDouble(out, seconds);
    for (const Channel& channel : clip.channels) {
      value.resize(static_cast<size_t>(channel.width));
      // Where the channel has no key at this row's time, write its interpolated value so every
      // cell is filled and a spreadsheet shows the real curve.
      EvaluateChannel(channel, seconds, value.data());
      for (const double component : value) {
        out += ',';
        AppendDouble(out, component);
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace animconv
