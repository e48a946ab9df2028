// A program outside the animconv tree, built against the *installed* package (find_package or
// pkg-config, tests/install/check_installed_package.cmake): converts a file with the library and
// prints what the input held. Usage: consumer INPUT OUTPUT
#include <animconv/animconv.h>

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer INPUT OUTPUT\n");
    return 1;
  }
  try {
    animconv::ConvertOptions options;
    const animconv::ConvertReport report = animconv::ConvertFile(argv[1], argv[2], options);
    // The registry and the model, read from memory, without the pipeline.
    const animconv::Format* format = animconv::FindFormat(report.input_format->id);
    animconv::ReadOptions read;
    read.source = argv[1];
    const animconv::Asset asset = format->read(animconv::ReadFile(argv[1]), read);
    const animconv::AssetSummary summary = animconv::Summarize(asset);
    std::printf("%s -> %s: %zu bytes, %zu node(s), %zu clip(s)\n",
                std::string(report.input_format->id).c_str(),
                std::string(report.output_format->id).c_str(), report.output_bytes,
                asset.rig.nodes.size(), summary.clips.size());
    return 0;
  } catch (const animconv::Error& error) {
    std::fprintf(stderr, "consumer: %s\n", error.what());
    return static_cast<int>(error.kind());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "consumer: internal error: %s\n", error.what());
    return 4;
  }
}
