#include "analyzers/line_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace feedcheck::analyzers {

namespace {
// Large reads keep syscall overhead negligible at several hundred MB/s.
constexpr size_t kReadChunk = 1 << 20;
}  // namespace

LineReader LineReader::OpenFile(const std::string& path, size_t max_line_bytes,
                                uint64_t max_data_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  return FromFd(fd, fd < 0 ? std::strerror(errno) : "", max_line_bytes, max_data_bytes);
}

LineReader LineReader::FromFd(int fd, const std::string& error, size_t max_line_bytes,
                              uint64_t max_data_bytes) {
  LineReader reader(fd, {}, max_line_bytes);
  reader.max_data_bytes_ = max_data_bytes;
  if (fd < 0) {
    reader.error_ = error.empty() ? "cannot open" : error;
    reader.eof_ = true;
    return reader;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    reader.error_ = "is a directory";
    reader.eof_ = true;
  }
  if (S_ISREG(st.st_mode)) reader.file_bytes_ = static_cast<uint64_t>(st.st_size);
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return reader;
}

LineReader LineReader::FromBuffer(std::string_view data, size_t max_line_bytes) {
  return LineReader(-1, data, max_line_bytes);
}

LineReader::LineReader(int fd, std::string_view data, size_t max_line_bytes)
    : fd_(fd), data_(data), max_line_bytes_(max_line_bytes < 16 ? 16 : max_line_bytes) {
  // A buffer input never needs more room than its own size (fuzzers and tests create many
  // small readers); a file gets room for one whole line plus a read chunk.
  size_t room = max_line_bytes_ + kReadChunk;
  if (fd < 0) room = std::min(room, data.size() + data.size() / 2 + 16);  // UTF-16's growth
  buffer_.resize(room + 1);
}

LineReader::LineReader(LineReader&& other) noexcept
    : fd_(other.fd_),
      data_(other.data_),
      max_line_bytes_(other.max_line_bytes_),
      buffer_(std::move(other.buffer_)),
      begin_(other.begin_),
      end_(other.end_),
      esc_at_(other.esc_at_),
      eof_(other.eof_),
      line_number_(other.line_number_),
      bytes_read_(other.bytes_read_),
      hole_bytes_(other.hole_bytes_),
      file_bytes_(other.file_bytes_),
      max_data_bytes_(other.max_data_bytes_),
      cut_at_limit_(other.cut_at_limit_),
      error_(std::move(other.error_)),
      encoding_known_(other.encoding_known_),
      utf16_(other.utf16_) {
  other.fd_ = -1;
}

LineReader::~LineReader() {
  if (fd_ >= 0) ::close(fd_);
}

bool LineReader::Fill() {
  if (eof_) return false;
  // Move the unconsumed tail to the front, then read after it.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    esc_at_ -= begin_;
    end_ -= begin_;
    begin_ = 0;
  }
  size_t room = buffer_.size() - 1 - end_;
  if (room == 0) return true;  // caller handles a full buffer
  // Until the first read shows the input is not UTF-16, read no more than decoding could grow
  // into the room left: 3 bytes out per 2 in, and what an earlier read left pending (half a
  // unit, a high surrogate that turns out lone: U+FFFD) at most kMaxPendingOut more.
  if (!encoding_known_ || utf16_) {
    if (room < Utf16Decoder::kMaxPendingOut + 4) return true;  // lines are consumed first
    room = static_cast<size_t>(static_cast<double>(room - Utf16Decoder::kMaxPendingOut) /
                               Utf16Decoder::kMaxGrowth);
  }
  size_t got = 0;
  if (fd_ >= 0) {
    const size_t before_hole = end_;
    if (SkipHole(room)) {
      if (esc_at_ == before_hole) esc_at_ = end_;  // the hole's zeros hold no ESC
      return true;
    }
    if (bytes_read_ >= max_data_bytes_) {
      cut_at_limit_ = true;
      eof_ = true;
      return false;
    }
    room = static_cast<size_t>(std::min<uint64_t>(room, max_data_bytes_ - bytes_read_));
    ssize_t n;
    do {
      n = ::read(fd_, buffer_.data() + end_, room);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      error_ = std::strerror(errno);
      eof_ = true;
      return false;
    }
    got = static_cast<size_t>(n);
  } else {
    got = std::min(room, data_.size());
    std::memcpy(buffer_.data() + end_, data_.data(), got);
    data_.remove_prefix(got);
  }
  bytes_read_ += got;
  if (got == 0) {
    eof_ = true;
    if (!utf16_) return false;
    decoded_.clear();
    utf16_->Finish(&decoded_);  // a half unit or a lone high surrogate left at the end
    if (decoded_.empty()) return false;
    std::memcpy(buffer_.data() + end_, decoded_.data(), decoded_.size());
    got = decoded_.size();
  } else {
    got = Decode(got);  // may be 0 (a byte order mark, half a unit): read on
  }
  const size_t old_end = end_;
  end_ += got;
  if (esc_at_ == old_end) esc_at_ = FindEsc(old_end);  // none before: look in what came
  return true;
}

size_t LineReader::Decode(size_t got) {
  char* at = buffer_.data() + end_;
  if (!encoding_known_ && got > 0) {
    encoding_known_ = true;
    const TextEncoding encoding = EncodingOf(std::string_view(at, got));
    if (encoding != TextEncoding::kUtf8) utf16_.emplace(encoding == TextEncoding::kUtf16Be);
  }
  if (!utf16_ || got == 0) return got;
  decoded_.clear();
  utf16_->Decode(std::string_view(at, got), &decoded_);
  // (room - kMaxPendingOut) / kMaxGrowth was read, so its UTF-8 fits in the room
  std::memcpy(at, decoded_.data(), decoded_.size());
  return decoded_.size();
}

bool LineReader::SkipHole(size_t room) {
  // Only a regular file has holes; a hole shorter than a line can be is read as zeros.
  if (file_bytes_ == 0) return false;
  off_t pos = ::lseek(fd_, 0, SEEK_CUR);
  if (pos < 0 || static_cast<uint64_t>(pos) >= file_bytes_) return false;
  off_t data = ::lseek(fd_, pos, SEEK_DATA);
  if (data < 0) {
    if (errno != ENXIO) {  // no SEEK_DATA here: read as usual
      ::lseek(fd_, pos, SEEK_SET);
      return false;
    }
    data = static_cast<off_t>(file_bytes_);  // a hole to the end of the file
  }
  uint64_t hole = static_cast<uint64_t>(data - pos);
  if (hole <= max_line_bytes_) {
    if (data != pos) ::lseek(fd_, pos, SEEK_SET);
    return false;
  }
  // The hole's zeros hold no newline, so they only lengthen the line in progress past the limit:
  // put one line's worth of them in the buffer (Next then skips that line as too long) and go on
  // at the data after the hole.
  size_t zeros = std::min(room, max_line_bytes_ + 1);
  std::memset(buffer_.data() + end_, 0, zeros);
  end_ += zeros;
  hole_bytes_ += hole;
  if (::lseek(fd_, data, SEEK_SET) != data) {
    error_ = std::strerror(errno);
    eof_ = true;
  }
  return true;
}

void LineReader::Consume(size_t new_begin) {
  begin_ = new_begin;
  if (esc_at_ < begin_) esc_at_ = FindEsc(begin_);
}

size_t LineReader::FindEsc(size_t from) const {
  if (from >= end_) return end_;
  const void* p = std::memchr(buffer_.data() + from, '\x1b', end_ - from);
  return p == nullptr ? end_ : static_cast<size_t>(static_cast<const char*>(p) - buffer_.data());
}

bool LineReader::Next(Line* line) {
  *line = Line{};
  while (true) {
    const char* start = buffer_.data() + begin_;
    size_t avail = end_ - begin_;
    size_t scan = std::min(avail, max_line_bytes_ + 1);
    const void* nl = scan ? std::memchr(start, '\n', scan) : nullptr;
    if (nl != nullptr) {
      size_t len = static_cast<size_t>(static_cast<const char*>(nl) - start);
      const bool has_esc = esc_at_ < begin_ + len;  // an ESC in this line
      Consume(begin_ + len + 1);
      line->number = ++line_number_;
      if (len > max_line_bytes_) {
        line->too_long = true;
        return true;
      }
      if (len > 0 && start[len - 1] == '\r') --len;
      std::string_view text = std::string_view(start, len);
      if (line->number == 1) text = WithoutBom(text, 1);
      line->text = has_esc ? StripAnsi(text) : text;
      return true;
    }
    if (avail > max_line_bytes_) {
      // Too long: drop what we have and everything up to the next newline, chunk by chunk.
      line->number = ++line_number_;
      line->too_long = true;
      // The newline may already be in the buffer, past the part scanned above.
      const void* rest = std::memchr(start + scan, '\n', avail - scan);
      if (rest != nullptr) {
        Consume(static_cast<size_t>(static_cast<const char*>(rest) - buffer_.data()) + 1);
        return true;
      }
      begin_ = end_ = esc_at_ = 0;
      while (true) {
        if (!Fill()) return true;  // input ended inside the long line
        const void* p = std::memchr(buffer_.data(), '\n', end_);
        if (p != nullptr) {
          Consume(static_cast<size_t>(static_cast<const char*>(p) - buffer_.data()) + 1);
          return true;
        }
        begin_ = end_ = esc_at_ = 0;
      }
    }
    if (!Fill()) {
      if (!error_.empty() && end_ == begin_) return false;
      if (end_ == begin_) return false;
      // The last line has no newline: hand it out flagged.
      size_t len = end_ - begin_;
      const char* s = buffer_.data() + begin_;
      Consume(end_);
      line->number = ++line_number_;
      line->unterminated = true;
      if (len > 0 && s[len - 1] == '\r') --len;
      line->text = StripAnsi(WithoutBom(std::string_view(s, len), line->number));
      return true;
    }
  }
}

std::string_view LineReader::WithoutBom(std::string_view text, int64_t number) {
  // Files saved on Windows (PowerShell's Set-Content -Encoding UTF8, Excel's "CSV UTF-8") start
  // with a byte order mark that would otherwise stick to the first header name.
  return number == 1 ? WithoutUtf8Bom(text) : text;
}

std::string_view LineReader::StripAnsi(std::string_view text) {
  if (std::memchr(text.data(), '\x1b', text.size()) == nullptr) return text;
  ansi_scratch_.clear();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      size_t j = i + 2;
      while (j < text.size() && ((text[j] >= '0' && text[j] <= '9') || text[j] == ';')) ++j;
      if (j < text.size() && text[j] == 'm') {
        i = j;
        continue;
      }
    }
    ansi_scratch_.push_back(text[i]);
  }
  return ansi_scratch_;
}

}  // namespace feedcheck::analyzers
