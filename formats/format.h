// One reader and/or writer per format, registered in one table (registry.cpp). A reader turns
// bytes into the model and never writes; a writer turns the model into bytes and never guesses:
// what it cannot represent is an Error, not a silent change.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libconvert/model.h"

namespace animconv {

enum class TimeUnit { kSeconds, kMilliseconds };

struct ReadOptions {
  std::string source = "<memory>";  // file name used in error messages
  // unity-csv: one bone name per column group (`--bones`); empty = the 55 HumanBodyBones.
  std::vector<std::string> bone_names;
  // unity-csv: time between rows (`--interval`, `--fps`); the reference exporter writes 0.2 s.
  double row_interval_seconds = 0.2;
};

struct WriteOptions {
  bool three_array = false;                           // three: a JSON array of clips
  TimeUnit hierarchy_time_unit = TimeUnit::kSeconds;  // three-hierarchy key times
  std::optional<int> precision;                       // unity-csv decimals; unset = shortest float
  std::vector<std::string> bone_names;                // unity-csv column groups; empty = 55 bones
  std::optional<double> row_interval_seconds;         // unity-csv: sample on this grid
};

struct Format {
  std::string_view id;
  std::string_view description;
  // Lower-case suffixes, longest first where they overlap (".hierarchy.json" before ".json").
  std::vector<std::string_view> extensions;
  // The handedness the format's numbers are in; the pipeline converts before writing.
  Handedness handedness = Handedness::kRight;
  // False for formats that need unit, hemisphere-aligned rotations (the pipeline normalises
  // before writing); true for unity-csv, which writes rotations back exactly as read.
  bool keeps_raw_rotations = false;
  // True when `bytes` (the whole input) looks like this format; null when content can't tell.
  bool (*sniff)(std::string_view bytes) = nullptr;
  Asset (*read)(std::string_view bytes, const ReadOptions& options) = nullptr;
  std::string (*write)(const Asset& asset, const WriteOptions& options) = nullptr;
};

const std::vector<Format>& Formats();
const Format* FindFormat(std::string_view id);

// Picks the reader: `--from` when given, else the content (sniff), else the extension.
const Format& DetectInputFormat(const std::string& path, std::string_view bytes,
                                const std::string& forced_id);
// Picks the writer: `--to` when given, else the extension.
const Format& DetectOutputFormat(const std::string& path, const std::string& forced_id);

}  // namespace animconv
