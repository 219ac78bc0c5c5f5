#include "tests/reports/golden.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

namespace feedcheck::testing {

namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::string EscapeRegex(const std::string& text) {
  static const std::string kSpecial = R"(\^$.|?*+()[]{})";
  std::string out;
  for (char c : text) {
    if (kSpecial.find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

std::regex LineRegex(const std::string& golden) {
  static const std::pair<std::string, std::string> kPlaceholders[] = {
      {"%float", R"([-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)"},
      {"%int", "[0-9]+"},
      {"%any", ".*"},
  };
  std::string pattern;
  size_t i = 0;
  while (i < golden.size()) {
    bool matched = false;
    for (const auto& [name, re] : kPlaceholders) {
      if (golden.compare(i, name.size(), name) == 0) {
        pattern += re;
        i += name.size();
        matched = true;
        break;
      }
    }
    if (matched) continue;
    size_t next = golden.find('%', i + 1);
    if (next == std::string::npos) next = golden.size();
    pattern += EscapeRegex(golden.substr(i, next - i));
    i = next;
  }
  return std::regex(pattern);
}

}  // namespace

bool MatchesGolden(const std::string& actual, const std::string& golden, std::string* why) {
  std::vector<std::string> a = Lines(actual), g = Lines(golden);
  for (size_t i = 0; i < std::max(a.size(), g.size()); ++i) {
    if (i >= a.size() || i >= g.size()) {
      *why = "line " + std::to_string(i + 1) + ": output has " + std::to_string(a.size()) +
             " lines, golden has " + std::to_string(g.size());
      return false;
    }
    if (!std::regex_match(a[i], LineRegex(g[i]))) {
      *why = "line " + std::to_string(i + 1) + "\n  actual: " + a[i] + "\n  golden: " + g[i];
      return false;
    }
  }
  return true;
}

std::string ReadFileOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace feedcheck::testing
