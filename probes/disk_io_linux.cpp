// Linux implementation of disk_io.h: pwrite/pread with O_DIRECT where the filesystem supports it.
#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "probes/cleanup_registry.h"
#include "probes/disk_io.h"

namespace feedcheck {

namespace {

constexpr uint64_t kAlign = 4096;

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct AlignedFree {
  void operator()(void* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<char, AlignedFree>;

AlignedBuffer Allocate(uint64_t bytes) {
  void* p = nullptr;
  if (posix_memalign(&p, kAlign, bytes) != 0) return AlignedBuffer(nullptr);
  return AlignedBuffer(static_cast<char*>(p));
}

// Opens with O_DIRECT when asked and allowed; falls back to buffered I/O with a note.
int OpenMaybeDirect(const std::string& file, int flags, bool try_direct, DiskIoResult* r) {
  if (try_direct) {
    int fd = ::open(file.c_str(), flags | O_DIRECT | O_CLOEXEC, 0600);
    if (fd >= 0) {
      r->direct = true;
      return fd;
    }
    if (errno != EINVAL) {
      r->error = file + ": " + std::strerror(errno);
      return -1;
    }
    r->note = "O_DIRECT not supported here; buffered I/O with the file's cache dropped";
  }
  int fd = ::open(file.c_str(), flags | O_CLOEXEC, 0600);
  if (fd < 0) r->error = file + ": " + std::strerror(errno);
  return fd;
}

std::string Errno(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

DiskIoResult SequentialWrite(const std::string& file, uint64_t bytes, uint64_t block_bytes,
                             double time_limit_s, bool try_direct) {
  DiskIoResult r;
  block_bytes = std::max<uint64_t>(kAlign, block_bytes / kAlign * kAlign);
  AlignedBuffer buf = Allocate(block_bytes);
  if (!buf) {
    r.error = "cannot allocate I/O buffer";
    return r;
  }
  // Incompressible-ish content so thin-provisioned or deduplicating layers cannot shortcut it.
  std::mt19937_64 rng(42);
  auto* words = reinterpret_cast<uint64_t*>(buf.get());
  for (uint64_t i = 0; i < block_bytes / 8; ++i) words[i] = rng();
  int fd = OpenMaybeDirect(file, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, try_direct, &r);
  if (fd < 0) return r;
  auto t0 = Clock::now();
  while (r.bytes < bytes) {
    if (Since(t0) > time_limit_s || StopRequested()) {
      r.stopped = true;
      break;
    }
    ssize_t n = ::pwrite(fd, buf.get(), block_bytes, static_cast<off_t>(r.bytes));
    if (n < 0) {
      if (errno == EINTR) continue;
      r.error = Errno("write");
      break;
    }
    r.bytes += static_cast<uint64_t>(n);
    ++r.operations;
  }
  if (r.error.empty() && ::fsync(fd) != 0) r.error = Errno("fsync");
  r.seconds = Since(t0);
  ::close(fd);
  return r;
}

DiskIoResult SequentialRead(const std::string& file, uint64_t block_bytes, double time_limit_s,
                            bool try_direct) {
  DiskIoResult r;
  block_bytes = std::max<uint64_t>(kAlign, block_bytes / kAlign * kAlign);
  AlignedBuffer buf = Allocate(block_bytes);
  if (!buf) {
    r.error = "cannot allocate I/O buffer";
    return r;
  }
  int fd = OpenMaybeDirect(file, O_RDONLY, try_direct, &r);
  if (fd < 0) return r;
  if (!r.direct) {
    // The file was just written and fsynced, so its pages are clean and can be dropped.
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  }
  auto t0 = Clock::now();
  for (;;) {
    if (Since(t0) > time_limit_s || StopRequested()) {
      r.stopped = true;
      break;
    }
    ssize_t n = ::pread(fd, buf.get(), block_bytes, static_cast<off_t>(r.bytes));
    if (n < 0) {
      if (errno == EINTR) continue;
      r.error = Errno("read");
      break;
    }
    if (n == 0) break;
    r.bytes += static_cast<uint64_t>(n);
    ++r.operations;
  }
  r.seconds = Since(t0);
  ::close(fd);
  return r;
}

DiskIoResult RandomRead(const std::string& file, uint64_t file_bytes, uint64_t io_bytes,
                        int threads, double duration_s, bool try_direct) {
  DiskIoResult r;
  io_bytes = std::max<uint64_t>(kAlign, io_bytes / kAlign * kAlign);
  uint64_t slots = file_bytes / io_bytes;
  if (slots == 0) {
    r.error = "file too small for random reads";
    return r;
  }
  int fd = OpenMaybeDirect(file, O_RDONLY, try_direct, &r);
  if (fd < 0) return r;
  if (!r.direct) ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  threads = std::max(1, threads);
  std::atomic<uint64_t> ops{0};
  std::atomic<bool> failed{false};
  std::atomic<int> saved_errno{0};
  auto t0 = Clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      AlignedBuffer buf = Allocate(io_bytes);
      if (!buf) {
        failed = true;
        return;
      }
      std::mt19937_64 rng(1000 + static_cast<uint64_t>(t));
      std::uniform_int_distribution<uint64_t> pick(0, slots - 1);
      uint64_t mine = 0;
      while (!failed.load(std::memory_order_relaxed)) {
        // Check the clock every 64 reads: cheap, and 64 reads take well under a millisecond.
        if ((mine & 63) == 0 && (Since(t0) > duration_s || StopRequested())) break;
        ssize_t n = ::pread(fd, buf.get(), io_bytes, static_cast<off_t>(pick(rng) * io_bytes));
        if (n < 0 && errno != EINTR) {
          saved_errno = errno;
          failed = true;
          break;
        }
        ++mine;
      }
      ops += mine;
    });
  }
  for (auto& th : pool) th.join();
  r.seconds = Since(t0);
  r.operations = ops.load();
  r.bytes = r.operations * io_bytes;
  if (failed) {
    r.error = saved_errno ? std::string("read: ") + std::strerror(saved_errno.load())
                          : "cannot allocate I/O buffer";
  }
  ::close(fd);
  return r;
}

std::optional<uint64_t> FreeBytes(const std::string& path) {
  struct statvfs s {};
  if (::statvfs(path.c_str(), &s) != 0) return std::nullopt;
  return static_cast<uint64_t>(s.f_bavail) * s.f_frsize;
}

bool RemoveFile(const std::string& file) { return ::unlink(file.c_str()) == 0 || errno == ENOENT; }

}  // namespace feedcheck
