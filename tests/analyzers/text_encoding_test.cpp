// UTF-16 input decoded to UTF-8: by its byte order mark, in pieces split anywhere, with broken
// units replaced rather than stopping the read.
#include "analyzers/text_encoding.h"

#include <catch2/catch.hpp>
#include <string>

using namespace feedcheck::analyzers;

namespace {

// `text` (UTF-8, BMP and astral characters) as UTF-16 with a byte order mark.
std::string Utf16(const std::u16string& text, bool big_endian) {
  std::string out = big_endian ? std::string("\xFE\xFF") : std::string("\xFF\xFE");
  for (char16_t u : text) {
    const char hi = static_cast<char>(u >> 8), lo = static_cast<char>(u & 0xFF);
    out += big_endian ? std::string{hi, lo} : std::string{lo, hi};
  }
  return out;
}

const std::u16string kText = u"time,Egress é 中 \U0001F600\r\nline 2\n";
const std::string kUtf8 = "time,Egress \xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80\r\nline 2\n";

}  // namespace

TEST_CASE("byte order marks name the encoding", "[analyzers][encoding]") {
  CHECK(EncodingOf("\xFF\xFE{") == TextEncoding::kUtf16Le);
  CHECK(EncodingOf("\xFE\xFF\0{") == TextEncoding::kUtf16Be);
  CHECK(EncodingOf("\xEF\xBB\xBF{") == TextEncoding::kUtf8);
  CHECK(EncodingOf("{\"value\"") == TextEncoding::kUtf8);
  CHECK(EncodingOf("\xFF") == TextEncoding::kUtf8);
  CHECK(EncodingOf("") == TextEncoding::kUtf8);
}

TEST_CASE("UTF-16 of either order decodes to the same UTF-8, split at any byte",
          "[analyzers][encoding]") {
  for (bool big_endian : {false, true}) {
    const std::string in = Utf16(kText, big_endian);
    CHECK(AsUtf8(in) == kUtf8);
    for (size_t cut = 0; cut <= in.size(); ++cut) {
      Utf16Decoder d(big_endian);
      std::string out;
      d.Decode(std::string_view(in).substr(0, cut), &out);
      d.Decode(std::string_view(in).substr(cut), &out);
      d.Finish(&out);
      INFO("big endian " << big_endian << ", cut at " << cut);
      CHECK(out == kUtf8);
    }
  }
}

TEST_CASE("broken UTF-16 becomes U+FFFD and the rest still decodes", "[analyzers][encoding]") {
  const std::string replacement = "\xEF\xBF\xBD";
  // a lone low surrogate, a high one followed by a letter, an odd byte at the end
  Utf16Decoder d(false);
  std::string out;
  d.Decode(std::string("\xFF\xFE\x00\xDC"
                       "a\0"
                       "\x00\xD8"
                       "b\0"
                       "c",
                       11),
           &out);
  d.Finish(&out);
  CHECK(out == replacement + "a" + replacement + "b" + replacement);
  // a high surrogate at the very end
  Utf16Decoder e(false);
  out.clear();
  e.Decode(std::string("x\0\x3D\xD8", 4), &out);
  CHECK(out == "x");  // waits for its low half
  e.Finish(&out);
  CHECK(out == "x" + replacement);
}

TEST_CASE("a UTF-8 byte order mark is dropped, other text kept as it is", "[analyzers][encoding]") {
  CHECK(AsUtf8("\xEF\xBB\xBF{\"value\": []}") == "{\"value\": []}");
  CHECK(AsUtf8("plain \xFF bytes") == "plain \xFF bytes");
  CHECK(AsUtf8("") == "");
  CHECK(Utf16Decoder::kMaxGrowth * 2 >= 3);  // a BMP unit's 2 bytes become at most 3
}
