// Streams lines from a file or a buffer with bounded memory: a line longer than the limit
// (1 MiB) is reported as too long and skipped without ever being held whole. CRLF endings,
// a last line without a newline, NUL bytes and invalid UTF-8 are all tolerated; ANSI colour
// sequences (ESC [ ... m) are stripped because rslex writes them when ANSI output was on. A file
// that starts with a UTF-16 byte order mark (Windows PowerShell's `>`) is decoded to UTF-8 as
// it streams (text_encoding.h): the lines handed out are UTF-8 whatever the file's encoding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/text_encoding.h"

namespace feedcheck::analyzers {

inline constexpr size_t kMaxLineBytes = 1 << 20;
/// The most data read from one file (holes aside): at several hundred MB/s a few minutes. A
/// longer log is read up to here and the rest named in a diagnostic, so a huge or endless input
/// cannot hold `analyze` for hours.
inline constexpr uint64_t kMaxInputFileBytes = 64ull << 30;

struct Line {
  std::string_view text;      ///< without the line ending; empty for a too-long line
  int64_t number = 0;         ///< 1-based
  bool too_long = false;      ///< longer than the limit: skipped, `text` is empty
  bool unterminated = false;  ///< the last line of the input had no newline (maybe truncated)
};

class LineReader {
 public:
  /// Reads a file. `ok()` is false (and `error()` says why) when it cannot be opened. Holes of a
  /// sparse file longer than a line can be (zeros never written, no newline among them) are
  /// skipped with SEEK_DATA instead of read; reading stops after `max_data_bytes` of data.
  static LineReader OpenFile(const std::string& path, size_t max_line_bytes = kMaxLineBytes,
                             uint64_t max_data_bytes = kMaxInputFileBytes);
  /// Reads an open descriptor from its current position and closes it when done; `fd` < 0
  /// reads as a file that could not be opened (`error` says why).
  static LineReader FromFd(int fd, const std::string& error = "",
                           size_t max_line_bytes = kMaxLineBytes,
                           uint64_t max_data_bytes = kMaxInputFileBytes);
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
  /// Bytes of holes skipped unread (a sparse file).
  uint64_t hole_bytes() const { return hole_bytes_; }
  /// True when reading stopped at max_data_bytes before the end of the file.
  bool cut_at_limit() const { return cut_at_limit_; }
  uint64_t file_bytes() const { return file_bytes_; }  ///< the file's size when opened

 private:
  LineReader(int fd, std::string_view data, size_t max_line_bytes);
  bool Fill();  // reads more input after the unconsumed tail; false at end of input
  /// Decodes the `got` bytes just read at end_ in place when the input is UTF-16 (the first
  /// read decides); returns the UTF-8 bytes they became.
  size_t Decode(size_t got);
  bool SkipHole(size_t room);         // true when a long hole at the offset was skipped
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
  uint64_t hole_bytes_ = 0;
  uint64_t file_bytes_ = 0;
  uint64_t max_data_bytes_ = kMaxInputFileBytes;
  bool cut_at_limit_ = false;
  std::string error_;
  std::string ansi_scratch_;
  bool encoding_known_ = false;        // the first read looked for a byte order mark
  std::optional<Utf16Decoder> utf16_;  // set when the input is UTF-16
  std::string decoded_;                // a chunk's UTF-8, before it goes in the buffer
};

}  // namespace feedcheck::analyzers
