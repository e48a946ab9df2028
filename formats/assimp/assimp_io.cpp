#include "formats/assimp/assimp_io.h"

#include <assimp/MemoryIOWrapper.h>

#include <utility>

namespace animconv {
namespace {

// Assimp joins resource names to the main file's folder, which is "" or "./" here.
std::string Relative(std::string path) {
  while (path.rfind("./", 0) == 0) path.erase(0, 2);
  return path;
}

}  // namespace

ConfinedIOSystem::ConfinedIOSystem(std::string_view bytes, std::string main_name,
                                   LoadResource load_resource)
    : bytes_(bytes), main_name_(std::move(main_name)), load_resource_(std::move(load_resource)) {}

const std::string* ConfinedIOSystem::Load(const std::string& path) {
  for (const auto& [name, data] : loaded_) {
    if (name == path) return &data;
  }
  if (!load_resource_ || refusal_) return nullptr;
  try {
    loaded_.emplace_back(path, load_resource_(path));
    return &loaded_.back().second;
  } catch (const Error& error) {
    refusal_ = error;  // Assimp must not see our exception: it would turn it into its own text
    return nullptr;
  }
}

bool ConfinedIOSystem::Exists(const char* path) const {
  const std::string relative = Relative(path);
  if (relative == main_name_) return true;
  // Exists is const in Assimp's interface, but answering it means trying the load.
  return const_cast<ConfinedIOSystem*>(this)->Load(relative) != nullptr;
}

Assimp::IOStream* ConfinedIOSystem::Open(const char* path, const char* mode) {
  if (mode[0] != 'r') return nullptr;  // importers never write; refuse if one tries
  const std::string relative = Relative(path);
  if (relative == main_name_) {
    return new Assimp::MemoryIOStream(reinterpret_cast<const uint8_t*>(bytes_.data()),
                                      bytes_.size());
  }
  const std::string* data = Load(relative);
  if (!data) return nullptr;
  return new Assimp::MemoryIOStream(reinterpret_cast<const uint8_t*>(data->data()), data->size());
}

void ConfinedIOSystem::Close(Assimp::IOStream* stream) { delete stream; }

}  // namespace animconv
