#include "formats/assimp/dae_interpolation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

#include "libconvert/text.h"

namespace animconv {
namespace {

// A start tag longer than this is not one a tool writes; its attributes are not looked for
// further (a '>' missing from a hostile file must not make every tag a scan to the end).
constexpr size_t kMaxStartTag = 4096;

// The value of attribute `name` in the tag that starts at `tag` (up to its '>'), or "".
std::string_view Attribute(std::string_view tag, std::string_view name) {
  tag = tag.substr(0, kMaxStartTag);
  const size_t close = tag.find('>');
  tag = tag.substr(0, close);
  for (size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
    const bool starts = at > 0 && (tag[at - 1] == ' ' || tag[at - 1] == '\t' ||
                                   tag[at - 1] == '\n' || tag[at - 1] == '\r');
    size_t p = at + name.size();
    while (p < tag.size() && tag[p] == ' ') ++p;
    if (!starts || p >= tag.size() || tag[p] != '=') continue;
    ++p;
    while (p < tag.size() && tag[p] == ' ') ++p;
    if (p >= tag.size() || (tag[p] != '"' && tag[p] != '\'')) continue;
    const char quote = tag[p];
    const size_t end = tag.find(quote, p + 1);
    if (end == std::string_view::npos) return {};
    return tag.substr(p + 1, end - p - 1);
  }
  return {};
}

// Every tag `<name` (followed by a space, '>' or '/') in `text`: visit(at), its offset.
template <typename Visit>
void ForEachTag(std::string_view text, std::string_view name, Visit visit) {
  const std::string open = "<" + std::string(name);
  for (size_t at = text.find(open); at != std::string_view::npos; at = text.find(open, at + 1)) {
    const size_t after = at + open.size();
    if (after < text.size() &&
        (text[after] == ' ' || text[after] == '>' || text[after] == '/' || text[after] == '\n' ||
         text[after] == '\t' || text[after] == '\r')) {
      visit(at);
    }
  }
}

// Where the next `close` tag at or after a position is, found once per close tag: asked in order
// of position, the whole text is searched once, not once per start tag (1e6 `<source` tags and one
// `</source>` at the end would otherwise be 1e6 scans of the file).
class NextClose {
 public:
  NextClose(std::string_view text, std::string_view close) : text_(text), close_(close) {}
  size_t From(size_t position) {
    if (next_ == std::string_view::npos) return next_;
    if (searched_ && next_ >= position) return next_;
    next_ = text_.find(close_, position);
    searched_ = true;
    return next_;
  }

 private:
  std::string_view text_;
  std::string_view close_;
  size_t next_ = 0;
  bool searched_ = false;
};

std::string_view WithoutHash(std::string_view reference) {
  return !reference.empty() && reference[0] == '#' ? reference.substr(1) : reference;
}

struct Segments {
  size_t step = 0;
  size_t curve = 0;
};

// The segments of a Name_array of interpolations: every token but the last (which starts no
// segment).
Segments CountSegments(std::string_view tokens) {
  std::vector<std::string_view> names;
  size_t p = 0;
  while (p < tokens.size()) {
    while (p < tokens.size() && std::isspace(static_cast<unsigned char>(tokens[p]))) ++p;
    size_t end = p;
    while (end < tokens.size() && !std::isspace(static_cast<unsigned char>(tokens[end]))) ++end;
    if (end > p) names.push_back(tokens.substr(p, end - p));
    p = end;
  }
  Segments segments;
  for (size_t i = 0; i + 1 < names.size(); ++i) {
    if (names[i] == "STEP") {
      ++segments.step;
    } else if (names[i] != "LINEAR") {
      ++segments.curve;
    }
  }
  return segments;
}

}  // namespace

std::vector<DaeNonLinearChannel> FindNonLinearDaeChannels(std::string_view text) {
  // Sources holding a Name_array: their segments.
  std::map<std::string, Segments, std::less<>> sources;
  NextClose source_end(text, "</source>");
  NextClose names_begin(text, "<Name_array");
  NextClose names_end(text, "</Name_array>");
  ForEachTag(text, "source", [&](size_t at) {
    const std::string_view id = Attribute(text.substr(at), "id");
    const size_t end = source_end.From(at);
    const size_t names = names_begin.From(at);
    if (id.empty() || end == std::string_view::npos || names == std::string_view::npos ||
        names > end) {
      return;
    }
    const size_t open_end = text.substr(0, end).find('>', names);
    const size_t close = names_end.From(names);
    if (open_end == std::string_view::npos || close == std::string_view::npos || close > end ||
        close < open_end) {
      return;
    }
    const Segments segments = CountSegments(text.substr(open_end + 1, close - open_end - 1));
    if (segments.step + segments.curve > 0) sources.emplace(std::string(id), segments);
  });
  if (sources.empty()) return {};
  // Samplers whose INTERPOLATION input is one of them.
  std::map<std::string, Segments, std::less<>> samplers;
  NextClose sampler_end(text, "</sampler>");
  NextClose next_sampler(text, "<sampler");
  ForEachTag(text, "sampler", [&](size_t at) {
    const std::string_view id = Attribute(text.substr(at), "id");
    const size_t end = sampler_end.From(at);
    // A sampler ends before the next begins: the inputs of each are searched once.
    if (id.empty() || end == std::string_view::npos || next_sampler.From(at + 1) < end) return;
    const std::string_view sampler = text.substr(at, end - at);
    ForEachTag(sampler, "input", [&](size_t input) {
      const std::string_view tag = sampler.substr(input);
      if (Attribute(tag, "semantic") != "INTERPOLATION") return;
      const auto found = sources.find(WithoutHash(Attribute(tag, "source")));
      if (found != sources.end()) samplers.emplace(std::string(id), found->second);
    });
  });
  // Node ids to names, as Assimp names a node (its name, else its id).
  std::map<std::string, std::string, std::less<>> node_names;
  ForEachTag(text, "node", [&](size_t at) {
    const std::string_view id = Attribute(text.substr(at), "id");
    const std::string_view name = Attribute(text.substr(at), "name");
    if (!id.empty()) node_names.emplace(std::string(id), std::string(name.empty() ? id : name));
  });
  std::vector<DaeNonLinearChannel> channels;
  ForEachTag(text, "channel", [&](size_t at) {
    const std::string_view tag = text.substr(at);
    const auto found = samplers.find(WithoutHash(Attribute(tag, "source")));
    if (found == samplers.end()) return;
    const std::string_view target = Attribute(tag, "target");
    const size_t slash = target.find('/');
    const std::string_view node_id = target.substr(0, slash);
    DaeNonLinearChannel channel;
    const auto name = node_names.find(node_id);
    channel.node = name != node_names.end() ? name->second : std::string(node_id);
    channel.target = slash == std::string_view::npos ? "" : std::string(target.substr(slash + 1));
    channel.step_segments = found->second.step;
    channel.curve_segments = found->second.curve;
    channels.push_back(std::move(channel));
  });
  return channels;
}

std::string NonLinearDaeWarning(const std::vector<DaeNonLinearChannel>& channels) {
  if (channels.empty()) return {};
  FirstNames named(10);
  for (const DaeNonLinearChannel& channel : channels) {
    std::vector<std::string> kinds;
    if (channel.step_segments) kinds.push_back(fmt::format("{} STEP", channel.step_segments));
    if (channel.curve_segments) {
      kinds.push_back(fmt::format("{} curved (BEZIER, HERMITE, ...)", channel.curve_segments));
    }
    named.Add(fmt::format("{} ({}: {} segment(s))", channel.node, channel.target,
                          fmt::join(kinds, " and ")));
  }
  const std::string list = named.Join(", ");
  return fmt::format(
      "dae: Assimp plays every key as a straight line to the next, but {} channel(s) hold their "
      "keys (STEP) or curve between them: {}; the output ramps where the file holds and cuts "
      "corners where it curves (not measured); to keep the motion, bake the animation to linear "
      "keys at its frame rate in the program that wrote the file",
      channels.size(), list);
}

}  // namespace animconv
