// The few file operations the disk probe times, behind a narrow interface so the probe's logic
// does not depend on the OS (disk_io_linux.cpp holds the Linux calls).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace feedcheck {

struct DiskIoResult {
  uint64_t bytes = 0;
  uint64_t operations = 0;
  double seconds = 0;
  bool direct = false;   ///< O_DIRECT was used (page cache bypassed)
  bool stopped = false;  ///< ended early: time limit or a stop request
  std::string note;      ///< e.g. "O_DIRECT not supported on tmpfs; buffered I/O + fadvise"
  std::string error;     ///< non-empty when the operation failed
};

/// Writes `bytes` to a new file in blocks of `block_bytes` (O_DIRECT when `try_direct` and the
/// filesystem allows it), then fsyncs; the fsync is part of the time. Stops at `time_limit_s`.
DiskIoResult SequentialWrite(const std::string& file, uint64_t bytes, uint64_t block_bytes,
                             double time_limit_s, bool try_direct);
/// Reads the file back sequentially. Without O_DIRECT it first asks the kernel to drop the
/// file's cached pages so the read reaches the device.
DiskIoResult SequentialRead(const std::string& file, uint64_t block_bytes, double time_limit_s,
                            bool try_direct);
/// 4 KiB-aligned random reads of `io_bytes` over the first `file_bytes` of the file, from
/// `threads` threads (queue depth = threads), for `duration_s`.
DiskIoResult RandomRead(const std::string& file, uint64_t file_bytes, uint64_t io_bytes,
                        int threads, double duration_s, bool try_direct);
/// Free bytes for an unprivileged user on the filesystem holding `path`.
std::optional<uint64_t> FreeBytes(const std::string& path);
/// Removes a file; true when it is gone afterwards.
bool RemoveFile(const std::string& file);

}  // namespace feedcheck
