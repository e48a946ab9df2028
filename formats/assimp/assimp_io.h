// What Assimp may read while importing: the input's bytes, and files beside it only through
// ReadOptions::load_resource (docs/reliability.md). Assimp's default file system would open any
// path a COLLADA or FBX file names.
#pragma once

#include <assimp/IOSystem.hpp>
#include <functional>
#include <list>
#include <optional>
#include <string>
#include <string_view>

#include "animconv/error.h"

namespace animconv {

class ConfinedIOSystem : public Assimp::IOSystem {
 public:
  using LoadResource = std::function<std::string(const std::string& uri)>;

  // `main_name` is the name Assimp is asked to import; it must hold no directory.
  ConfinedIOSystem(std::string_view bytes, std::string main_name, LoadResource load_resource);

  bool Exists(const char* path) const override;
  char getOsSeparator() const override { return '/'; }
  Assimp::IOStream* Open(const char* path, const char* mode) override;
  void Close(Assimp::IOStream* stream) override;

  // The first refusal of a resource: Assimp only reports "cannot open", which hides the reason.
  const std::optional<Error>& refusal() const { return refusal_; }

 private:
  const std::string* Load(const std::string& path);

  std::string_view bytes_;
  std::string main_name_;
  LoadResource load_resource_;
  std::list<std::pair<std::string, std::string>> loaded_;  // path, bytes; stable addresses
  std::optional<Error> refusal_;
};

}  // namespace animconv
