// Helpers for analyzer tests: feed a string to an analyzer as if it were a file.
#pragma once

#include <string>
#include <string_view>

#include "analyzers/line_analyzer.h"

namespace feedcheck::analyzers::test {

inline Evidence Run(LineAnalyzer& a, std::string_view data, const std::string& name = "in.log") {
  LineReader reader = LineReader::FromBuffer(data, a.MaxLineBytes());
  std::string error;
  FeedLines(reader, name, a, &error);
  Evidence ev;
  a.Finish(&ev);
  return ev;
}

inline double Num(const Evidence& ev, const std::string& key) {
  auto v = ev.facts.Number(key);
  return v ? *v : -1e300;
}

inline std::string DataDir() { return std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data"; }

}  // namespace feedcheck::analyzers::test
