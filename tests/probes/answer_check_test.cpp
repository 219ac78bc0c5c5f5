// AnswerMismatch: which response heads cannot answer the request they came back on; and the
// words and waits http_errors takes from a status (redirects, Retry-After).
#include "transport/answer_check.h"

#include <catch2/catch.hpp>

#include "transport/http_errors.h"

using namespace feedcheck;

namespace {

HttpRequest Ranged(const std::string& range, uint64_t cap) {
  HttpRequest r;
  r.headers = {{"x-ms-range", range}};
  r.max_body_bytes = cap;
  return r;
}

HttpHeaders Heads(std::vector<std::pair<std::string, std::string>> list) {
  HttpHeaders h;
  for (auto& [name, value] : list) h.Set(name, value);
  return h;
}

}  // namespace

TEST_CASE("answer check: a healthy 206, 200 and error pass") {
  HttpRequest r = Ranged("bytes=100-199", 100);
  CHECK(AnswerMismatch(r, 206,
                       Heads({{"Content-Range", "bytes 100-199/1000"}, {"Content-Length", "100"}}))
            .empty());
  // The end of the object may come sooner than the end of the range.
  CHECK(AnswerMismatch(Ranged("bytes=900-1999", 1100), 206,
                       Heads({{"Content-Range", "bytes 900-999/1000"}}))
            .empty());
  // A blob saved with Content-Encoding gzip, served as stored: the bytes asked for.
  CHECK(AnswerMismatch(r, 206,
                       Heads({{"Content-Range", "bytes 100-199/1000"},
                              {"Content-Length", "100"},
                              {"Content-Encoding", "gzip"}}))
            .empty());
  HttpRequest plain;
  plain.max_body_bytes = 1000;
  CHECK(AnswerMismatch(plain, 200, Heads({{"Content-Length", "1000"}})).empty());
  // Error bodies are never data: not checked here.
  CHECK(AnswerMismatch(r, 503, Heads({{"Content-Encoding", "gzip"}})).empty());
  // A HEAD announces the object's size, not a body.
  HttpRequest head;
  head.method = "HEAD";
  head.max_body_bytes = 1;
  CHECK(AnswerMismatch(head, 200, Heads({{"Content-Length", "53687091200"}})).empty());
  CHECK(AnswerMismatch(
            r, 206,
            Heads({{"Content-Range", "bytes 100-199/1000"}, {"Content-Encoding", "identity"}}))
            .empty());
}

TEST_CASE("answer check: answers that contradict the request are named") {
  HttpRequest r = Ranged("bytes=0-1023", 1024);
  CHECK(AnswerMismatch(r, 200, Heads({{"Content-Length", "53687091200"}})) ==
        "the server ignored the Range: HTTP 200 announcing 53687091200 bytes for a 1024-byte "
        "range");
  HttpRequest listing;
  listing.max_body_bytes = 5000;
  CHECK(AnswerMismatch(listing, 200, Heads({{"Content-Length", "104857600"}})) ==
        "the server announced 104857600 bytes where at most 5000 were asked for");
  CHECK(AnswerMismatch(Ranged("bytes=1024-2047", 1024), 206,
                       Heads({{"Content-Range", "bytes 1025-2048/4096"}})) ==
        "the server sent bytes 1025-2048 for a request of bytes 1024-2047 (its Content-Range "
        "disagrees with the Range)");
  CHECK(AnswerMismatch(r, 206, Heads({})) == "HTTP 206 without a Content-Range, for bytes 0-1023");
  CHECK(AnswerMismatch(r, 206, Heads({{"Content-Range", "bytes 5-1/10"}})) ==
        "HTTP 206 with a malformed Content-Range (bytes 5-1/10), for bytes 0-1023");
  CHECK(AnswerMismatch(r, 206,
                       Heads({{"Content-Range", "bytes 0-1023/4096"},
                              {"Content-Length", "256"},
                              {"Content-Encoding", "gzip"}})) ==
        "the server encoded its answer (Content-Encoding: gzip) though no encoding was asked "
        "for, into 256 bytes instead of the 1024 bytes asked for: those bytes are not the "
        "object's");
  HttpRequest listing_page;
  listing_page.keep_body = true;
  listing_page.max_body_bytes = 1 << 20;
  CHECK(AnswerMismatch(listing_page, 200, Heads({{"Content-Encoding", "gzip"}})) ==
        "the server encoded its answer (Content-Encoding: gzip) though no encoding was asked for: "
        "those bytes are not the ones asked for");
  // What the server wrote is quoted only when it is a plain token.
  CHECK(AnswerMismatch(r, 200, Heads({{"Content-Encoding", "\x1b[31mx"}})).find("(unreadable)") !=
        std::string::npos);
}

TEST_CASE("status words: a redirect names only where it points; Retry-After is read") {
  HttpResponse r;
  r.status = 307;
  r.headers.Set("Location", "http://other.example:8080/c/b?sig=SECRET");
  CHECK(StatusText(r) == "HTTP 307 (a redirect to http://other.example:8080, not followed)");
  r.headers.Set("Location", "http://user:pw@other.example/");
  CHECK(StatusText(r) == "HTTP 307 (a redirect, not followed)");
  HttpResponse busy;
  busy.status = 429;
  busy.headers.Set("x-ms-error-code", "ServerBusy");
  busy.headers.Set("Retry-After", "86400");
  CHECK(RetryAfterSeconds(busy) == 86400);
  CHECK(StatusText(busy) == "HTTP 429 ServerBusy (Retry-After 86400 s)");
  busy.headers.Set("Retry-After", "Wed, 21 Oct 2026 07:28:00 GMT");
  CHECK(RetryAfterSeconds(busy) == 0);  // a date: the backoff applies
  HttpResponse ok;
  ok.status = 200;
  ok.headers.Set("Retry-After", "5");
  CHECK(RetryAfterSeconds(ok) == 0);
}

TEST_CASE("answer check: a 206 shorter than its own Content-Range is not the range") {
  HttpRequest r = Ranged("bytes=0-4095", 4096);
  // Announced: an empty body claiming 4 KiB, refused at its head.
  std::string empty = AnswerMismatch(
      r, 206, Heads({{"Content-Range", "bytes 0-4095/1048576"}, {"Content-Length", "0"}}));
  CHECK(empty ==
        "HTTP 206 announcing 0 bytes for its Content-Range of bytes 0-4095 (4096 bytes): the "
        "body is not the range it claims");
  // Unannounced (chunked): refused when it ends short.
  HttpResponse chunked;
  chunked.status = 206;
  chunked.headers.Set("Content-Range", "bytes 0-4095/1048576");
  chunked.body_bytes = 0;
  CHECK(ShortAnswer(r, chunked) ==
        "HTTP 206 ended after 0 of the 4096 bytes its Content-Range claims (bytes 0-4095): a "
        "short body");
  chunked.body_bytes = 4096;
  CHECK(ShortAnswer(r, chunked).empty());
  // Already failed, or no range claimed: nothing to add.
  chunked.body_bytes = 10;
  chunked.transport_error = "Connection reset by peer";
  CHECK(ShortAnswer(r, chunked).empty());
  HttpResponse whole;
  whole.status = 200;
  CHECK(ShortAnswer(r, whole).empty());
}
