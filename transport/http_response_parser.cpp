#include "transport/http_response_parser.h"

#include <fmt/format.h>

#include <cstring>

#include "core/ascii_text.h"

namespace feedcheck {
namespace {

constexpr std::string_view kKeptHeaders[] = {
    "content-length",    "content-range",    "content-type", "transfer-encoding", "connection",
    "x-ms-request-id",   "x-ms-error-code",  "retry-after",  "location",          "etag",
    "x-ms-continuation", "content-encoding",
};

bool IsTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return c != '\0' && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string_view StripCr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// Calls `fn` on each comma-separated element of a header value, trimmed.
template <typename Fn>
void ForEachToken(std::string_view value, Fn fn) {
  while (!value.empty()) {
    size_t comma = value.find(',');
    std::string_view token = Trim(value.substr(0, comma));
    if (!token.empty()) fn(token);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
}

// The end of a header section in `text` from `from`: the index just past the blank line, or 0
// when it has not arrived. A line ends in LF, with or without CR before it.
size_t HeadEnd(std::string_view text, size_t from) {
  size_t i = from;
  while (i < text.size()) {
    const void* nl = std::memchr(text.data() + i, '\n', text.size() - i);
    if (!nl) return 0;
    i = static_cast<size_t>(static_cast<const char*>(nl) - text.data()) + 1;
    if (i < text.size() && text[i] == '\n') return i + 1;
    if (i + 1 < text.size() && text[i] == '\r' && text[i + 1] == '\n') return i + 2;
  }
  return 0;
}

// "64 KiB", or "256 bytes" for a limit that is no whole KiB.
std::string HeaderLimitText(size_t bytes) {
  return bytes % 1024 == 0 ? fmt::format("{} KiB", bytes / 1024) : fmt::format("{} bytes", bytes);
}

}  // namespace

bool HttpResponseParser::IsKeptHeader(std::string_view lower_name) {
  for (std::string_view kept : kKeptHeaders)
    if (kept == lower_name) return true;
  return false;
}

void HttpResponseParser::Reset(bool head_request) {
  state_ = State::kHead;
  http_prefix_seen_ = 0;
  head_request_ = head_request;
  error_.clear();
  bytes_seen_ = 0;
  head_buf_.clear();
  head_scan_ = 0;
  status_ = 0;
  minor_version_ = 1;
  header_count_ = 0;
  headers_.clear();
  connection_close_ = false;
  connection_keep_alive_ = false;
  has_transfer_encoding_ = false;
  chunked_ = false;
  content_length_ = -1;
  framing_ = Framing::kNone;
  body_left_ = 0;
  chunk_state_ = ChunkState::kSize;
  line_.clear();
  trailer_bytes_ = 0;
  keep_alive_ = false;
}

bool HttpResponseParser::Fail(std::string message) {
  state_ = State::kError;
  error_ = std::move(message);
  keep_alive_ = false;
  return false;
}

size_t HttpResponseParser::FailAt(std::string message, size_t used) {
  Fail(std::move(message));
  return used;
}

size_t HttpResponseParser::Feed(const char* data, size_t size, HttpResponseSink* sink) {
  bytes_seen_ += size;
  size_t used = 0;
  while (used < size && (state_ == State::kHead || state_ == State::kBody)) {
    size_t n = state_ == State::kHead ? FeedHead(data + used, size - used, sink)
                                      : FeedBody(data + used, size - used, sink);
    used += n;
    if (n == 0 && state_ != State::kComplete) break;  // waiting for more, or failed
  }
  // Bytes after the end of the response answer no request: never reuse such a connection.
  if (state_ == State::kComplete && used < size) keep_alive_ = false;
  return used;
}

void HttpResponseParser::PeekStatus(std::string_view head) {
  size_t nl = head.find('\n');
  if (nl == std::string_view::npos || status_ != 0) return;
  std::string_view line = StripCr(head.substr(0, nl));
  if (line.size() >= 12 && line.substr(0, 7) == "HTTP/1." && IsDigit(line[9]) &&
      IsDigit(line[10]) && IsDigit(line[11]) && line[9] != '0')
    status_ = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
}

size_t HttpResponseParser::FailHeadTooLarge(std::string_view head_so_far, size_t used) {
  PeekStatus(head_so_far);
  return FailAt(HeadersTooLargeText(HeaderLimitText(limits_.max_header_bytes)), used);
}

size_t HttpResponseParser::FeedHead(const char* data, size_t size, HttpResponseSink* sink) {
  // Not even "HTTP/" at the start: another protocol (an SSH banner, a TLS alert). Said at once,
  // as libcurl's path says it, rather than waiting for a blank line that never comes.
  for (size_t i = 0; i < size && http_prefix_seen_ < 5; ++i, ++http_prefix_seen_)
    if (data[i] != "HTTP/"[http_prefix_seen_]) return FailAt(std::string(kNotHttpText), size);
  std::string_view head;
  size_t used = 0;
  if (head_buf_.empty()) {
    // The usual case: the whole section is in this read, parsed where it lies.
    size_t end = HeadEnd(std::string_view(data, size), 0);
    if (end == 0) {
      if (size > limits_.max_header_bytes)
        return FailHeadTooLarge(std::string_view(data, size), size);
      head_buf_.assign(data, size);
      head_scan_ = 0;
      return size;
    }
    head = std::string_view(data, end);
    used = end;
  } else {
    size_t old = head_buf_.size();
    size_t room = limits_.max_header_bytes + 1 - std::min(old, limits_.max_header_bytes + 1);
    head_buf_.append(data, std::min(size, room));
    // Resume two bytes back: the blank line may straddle the two reads.
    size_t end = HeadEnd(head_buf_, head_scan_ > 2 ? head_scan_ - 2 : 0);
    head_scan_ = head_buf_.size();
    if (end == 0) {
      if (head_buf_.size() > limits_.max_header_bytes) return FailHeadTooLarge(head_buf_, size);
      return size;
    }
    head = std::string_view(head_buf_).substr(0, end);
    used = end - old;
  }
  if (head.size() > limits_.max_header_bytes) return FailHeadTooLarge(head, used);
  if (!ParseHead(head)) return used;
  head_buf_.clear();
  head_scan_ = 0;
  if (status_ < 200) {
    // 100 Continue, 102, 103 Early Hints: an interim answer; the real one follows.
    if (status_ == 101) return FailAt("unexpected 101 Switching Protocols", used);
    header_count_ = 0;
    headers_.clear();
    connection_close_ = connection_keep_alive_ = has_transfer_encoding_ = chunked_ = false;
    content_length_ = -1;
    return used;
  }
  if (!DecideFraming()) return used;
  sink->OnHead(status_, headers_);
  if (framing_ == Framing::kNone || (framing_ == Framing::kLength && body_left_ == 0)) Finish();
  return used;
}

bool HttpResponseParser::ParseHead(std::string_view head) {
  if (head.find('\0') != std::string_view::npos) return Fail("NUL byte in the response headers");
  size_t nl = head.find('\n');
  if (!ParseStatusLine(StripCr(head.substr(0, nl)))) return false;
  head.remove_prefix(nl + 1);
  while (!head.empty()) {
    nl = head.find('\n');
    std::string_view line = StripCr(head.substr(0, nl));
    head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 1);
    if (line.empty()) break;  // the blank line ending the section
    if (!ParseHeaderLine(line)) return false;
  }
  return true;
}

bool HttpResponseParser::ParseStatusLine(std::string_view line) {
  // "HTTP/1.1 200 OK": version, a space, three digits, then a space and a reason (optional).
  // Not even "HTTP/": another protocol (an SSH banner, TLS), said as libcurl's path says it.
  if (line.substr(0, 5) != "HTTP/") return Fail(std::string(kNotHttpText));
  if (line.size() < 12 || line.substr(0, 7) != "HTTP/1." || !IsDigit(line[7]) || line[8] != ' ' ||
      !IsDigit(line[9]) || !IsDigit(line[10]) || !IsDigit(line[11]) ||
      (line.size() > 12 && line[12] != ' '))
    return Fail(fmt::format("malformed HTTP status line ({} bytes; expected 'HTTP/1.x NNN ...')",
                            line.size()));
  minor_version_ = line[7] - '0';
  status_ = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
  if (status_ < 100 || status_ > 599)
    return Fail(fmt::format("HTTP status {} out of range (100-599)", status_));
  return true;
}

bool HttpResponseParser::ParseHeaderLine(std::string_view line) {
  if (++header_count_ > limits_.max_headers)
    return Fail(fmt::format("more than {} response headers", limits_.max_headers));
  if (line.front() == ' ' || line.front() == '\t')
    return Fail("folded response header line (obsolete line folding is not accepted)");
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0)
    return Fail(fmt::format("malformed response header line {} (no 'name: value')", header_count_));
  std::string_view name = line.substr(0, colon);
  for (char c : name)
    if (!IsTokenChar(c))
      return Fail(fmt::format("malformed response header name in line {}", header_count_));
  std::string_view value = Trim(line.substr(colon + 1));
  if (IEquals(name, "content-length")) {
    // Digits only; a repeated header must repeat the same number (RFC 9112, 6.3).
    int64_t n = 0;
    bool ok = !value.empty() && value.size() <= 18;
    for (char c : value) {
      if (!ok || !IsDigit(c)) {
        ok = false;
        break;
      }
      n = n * 10 + (c - '0');  // at most 18 digits: no overflow
    }
    if (!ok)
      return Fail(fmt::format("malformed Content-Length ({} bytes, not a number)", value.size()));
    if (content_length_ >= 0 && content_length_ != n)
      return Fail(
          fmt::format("conflicting Content-Length headers ({} and {})", content_length_, n));
    content_length_ = n;
  } else if (IEquals(name, "transfer-encoding")) {
    has_transfer_encoding_ = true;
    ForEachToken(value, [&](std::string_view t) { chunked_ = IEquals(t, "chunked"); });
  } else if (IEquals(name, "connection")) {
    ForEachToken(value, [&](std::string_view t) {
      if (IEquals(t, "close")) connection_close_ = true;
      if (IEquals(t, "keep-alive")) connection_keep_alive_ = true;
    });
  }
  // Kept headers are matched by length first: most names are not kept.
  if (name.size() >= 4 && name.size() <= 17) {
    char lower[17];
    for (size_t i = 0; i < name.size(); ++i)
      lower[i] = name[i] >= 'A' && name[i] <= 'Z' ? static_cast<char>(name[i] + 32) : name[i];
    std::string_view lower_name(lower, name.size());
    if (IsKeptHeader(lower_name)) headers_[lower_name].assign(value);
  }
  return true;
}

bool HttpResponseParser::DecideFraming() {
  if (head_request_ || status_ == 204 || status_ == 304) {
    framing_ = Framing::kNone;  // no body, whatever Content-Length says (RFC 9112, 6.3)
  } else if (has_transfer_encoding_) {
    // Chunked last: framed. Any other coding last: the body runs to the close.
    framing_ = chunked_ ? Framing::kChunked : Framing::kToClose;
  } else if (content_length_ >= 0) {
    framing_ = Framing::kLength;
    body_left_ = static_cast<uint64_t>(content_length_);
  } else {
    framing_ = Framing::kToClose;
  }
  state_ = State::kBody;
  return true;
}

void HttpResponseParser::Finish() {
  state_ = State::kComplete;
  bool persistent =
      minor_version_ >= 1 ? !connection_close_ : connection_keep_alive_ && !connection_close_;
  // A body framed by both Transfer-Encoding and Content-Length may be a smuggling attempt:
  // answered, but the connection is not trusted with another request.
  keep_alive_ = persistent && framing_ != Framing::kToClose &&
                !(has_transfer_encoding_ && content_length_ >= 0);
}

size_t HttpResponseParser::FeedBody(const char* data, size_t size, HttpResponseSink* sink) {
  switch (framing_) {
    case Framing::kNone:
      Finish();
      return 0;
    case Framing::kLength: {
      size_t n = static_cast<size_t>(std::min<uint64_t>(body_left_, size));
      body_left_ -= n;
      if (n > 0 && !sink->OnBody(data, n)) return FailAt("", n);
      if (body_left_ == 0) Finish();
      return n;
    }
    case Framing::kToClose:
      if (!sink->OnBody(data, size)) return FailAt("", size);
      return size;
    case Framing::kChunked:
      return FeedChunked(data, size, sink);
  }
  return 0;
}

bool HttpResponseParser::TakeLine(const char* data, size_t size, size_t* used,
                                  std::string_view* line) {
  const void* nl = std::memchr(data, '\n', size);
  size_t take = nl ? static_cast<size_t>(static_cast<const char*>(nl) - data) + 1 : size;
  if (line_.size() + take > limits_.max_line_bytes + 2) {
    Fail(fmt::format("chunk-size or trailer line longer than {} bytes", limits_.max_line_bytes));
    *used = take;
    return false;
  }
  *used = take;
  if (!nl) {
    line_.append(data, take);
    return false;
  }
  if (line_.empty()) {
    *line = StripCr(std::string_view(data, take - 1));
  } else {
    line_.append(data, take - 1);
    *line = StripCr(line_);
  }
  return true;
}

size_t HttpResponseParser::FeedChunked(const char* data, size_t size, HttpResponseSink* sink) {
  size_t used = 0;
  while (used < size && state_ == State::kBody) {
    if (chunk_state_ == ChunkState::kData) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(body_left_, size - used));
      body_left_ -= n;
      if (!sink->OnBody(data + used, n)) return FailAt("", used + n);
      used += n;
      if (body_left_ == 0) chunk_state_ = ChunkState::kDataEnd;
      continue;
    }
    size_t n = 0;
    std::string_view line;
    bool whole = TakeLine(data + used, size - used, &n, &line);
    used += n;
    if (!whole) continue;  // the line goes on in the next read, or it failed
    bool from_buffer = !line_.empty();
    switch (chunk_state_) {
      case ChunkState::kSize: {
        // Hex digits, then optional extensions after ';' (ignored).
        size_t end = line.find(';');
        std::string_view digits = Trim(line.substr(0, end));
        uint64_t chunk = 0;
        bool ok = !digits.empty() && digits.size() <= 15;
        for (char c : digits) {
          int v = HexValue(c);
          ok = ok && v >= 0;
          chunk = chunk * 16 + static_cast<uint64_t>(v < 0 ? 0 : v);
        }
        if (!ok) return FailAt("malformed chunk size in a chunked body", used);
        body_left_ = chunk;
        chunk_state_ = chunk == 0 ? ChunkState::kTrailer : ChunkState::kData;
        break;
      }
      case ChunkState::kDataEnd:
        if (!line.empty()) return FailAt("chunk data longer than its chunk size", used);
        chunk_state_ = ChunkState::kSize;
        break;
      case ChunkState::kTrailer:
        if (line.empty()) {
          Finish();
          break;
        }
        trailer_bytes_ += line.size();
        if (trailer_bytes_ > limits_.max_header_bytes)
          return FailAt(
              fmt::format("chunked trailer larger than {} bytes", limits_.max_header_bytes), used);
        break;
      case ChunkState::kData:
        break;
    }
    if (from_buffer) line_.clear();
  }
  return used;
}

void HttpResponseParser::FeedEof() {
  if (state_ == State::kHead) {
    Fail(bytes_seen_ == 0 ? "Empty reply from server"
                          : "connection closed in the middle of the response headers");
  } else if (state_ == State::kBody) {
    if (framing_ == Framing::kToClose || framing_ == Framing::kNone) {
      Finish();
      keep_alive_ = false;
    } else if (framing_ == Framing::kLength) {
      Fail(fmt::format("transfer closed with {} bytes remaining to read", body_left_));
    } else {
      Fail("transfer closed in the middle of a chunked body");
    }
  }
}

}  // namespace feedcheck
