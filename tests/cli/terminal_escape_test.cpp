// Text from input files reaches the terminal escaped (docs/reliability.md): a node or clip name
// holding escape sequences, line breaks or C1 controls cannot recolour, clear or fake output.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

// The raw names, as the file's JSON escapes decode to.
const char kNodeName[] =
    "Cube\x1b[31m\nfake: line\r\xc2\x9b"
    "2J";
const char kClipName[] = "pulse\x1b]0;title\x07";
// How EscapeForTerminal shows them.
const char kNodeShown[] = "Cube\\x1b[31m\\x0afake: line\\x0d\\xc2\\x9b2J";
const char kClipShown[] = "pulse\\x1b]0;title\\x07";

void ReplaceOnce(std::string* text, const std::string& from, const std::string& to) {
  const size_t at = text->find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text->replace(at, from.size(), to);
}

// data/gltf/morph_cube.gltf with its mesh, node and clip renamed through JSON escapes.
std::string WriteHostileGltf(const TempDir& dir) {
  std::string gltf = testing::ReadText(testing::SourcePath("data/gltf/morph_cube.gltf"));
  const std::string node = R"("Cube\u001b[31m\nfake: line\r\u009b2J")";
  ReplaceOnce(&gltf, R"("name": "morph_cube")", R"("name": )" + node);
  ReplaceOnce(&gltf, R"("name": "morph_cube")", R"("name": )" + node);
  ReplaceOnce(&gltf, R"("name": "pulse")", R"("name": "pulse\u001b]0;title\u0007")");
  const std::string path = dir.File("hostile.gltf");
  testing::WriteText(path, gltf);
  return path;
}

// Line breaks are the output's own; every other C0 byte, DEL and C1 (UTF-8 C2 80..9F) is not.
void ExpectNoControlCharacters(const std::string& output) {
  for (size_t i = 0; i < output.size(); ++i) {
    const auto byte = static_cast<unsigned char>(output[i]);
    EXPECT_FALSE((byte < 0x20 && byte != '\n') || byte == 0x7f)
        << "byte " << int{byte} << " at " << i << " in:\n"
        << output;
    if (byte == 0xc2 && i + 1 < output.size()) {
      const auto next = static_cast<unsigned char>(output[i + 1]);
      EXPECT_FALSE(next >= 0x80 && next <= 0x9f) << "C1 control at " << i << " in:\n" << output;
    }
  }
}

TEST(TerminalEscapeTest, InfoTextShowsHostileNamesEscapedOnTheirOwnLine) {
  TempDir dir;
  const std::string input = WriteHostileGltf(dir);
  const auto result = RunAnimconv("info " + input);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  ExpectNoControlCharacters(result.output);
  EXPECT_NE(result.output.find(std::string("  targets (1): ") + kNodeShown + "\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find(std::string("clip 0 '") + kClipShown + "'"), std::string::npos)
      << result.output;
}

TEST(TerminalEscapeTest, InfoJsonKeepsTheRealNames) {
  TempDir dir;
  const std::string input = WriteHostileGltf(dir);
  const auto result = RunAnimconv("-q info --json " + input);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const nlohmann::json info = nlohmann::json::parse(result.output);
  EXPECT_EQ(info["clips"][0]["name"], kClipName);
  EXPECT_EQ(info["clips"][0]["targets"][0], kNodeName);
}

TEST(TerminalEscapeTest, LogMessagesAreEscaped) {
  TempDir dir;
  const std::string input = WriteHostileGltf(dir);
  // bake logs the clip and node it baked, at the default level.
  const auto result = RunAnimconv("bake " + input + " -o " + dir.File("frames.json"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  ExpectNoControlCharacters(result.output);
  EXPECT_NE(result.output.find(std::string("clip '") + kClipShown + "', node '" + kNodeShown + "'"),
            std::string::npos)
      << result.output;
}

TEST(TerminalEscapeTest, DiffTextIsEscaped) {
  TempDir dir;
  const std::string input = WriteHostileGltf(dir);
  const auto result = RunAnimconv("-q diff " + input + " " + input);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  ExpectNoControlCharacters(result.output);
  EXPECT_NE(result.output.find(kClipShown), std::string::npos) << result.output;
}

}  // namespace
}  // namespace animconv
