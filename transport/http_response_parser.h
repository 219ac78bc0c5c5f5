// An incremental HTTP/1.1 response parser for the raw request path (raw_lane.cpp): bytes go in
// as they arrive, in any split; out come the status, the few headers the probes read, body
// bytes, and whether the connection may carry the next request. It allocates nothing once its
// buffers have grown to a response's header size, holds at most `max_header_bytes` of its own,
// and turns every malformed input into an error message rather than a guess.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "transport/http_client.h"

namespace feedcheck {

/// Receives what the parser finds. Body bytes point into the buffer passed to Feed.
class HttpResponseSink {
 public:
  virtual ~HttpResponseSink() = default;
  /// The final (non-1xx) status line has been read; `headers` are the kept ones (lower-cased).
  virtual void OnHead(int status, const HttpHeaders& headers) = 0;
  /// Some body bytes (after chunked framing is removed). False stops parsing (e.g. over a cap).
  virtual bool OnBody(const char* data, size_t size) = 0;
};

class HttpResponseParser {
 public:
  struct Limits {
    size_t max_header_bytes = 64 * 1024;  ///< one header section (status line to blank line)
    size_t max_headers = 100;             ///< header lines in one section
    size_t max_line_bytes = 8 * 1024;     ///< a chunk-size line or a trailer line
  };
  enum class State { kHead, kBody, kComplete, kError };

  HttpResponseParser() = default;
  explicit HttpResponseParser(Limits limits) : limits_(limits) {}

  /// Starts a new response. `head_request`: the request was a HEAD, so no body follows
  /// whatever the headers say.
  void Reset(bool head_request);
  /// Parses `size` bytes and returns how many were used: fewer than `size` only when the
  /// response ended (the rest belongs to no response: the connection is not reused) or on an
  /// error. The sink may stop it by returning false from OnBody (state() then kError with an
  /// empty error(): the sink knows why).
  size_t Feed(const char* data, size_t size, HttpResponseSink* sink);
  /// The peer closed the connection. A body that runs to the close ends here; any other
  /// unfinished response becomes an error.
  void FeedEof();

  State state() const { return state_; }
  bool complete() const { return state_ == State::kComplete; }
  bool failed() const { return state_ == State::kError; }
  /// Why the response was rejected, for HttpResponse::transport_error (no payload bytes in it).
  const std::string& error() const { return error_; }
  /// Nothing of this response has arrived yet (a reused connection that was closed idle).
  bool nothing_received() const { return bytes_seen_ == 0; }
  /// After a complete response: the connection may carry another request (HTTP/1.1 without
  /// "Connection: close", a framed body, nothing unread).
  bool keep_alive() const { return keep_alive_; }
  int status() const { return status_; }
  /// Body bytes announced by Content-Length, -1 when chunked, to the close, or none yet.
  int64_t content_length() const { return content_length_; }
  const HttpHeaders& headers() const { return headers_; }

  /// The header names kept (lower case): the ones the probes, error classification and tests
  /// read. Others are checked for syntax and dropped.
  static bool IsKeptHeader(std::string_view lower_name);

 private:
  enum class Framing { kNone, kLength, kChunked, kToClose };
  enum class ChunkState { kSize, kData, kDataEnd, kTrailer };

  bool Fail(std::string message);
  size_t FailAt(std::string message, size_t used);
  size_t FeedHead(const char* data, size_t size, HttpResponseSink* sink);
  size_t FeedBody(const char* data, size_t size, HttpResponseSink* sink);
  size_t FeedChunked(const char* data, size_t size, HttpResponseSink* sink);
  /// Parses one whole header section (status line to blank line, CR before LF optional).
  bool ParseHead(std::string_view head);
  bool ParseStatusLine(std::string_view line);
  bool ParseHeaderLine(std::string_view line);
  bool DecideFraming();
  void Finish();
  /// Collects one CRLF-terminated line across calls into line_; true once it is whole.
  bool TakeLine(const char* data, size_t size, size_t* used, std::string_view* line);

  /// Parses the status line at the start of `head` when it has arrived whole, so a head refused
  /// as too large still says which status it carried (as libcurl's path does).
  void PeekStatus(std::string_view head);
  size_t FailHeadTooLarge(std::string_view head_so_far, size_t used);

  Limits limits_;
  State state_ = State::kHead;
  size_t http_prefix_seen_ = 0;  ///< bytes of "HTTP/" matched at the start of the answer
  bool head_request_ = false;
  std::string error_;
  uint64_t bytes_seen_ = 0;

  // Header section being collected across Feed calls (only when it arrives split).
  std::string head_buf_;
  size_t head_scan_ = 0;  ///< where the search for the blank line resumes in head_buf_
  int status_ = 0;
  int minor_version_ = 1;
  size_t header_count_ = 0;
  HttpHeaders headers_;
  // Framing facts from the headers.
  bool connection_close_ = false;
  bool connection_keep_alive_ = false;
  bool has_transfer_encoding_ = false;
  bool chunked_ = false;
  int64_t content_length_ = -1;

  Framing framing_ = Framing::kNone;
  uint64_t body_left_ = 0;
  ChunkState chunk_state_ = ChunkState::kSize;
  std::string line_;
  size_t trailer_bytes_ = 0;
  bool keep_alive_ = false;
};

}  // namespace feedcheck
