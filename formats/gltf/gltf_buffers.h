// The glTF container (JSON text or GLB), its buffers and bufferViews (glTF 2.0 §3.6, §4.4).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "animconv/format.h"
#include "formats/gltf/gltf_buffer_list.h"
#include "formats/gltf/gltf_document.h"

namespace animconv {

struct GltfContainer {
  GltfContainer() = default;
  GltfContainer(GltfContainer&&) = default;
  GltfContainer& operator=(GltfContainer&&) = default;
  // Frees the tree leaves first (json_release.h): nlohmann's destructor first moves every element
  // of a container into a vector of its own (a top-level `extras` of 37,000 `{}`: 7.6 MB at the
  // peak).
  ~GltfContainer();

  nlohmann::json json;  // without the members in `lists` and `buffers`
  GltfLists lists;
  // `buffers` when it is an array, checked and decoded as it was parsed; LoadBufferViews takes it.
  std::unique_ptr<GltfBufferList> buffers;
  bool binary = false;       // came from a GLB
  std::string_view glb_bin;  // the GLB BIN chunk (a view into the input bytes), if any
  bool has_glb_bin = false;
};

// The most names extensionsUsed or extensionsRequired may list (docs/formats/gltf.md, "What is
// refused"): a file lists the few it uses (Khronos' registry holds about a hundred); the parser
// keeps one past it, so that 37,000 names cost no tree of them (issue 14).
constexpr size_t kGltfMaxExtensionNames = 1024;

bool IsGlb(std::string_view bytes);
// Parses GLB or JSON text. Syntax errors are reported at line:column of the JSON.
GltfContainer ParseGltfContainer(std::string_view bytes, const GltfErrors& errors);

// Loads every buffer (data: URIs, external files through options.load_resource, the GLB BIN
// chunk, read in place) and returns the bytes of every bufferView, decoding
// EXT_meshopt_compression within `decode_budget` bytes in total. Frees container.buffers: nothing
// after it reads them (a pass-through writer writes buffers of its own).
std::vector<std::string> LoadBufferViews(GltfContainer& container, const ReadOptions& options,
                                         uint64_t decode_budget, const GltfErrors& errors);

// options.load_resource(uri) for the external file `uri_pointer` (/buffers/N/uri) names; a refusal
// or read error that names no place in the file is located there.
std::string LoadExternalFile(const ReadOptions& options, const std::string& uri,
                             const std::string& uri_pointer);

// Decodes a data: URI with base64 payload; false when it is not one.
bool DecodeDataUri(const std::string& uri, std::string* bytes);

}  // namespace animconv
