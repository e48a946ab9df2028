// The project's own headered CSV (`csv`): a `time` column in seconds, then one column per channel
// component named <node>.<path>.<component> ("hips.rotation.x", "Face.weights.smile"), one row per
// key time of the union grid. Layout and rules: docs/formats/csv.md.
#pragma once

#include <string>
#include <string_view>

#include "animconv/format.h"

namespace animconv {

bool SniffAnimconvCsv(std::string_view bytes);
Asset ReadAnimconvCsv(std::string_view bytes, const ReadOptions& options);
std::string WriteAnimconvCsv(const Asset& asset, const WriteOptions& options);

// Splits one CSV line into fields (RFC 4180 quoting: "a,b" and "" inside quotes).
// Returns false on an unterminated quote; `error_column` then holds its 1-based column.
bool SplitCsvLine(std::string_view line, std::vector<std::string>* fields,
                  std::vector<size_t>* columns, size_t* error_column);

}  // namespace animconv
