#include "analyzers/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace feedcheck::analyzers {

namespace {
std::function<void(const std::string&)>& Observer() {
  static std::function<void(const std::string&)> observer;
  return observer;
}
}  // namespace

void SetInputOpenObserver(std::function<void(const std::string& path)> observer) {
  Observer() = std::move(observer);
}

InputFile InputFile::Open(const std::string& path) {
  InputFile f;
  f.path_ = path;
  if (Observer()) Observer()(path);
  f.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd_ < 0) {
    f.error_ = std::strerror(errno);
    return f;
  }
  struct stat st {};
  if (::fstat(f.fd_, &st) == 0 && S_ISREG(st.st_mode)) f.size_ = static_cast<uint64_t>(st.st_size);
  return f;
}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      size_(other.size_),
      path_(std::move(other.path_)),
      error_(std::move(other.error_)) {}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    path_ = std::move(other.path_);
    error_ = std::move(other.error_);
  }
  return *this;
}

InputFile::~InputFile() { Close(); }

void InputFile::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string InputFile::ReadAt(uint64_t offset, size_t max_bytes) const {
  std::string buf;
  if (fd_ < 0) return buf;
  buf.resize(max_bytes);
  size_t got = 0;
  while (got < max_bytes) {
    ssize_t n = ::pread(fd_, buf.data() + got, max_bytes - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  buf.resize(got);
  return buf;
}

int InputFile::Release() {
  if (fd_ >= 0) ::lseek(fd_, 0, SEEK_SET);
  return std::exchange(fd_, -1);
}

}  // namespace feedcheck::analyzers
