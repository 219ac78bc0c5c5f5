#include "analyzers/line_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

using namespace feedcheck::analyzers;

namespace {
struct Got {
  std::string text;
  int64_t number;
  bool too_long;
  bool unterminated;
};
std::vector<Got> ReadAll(std::string_view data, size_t max_line = kMaxLineBytes) {
  auto r = LineReader::FromBuffer(data, max_line);
  std::vector<Got> out;
  Line l;
  while (r.Next(&l)) out.push_back({std::string(l.text), l.number, l.too_long, l.unterminated});
  return out;
}
}  // namespace

TEST_CASE("empty input yields no lines", "[analyzers][line_reader]") { CHECK(ReadAll("").empty()); }

TEST_CASE("CRLF endings are stripped and line numbers count from 1", "[analyzers][line_reader]") {
  auto lines = ReadAll("a\r\nb\r\n\r\nc\n");
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].text == "a");
  CHECK(lines[1].text == "b");
  CHECK(lines[2].text.empty());
  CHECK(lines[3].text == "c");
  CHECK(lines[3].number == 4);
  CHECK_FALSE(lines[3].unterminated);
}

TEST_CASE("a truncated last line is returned and flagged", "[analyzers][line_reader]") {
  auto lines = ReadAll("first\nsecond-cut-he");
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].text == "second-cut-he");
  CHECK(lines[1].unterminated);
  CHECK_FALSE(lines[0].unterminated);
}

TEST_CASE("a line over the limit is skipped whole and reading continues",
          "[analyzers][line_reader]") {
  std::string big(1'500'000, 'x');  // over 1 MiB
  std::string data = "before\n" + big + "\nafter\n";
  auto lines = ReadAll(data);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].text == "before");
  CHECK(lines[1].too_long);
  CHECK(lines[1].text.empty());
  CHECK(lines[2].text == "after");
  CHECK(lines[2].number == 3);
}

TEST_CASE("a too-long line at the end of input without newline", "[analyzers][line_reader]") {
  std::string data = "ok\n" + std::string(3000, 'y');
  auto lines = ReadAll(data, 1000);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].too_long);
}

TEST_CASE("lines exactly at the limit pass, one byte more does not", "[analyzers][line_reader]") {
  std::string data = std::string(64, 'a') + "\n" + std::string(65, 'b') + "\nz\n";
  auto lines = ReadAll(data, 64);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].text.size() == 64);
  CHECK(lines[1].too_long);
  CHECK(lines[2].text == "z");
}

TEST_CASE("invalid UTF-8 and NUL bytes pass through untouched", "[analyzers][line_reader]") {
  std::string data("ab\xff\xfe\0cd\n", 8);
  auto lines = ReadAll(data);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].text == std::string("ab\xff\xfe\0cd", 7));
}

TEST_CASE("ANSI colour sequences are stripped", "[analyzers][line_reader]") {
  auto lines = ReadAll("\x1b[2m2023-05-18T14:08:25.388670Z\x1b[0m \x1b[32m INFO\x1b[0m x\n");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].text == "2023-05-18T14:08:25.388670Z  INFO x");
}

TEST_CASE("many lines across buffer refills keep their content", "[analyzers][line_reader]") {
  std::string data;
  for (int i = 0; i < 200000; ++i) data += "line " + std::to_string(i) + "\n";
  auto r = LineReader::FromBuffer(data);
  Line l;
  int n = 0;
  bool all_match = true;
  while (r.Next(&l)) {
    if (l.text != "line " + std::to_string(n)) all_match = false;
    ++n;
  }
  CHECK(n == 200000);
  CHECK(all_match);
  CHECK(r.bytes_read() == data.size());
}

TEST_CASE("ANSI colours are stripped in any line of a long input, and only there",
          "[analyzers][line_reader]") {
  // The reader looks for ESC once per read chunk: lines with colours before, across and after
  // refills, too-long lines holding one, and a last line without newline must all read as a
  // line-by-line strip reads them.
  auto strip = [](const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
        size_t j = i + 2;
        while (j < text.size() && ((text[j] >= '0' && text[j] <= '9') || text[j] == ';')) ++j;
        if (j < text.size() && text[j] == 'm') {
          i = j;
          continue;
        }
      }
      out += text[i];
    }
    return out;
  };
  const size_t max_line = 200;
  std::string data;
  std::vector<Got> want;
  for (int i = 0; data.size() < 3'500'000; ++i) {
    std::string line = "line " + std::to_string(i);
    if (i % 7 == 0) line = "\x1b[32m" + line + "\x1b[0m tail";
    if (i % 11 == 0) line += " \x1b[broken";
    if (i % 997 == 0) line += std::string(300, 'x') + "\x1b[1m";  // too long
    data += line + "\n";
    bool too_long = line.size() > max_line;
    want.push_back({too_long ? "" : strip(line), i + 1, too_long, false});
  }
  data += "\x1b[31mlast\x1b[0m";
  want.push_back({"last", static_cast<int64_t>(want.size()) + 1, false, true});
  auto got = ReadAll(data, max_line);
  REQUIRE(got.size() == want.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i].text != want[i].text || got[i].number != want[i].number ||
        got[i].too_long != want[i].too_long || got[i].unterminated != want[i].unterminated)
      ++mismatches;
  CHECK(mismatches == 0);
}

TEST_CASE("a missing file reports an error", "[analyzers][line_reader]") {
  auto r = LineReader::OpenFile("/nonexistent/feedcheck/file");
  CHECK_FALSE(r.ok());
  Line l;
  CHECK_FALSE(r.Next(&l));
}

TEST_CASE("a UTF-8 byte order mark before the first line is dropped, not later ones",
          "[analyzers][line_reader]") {
  auto lines = ReadAll("\xEF\xBB\xBFtimestamp, index\r\n\xEF\xBB\xBFx\n");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].text == "timestamp, index");
  CHECK(lines[1].text == "\xEF\xBB\xBFx");
  auto only = ReadAll(
      "\xEF\xBB\xBF"
      "a");  // the whole input one unterminated line
  REQUIRE(only.size() == 1);
  CHECK(only[0].text == "a");
}

namespace {
// A file in /tmp, removed at scope end.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& content) {
    char t[] = "/tmp/feedcheck-lines-XXXXXX";
    int fd = mkstemp(t);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()));
    close(fd);
    path = t;
  }
  ~TempFile() { unlink(path.c_str()); }
};
}  // namespace

TEST_CASE("a file is read up to its data bound, and says it was cut", "[analyzers][line_reader]") {
  std::string content;
  for (int i = 0; i < 100000; ++i) content += "line " + std::to_string(i) + "\n";
  TempFile f(content);
  auto r = LineReader::OpenFile(f.path, kMaxLineBytes, 64 << 10);
  Line l;
  int64_t lines = 0;
  while (r.Next(&l)) ++lines;
  CHECK(r.ok());
  CHECK(r.cut_at_limit());
  CHECK(r.bytes_read() == (64u << 10));
  CHECK(r.file_bytes() == content.size());
  CHECK(lines > 5000);
  CHECK(lines < 100000);
  // Under the bound: the whole file, not cut.
  auto whole = LineReader::OpenFile(f.path);
  lines = 0;
  while (whole.Next(&l)) ++lines;
  CHECK(lines == 100000);
  CHECK_FALSE(whole.cut_at_limit());
}

TEST_CASE("holes of a sparse file are skipped, the lines around them read",
          "[analyzers][line_reader]") {
  TempFile f("first\n");
  // A 1 TiB hole, then a newline and a last line.
  REQUIRE(truncate(f.path.c_str(), 1ll << 40) == 0);
  {
    int fd = open(f.path.c_str(), O_WRONLY | O_APPEND);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, "\nlast\n", 6) == 6);
    close(fd);
  }
  auto r = LineReader::OpenFile(f.path);
  std::vector<Got> lines;
  Line l;
  while (r.Next(&l)) lines.push_back({std::string(l.text), l.number, l.too_long, l.unterminated});
  CHECK(r.ok());
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].text == "first");
  CHECK(lines[1].too_long);  // the hole's zeros: one line far past the limit
  CHECK(lines[2].text == "last");
  CHECK(lines[2].number == 3);
  CHECK(r.hole_bytes() > (1ull << 40) - (8u << 20));
  CHECK(r.bytes_read() < (16u << 20));
}

namespace {
// ASCII `text` as UTF-16 with a byte order mark.
std::string AsciiUtf16(const std::string& text, bool big_endian) {
  std::string out = big_endian ? std::string("\xFE\xFF") : std::string("\xFF\xFE");
  for (char c : text) out += big_endian ? std::string{'\0', c} : std::string{c, '\0'};
  return out;
}
}  // namespace

TEST_CASE("a UTF-16 input hands out the lines its UTF-8 would, buffer or file",
          "[analyzers][line_reader][encoding]") {
  std::string text;
  for (int i = 0; i < 30000; ++i) text += "line " + std::to_string(i) + (i % 3 ? "\r\n" : "\n");
  text += "last without newline";
  const auto expected = ReadAll(text);
  for (bool big_endian : {false, true}) {
    const std::string utf16 = AsciiUtf16(text, big_endian);
    const auto from_buffer = ReadAll(utf16);
    TempFile f(utf16);
    auto r = LineReader::OpenFile(f.path);
    std::vector<Got> from_file;
    Line l;
    while (r.Next(&l))
      from_file.push_back({std::string(l.text), l.number, l.too_long, l.unterminated});
    CHECK(r.ok());
    CHECK(r.bytes_read() == utf16.size());  // the file's own bytes, for its data bound
    // one assertion per reader (thousands of lines): the first line that differs, if any
    auto first_difference = [&](const std::vector<Got>& got) {
      for (size_t i = 0; i < expected.size() && i < got.size(); ++i)
        if (got[i].text != expected[i].text || got[i].number != expected[i].number ||
            got[i].unterminated != expected[i].unterminated)
          return static_cast<int64_t>(i);
      return got.size() == expected.size() ? int64_t{-1} : static_cast<int64_t>(got.size());
    };
    INFO("big endian " << big_endian);
    CHECK(first_difference(from_buffer) == -1);
    CHECK(first_difference(from_file) == -1);
  }
}

TEST_CASE("a UTF-16 line over the limit is skipped as in UTF-8",
          "[analyzers][line_reader][encoding]") {
  const std::string text = "short\n" + std::string(300, 'x') + "\nafter\n";
  auto lines = ReadAll(AsciiUtf16(text, false), 64);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].text == "short");
  CHECK(lines[1].too_long);
  CHECK(lines[2].text == "after");
  // only a byte order mark, or a half unit after it: no line, or one replaced character
  CHECK(ReadAll("\xFF\xFE").empty());
  auto half = ReadAll(
      "\xFF\xFE"
      "a");
  REQUIRE(half.size() == 1);
  CHECK(half[0].text == "\xEF\xBF\xBD");
}

TEST_CASE("UTF-16 at its widest, lone surrogates at every chunk edge, reads whole",
          "[analyzers][line_reader][encoding]") {
  // Characters that grow most (2 bytes in, 3 out) and high surrogates left lone (2 in, 3 out
  // once the next unit shows it), in lines of varied length, over many read chunks: the reader
  // hands out what decoding the whole input gives, line by line, from a file and a buffer.
  std::string utf16 = "\xFF\xFE";
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1103515245u + 12345u; };
  // 3 bytes out for each unit of 2 (a CJK character, a lone high surrogate then one), with a
  // few surrogate pairs, a low one alone and ASCII among them
  const char16_t units[] = {0x4E2D, 0x4E2D, 0x4E2D, 0xD800, 0xD800, 0xDC00, 0xD83D, 0xDE00, u'x'};
  while (utf16.size() < (5u << 20)) {
    const char16_t u = next() % 97 == 0 ? u'\n' : units[(next() >> 8) % 9];
    utf16.push_back(static_cast<char>(u & 0xFF));
    utf16.push_back(static_cast<char>(u >> 8));
  }
  utf16.push_back('x');  // an odd byte at the end
  std::string whole;
  Utf16Decoder decoder(false);
  decoder.Decode(std::string_view(utf16).substr(2), &whole);
  decoder.Finish(&whole);
  std::vector<std::string> expected;
  for (size_t at = 0; at <= whole.size();) {
    size_t nl = whole.find('\n', at);
    if (nl == std::string::npos) nl = whole.size();
    expected.push_back(whole.substr(at, nl - at));
    at = nl + 1;
  }
  if (!whole.empty() && whole.back() == '\n') expected.pop_back();
  TempFile f(utf16);
  auto file_reader = LineReader::OpenFile(f.path);
  auto buffer_reader = LineReader::FromBuffer(utf16);
  for (LineReader* r : {&file_reader, &buffer_reader}) {
    std::vector<std::string> got;
    size_t too_long = 0;
    Line l;
    while (r->Next(&l)) {
      too_long += l.too_long;
      got.emplace_back(l.text);
    }
    CHECK(r->ok());
    CHECK(too_long == 0);
    REQUIRE(got.size() == expected.size());
    CHECK(got == expected);
  }
}
