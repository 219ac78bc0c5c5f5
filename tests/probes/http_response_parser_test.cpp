// The raw path's HTTP/1.1 response parser: framing (Content-Length, chunked, to the close, no
// body), interim answers, keep-alive, limits, and a clear error for each malformed input. Every
// case is fed whole and split at every byte, which must give the same result.
#include "transport/http_response_parser.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "transport/http_request_writer.h"

using namespace feedcheck;

namespace {

struct Collector : HttpResponseSink {
  int status = 0;
  int heads = 0;
  HttpHeaders headers;
  std::string body;
  size_t cap = SIZE_MAX;
  void OnHead(int s, const HttpHeaders& h) override {
    status = s;
    ++heads;
    headers.clear();
    for (const auto& [k, v] : h) headers[k] = v;
  }
  bool OnBody(const char* data, size_t size) override {
    body.append(data, size);
    return body.size() <= cap;
  }
};

struct Parsed {
  HttpResponseParser::State state;
  std::string error;
  Collector sink;
  size_t used = 0;
  bool keep_alive = false;
};

// Feeds `wire` in pieces of `step` bytes (0: whole), then EOF when `eof`.
Parsed Parse(const std::string& wire, size_t step, bool eof, bool head = false,
             HttpResponseParser::Limits limits = {}) {
  HttpResponseParser parser(limits);
  parser.Reset(head);
  Parsed out;
  size_t at = 0;
  while (at < wire.size() && !parser.complete() && !parser.failed()) {
    size_t n = step == 0 ? wire.size() - at : std::min(step, wire.size() - at);
    out.used += parser.Feed(wire.data() + at, n, &out.sink);
    at += n;
  }
  if (eof && !parser.complete() && !parser.failed()) parser.FeedEof();
  out.state = parser.state();
  out.error = parser.error();
  out.keep_alive = parser.keep_alive();
  return out;
}

// The same result whole and split at every size from 1 byte up.
Parsed ParseEveryWay(const std::string& wire, bool eof = false, bool head = false) {
  Parsed whole = Parse(wire, 0, eof, head);
  for (size_t step = 1; step < std::min<size_t>(wire.size(), 40); ++step) {
    Parsed split = Parse(wire, step, eof, head);
    INFO("split every " << step << " bytes");
    CHECK(split.state == whole.state);
    CHECK(split.error == whole.error);
    CHECK(split.sink.status == whole.sink.status);
    CHECK(split.sink.body == whole.sink.body);
    CHECK(split.keep_alive == whole.keep_alive);
  }
  return whole;
}

using State = HttpResponseParser::State;

}  // namespace

TEST_CASE("parser: Content-Length body, kept headers, keep-alive") {
  std::string wire =
      "HTTP/1.1 206 Partial Content\r\nServer: nginx\r\nContent-Length: 5\r\n"
      "Content-Range: bytes 0-4/4096\r\nX-Ms-Request-Id: abc-1\r\nETag: \"x\"\r\n\r\nhello";
  Parsed p = ParseEveryWay(wire);
  CHECK(p.state == State::kComplete);
  CHECK(p.sink.status == 206);
  CHECK(p.sink.body == "hello");
  CHECK(p.keep_alive);
  CHECK(p.used == wire.size());
  REQUIRE(p.sink.headers.Find("content-range"));
  CHECK(*p.sink.headers.Find("content-range") == "bytes 0-4/4096");
  CHECK(*p.sink.headers.Find("x-ms-request-id") == "abc-1");
  CHECK(*p.sink.headers.Find("content-length") == "5");
  CHECK(p.sink.headers.Find("server") == nullptr);  // not one the probes read
}

TEST_CASE("parser: chunked body with extensions and trailers") {
  std::string wire =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5;name=value\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: 1\r\n\r\n";
  Parsed p = ParseEveryWay(wire);
  CHECK(p.state == State::kComplete);
  CHECK(p.sink.body == "helloabcdefghijklmnopqrstuvwxyz");
  CHECK(p.keep_alive);
}

TEST_CASE("parser: bare LF line ends are accepted") {
  Parsed p = ParseEveryWay("HTTP/1.1 200 OK\nContent-Length: 2\n\nok");
  CHECK(p.state == State::kComplete);
  CHECK(p.sink.body == "ok");
}

TEST_CASE("parser: Connection: close and HTTP/1.0 end the connection") {
  Parsed close =
      ParseEveryWay("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx");
  CHECK(close.state == State::kComplete);
  CHECK_FALSE(close.keep_alive);
  Parsed old = ParseEveryWay("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx");
  CHECK(old.state == State::kComplete);
  CHECK_FALSE(old.keep_alive);
  Parsed old_ka =
      ParseEveryWay("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\nx");
  CHECK(old_ka.keep_alive);
}

TEST_CASE("parser: a body without length runs to the close") {
  Parsed open = Parse("HTTP/1.1 200 OK\r\n\r\nsome bytes", 0, false);
  CHECK(open.state == State::kBody);
  Parsed p = ParseEveryWay("HTTP/1.1 200 OK\r\n\r\nsome bytes", /*eof=*/true);
  CHECK(p.state == State::kComplete);
  CHECK(p.sink.body == "some bytes");
  CHECK_FALSE(p.keep_alive);
}

TEST_CASE("parser: HEAD, 204 and 304 have no body whatever Content-Length says") {
  Parsed head = ParseEveryWay("HTTP/1.1 200 OK\r\nContent-Length: 1048576\r\n\r\n", false, true);
  CHECK(head.state == State::kComplete);
  CHECK(head.sink.body.empty());
  CHECK(*head.sink.headers.Find("content-length") == "1048576");
  CHECK(head.keep_alive);
  for (const char* status : {"204 No Content", "304 Not Modified"}) {
    Parsed p = ParseEveryWay(std::string("HTTP/1.1 ") + status + "\r\nContent-Length: 9\r\n\r\n");
    CHECK(p.state == State::kComplete);
    CHECK(p.sink.body.empty());
  }
}

TEST_CASE("parser: interim 1xx answers are skipped, their headers dropped") {
  Parsed p = ParseEveryWay(
      "HTTP/1.1 100 Continue\r\nX-Ms-Error-Code: Early\r\n\r\n"
      "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
      "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n");
  CHECK(p.state == State::kComplete);
  CHECK(p.sink.status == 201);
  CHECK(p.sink.heads == 1);
  CHECK(p.sink.headers.Find("x-ms-error-code") == nullptr);
  Parsed switching = ParseEveryWay("HTTP/1.1 101 Switching Protocols\r\n\r\n");
  CHECK(switching.state == State::kError);
  CHECK(switching.error == "unexpected 101 Switching Protocols");
}

TEST_CASE("parser: bytes after the response forbid reusing the connection") {
  std::string wire = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA";
  Parsed p = Parse(wire, 0, false);
  CHECK(p.state == State::kComplete);
  CHECK(p.used == wire.size() - 5);
  CHECK_FALSE(p.keep_alive);
}

TEST_CASE("parser: Transfer-Encoding with Content-Length answers but ends the connection") {
  Parsed p = ParseEveryWay(
      "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: "
      "chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n");
  CHECK(p.state == State::kComplete);
  CHECK(p.sink.body == "ok");
  CHECK_FALSE(p.keep_alive);
}

TEST_CASE("parser: every malformed input is a clear error") {
  struct Case {
    std::string wire;
    bool eof;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"HTTP/2 200\r\n\r\n", false,
       "malformed HTTP status line (10 bytes; expected 'HTTP/1.x NNN ...')"},
      {"ICY 200 OK\r\n\r\n", false, std::string(kNotHttpText)},
      {"HTTP/1.1 2000 OK\r\n\r\n", false,
       "malformed HTTP status line (16 bytes; expected 'HTTP/1.x NNN ...')"},
      {"HTTP/1.1 099 Low\r\n\r\n", false, "HTTP status 99 out of range (100-599)"},
      {"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", false,
       "malformed response header line 1 (no 'name: value')"},
      {"HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", false, "malformed response header name in line 1"},
      {"HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n", false,
       "folded response header line (obsolete line folding is not accepted)"},
      {"HTTP/1.1 200 OK\r\nContent-Length: 12x\r\n\r\n", false,
       "malformed Content-Length (3 bytes, not a number)"},
      {"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", false,
       "malformed Content-Length (2 bytes, not a number)"},
      {"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", false,
       "malformed Content-Length (20 bytes, not a number)"},
      {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", false,
       "conflicting Content-Length headers (1 and 2)"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", false,
       "malformed chunk size in a chunked body"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n", false,
       "chunk data longer than its chunk size"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n", false,
       "malformed chunk size in a chunked body"},
      {"HTTP/1.1 200 OK\r\nA: \0\r\n\r\n", false, "NUL byte in the response headers"},
      {"", true, "Empty reply from server"},
      {"HTTP/1.1 200 OK\r\nContent", true,
       "connection closed in the middle of the response headers"},
      {"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", true,
       "transfer closed with 7 bytes remaining to read"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", true,
       "transfer closed in the middle of a chunked body"},
  };
  for (const Case& c : cases) {
    std::string wire = c.wire;
    if (c.error.rfind("NUL", 0) == 0) {
      static const char kNul[] = "HTTP/1.1 200 OK\r\nA: \0\r\n\r\n";
      wire.assign(kNul, sizeof(kNul) - 1);
    }
    INFO(c.error);
    Parsed p = ParseEveryWay(wire, c.eof);
    CHECK(p.state == State::kError);
    CHECK(p.error == c.error);
    CHECK_FALSE(p.keep_alive);
  }
}

TEST_CASE("parser: header size and count limits hold, the buffer stays bounded") {
  HttpResponseParser::Limits limits;
  limits.max_header_bytes = 256;
  limits.max_headers = 4;
  std::string many = "HTTP/1.1 200 OK\r\n";
  for (int i = 0; i < 5; ++i) many += "A" + std::to_string(i) + ": x\r\n";
  many += "\r\n";
  Parsed p = Parse(many, 0, false, false, limits);
  CHECK(p.state == State::kError);
  CHECK(p.error == "more than 4 response headers");
  // An endless header line is cut at the limit whether it arrives whole or a byte at a time.
  std::string endless = "HTTP/1.1 200 OK\r\nX: " + std::string(10000, 'a');
  for (size_t step : {size_t{0}, size_t{1}, size_t{100}}) {
    Parsed e = Parse(endless, step, false, false, limits);
    CHECK(e.state == State::kError);
    CHECK(e.error == HeadersTooLargeText("256 bytes"));
  }
  std::string long_chunk_line =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + std::string(20000, 'e');
  Parsed c = Parse(long_chunk_line, 7, false);
  CHECK(c.state == State::kError);
  CHECK(c.error == "chunk-size or trailer line longer than 8192 bytes");
}

TEST_CASE("parser: the sink's refusal (a body cap) stops it") {
  HttpResponseParser parser;
  parser.Reset(false);
  Collector sink;
  sink.cap = 3;
  std::string wire = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789";
  parser.Feed(wire.data(), wire.size(), &sink);
  CHECK(parser.failed());
  CHECK(parser.error().empty());  // the sink knows why
  CHECK_FALSE(parser.keep_alive());
}

TEST_CASE("request writer: libcurl's request line and Host header, no Accept or Expect") {
  HttpRequest r;
  r.method = "GET";
  r.url = "http://127.0.0.1:8080/c/a/../blob.bin?sv=1&sig=S";
  r.headers = {{"Range", "bytes=0-4095"}, {"x-ms-version", "2021-08-06"}, {"Empty", ""}};
  std::string head;
  HttpOrigin origin;
  std::string error;
  REQUIRE(WriteHttpRequestHead(r, &head, &origin, &error));
  CHECK(head ==
        "GET /c/blob.bin?sv=1&sig=S HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nRange: bytes=0-4095\r\n"
        "x-ms-version: 2021-08-06\r\nEmpty:\r\n\r\n");
  CHECK(origin.origin_url == "http://127.0.0.1:8080/");
  CHECK_FALSE(origin.tls());
  r.method = "PUT";
  r.url = "https://acct.blob.core.windows.net:443/c/x";
  r.body = "abc";
  r.headers.clear();
  REQUIRE(WriteHttpRequestHead(r, &head, &origin, &error));
  CHECK(head ==
        "PUT /c/x HTTP/1.1\r\nHost: acct.blob.core.windows.net\r\nContent-Length: 3\r\n\r\n");
  CHECK(origin.origin_url == "https://acct.blob.core.windows.net:443/");
  r.headers = {{"x-evil", "a\r\nInjected: 1"}};
  CHECK_FALSE(WriteHttpRequestHead(r, &head, &origin, &error));
  CHECK(error == "request header 'x-evil' holds a line break");
  r.headers.clear();
  r.url = "http://host/a b?sig=SECRET";
  CHECK_FALSE(WriteHttpRequestHead(r, &head, &origin, &error));
  CHECK(error.find("SECRET") == std::string::npos);
}

TEST_CASE("request writer: proxies from the environment, as libcurl reads them") {
  HttpOrigin origin;
  origin.scheme = "https";
  origin.host = "acct.blob.core.windows.net";
  for (const char* v : {"http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                        "no_proxy", "NO_PROXY"})
    unsetenv(v);
  CHECK_FALSE(ProxyFromEnvironment(origin));
  setenv("http_proxy", "http://proxy:3128", 1);
  CHECK_FALSE(ProxyFromEnvironment(origin));  // only for http:// URLs
  setenv("HTTPS_PROXY", "http://proxy:3128", 1);
  CHECK(ProxyFromEnvironment(origin));
  setenv("NO_PROXY", "localhost,.core.windows.net", 1);
  CHECK_FALSE(ProxyFromEnvironment(origin));
  setenv("NO_PROXY", "windows.org", 1);
  CHECK(ProxyFromEnvironment(origin));
  setenv("NO_PROXY", "*", 1);
  CHECK_FALSE(ProxyFromEnvironment(origin));
  for (const char* v : {"http_proxy", "HTTPS_PROXY", "NO_PROXY"}) unsetenv(v);
}
