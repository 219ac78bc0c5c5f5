#include "core/ascii_text.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

TEST_CASE("Trim removes ASCII whitespace at both ends only", "[core][text]") {
  CHECK(Trim("  a b\t\r\n") == "a b");
  CHECK(Trim("\v\fx\f") == "x");
  CHECK(Trim("") == "");
  CHECK(Trim(" \t ") == "");
  // Not a locale's idea of space: a UTF-8 no-break space stays.
  CHECK(Trim("\xc2\xa0x") == "\xc2\xa0x");
}

TEST_CASE("case folding is ASCII only", "[core][text]") {
  CHECK(ToLower("Standard_ND96asr_V4") == "standard_nd96asr_v4");
  CHECK(ToUpper("x-ms-error-code") == "X-MS-ERROR-CODE");
  CHECK(ToLower("\xc3\x89") == "\xc3\x89");  // É untouched, bytes intact
  CHECK(IEquals("Content-Length", "content-length"));
  CHECK_FALSE(IEquals("Content-Length", "content-lengt"));
  CHECK(IContains("ServerBusy: The server is busy", "serverbusy"));
  CHECK(IContains("abc", ""));
  CHECK_FALSE(IContains("ab", "abc"));
}

TEST_CASE("prefix and suffix tests", "[core][text]") {
  CHECK(StartsWith("rslex.log.1", "rslex.log"));
  CHECK_FALSE(StartsWith("rs", "rslex"));
  CHECK(EndsWith("acct.blob.core.windows.net", ".blob.core.windows.net"));
  CHECK_FALSE(EndsWith("net", ".net"));
}
