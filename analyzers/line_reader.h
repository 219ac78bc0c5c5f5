// Streams lines from a file or a buffer with bounded memory: a line longer than the limit
// (1 MiB) is reported as too long and skipped without ever being held whole. CRLF endings,
// a last line without a newline, NUL bytes and invalid UTF-8 are all tolerated; ANSI colour
// sequences (ESC [ ... m) are stripped because rslex writes them when ANSI output was on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace feedcheck::analyzers {

inline constexpr size_t kMaxLineBytes = 1 << 20;

struct Line {
  std::string_view text;      ///< without the line ending; empty for a too-long line
  int64_t number = 0;         ///< 1-based
  bool too_long = false;      ///< longer than the limit: skipped, `text` is empty
  bool unterminated = false;  ///< the last line of the input had no newline (maybe truncated)
};

class LineReader {
 public:
  /// Reads a file. `ok()` is false (and `error()` says why) when it cannot be opened.
  static LineReader OpenFile(const std::string& path, size_t max_line_bytes = kMaxLineBytes);
  /// Reads a buffer that outlives the reader (tests, fuzzers).
  static LineReader FromBuffer(std::string_view data, size_t max_line_bytes = kMaxLineBytes);

  LineReader(LineReader&& other) noexcept;
  LineReader& operator=(LineReader&&) = delete;
  LineReader(const LineReader&) = delete;
  ~LineReader();

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  /// Next line; false at the end of input (or on a read error, see `error()`).
  /// The view stays valid until the next call.
  bool Next(Line* line);

  uint64_t bytes_read() const { return bytes_read_; }

 private:
  LineReader(int fd, std::string_view data, size_t max_line_bytes);
  bool Fill();  // reads more input after the unconsumed tail; false at end of input
  size_t FindEsc(size_t from) const;  // the first ESC at or after `from`, else end_
  void Consume(size_t new_begin);     // moves begin_ there, keeping esc_at_ true
  std::string_view StripAnsi(std::string_view text);
  /// The first line without a UTF-8 byte order mark.
  static std::string_view WithoutBom(std::string_view text, int64_t number);

  int fd_ = -1;
  std::string_view data_;  // buffer mode input (not yet consumed)
  size_t max_line_bytes_;
  std::vector<char> buffer_;
  size_t begin_ = 0;  // first unconsumed byte
  size_t end_ = 0;    // one past the last valid byte
  /// The first ESC at or after begin_ (end_ when none is in the buffer): found once per read
  /// chunk, so a line is searched for ANSI colours only when one is in it.
  size_t esc_at_ = 0;
  bool eof_ = false;
  int64_t line_number_ = 0;
  uint64_t bytes_read_ = 0;
  std::string error_;
  std::string ansi_scratch_;
};

}  // namespace feedcheck::analyzers
