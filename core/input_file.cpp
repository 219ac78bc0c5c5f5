#include "core/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/units.h"

namespace feedcheck {

bool ReadBoundedRegularFile(const std::string& path, uint64_t max_bytes, std::string* out,
                            std::string* error) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *error = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const char* kind = S_ISFIFO(st.st_mode)   ? "a FIFO"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISDIR(st.st_mode)  ? "a directory"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    *error = std::string("not a regular file (") + kind + "); give a regular file";
    close(fd);
    return false;
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    *error = "is " + FormatBytes(static_cast<double>(st.st_size)) + ", larger than the " +
             FormatBytes(static_cast<double>(max_bytes)) + " limit for this kind of file";
    close(fd);
    return false;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  out->clear();
  out->reserve(static_cast<size_t>(st.st_size));
  char buffer[65536];
  while (true) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = std::string("cannot read: ") + std::strerror(errno);
      close(fd);
      return false;
    }
    if (n == 0) break;
    // A file that grows while it is read is still bounded.
    if (out->size() + static_cast<size_t>(n) > max_bytes) {
      *error = "grew past the " + FormatBytes(static_cast<double>(max_bytes)) +
               " limit for this kind of file while being read";
      close(fd);
      return false;
    }
    out->append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return true;
}

}  // namespace feedcheck
