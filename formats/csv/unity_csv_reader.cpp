#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "formats/common/number_parse.h"
#include "formats/common/source_name.h"
#include "formats/csv/unity_csv.h"
#include "libconvert/memory.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

// The file's separator and decimal mark. With separator ',' and decimal mark ',' every value is
// two fields ("0,030,-0,014,..."); this is unambiguous only because the exporter prints every
// value with a fraction part ("F3"), so a decimal mark always has digits after it.
struct Dialect {
  char separator = ',';
  char decimal_mark = '.';
};

// Splits the input into lines lazily; tracks 1-based line numbers for errors.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool Next(std::string_view* line) {
    if (position_ >= text_.size()) return false;
    const char* begin = text_.data() + position_;
    const void* newline = std::memchr(begin, '\n', text_.size() - position_);
    const size_t length = newline ? static_cast<size_t>(static_cast<const char*>(newline) - begin)
                                  : text_.size() - position_;
    position_ += length + 1;
    ++line_number_;
    *line = std::string_view(begin, length);
    if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
    return true;
  }
  size_t line_number() const { return line_number_; }

 private:
  std::string_view text_;
  size_t position_ = 0;
  size_t line_number_ = 0;
};

// Newlines + 1. One memchr per line: std::count compares and widens every byte, a visible part
// of a large import.
size_t CountLines(std::string_view text) {
  size_t lines = 1;
  if (text.empty()) return lines;  // memchr must not see a null pointer
  const char* p = text.data();
  const char* const end = p + text.size();
  while (const void* newline = std::memchr(p, '\n', static_cast<size_t>(end - p))) {
    ++lines;
    p = static_cast<const char*>(newline) + 1;
  }
  return lines;
}

bool IsBlank(std::string_view line) { return TrimAscii(line).empty(); }

Dialect DetectDialect(std::string_view line, size_t expected_values) {
  Dialect dialect;
  if (line.find(';') != std::string_view::npos) {
    dialect.separator = ';';
    dialect.decimal_mark = line.find(',') != std::string_view::npos ? ',' : '.';
    return dialect;
  }
  if (line.find('.') != std::string_view::npos) return dialect;
  std::string_view trimmed = TrimAscii(line);
  if (!trimmed.empty() && trimmed.back() == ',') trimmed.remove_suffix(1);
  const size_t fields = static_cast<size_t>(std::count(trimmed.begin(), trimmed.end(), ',')) + 1;
  if (fields == 2 * expected_values) dialect.decimal_mark = ',';
  return dialect;
}

std::string DescribeDialect(const Dialect& dialect) {
  if (dialect.separator == ';') {
    return dialect.decimal_mark == ',' ? "semicolon-separated, decimal comma"
                                       : "semicolon-separated, decimal point";
  }
  return dialect.decimal_mark == ',' ? "comma-separated with a decimal comma (0,030,-0,014,...)"
                                     : "comma-separated, decimal point";
}

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

class RowParser {
 public:
  RowParser(const ReadOptions& options, const std::vector<std::string>& bones, Dialect dialect)
      : options_(options), bones_(bones), dialect_(dialect), expected_(bones.size() * 4) {}

  // Parses the expected_ values of `line` into out[0 .. expected_).
  void Parse(std::string_view line, size_t line_number, double* out) const {
    const char* p = line.data();
    const char* end = p + line.size();
    for (size_t v = 0; v < expected_; ++v) {
      while (p < end && IsSpace(*p)) ++p;
      if (p == end) Fail(line, p, line_number, MissingValues(v));
      double value;
      const char* before = p;
      if (!ParseDecimal(&p, end, dialect_.decimal_mark, &value)) {
        Fail(line, before, line_number,
             fmt::format("expected a number for {}, found '{}'", DescribeValue(v),
                         Field(before, end)));
      }
      out[v] = value;
      if (p < end && *p == dialect_.separator) {  // the usual case: no spaces around values
        ++p;
        continue;
      }
      while (p < end && IsSpace(*p)) ++p;
      if (p < end && *p != dialect_.separator) {
        Fail(line, p, line_number,
             fmt::format("expected '{}' after {}, found '{}'", dialect_.separator, DescribeValue(v),
                         Field(p, end)));
      }
      if (p < end) ++p;  // the separator; after the last value it is the exporter's trailing one
    }
    while (p < end && IsSpace(*p)) ++p;
    if (p < end) {
      Fail(line, p, line_number,
           fmt::format("more than {} values: expected {} ({} bones x 4, x,y,z,w each){}", expected_,
                       expected_, bones_.size(),
                       options_.bone_names.empty() ? "; use --bones for another layout" : ""));
    }
  }

 private:
  std::string MissingValues(size_t found) const {
    return fmt::format("found {} values, expected {} ({} bones x 4, x,y,z,w each){}", found,
                       expected_, bones_.size(),
                       options_.bone_names.empty() ? "; use --bones for another layout" : "");
  }
  std::string DescribeValue(size_t v) const {
    return fmt::format("{}.{}", bones_[v / 4], "xyzw"[v % 4]);
  }
  std::string_view Field(const char* begin, const char* end) const {
    const char* stop = begin;
    while (stop < end && *stop != dialect_.separator && stop - begin < 24) ++stop;
    return std::string_view(begin, static_cast<size_t>(stop - begin));
  }
  [[noreturn]] void Fail(std::string_view line, const char* at, size_t line_number,
                         const std::string& message) const {
    const size_t column = static_cast<size_t>(at - line.data()) + 1;
    ThrowBadInput(options_.source, fmt::format("{}:{}", line_number, column), message);
  }

  const ReadOptions& options_;
  const std::vector<std::string>& bones_;
  Dialect dialect_;
  size_t expected_;
};

Rig MakeRig(const std::vector<std::string>& bones) {
  Rig rig;
  for (const std::string& name : bones) {
    Node node;
    node.name = name;
    node.human_bone = FindHumanBoneByUnityName(name);
    rig.nodes.push_back(std::move(node));
  }
  LinkHumanoidParents(rig);
  return rig;
}

bool IsZeroQuaternion(const double* xyzw) {
  return xyzw[0] == 0 && xyzw[1] == 0 && xyzw[2] == 0 && xyzw[3] == 0;
}

}  // namespace

std::vector<std::string> DefaultUnityBoneNames() {
  std::vector<std::string> names;
  for (int i = 0; i < kHumanBoneCount; ++i) {
    names.emplace_back(GetHumanBoneInfo(static_cast<HumanBone>(i)).vrm0);
  }
  return names;
}

std::vector<std::string> ParseBoneList(std::string_view text, const std::string& source) {
  std::vector<std::string> names;
  LineReader lines(StripUtf8Bom(text));
  std::string_view line;
  while (lines.Next(&line)) {
    const std::string_view name = TrimAscii(line);
    if (name.empty() || name.front() == '#') continue;
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      ThrowBadInput(source, fmt::format("{}:1", lines.line_number()),
                    fmt::format("bone '{}' is listed twice", name));
    }
    names.emplace_back(name);
  }
  if (names.empty()) ThrowBadInput(source, "", "the bone list names no bones");
  return names;
}

bool SniffUnityCsv(std::string_view bytes) {
  bytes = StripUtf8Bom(bytes);
  LineReader lines(bytes);
  std::string_view line;
  while (lines.Next(&line)) {
    const std::string_view trimmed = TrimAscii(line);
    if (trimmed.empty()) continue;
    const char c = trimmed.front();
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
  }
  return false;
}

Asset ReadUnityCsv(std::string_view bytes, const ReadOptions& options) {
  const std::vector<std::string> bones =
      options.bone_names.empty() ? DefaultUnityBoneNames() : options.bone_names;
  if (!(options.row_interval_seconds > 0) || !std::isfinite(options.row_interval_seconds)) {
    ThrowUsage("the row interval must be a positive number of seconds");
  }
  const size_t columns = bones.size() * 4;
  bytes = StripUtf8Bom(bytes);

  // One channel per bone column group, filled row by row. Reserving for the line count up front
  // keeps the hot loop free of reallocation (a 50 MB file is ~9 million values).
  // A row needs at least two bytes per value (a digit and a separator), which bounds the rows
  // however many blank lines the file has.
  const size_t line_estimate = std::min(CountLines(bytes), bytes.size() / (2 * columns) + 1);
  std::vector<Channel> channels(bones.size());
  std::vector<size_t> zero_rows(bones.size(), 0);
  for (size_t b = 0; b < bones.size(); ++b) {
    channels[b].node = static_cast<int>(b);
    channels[b].path = Path::kRotation;
    channels[b].width = 4;
    channels[b].times_seconds.reserve(line_estimate);
    channels[b].values.reserve(line_estimate * 4);
    PrefaultForWriting(channels[b].values.data(), channels[b].values.capacity() * sizeof(double));
    PrefaultForWriting(channels[b].times_seconds.data(),
                       channels[b].times_seconds.capacity() * sizeof(double));
  }
  // Rows are parsed into a small row-major block, then appended bone by bone: each channel gets
  // one contiguous run per block instead of one append per row into ~100 interleaved streams
  // (51 value and 51 time arrays, all at the same offset in their pages), which measured about
  // 10 % slower on a 50 MB file (docs/performance.md). Bounded by the row estimate, so a long
  // --bones list cannot make the block outgrow the input.
  constexpr size_t kBlockRows = 32;
  const size_t block_rows = std::min(kBlockRows, line_estimate);
  std::vector<double> block(block_rows * columns);
  double block_seconds[kBlockRows];
  double run[kBlockRows * 4];
  double run_seconds[kBlockRows];
  size_t block_used = 0;
  const auto flush_block = [&] {
    for (size_t b = 0; b < bones.size(); ++b) {
      size_t kept = 0;
      for (size_t r = 0; r < block_used; ++r) {
        const double* q = block.data() + r * columns + b * 4;
        // Unity's exporter writes 0,0,0,0 where the avatar lacks the bone: missing, not a
        // rotation.
        if (IsZeroQuaternion(q)) continue;
        std::memcpy(run + kept * 4, q, 4 * sizeof(double));
        run_seconds[kept] = block_seconds[r];
        ++kept;
      }
      zero_rows[b] += block_used - kept;
      channels[b].times_seconds.insert(channels[b].times_seconds.end(), run_seconds,
                                       run_seconds + kept);
      channels[b].values.insert(channels[b].values.end(), run, run + kept * 4);
    }
    block_used = 0;
  };

  LineReader lines(bytes);
  std::string_view line;
  std::optional<Dialect> dialect;
  std::optional<RowParser> parser;
  size_t rows = 0;
  while (lines.Next(&line)) {
    if (IsBlank(line)) continue;
    if (!dialect) {
      dialect = DetectDialect(line, columns);
      parser.emplace(options, bones, *dialect);
    }
    parser->Parse(line, lines.line_number(), block.data() + block_used * columns);
    block_seconds[block_used] = static_cast<double>(rows) * options.row_interval_seconds;
    if (++block_used == block_rows) flush_block();
    ++rows;
  }
  flush_block();
  if (rows == 0) ThrowBadInput(options.source, "", "the file has no data rows");

  Asset asset;
  asset.rig = MakeRig(bones);
  asset.coordinates = {Handedness::kLeft, Facing::kPlusZ};
  Clip clip;
  clip.name = ClipNameFromSource(options.source);
  std::vector<std::string> missing;
  for (size_t b = 0; b < bones.size(); ++b) {
    Channel& channel = channels[b];
    if (channel.times_seconds.empty()) {
      missing.push_back(bones[b]);
      continue;
    }
    if (zero_rows[b] > 0) {
      asset.notes.push_back(
          fmt::format("bone '{}' is 0,0,0,0 in {} of {} rows; those keys were skipped", bones[b],
                      zero_rows[b], rows));
    }
    // Values stay exactly as printed (3 decimals are not unit length, signs may jump): the
    // pipeline renormalises and aligns them for every output but unity-csv itself.
    clip.channels.push_back(std::move(channel));
  }
  if (clip.channels.empty()) {
    ThrowBadInput(
        options.source, "",
        fmt::format("no bone has any data: all {} rows are 0,0,0,0 for every bone", rows));
  }
  clip.duration_seconds = static_cast<double>(rows - 1) * options.row_interval_seconds;
  asset.clips.push_back(std::move(clip));
  asset.notes.insert(asset.notes.begin(), fmt::format("unity-csv: {} rows every {} s, {}", rows,
                                                      ShortestText(options.row_interval_seconds),
                                                      DescribeDialect(*dialect)));
  if (!missing.empty()) {
    asset.notes.push_back(fmt::format("{} bones written as 0,0,0,0 (missing on the avatar): {}",
                                      missing.size(), fmt::join(missing, ", ")));
  }
  asset.notes.push_back(
      "unity-csv carries no rest pose: rotations are taken as they are (a VRM 0.x avatar's are "
      "already normalised)");
  return asset;
}

}  // namespace animconv
