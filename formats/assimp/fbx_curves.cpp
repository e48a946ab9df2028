#include "formats/assimp/fbx_curves.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

namespace animconv {
namespace {

// A record of the FBX node tree, as far as this scan needs it: Objects/*/* and Connections/C.
struct Prop {
  std::string text;             // S (binary) or a quoted string (ASCII)
  std::vector<int64_t> ints;    // integers; a float array's raw 32-bit patterns
  std::vector<double> numbers;  // every number, as a double
};
struct Record {
  std::string name;
  std::vector<Prop> props;
  std::vector<Record> children;
  const Record* Child(std::string_view child) const {
    for (const Record& r : children)
      if (r.name == child) return &r;
    return nullptr;
  }
};
constexpr int kDepth = 3;       // Objects > AnimationCurve > KeyTime (> a, in ASCII)
constexpr int kMostDepth = 64;  // ASCII records nested deeper stop the scan

// ---- binary ----

class BinaryParser {
 public:
  BinaryParser(std::string_view bytes, uint64_t max_elements)
      : bytes_(bytes), max_elements_(max_elements) {}

  std::optional<std::vector<Record>> Parse() {
    if (bytes_.size() < 27) return std::nullopt;
    width_ = Read(23, 4) >= 7500 ? 8 : 4;
    std::vector<Record> top;
    if (!List(27, bytes_.size(), 0, &top)) return std::nullopt;
    return top;
  }

 private:
  uint64_t Read(size_t at, size_t width) const {
    uint64_t value = 0;
    std::memcpy(&value, bytes_.data() + at, width);
    return value;
  }

  bool List(size_t at, size_t end, int depth, std::vector<Record>* out) {
    const size_t header = 3 * width_ + 1;
    while (at + header <= end) {
      const uint64_t record_end = Read(at, width_);
      const uint64_t count = Read(at + width_, width_);
      const uint64_t length = Read(at + 2 * width_, width_);
      const size_t name_length = static_cast<unsigned char>(bytes_[at + 3 * width_]);
      if (record_end == 0) return true;  // the null record that ends a list
      const size_t props = at + header + name_length;
      if (record_end > end || record_end <= at || props > record_end ||
          length > record_end - props) {
        return false;
      }
      Record record;
      record.name = std::string(bytes_.substr(at + header, name_length));
      // Only what the scan reads is kept: the Objects and Connections trees.
      const bool wanted = depth == 0   ? record.name == "Objects" || record.name == "Connections"
                          : depth == 1 ? record.name == "AnimationCurve" ||
                                             record.name == "AnimationCurveNode" ||
                                             record.name == "Model" || record.name == "C"
                                       : true;
      if (wanted) {
        if (!Props(props, props + length, count, &record.props)) return false;
        if (depth < kDepth && !List(props + length, record_end, depth + 1, &record.children)) {
          return false;
        }
        out->push_back(std::move(record));
      }
      at = record_end;
    }
    return true;
  }

  bool Props(size_t p, size_t end, uint64_t count, std::vector<Prop>* out) {
    for (uint64_t k = 0; k < count; ++k) {
      if (p >= end) return false;
      const char type = bytes_[p++];
      Prop prop;
      const auto scalar = [&](size_t size) {
        if (p + size > end) return false;
        if (type == 'D' || type == 'F') {
          double d = 0;
          float f = 0;
          if (type == 'D') std::memcpy(&d, bytes_.data() + p, 8);
          if (type == 'F') std::memcpy(&f, bytes_.data() + p, 4), d = f;
          prop.numbers.push_back(d);
        } else {
          const uint64_t raw = Read(p, size);
          const int64_t value = size == 8   ? static_cast<int64_t>(raw)
                                : size == 4 ? static_cast<int32_t>(raw)
                                : size == 2 ? static_cast<int16_t>(raw)
                                            : static_cast<int64_t>(raw);
          prop.ints.push_back(value);
          prop.numbers.push_back(static_cast<double>(value));
        }
        p += size;
        return true;
      };
      switch (type) {
        case 'Y':
          if (!scalar(2)) return false;
          break;
        case 'C':
          if (!scalar(1)) return false;
          break;
        case 'I':
        case 'F':
          if (!scalar(4)) return false;
          break;
        case 'D':
        case 'L':
          if (!scalar(8)) return false;
          break;
        case 'S':
        case 'R': {
          if (p + 4 > end) return false;
          const size_t size = static_cast<size_t>(Read(p, 4));
          if (size > end - p - 4) return false;
          prop.text = std::string(bytes_.substr(p + 4, size));
          p += 4 + size;
          break;
        }
        case 'd':
        case 'f':
        case 'l':
        case 'i':
        case 'b': {
          if (p + 12 > end) return false;
          const uint64_t elements = Read(p, 4), encoding = Read(p + 4, 4), stored = Read(p + 8, 4);
          if (stored > end - p - 12) return false;
          if (!Array(type, elements, encoding, bytes_.substr(p + 12, stored), &prop)) return false;
          p += 12 + stored;
          break;
        }
        default:
          return false;
      }
      out->push_back(std::move(prop));
    }
    return true;
  }

  bool Array(char type, uint64_t elements, uint64_t encoding, std::string_view data, Prop* prop) {
    const size_t element = type == 'd' || type == 'l' ? 8 : type == 'b' ? 1 : 4;
    if (elements > max_elements_) return false;
    std::string inflated;
    if (encoding == 1) {
      inflated.resize(elements * element);
      uLongf size = static_cast<uLongf>(inflated.size());
      if (uncompress(reinterpret_cast<Bytef*>(inflated.data()), &size,
                     reinterpret_cast<const Bytef*>(data.data()),
                     static_cast<uLong>(data.size())) != Z_OK ||
          size != inflated.size()) {
        return false;
      }
      data = inflated;
    } else if (encoding != 0 || data.size() != elements * element) {
      return false;
    }
    for (size_t i = 0; i < elements; ++i) {
      const char* at = data.data() + i * element;
      if (type == 'd') {
        double d;
        std::memcpy(&d, at, 8);
        prop->numbers.push_back(d);
      } else if (type == 'f') {
        float f;
        uint32_t bits;
        std::memcpy(&f, at, 4);
        std::memcpy(&bits, at, 4);
        prop->numbers.push_back(f);
        prop->ints.push_back(bits);
      } else {
        int64_t v = 0;
        if (type == 'l') std::memcpy(&v, at, 8);
        if (type == 'i') {
          int32_t i32;
          std::memcpy(&i32, at, 4);
          v = i32;
        }
        if (type == 'b') v = static_cast<unsigned char>(*at);
        prop->ints.push_back(v);
        prop->numbers.push_back(static_cast<double>(v));
      }
    }
    return true;
  }

  std::string_view bytes_;
  uint64_t max_elements_;
  size_t width_ = 4;
};

// ---- ASCII ----
// Records are `Name: value, value, ... { children }`; `;` starts a comment; a value list goes on
// over line ends after a comma; an array is `*N { a: values }`.

class AsciiParser {
 public:
  AsciiParser(std::string_view text, uint64_t max_elements) : text_(text), max_(max_elements) {}

  std::optional<std::vector<Record>> Parse() {
    std::vector<Record> top;
    while (true) {
      Skip();
      if (at_ >= text_.size()) return top;
      Record record;
      if (!ParseRecord(0, &record)) return std::nullopt;
      if (record.name == "Objects" || record.name == "Connections")
        top.push_back(std::move(record));
    }
  }

 private:
  void Skip() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == ';') {
        while (at_ < text_.size() && text_[at_] != '\n') ++at_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++at_;
      } else {
        return;
      }
    }
  }
  static bool WordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '|' || c == '-' ||
           c == '+' || c == '.' || c == '*';
  }

  bool ParseRecord(int depth, Record* record) {
    if (depth > kMostDepth) return false;  // not a file this scan follows: Assimp decides
    const size_t start = at_;
    while (at_ < text_.size() && WordChar(text_[at_])) ++at_;
    if (at_ == start || at_ >= text_.size() || text_[at_] != ':') return false;
    record->name = std::string(text_.substr(start, at_ - start));
    ++at_;
    const bool keep = depth <= kDepth;
    // Values.
    while (true) {
      Skip();
      if (at_ >= text_.size()) return true;
      const char c = text_[at_];
      if (c == '{' || c == '}') break;
      if (c == ',') {  // an empty value (`Content: , "..."`)
        ++at_;
        continue;
      }
      if (c == '"') {
        const size_t close = text_.find('"', at_ + 1);
        if (close == std::string_view::npos) return false;
        if (keep)
          record->props.push_back(
              Prop{std::string(text_.substr(at_ + 1, close - at_ - 1)), {}, {}});
        at_ = close + 1;
      } else {
        const size_t value = at_;
        while (at_ < text_.size() && WordChar(text_[at_])) ++at_;
        if (at_ == value) return false;
        if (at_ < text_.size() && text_[at_] == ':') {  // the next record's name
          at_ = value;
          return true;
        }
        if (keep) AddNumber(text_.substr(value, at_ - value), record);
      }
      Skip();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ >= text_.size() || text_[at_] != '{') return true;
      break;
    }
    if (text_[at_] == '}') return true;
    ++at_;  // '{'
    while (true) {
      Skip();
      if (at_ >= text_.size()) return false;
      if (text_[at_] == '}') {
        ++at_;
        return true;
      }
      Record child;
      if (!ParseRecord(depth + 1, &child)) return false;
      if (depth + 1 <= kDepth) record->children.push_back(std::move(child));
    }
  }

  void AddNumber(std::string_view word, Record* record) {
    // `a:` arrays hold every number as one list; other records one value per prop.
    Prop* prop = nullptr;
    if (record->name == "a" && !record->props.empty()) {
      prop = &record->props.back();
    } else {
      record->props.emplace_back();
      prop = &record->props.back();
    }
    if (prop->numbers.size() >= max_) return;
    const std::string text(word);
    char* end = nullptr;
    const long long integer = std::strtoll(text.c_str(), &end, 10);
    if (end && *end == '\0' && !text.empty()) {
      prop->ints.push_back(integer);
      prop->numbers.push_back(static_cast<double>(integer));
      return;
    }
    const double real = std::strtod(text.c_str(), &end);
    if (end && *end == '\0' && !text.empty()) {
      // Integers only matter as ids, times and bit patterns, which ASCII writes as integers.
      prop->ints.push_back(std::abs(real) < 9e18 ? static_cast<int64_t>(real) : 0);
      prop->numbers.push_back(real);
    } else {
      prop->text = text;  // a bare word (T, Y, *N)
    }
  }

  std::string_view text_;
  uint64_t max_;
  size_t at_ = 0;
};

// ---- the curves ----

int64_t Id(const Record& record) {
  return !record.props.empty() && !record.props[0].ints.empty() ? record.props[0].ints[0] : 0;
}

// "Model::pCube1" (ASCII) or "pCube1\0\1Model" (binary): the name Assimp gives the node.
std::string ObjectName(const Record& record) {
  if (record.props.size() < 2) return "";
  std::string name = record.props[1].text;
  const size_t binary = name.find(std::string("\0\1", 2));
  if (binary != std::string::npos) return name.substr(0, binary);
  const size_t colons = name.find("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

// An array child's numbers: binary `KeyTime: [array]`, ASCII `KeyTime: *N { a: ... }`.
const Prop* ArrayOf(const Record& curve, std::string_view name) {
  const Record* record = curve.Child(name);
  if (!record) return nullptr;
  if (const Record* a = record->Child("a")) return a->props.empty() ? nullptr : &a->props[0];
  for (const Prop& prop : record->props)
    if (!prop.numbers.empty()) return &prop;
  return nullptr;
}

struct Segment {
  int kind = 4;  // 2 constant, 4 linear, 8 cubic
  double right_slope = 0, next_left_slope = 0, right_weight = 1.0 / 3, next_left_weight = 1.0 / 3;
};

float BitsToFloat(int64_t bits) {
  const uint32_t raw = static_cast<uint32_t>(bits);
  float value;
  std::memcpy(&value, &raw, 4);
  return value;
}

void Measure(const Record& curve, FbxNonLinearCurve* out) {
  const Prop* times = ArrayOf(curve, "KeyTime");
  const Prop* values = ArrayOf(curve, "KeyValueFloat");
  const Prop* flags = ArrayOf(curve, "KeyAttrFlags");
  const Prop* data = ArrayOf(curve, "KeyAttrDataFloat");
  const Prop* counts = ArrayOf(curve, "KeyAttrRefCount");
  if (!times || !values || !flags || !counts) return;
  const size_t keys = std::min(times->ints.size(), values->numbers.size());
  size_t key = 0;
  for (size_t attr = 0; attr < flags->ints.size() && attr < counts->ints.size(); ++attr) {
    const int64_t flag = flags->ints[attr];
    Segment segment;
    segment.kind = (flag & 0x2) ? 2 : (flag & 0x8) ? 8 : 4;
    if (data && data->ints.size() >= 4 * (attr + 1)) {
      segment.right_slope = BitsToFloat(data->ints[4 * attr]);
      segment.next_left_slope = BitsToFloat(data->ints[4 * attr + 1]);
      const uint32_t weights = static_cast<uint32_t>(data->ints[4 * attr + 2]);
      if (flag & 0x01000000) segment.right_weight = (weights & 0xFFFF) / 10000.0;
      if (flag & 0x02000000) segment.next_left_weight = (weights >> 16) / 10000.0;
    }
    for (int64_t n = 0; n < counts->ints[attr] && key < keys; ++n, ++key) {
      if (key + 1 >= keys || segment.kind == 4) continue;  // the last key starts no segment
      const double v0 = values->numbers[key], v1 = values->numbers[key + 1];
      const double seconds =
          (static_cast<double>(times->ints[key + 1]) - static_cast<double>(times->ints[key])) /
          46186158000.0;
      double worst = 0;
      if (segment.kind == 2) {
        ++out->constant_keys;
        worst = std::abs(v1 - v0);
      } else {
        ++out->cubic_keys;
        // The curve less the line at the same time is a Bezier in the curve's parameter u with
        // control values 0, d1, d2, 0 (the inner points' heights over the line), whatever x(u).
        const double w0 = std::clamp(segment.right_weight, 0.0, 1.0);
        const double w1 = std::clamp(segment.next_left_weight, 0.0, 1.0);
        const double d1 = segment.right_slope * seconds * w0 - (v1 - v0) * w0;
        const double d2 = -segment.next_left_slope * seconds * w1 + (v1 - v0) * w1;
        for (int i = 1; i < 64; ++i) {
          const double u = i / 64.0;
          worst = std::max(worst, std::abs(3 * u * (1 - u) * ((1 - u) * d1 + u * d2)));
        }
      }
      if (std::isfinite(worst)) out->deviation = std::max(out->deviation, worst);
    }
  }
}

}  // namespace

double FbxCubicAt(double v0, double v1, double s0, double s1, double w0, double w1, double x) {
  // Control points (0, v0), (w0, v0 + s0 w0), (1 - w1, v1 - s1 w1), (1, v1); x(u) rises with u
  // for weights in [0, 1], so u is found by bisection.
  const double x1 = w0, x2 = 1 - w1;
  const double y1 = v0 + s0 * w0, y2 = v1 - s1 * w1;
  const auto bezier = [](double a, double b, double c, double d, double u) {
    const double v = 1 - u;
    return v * v * v * a + 3 * v * v * u * b + 3 * v * u * u * c + u * u * u * d;
  };
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (bezier(0, x1, x2, 1, mid) < x ? lo : hi) = mid;
  }
  return bezier(v0, y1, y2, v1, (lo + hi) / 2);
}

std::vector<FbxNonLinearCurve> FindNonLinearFbxCurves(std::string_view bytes, uint64_t max_keys) {
  constexpr std::string_view kMagic("Kaydara FBX Binary  \0", 21);
  std::optional<std::vector<Record>> top;
  if (bytes.substr(0, kMagic.size()) == kMagic) {
    top = BinaryParser(bytes, max_keys).Parse();
  } else {
    top = AsciiParser(bytes, max_keys).Parse();
  }
  if (!top) return {};
  std::map<int64_t, const Record*> curves;
  std::map<int64_t, std::string> models;
  std::map<int64_t, bool> curve_nodes;
  std::vector<const Record*> connections;
  for (const Record& section : *top) {
    for (const Record& object : section.children) {
      if (object.name == "AnimationCurve") curves[Id(object)] = &object;
      if (object.name == "AnimationCurveNode") curve_nodes[Id(object)] = true;
      if (object.name == "Model") models[Id(object)] = ObjectName(object);
      if (object.name == "C") connections.push_back(&object);
    }
  }
  // curve -> (curve node, "d|X"); curve node -> (model, "Lcl Rotation").
  std::map<int64_t, std::pair<int64_t, std::string>> up;
  for (const Record* c : connections) {
    if (c->props.size() < 4 || c->props[0].text != "OP") continue;
    if (c->props[1].ints.empty() || c->props[2].ints.empty()) continue;
    up[c->props[1].ints[0]] = {c->props[2].ints[0], c->props[3].text};
  }
  std::vector<FbxNonLinearCurve> found;
  for (const auto& [id, curve] : curves) {
    const auto to_node = up.find(id);
    if (to_node == up.end() || to_node->second.second.size() != 3) continue;
    const auto to_model = up.find(to_node->second.first);
    if (to_model == up.end() || !models.count(to_model->second.first)) continue;
    const std::string& property = to_model->second.second;
    if (property != "Lcl Translation" && property != "Lcl Rotation" && property != "Lcl Scaling")
      continue;
    FbxNonLinearCurve result;
    result.node = models[to_model->second.first];
    result.property = property;
    result.component = to_node->second.second[2];
    Measure(*curve, &result);
    if (result.constant_keys + result.cubic_keys > 0) found.push_back(std::move(result));
  }
  return found;
}

std::vector<std::string> NonLinearCurveWarnings(const std::vector<FbxNonLinearCurve>& curves,
                                                double metres_per_unit, size_t* within) {
  struct Group {
    std::map<char, double> components;  // the largest deviation of each component's curves
    size_t curves = 0, constant = 0, cubic = 0;
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  for (const FbxNonLinearCurve& curve : curves) {
    Group& group = groups[{curve.node, curve.property}];
    double& worst = group.components[curve.component];
    worst = std::max(worst, curve.deviation);
    ++group.curves;
    group.constant += curve.constant_keys;
    group.cubic += curve.cubic_keys;
  }
  std::vector<std::string> warnings;
  *within = 0;
  for (const auto& [key, group] : groups) {
    const std::string& property = key.second;
    const bool translation = property == "Lcl Translation";
    const bool rotation = property == "Lcl Rotation";
    const double tolerance = translation ? 1e-4 : rotation ? 0.1 : 1e-3;
    // A bound on the whole: a translation's distance; a rotation's angle is at most the sum of
    // its Euler angles' errors; a scale's ratio the largest of its axes'.
    double bound = 0;
    std::string components;
    for (const auto& [axis, worst] : group.components) {
      components += axis;
      if (translation) bound += (worst * metres_per_unit) * (worst * metres_per_unit);
      if (rotation) bound += worst;
      if (!translation && !rotation) bound = std::max(bound, worst);
    }
    if (translation) bound = std::sqrt(bound);
    if (!(bound > tolerance)) {
      *within += group.curves;
      continue;
    }
    std::string kinds;
    if (group.constant) kinds += fmt::format("{} constant", group.constant);
    if (group.cubic) kinds += fmt::format("{}{} cubic", kinds.empty() ? "" : ", ", group.cubic);
    warnings.push_back(fmt::format(
        "'{}' {} (FBX curves {}: {} segment(s)) plays as straight lines between its keys, up to "
        "{:.3g} {} off the file's curves: Assimp 5.2 reads no FBX interpolation; bake the "
        "animation (a key on every frame) in the program that wrote it",
        key.first,
        translation ? "translation"
        : rotation  ? "rotation"
                    : "scale",
        components, kinds, bound,
        translation ? "m"
        : rotation  ? "deg"
                    : "ratio"));
  }
  return warnings;
}

}  // namespace animconv
