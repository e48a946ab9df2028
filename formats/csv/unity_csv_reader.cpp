#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>

#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "formats/common/number_parse.h"
#include "formats/common/source_name.h"
#include "formats/csv/unity_csv.h"
#include "libconvert/parallel.h"
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
      if (const size_t taken = ParseExporterValueAndSeparator(p, end, dialect_.decimal_mark,
                                                              dialect_.separator, out + v)) {
        p += taken;
        continue;
      }
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

// The rows of one block of the file's lines. A large file is cut into blocks at line ends and
// parsed on every core (issue 18; docs/performance.md, "Against the seed pipeline"). Every block
// writes its keys straight into the final channels, from `first_key` on: the most keys the
// blocks before it can hold, so the blocks never overlap. The gaps left where a block held fewer
// (blank lines, 0,0,0,0 rows) are closed afterwards, in order, so the result is the serial one.
struct RowBlock {
  std::string_view text;
  size_t first_line = 1;          // the 1-based line number of text's first line, for errors
  size_t capacity = 0;            // the most rows the block can hold (RowCapacity)
  size_t first_key = 0;           // where its keys start in every channel: the capacities before it
  std::vector<size_t> kept;       // keys written per bone; times hold the row within the block
  std::vector<size_t> zero_rows;  // 0,0,0,0 rows skipped per bone
  size_t rows = 0;
  std::exception_ptr failure;
};

// A row holds `columns` values of at least one character, with a separator between two, so it
// takes at least 2 x columns - 1 bytes and its line end: this bounds the rows however many blank
// lines the text has (and is the exact count for a file of short rows).
size_t RowCapacity(std::string_view text, size_t columns) {
  return std::min(CountLines(text), text.size() / (2 * columns) + 1);
}

// Rows are parsed into a small row-major batch, then written bone by bone: each channel gets
// one contiguous run per batch instead of one write per row into ~100 interleaved streams
// (51 value and 51 time arrays, all at the same offset in their pages), which measured about
// 10 % slower on a 50 MB file (docs/performance.md). Bounded by the block's capacity, so a long
// --bones list cannot make the batch outgrow the input.
void ParseRowBlock(const RowParser& parser, std::vector<Channel>& channels, RowBlock* block) {
  const size_t bone_count = channels.size();
  const size_t columns = bone_count * 4;
  block->kept.assign(bone_count, 0);
  block->zero_rows.assign(bone_count, 0);
  constexpr size_t kBatchRows = 32;
  const size_t batch_rows = std::max<size_t>(1, std::min(kBatchRows, block->capacity));
  std::vector<double> batch(batch_rows * columns);
  double batch_rows_index[kBatchRows];
  size_t batch_used = 0;
  const auto flush_batch = [&] {
    for (size_t b = 0; b < bone_count; ++b) {
      Channel& channel = channels[b];
      const size_t first = block->first_key + block->kept[b];
      double* times = channel.times_seconds.data() + first;
      double* values = channel.values.data() + first * 4;
      size_t kept = 0;
      for (size_t r = 0; r < batch_used; ++r) {
        const double* q = batch.data() + r * columns + b * 4;
        // Unity's exporter writes 0,0,0,0 where the avatar lacks the bone: missing, not a
        // rotation.
        if (IsZeroQuaternion(q)) continue;
        std::memcpy(values + kept * 4, q, 4 * sizeof(double));
        times[kept] = batch_rows_index[r];
        ++kept;
      }
      block->zero_rows[b] += batch_used - kept;
      block->kept[b] += kept;
    }
    batch_used = 0;
  };
  LineReader lines(block->text);
  std::string_view line;
  while (lines.Next(&line)) {
    if (IsBlank(line)) continue;
    // RowCapacity's bound, kept by every row the parser accepts; checked, as the writes above
    // go to storage sized by it.
    if (block->rows == block->capacity) throw std::logic_error("unity-csv: more rows than lines");
    parser.Parse(line, block->first_line + lines.line_number() - 1,
                 batch.data() + batch_used * columns);
    batch_rows_index[batch_used] = static_cast<double>(block->rows);
    if (++batch_used == batch_rows) flush_batch();
    ++block->rows;
  }
  flush_batch();
}

// Cuts `text` into up to `count` (at least one) blocks of whole lines of about equal size.
std::vector<RowBlock> CutIntoBlocks(std::string_view text, size_t count) {
  std::vector<RowBlock> blocks;
  size_t begin = 0;
  size_t line = 1;
  for (size_t i = 1; i <= count && (i == 1 || begin < text.size()); ++i) {
    size_t end = i == count ? text.size() : std::max(begin, text.size() / count * i);
    if (end < text.size()) {
      const size_t newline = text.find('\n', end);
      end = newline == std::string_view::npos ? text.size() : newline + 1;
    }
    RowBlock block;
    block.text = text.substr(begin, end - begin);
    block.first_line = line;
    blocks.push_back(std::move(block));
    if (end < text.size()) line += CountLines(text.substr(begin, end - begin)) - 1;
    begin = end;
  }
  return blocks;
}

// The first line with something on it: the dialect is read from it.
std::optional<std::string_view> FirstDataLine(std::string_view text) {
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line)) {
    if (!IsBlank(line)) return line;
  }
  return std::nullopt;
}

// Blocks pay off from a few MB (a 50 MB file parses in ~0.15 s on one core).
constexpr size_t kParallelParseBytes = size_t{4} << 20;

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
  const std::optional<std::string_view> first_line = FirstDataLine(bytes);
  if (!first_line) ThrowBadInput(options.source, "", "the file has no data rows");
  const Dialect dialect = DetectDialect(*first_line, columns);
  const RowParser parser(options, bones, dialect);

  std::vector<RowBlock> blocks =
      CutIntoBlocks(bytes, bytes.size() >= kParallelParseBytes ? ParallelThreadCount() : 1);
  size_t key_capacity = 0;
  for (RowBlock& block : blocks) {
    block.capacity = RowCapacity(block.text, columns);
    block.first_key = key_capacity;
    key_capacity += block.capacity;
  }
  // The channels are sized for every row up front, which keeps the hot loop free of reallocation
  // (a 50 MB file is ~9 million values); bone by bone on every core when the file is cut: filling
  // ~75 MB of fresh pages is itself tens of milliseconds.
  std::vector<Channel> channels(bones.size());
  const unsigned threads = blocks.size() > 1 ? 0 : 1;
  ParallelFor(
      bones.size(),
      [&](size_t bone) {
        channels[bone].times_seconds.resize(key_capacity);
        channels[bone].values.resize(key_capacity * 4);
      },
      threads);
  ParallelFor(blocks.size(), [&](size_t b) {
    RowBlock& block = blocks[b];
    try {
      ParseRowBlock(parser, channels, &block);
    } catch (...) {
      block.failure = std::current_exception();  // the first in file order is reported
    }
  });
  for (const RowBlock& block : blocks) {
    if (block.failure) std::rethrow_exception(block.failure);
  }

  std::vector<size_t> zero_rows(bones.size(), 0);
  std::vector<size_t> block_first_rows(blocks.size(), 0);
  for (size_t b = 1; b < blocks.size(); ++b) {
    block_first_rows[b] = block_first_rows[b - 1] + blocks[b - 1].rows;
  }
  const size_t rows = block_first_rows.back() + blocks.back().rows;
  // Each block's keys move down to close the gap before them, and their row indices become times
  // as the serial reader computed them: (absolute row) x interval.
  ParallelFor(
      bones.size(),
      [&](size_t bone) {
        Channel& channel = channels[bone];
        double* const times = channel.times_seconds.data();
        double* const values = channel.values.data();
        size_t end = 0;
        for (size_t b = 0; b < blocks.size(); ++b) {
          const RowBlock& block = blocks[b];
          const size_t count = block.kept[bone];
          if (block.first_key != end && count > 0) {
            std::memmove(times + end, times + block.first_key, count * sizeof(double));
            std::memmove(values + end * 4, values + block.first_key * 4,
                         count * 4 * sizeof(double));
          }
          for (size_t k = end; k < end + count; ++k) {
            times[k] = static_cast<double>(block_first_rows[b] + static_cast<size_t>(times[k])) *
                       options.row_interval_seconds;
          }
          end += count;
          zero_rows[bone] += block.zero_rows[bone];
        }
        channel.times_seconds.resize(end);
        channel.values.resize(end * 4);
      },
      threads);
  for (size_t b = 0; b < bones.size(); ++b) {
    channels[b].node = static_cast<int>(b);
    channels[b].path = Path::kRotation;
    channels[b].width = 4;
  }
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
                                                      DescribeDialect(dialect)));
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
