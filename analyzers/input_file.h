// The one way the analyzers open an input file: each file of a job is opened once, sniffed
// (its head, and its tail for nvidia-smi) through that handle and then read line by line from
// the same descriptor, so a post-mortem touches every input file exactly once. Tests observe
// every open through SetInputOpenObserver.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace feedcheck::analyzers {

class InputFile {
 public:
  /// Opens `path` read-only (one open(2), reported to the observer). `ok()` says whether it
  /// opened; `error()` why not.
  static InputFile Open(const std::string& path);

  InputFile() = default;
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  bool ok() const { return fd_ >= 0; }
  const std::string& error() const { return error_; }
  const std::string& path() const { return path_; }
  /// The file's size when opened (0 for what is not a regular file).
  uint64_t size() const { return size_; }
  /// Up to `max_bytes` from `offset` (pread: the descriptor's position stays where it is);
  /// empty on error or past the end.
  std::string ReadAt(uint64_t offset, size_t max_bytes) const;
  /// Gives the descriptor away (to a LineReader, which closes it), positioned at the start.
  int Release();
  /// Closes the descriptor now (a job with more files than may be held open at once).
  void Close();

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string path_;
  std::string error_;
};

/// Called with the path of every input file the analyzers open, before it is read; nullptr
/// removes it. For tests: the post-mortem opens each input file once.
void SetInputOpenObserver(std::function<void(const std::string& path)> observer);

}  // namespace feedcheck::analyzers
