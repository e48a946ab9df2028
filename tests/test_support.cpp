#include "test_support.h"

#include <sys/resource.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace animconv::testing {

TempDir::TempDir() {
  std::random_device device;
  path_ = (std::filesystem::temp_directory_path() /
           ("animconv_test_" + std::to_string(device()) + std::to_string(device())))
              .string();
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

size_t TempDir::FileCount() const {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(path_)) ++count;
  return count;
}

std::string SourcePath(const std::string& relative) {
  return std::string(ANIMCONV_SOURCE_DIR) + "/" + relative;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

bool LimitFileSize(size_t bytes) {
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit limit{};
  limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(bytes);
  return ::setrlimit(RLIMIT_FSIZE, &limit) == 0;
}

CommandResult RunAnimconv(const std::string& arguments) {
  const std::string command = std::string(ANIMCONV_BINARY) + " " + arguments + " 2>&1";
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::array<char, 4096> buffer{};
  size_t got;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    result.output.append(buffer.data(), got);
  }
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool HasNote(const Asset& asset, const std::string& part) {
  for (const std::string& note : asset.notes) {
    if (note.find(part) != std::string::npos) return true;
  }
  return false;
}

int NodeNamed(const Asset& asset, const std::string& name) {
  for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
    if (asset.rig.nodes[n].name == name) return static_cast<int>(n);
  }
  return -1;
}

const Channel* FindChannel(const Clip& clip, int node, Path path) {
  for (const Channel& channel : clip.channels) {
    if (channel.node == node && channel.path == path) return &channel;
  }
  return nullptr;
}

Quat AxisAngle(char axis, double degrees) {
  const double half = degrees * 3.14159265358979323846 / 360;
  const double s = std::sin(half);
  return {axis == 'X' ? s : 0, axis == 'Y' ? s : 0, axis == 'Z' ? s : 0, std::cos(half)};
}

Asset MakeAsset(const std::vector<std::string>& node_names) {
  Asset asset;
  for (const std::string& name : node_names) {
    Node node;
    node.name = name;
    asset.rig.nodes.push_back(node);
  }
  asset.clips.emplace_back();
  asset.clips.back().name = "clip";
  return asset;
}

Channel MakeChannel(int node, Path path, std::vector<double> times, std::vector<double> values,
                    int width, Interpolation interpolation) {
  Channel channel;
  channel.node = node;
  channel.path = path;
  channel.times_seconds = std::move(times);
  channel.values = std::move(values);
  channel.width = width;
  channel.interpolation = interpolation;
  return channel;
}

}  // namespace animconv::testing
