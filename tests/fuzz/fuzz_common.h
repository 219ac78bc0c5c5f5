// Shared body of the analyzer fuzz targets: feed the input as a file (with a small line limit so
// the too-long path is exercised too), then finish, which runs every aggregate and formatter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analyzers/line_analyzer.h"

namespace feedcheck::analyzers::fuzz {

inline void Feed(LineAnalyzer& a, const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  // Two passes: as one file with a 4 KiB line limit, then the same bytes as a second file with
  // the real limit, so per-file state is reset and reused.
  for (size_t limit : {size_t{4096}, kMaxLineBytes}) {
    LineReader reader = LineReader::FromBuffer(input, limit);
    std::string error;
    FeedLines(reader, "fuzz.input", a, &error);
  }
  Evidence ev;
  a.Finish(&ev);
}

}  // namespace feedcheck::analyzers::fuzz
