// Cutting text at UTF-8 character boundaries (core/utf8_cut), counts in agreement with their
// nouns (core/plural), and a diagnostic's quoted line cut without splitting a character.
#include <catch2/catch.hpp>
#include <string>

#include "core/diagnostic.h"
#include "core/plural.h"
#include "core/utf8_cut.h"

using namespace feedcheck;

namespace {

bool ValidUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    auto b = static_cast<unsigned char>(s[i]);
    size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    i += n;
  }
  return true;
}

}  // namespace

TEST_CASE("Utf8Prefix never ends inside a character", "[core][utf8]") {
  const std::string micro = "time.idle=9.50\xC2\xB5s";  // "µ" is 0xC2 0xB5
  // A cut after 0xC2 backs off before it: never a lone lead byte.
  CHECK(Utf8Prefix(micro, 15) == "time.idle=9.50");
  CHECK(Utf8Prefix(micro, 16) == "time.idle=9.50\xC2\xB5");
  CHECK(Utf8Prefix(micro, 100) == micro);
  CHECK(Utf8Prefix("", 3).empty());
  // Three- and four-byte characters: every cut inside them backs off to their start.
  const std::string wide = "ab\xE2\x82\xAC\xF0\x9F\x98\x80";  // "ab€😀"
  for (size_t n = 0; n <= wide.size(); ++n) {
    INFO(n);
    CHECK(ValidUtf8(std::string(Utf8Prefix(wide, n))));
  }
  CHECK(Utf8Prefix(wide, 4) == "ab");
  CHECK(Utf8Prefix(wide, 8) == "ab\xE2\x82\xAC");
  // From a byte inside a character: the next character.
  CHECK(Utf8SuffixFrom(micro, 15) == "s");
  CHECK(Utf8SuffixFrom(micro, 14) == "\xC2\xB5s");
  CHECK(Utf8SuffixFrom(micro, 99).empty());
}

TEST_CASE("a diagnostic quotes a long line cut at character boundaries", "[core][utf8]") {
  // The snippet is cut to 120 bytes around the column: put "µ" across both cut points.
  for (size_t at = 50; at < 70; ++at) {
    Diagnostic d;
    d.code = "P001";
    d.message = "bad value";
    d.location = {"profile.yaml", 3, 100};
    std::string line(at, 'a');
    while (line.size() < 300) line += "\xC2\xB5";
    d.snippet = line;
    const std::string text = FormatDiagnostic(d);
    INFO(at);
    CHECK(ValidUtf8(text));
    CHECK(text.find("^") != std::string::npos);
  }
}

TEST_CASE("Counted agrees the noun with the count", "[core][plural]") {
  CHECK(Counted(1, "file") == "1 file");
  CHECK(Counted(0, "file") == "0 files");
  CHECK(Counted(2, "node") == "2 nodes");
  CHECK(Counted(12345, "line") == "12,345 lines");
  CHECK(Counted(1, "entry", "entries") == "1 entry");
  CHECK(Counted(3, "entry", "entries") == "3 entries");
  CHECK(NounFor(1, "GPU", "GPUs") == "GPU");
}
