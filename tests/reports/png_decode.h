// A small PNG reader for the Chromium screenshot test: 8-bit RGB or RGBA, not interlaced (what
// Chromium writes). Decodes with zlib and undoes the five scanline filters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace feedcheck::testing {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;  ///< width * height * 3
};

/// False (with `error`) when the file is not a PNG this reader understands.
bool DecodePng(const std::string& path, Image* out, std::string* error);

}  // namespace feedcheck::testing
