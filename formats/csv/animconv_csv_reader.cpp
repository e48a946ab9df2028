#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "animconv/bone_names.h"
#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "formats/common/number_parse.h"
#include "formats/common/source_name.h"
#include "formats/csv/animconv_csv.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

constexpr std::string_view kStepSuffix = "@step";

struct Column {
  size_t channel = 0;    // index into the channel list being built
  size_t component = 0;  // position within the key's value
};

struct PendingChannel {
  std::string node;
  Path path = Path::kRotation;
  Interpolation interpolation = Interpolation::kLinear;
  std::vector<std::string> components;  // header order
  std::vector<size_t> columns;          // header column of each component
  Channel channel;
};

std::optional<Path> ParsePath(std::string_view text) {
  for (const Path path : {Path::kTranslation, Path::kRotation, Path::kScale, Path::kWeights}) {
    if (text == PathName(path)) return path;
  }
  return std::nullopt;
}

std::string_view NextLine(std::string_view text, size_t* position) {
  const size_t end = std::min(text.find('\n', *position), text.size());
  std::string_view line = text.substr(*position, end - *position);
  *position = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// The header record: a quoted name may hold line breaks (RFC 4180; WriteAnimconvCsv quotes
// them), so a newline ends the record only outside quotes.
std::string_view NextRecord(std::string_view text, size_t* position) {
  bool quoted = false;
  size_t end = *position;
  for (; end < text.size() && (quoted || text[end] != '\n'); ++end) {
    if (text[end] == '"') quoted = !quoted;
  }
  std::string_view record = text.substr(*position, end - *position);
  *position = end + 1;
  if (!record.empty() && record.back() == '\r') record.remove_suffix(1);
  return record;
}

// Orders components into the value layout: x,y,z(,w) for vectors, header order for weights.
// "'hips.rotation' has component 'q', expected each of x,y,z,w once".
std::string UnexpectedComponent(std::string_view node, Path path, std::string_view component) {
  return fmt::format("'{}.{}' has component '{}', expected each of {} once", node, PathName(path),
                     component, path == Path::kRotation ? "x,y,z,w" : "x,y,z");
}

void OrderComponents(PendingChannel& pending, const std::string& source) {
  if (pending.path == Path::kWeights) return;
  const size_t width = pending.path == Path::kRotation ? 4 : 3;
  std::vector<size_t> ordered(width, SIZE_MAX);
  for (size_t i = 0; i < pending.components.size(); ++i) {
    const std::string& name = pending.components[i];
    const size_t slot = name.size() == 1 ? std::string_view("xyzw").find(name[0]) : SIZE_MAX;
    if (slot >= width || ordered[slot] != SIZE_MAX) {
      ThrowBadInput(source, fmt::format("1:{}", pending.columns[i]),
                    UnexpectedComponent(pending.node, pending.path, name));
    }
    ordered[slot] = pending.columns[i];
  }
  for (size_t slot = 0; slot < width; ++slot) {
    if (ordered[slot] == SIZE_MAX) {
      ThrowBadInput(source, "1:1",
                    fmt::format("'{}.{}' has no '{}' column", pending.node, PathName(pending.path),
                                "xyzw"[slot]));
    }
  }
  pending.columns = ordered;
}

}  // namespace

bool SplitCsvLine(std::string_view line, std::vector<std::string>* fields,
                  std::vector<size_t>* columns, size_t* error_column) {
  fields->clear();
  columns->clear();
  size_t i = 0;
  for (;;) {
    columns->push_back(i + 1);
    std::string field;
    if (i < line.size() && line[i] == '"') {
      const size_t open = i++;
      for (;;) {
        if (i >= line.size()) {
          *error_column = open + 1;
          return false;
        }
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
    }
    const size_t comma = std::min(line.find(',', i), line.size());
    field += line.substr(i, comma - i);
    fields->push_back(std::move(field));
    if (comma >= line.size()) return true;
    i = comma + 1;
  }
}

bool SniffAnimconvCsv(std::string_view bytes) {
  bytes = StripUtf8Bom(bytes);
  return bytes.size() >= 5 && EqualsIgnoreCase(bytes.substr(0, 4), "time") && bytes[4] == ',';
}

Asset ReadAnimconvCsv(std::string_view bytes, const ReadOptions& options) {
  const std::string& source = options.source;
  bytes = StripUtf8Bom(bytes);
  size_t position = 0;
  std::vector<std::string> fields;
  std::vector<size_t> columns;
  size_t error_column = 0;
  const std::string_view header = NextRecord(bytes, &position);
  if (!SplitCsvLine(header, &fields, &columns, &error_column)) {
    ThrowBadInput(source, fmt::format("1:{}", error_column), "unterminated quoted field");
  }
  if (fields.empty() || !EqualsIgnoreCase(TrimAscii(fields[0]), "time")) {
    ThrowBadInput(source, "1:1", "expected a header whose first column is 'time'");
  }

  // Header: group component columns into channels by (node, path).
  std::vector<PendingChannel> pending;
  std::map<std::pair<std::string, Path>, size_t> by_target;
  for (size_t f = 1; f < fields.size(); ++f) {
    std::string_view name = fields[f];
    // Node and morph target names go into JSON and glTF outputs, which must be UTF-8.
    if (FindInvalidUtf8(name) != std::string_view::npos) {
      ThrowBadInput(source, fmt::format("1:{}", columns[f]),
                    fmt::format("column '{}': the name is not valid UTF-8", fields[f]));
    }
    Interpolation interpolation = Interpolation::kLinear;
    if (name.size() > kStepSuffix.size() &&
        name.substr(name.size() - kStepSuffix.size()) == kStepSuffix) {
      interpolation = Interpolation::kStep;
      name.remove_suffix(kStepSuffix.size());
    }
    const size_t last_dot = name.rfind('.');
    const size_t path_dot = last_dot == std::string_view::npos || last_dot == 0
                                ? std::string_view::npos
                                : name.rfind('.', last_dot - 1);
    const std::optional<Path> path =
        path_dot == std::string_view::npos
            ? std::nullopt
            : ParsePath(name.substr(path_dot + 1, last_dot - path_dot - 1));
    if (!path || path_dot == 0 || last_dot + 1 == name.size()) {
      ThrowBadInput(source, fmt::format("1:{}", columns[f]),
                    fmt::format("column '{}': expected <node>.<translation|rotation|scale|"
                                "weights>.<component>",
                                fields[f]));
    }
    const std::string node(name.substr(0, path_dot));
    auto [it, inserted] = by_target.emplace(std::make_pair(node, *path), pending.size());
    if (inserted) {
      PendingChannel channel;
      channel.node = node;
      channel.path = *path;
      channel.interpolation = interpolation;
      pending.push_back(std::move(channel));
    }
    PendingChannel& channel = pending[it->second];
    if (channel.interpolation != interpolation) {
      ThrowBadInput(source, fmt::format("1:{}", columns[f]),
                    fmt::format("column '{}': all columns of '{}.{}' must agree on @step",
                                fields[f], node, PathName(*path)));
    }
    const std::string component(name.substr(last_dot + 1));
    if (name.size() > options.limits.name_bytes) {
      ThrowBadInput(source, fmt::format("1:{}", columns[f]),
                    fmt::format("a column name of {} bytes, more than the limit of {}", name.size(),
                                options.limits.name_bytes));
    }
    // Bounded before the duplicate search, which a header of a million columns on one channel
    // would make quadratic (docs/reliability.md, Limits): weights by the morph target limit, a
    // transform by its x,y,z(,w), as OrderComponents words it.
    const bool weights = channel.path == Path::kWeights;
    if (weights && channel.components.size() >= options.limits.morph_targets) {
      ThrowBadInput(source, fmt::format("1:{}", columns[f]),
                    fmt::format("column '{}': more than {} morph targets (the limit) of '{}.{}'",
                                fields[f], options.limits.morph_targets, node, PathName(*path)));
    }
    if (std::find(channel.components.begin(), channel.components.end(), component) !=
        channel.components.end()) {
      ThrowBadInput(source, fmt::format("1:{}", columns[f]),
                    fmt::format("column '{}' appears twice", fields[f]));
    }
    const size_t width = channel.path == Path::kRotation ? 4 : 3;
    if (!weights && channel.components.size() >= width) {
      ThrowBadInput(source, fmt::format("1:{}", columns[f]),
                    UnexpectedComponent(node, *path, component));
    }
    channel.components.push_back(component);
    channel.columns.push_back(f);
  }
  if (pending.empty()) ThrowBadInput(source, "1:1", "the header names no channel columns");
  if (pending.size() > options.limits.channels) {
    ThrowBadInput(source, "1:1",
                  fmt::format("the header names {} channels, more than the limit of {}",
                              pending.size(), options.limits.channels));
  }
  for (PendingChannel& channel : pending) OrderComponents(channel, source);

  // Rows.
  const size_t expected_fields = fields.size();
  double previous_time = -1;
  size_t line_number = 1 + static_cast<size_t>(std::count(header.begin(), header.end(), '\n'));
  std::vector<double> cells;
  std::vector<bool> present;
  size_t rows = 0;
  while (position < bytes.size()) {
    const std::string_view line = NextLine(bytes, &position);
    ++line_number;
    if (TrimAscii(line).empty()) continue;
    if (++rows > options.limits.keys_per_channel) {
      ThrowBadInput(source, fmt::format("{}:1", line_number),
                    fmt::format("more than the limit of {} rows (keys per channel)",
                                options.limits.keys_per_channel));
    }
    if (!SplitCsvLine(line, &fields, &columns, &error_column)) {
      ThrowBadInput(source, fmt::format("{}:{}", line_number, error_column),
                    "unterminated quoted field");
    }
    if (fields.size() != expected_fields) {
      ThrowBadInput(
          source, fmt::format("{}:1", line_number),
          fmt::format("{} fields, expected {} like the header", fields.size(), expected_fields));
    }
    cells.assign(fields.size(), 0);
    present.assign(fields.size(), false);
    for (size_t f = 0; f < fields.size(); ++f) {
      const std::string_view text = TrimAscii(fields[f]);
      if (text.empty()) continue;
      const char* cursor = text.data();
      if (!ParseDecimal(&cursor, text.data() + text.size(), '.', &cells[f]) ||
          cursor != text.data() + text.size()) {
        ThrowBadInput(source, fmt::format("{}:{}", line_number, columns[f]),
                      fmt::format("expected a number, found '{}'", fields[f]));
      }
      present[f] = true;
    }
    if (!present[0]) {
      ThrowBadInput(source, fmt::format("{}:1", line_number), "the time cell is empty");
    }
    const double seconds = cells[0];
    if (seconds < 0 || seconds <= previous_time) {
      ThrowBadInput(
          source, fmt::format("{}:1", line_number),
          fmt::format("time {} must be >= 0 and greater than the previous row's", fields[0]));
    }
    previous_time = seconds;
    for (PendingChannel& channel : pending) {
      size_t filled = 0;
      for (const size_t column : channel.columns) filled += present[column] ? 1 : 0;
      if (filled == 0) continue;  // an empty group: no key of this channel at this time
      if (filled != channel.columns.size()) {
        ThrowBadInput(source, fmt::format("{}:{}", line_number, columns[channel.columns.front()]),
                      fmt::format("'{}.{}' has some components empty and some not", channel.node,
                                  PathName(channel.path)));
      }
      if (channel.path == Path::kRotation) {
        const double rotation[4] = {cells[channel.columns[0]], cells[channel.columns[1]],
                                    cells[channel.columns[2]], cells[channel.columns[3]]};
        if (Length(LoadQuat(rotation)) == 0) {
          ThrowBadInput(
              source, fmt::format("{}:{}", line_number, columns[channel.columns.front()]),
              fmt::format("'{}.rotation' has a zero quaternion at t={}", channel.node, fields[0]));
        }
      }
      channel.channel.times_seconds.push_back(seconds);
      for (const size_t column : channel.columns) channel.channel.values.push_back(cells[column]);
    }
  }

  Asset asset;
  asset.coordinates = {Handedness::kRight, Facing::kUnknown};
  Clip clip;
  clip.name = ClipNameFromSource(source);
  std::map<std::string, int> node_index;
  for (PendingChannel& pending_channel : pending) {
    auto [it, inserted] =
        node_index.emplace(pending_channel.node, static_cast<int>(asset.rig.nodes.size()));
    if (inserted) {
      Node node;
      node.name = pending_channel.node;
      asset.rig.nodes.push_back(std::move(node));
    }
    Node& node = asset.rig.nodes[static_cast<size_t>(it->second)];
    Channel& channel = pending_channel.channel;
    if (channel.times_seconds.empty()) continue;
    channel.node = it->second;
    channel.path = pending_channel.path;
    channel.interpolation = pending_channel.interpolation;
    channel.width = static_cast<int>(pending_channel.columns.size());
    if (channel.path == Path::kWeights) {
      node.morph_target_count = channel.width;
      bool numbered = true;
      for (size_t i = 0; i < pending_channel.components.size(); ++i) {
        numbered = numbered && pending_channel.components[i] == std::to_string(i);
      }
      // Named columns name the targets the file animates, not a mesh's whole list (the file has
      // no mesh): a three.js clip of them binds each by name (per-target tracks), where one
      // track of all put `blink` of a mesh "smile, blink, angry" on smile (review of session 35).
      if (!numbered) {
        node.morph_target_names = pending_channel.components;
        node.morph_targets_partial = true;
      }
    }
    clip.channels.push_back(std::move(channel));
  }
  if (clip.channels.empty()) ThrowBadInput(source, "", "the file has no data rows");
  // After every column's node: the thumbs are told apart by the names of the whole rig.
  TagHumanoidByExactNames(asset.rig);
  asset.clips.push_back(std::move(clip));
  return asset;
}

}  // namespace animconv
