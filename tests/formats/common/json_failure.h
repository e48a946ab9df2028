// For the JSON reader tests: what a read that must fail reports.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "animconv/error.h"

namespace animconv {

// "location: message" of the bad-input Error `read` throws for the source "clip.json", or
// "no error".
inline std::string Failure(const std::function<void()>& read) {
  try {
    read();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.source(), "clip.json");
    return error.location() + ": " + error.message();
  }
  return "no error";
}

}  // namespace animconv
