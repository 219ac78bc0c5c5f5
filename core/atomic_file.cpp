#include "core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace feedcheck {
namespace {

bool WriteAll(int fd, std::string_view content) {
  const char* data = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

// The descriptor a path names by number (/dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N), or -1: written to as it is, at its position, like the shell's redirection.
int DescriptorPath(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const char* head : {"/dev/fd/", "/proc/self/fd/"}) {
    std::string_view h = head;
    if (path.compare(0, h.size(), h) != 0 || path.size() == h.size() || path.size() > h.size() + 6)
      continue;
    int fd = 0;
    for (char c : path.substr(h.size())) {
      if (c < '0' || c > '9') return -1;
      fd = fd * 10 + (c - '0');
    }
    return fd;
  }
  return -1;
}

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error) {
  auto fail = [&](const std::string& what) {
    if (error) *error = path + ": " + what + ": " + std::strerror(errno);
    return false;
  };
  if (int fd = DescriptorPath(path); fd >= 0) {
    if (fcntl(fd, F_GETFD) < 0) return fail("not an open descriptor");
    return WriteAll(fd, content) ? true : fail("cannot write");
  }
  std::string target = path;
  struct stat st {};
  bool exists = stat(path.c_str(), &st) == 0;  // follows links: what the path leads to
  if (exists && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    return fail("cannot write the report");
  }
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, a FIFO, a socket, /dev/stdout: written through as it is, never replaced.
    int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return fail("cannot open");
    if (!WriteAll(fd, content)) {
      int saved = errno;
      close(fd);
      errno = saved;
      return fail("cannot write");
    }
    if (close(fd) != 0) return fail("cannot write");
    return true;
  }
  struct stat lst {};
  if (exists && lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    // A link to a regular file: replace the file it points to, keep the link.
    char resolved[PATH_MAX];
    if (realpath(path.c_str(), resolved) == nullptr) return fail("cannot follow the link");
    target = resolved;
  }
  // Same directory as the target, so rename() stays on one file system and is atomic. A short
  // fixed stem keeps the name within NAME_MAX whatever the target's length; mkostemp opens it
  // O_CREAT|O_EXCL with a random suffix, so nothing planted there is ever followed or opened.
  std::string tmp = DirectoryOf(target) + "/.feedcheck-XXXXXX";
  int fd = mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return fail("cannot create a temporary file next to it");
  // The mode the file had (0600 stays 0600), or what a new file gets under the umask.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
    if (geteuid() == 0 && fchown(fd, st.st_uid, st.st_gid) != 0) {
      // Keeping the owner is best effort; the content and mode still are right.
    }
  } else {
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  bool ok = fchmod(fd, mode) == 0 && WriteAll(fd, content) && fsync(fd) == 0;
  int saved = errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    unlink(tmp.c_str());
    errno = saved;
    return fail("cannot write");
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    saved = errno;
    unlink(tmp.c_str());
    errno = saved;
    return fail("cannot replace");
  }
  return true;
}

}  // namespace feedcheck
