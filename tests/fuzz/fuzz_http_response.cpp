// libFuzzer target: the raw path's HTTP/1.1 response parser (transport/http_response_parser.h).
// The first byte picks a HEAD or not and how the rest is split into reads; the rest is what a
// server sent. Whatever it is, the parser must not crash, must hold no more than its limits,
// must hand out no more body than it was fed, and must reach the same end, error and body
// whether the bytes come in one read or many.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "transport/answer_check.h"
#include "transport/http_response_parser.h"

namespace {

constexpr size_t kBodyCap = 4096;

// A 4 KiB ranged read, as latency sends it: the head and the end of every answer are checked
// against it (Content-Length, Content-Range and Content-Encoding parsing).
const feedcheck::HttpRequest& RangedRequest() {
  static const feedcheck::HttpRequest request = [] {
    feedcheck::HttpRequest r;
    r.headers = {{"Range", "bytes=0-4095"}};
    r.max_body_bytes = kBodyCap;
    return r;
  }();
  return request;
}

struct Sink : feedcheck::HttpResponseSink {
  std::string body;
  int heads = 0;
  int status = 0;
  feedcheck::HttpHeaders headers;
  void OnHead(int head_status, const feedcheck::HttpHeaders& head) override {
    if (head_status < 200 || head_status > 599) __builtin_trap();
    for (const auto& h : head)
      if (!feedcheck::HttpResponseParser::IsKeptHeader(h.first)) __builtin_trap();
    (void)feedcheck::AnswerMismatch(RangedRequest(), head_status, head);
    status = head_status;
    for (const auto& [name, value] : head) headers[name].assign(value);
    ++heads;
  }
  bool OnBody(const char* data, size_t size) override {
    if (heads != 1) __builtin_trap();  // a body only after exactly one final head
    // A body cap, so the refusal path is exercised too. What a refusing call was handed depends
    // on how the reads fell, so only the bytes up to the first one past the cap are compared.
    body.append(data, std::min(size, kBodyCap + 1 - body.size()));
    return body.size() <= kBodyCap;
  }
};

struct Outcome {
  feedcheck::HttpResponseParser::State state;
  std::string error;
  std::string body;
  bool keep_alive;
};

Outcome Run(const char* data, size_t size, size_t step, bool head, bool eof) {
  feedcheck::HttpResponseParser::Limits limits;
  limits.max_header_bytes = 512;
  limits.max_headers = 8;
  limits.max_line_bytes = 64;
  feedcheck::HttpResponseParser parser(limits);
  parser.Reset(head);
  Sink sink;
  size_t at = 0;
  while (at < size && !parser.complete() && !parser.failed()) {
    size_t n = step == 0 ? size - at : std::min(step, size - at);
    size_t used = parser.Feed(data + at, n, &sink);
    if (used > n) __builtin_trap();
    at += n;
  }
  if (eof && !parser.complete() && !parser.failed()) parser.FeedEof();
  if (parser.complete()) {
    feedcheck::HttpResponse response;
    response.status = sink.status;
    for (const auto& [name, value] : sink.headers) response.headers[name].assign(value);
    response.body_bytes = sink.body.size();
    (void)feedcheck::ShortAnswer(RangedRequest(), response);
  }
  if (sink.body.size() > size) __builtin_trap();
  if (parser.failed() && parser.keep_alive()) __builtin_trap();
  if (parser.state() == feedcheck::HttpResponseParser::State::kComplete && sink.heads != 1)
    __builtin_trap();
  // Bytes past the end in a later read would be just as foreign as ones in the same read (the
  // lane never reuses a connection with either), so both count against keep-alive.
  return {parser.state(), parser.error(), sink.body, parser.keep_alive() && at == size};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool head = data[0] & 1;
  const bool eof = data[0] & 2;
  const size_t step = 1 + (data[0] >> 2);  // 1..64 bytes a read
  const char* text = reinterpret_cast<const char*>(data + 1);
  size -= 1;
  Outcome whole = Run(text, size, 0, head, eof);
  Outcome split = Run(text, size, step, head, eof);
  if (whole.state != split.state || whole.error != split.error || whole.body != split.body ||
      whole.keep_alive != split.keep_alive)
    __builtin_trap();
  return 0;
}
