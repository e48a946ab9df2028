// libFuzzer harness for one reader, picked at build time by ANIMCONV_FUZZ_FORMAT (a format id of
// formats/registry.cpp; fuzz/CMakeLists.txt builds one harness per id). The bytes take the paths
// `animconv info`, `convert` and `bake` give an input with default options: read, validate,
// summarise, render into every writer, bake morph frames; and a glTF input's meshes through
// `convert --compress-meshes --drop-unused-attributes`. An animconv::Error is the expected
// answer to bad bytes; any other exception, a sanitizer report, a timeout or a memory blow-up is a
// finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "animconv/bake.h"
#include "animconv/convert.h"
#include "animconv/error.h"
#include "animconv/format.h"
#include "animconv/summary.h"
#include "resource_bounds.h"

namespace animconv {
namespace {

const Format& ReaderUnderTest() {
  static const Format* const format = [] {
    const Format* found = FindFormat(ANIMCONV_FUZZ_FORMAT);
    if (!found || !found->read) {
      std::fprintf(stderr, "fuzz: '%s' is not a readable format\n", ANIMCONV_FUZZ_FORMAT);
      std::abort();
    }
    return found;
  }();
  return *format;
}

// Bytes can only ever be bad input (exit code 2): a usage or I/O error from a reader would make
// the CLI report the wrong cause, and an empty message says nothing about what was expected.
void CheckReadError(const Error& error) {
  if (error.kind() != ErrorKind::kBadInput || error.message().empty()) {
    std::fprintf(stderr, "fuzz: reader error of kind %d: %s\n", static_cast<int>(error.kind()),
                 error.what());
    std::abort();
  }
}

// A broken precondition (Error kInternal) is a bug whatever the bytes were: a finding.
void CheckNotInternal(const Error& error) {
  if (error.kind() == ErrorKind::kInternal) {
    std::fprintf(stderr, "fuzz: %s\n", error.what());
    std::abort();
  }
}

// The rig nodes a refused glTF or GLB read had made: the glTF reader makes one model node per
// element of `nodes` before it reads the humanoid, the expressions and the clips, and a read
// refused there held them as a read that succeeds holds the rig it returns, so it is credited them
// alike (resource_bounds.h). Whether it got that far: the same read with a node limit of 0 is then
// refused by the rig's own limit check (ReadRig in formats/gltf/gltf_reader.cpp, at /nodes: "N
// nodes, more than the limit of 0"), and only then; 0 for the other readers, which count their
// nodes before they make them.
size_t NodesMadeBeforeRefusal(const Format& reader, std::string_view bytes, ReadOptions read) {
  const std::string_view format = ANIMCONV_FUZZ_FORMAT;
  if (format != "gltf" && format != "glb") return 0;
  read.limits.nodes = 0;
  try {
    reader.read(bytes, read);
  } catch (const Error& probe) {
    const std::string_view message = probe.message();
    constexpr std::string_view kLimitCheck = " nodes, more than the limit of 0";
    if (probe.location() == "/nodes" && message.size() > kLimitCheck.size() &&
        message.substr(message.size() - kLimitCheck.size()) == kLimitCheck) {
      return std::stoul(std::string(message.substr(0, message.size() - kLimitCheck.size())));
    }
  }
  return 0;
}

}  // namespace
}  // namespace animconv

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animconv;
  const Format& reader = ReaderUnderTest();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // Checked on every way out, the early ones too (a reader may be slow or greedy and then fail).
  struct CheckedBudget {
    fuzz::InputBudget budget;
    ~CheckedBudget() { budget.Check(); }
  } checked{fuzz::InputBudget(size)};
  ReadOptions read;
  read.source = "fuzz-input";
  Asset asset;
  try {
    asset = reader.read(bytes, read);
    checked.budget.SetNodes(asset.rig.nodes.size());
    ValidateAsset(asset, read.source);
  } catch (const Error& error) {
    CheckReadError(error);
    checked.budget.SetNodes(NodesMadeBeforeRefusal(reader, bytes, read));
    return 0;
  }
  Summarize(asset);
  const ConvertOptions defaults;
  for (const Format& writer : Formats()) {
    if (!writer.write) continue;
    try {
      checked.budget.AddOutput(RenderAsset(asset, writer, defaults).size());
    } catch (const Error& error) {
      // Writers refuse what they cannot express (several clips, cubic splines): a usage error.
      CheckNotInternal(error);
    }
  }
  // The compact glTF output rewrites what a glTF input passes through (its meshes welded,
  // quantized, their unread attributes left out: formats/gltf/gltf_mesh_*.h,
  // gltf_prune_attributes.h), so a glTF input takes that path too.
  if (asset.source_document) {
    ConvertOptions compact;
    compact.write.gltf_compression = GltfCompression{};
    compact.write.gltf_compression->quantize_meshes = true;
    compact.write.gltf_drop_unused_attributes = true;
    try {
      checked.budget.AddOutput(RenderAsset(asset, *FindFormat("glb"), compact).size());
    } catch (const Error& error) {
      CheckNotInternal(error);
    }
  }
  try {
    P5BakeReport report;
    checked.budget.AddOutput(BakeP5Frames(asset, P5BakeOptions(), read.source, &report).size());
  } catch (const Error& error) {
    // Nothing to bake (no glTF morph animation) or geometry that cannot be baked.
    CheckNotInternal(error);
  }
  return 0;
}
