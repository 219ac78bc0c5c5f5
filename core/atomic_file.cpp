#include "core/atomic_file.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/exit_cleanup.h"

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

// A descriptor closed when the scope ends.
struct Fd {
  int fd = -1;
  explicit Fd(int f = -1) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
  void Reset(int f) {
    if (fd >= 0) close(fd);
    fd = f;
  }
};

// "a/b/c" -> {"a", "b", "c"}; false when a part is not a plain name.
bool SplitPlain(std::string_view relative, std::vector<std::string>* parts) {
  size_t start = 0;
  while (start <= relative.size()) {
    size_t slash = relative.find('/', start);
    if (slash == std::string_view::npos) slash = relative.size();
    std::string_view part = relative.substr(start, slash - start);
    if (!IsPlainName(part)) return false;
    parts->emplace_back(part);
    start = slash + 1;
  }
  return !parts->empty();
}

// Opens (creating it when missing) the folder `name` inside `dir`, never through a link.
int OpenFolderAt(int dir, const std::string& name, bool create) {
  int fd = openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0 || errno != ENOENT || !create) return fd;
  if (mkdirat(dir, name.c_str(), 0777) != 0 && errno != EEXIST) return -1;
  return openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

// ".feedcheck-" and six random letters or digits: an unpredictable name.
std::string TempName() {
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned char random[6] = {};
  if (getrandom(random, sizeof random, 0) != static_cast<ssize_t>(sizeof random)) {
    const unsigned long mix = static_cast<unsigned long>(getpid()) * 2654435761ul ^
                              reinterpret_cast<unsigned long>(&random);
    for (size_t i = 0; i < sizeof random; ++i) random[i] = static_cast<unsigned char>(mix >> i * 5);
  }
  std::string name = ".feedcheck-";
  for (unsigned char r : random) name += kAlphabet[r % (sizeof kAlphabet - 1)];
  return name;
}

// Writes `content` as `name` inside the folder `dir` (shown as `shown`): the rules of the header.
bool WriteInFolder(int dir, const std::string& dir_path, const std::string& name,
                   std::string_view content, const std::string& shown, std::string* error) {
  auto fail = [&](const std::string& what) {
    if (error) *error = shown + ": " + what + ": " + std::strerror(errno);
    return false;
  };
  struct stat st {};
  const bool exists = fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (exists && S_ISLNK(st.st_mode)) {
    errno = ELOOP;
    return fail("is a symbolic link; not followed (give the file itself)");
  }
  if (exists && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    return fail("cannot write the file");
  }
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or a FIFO: written through as it is, never replaced.
    Fd fd(openat(dir, name.c_str(), O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC));
    if (fd.fd < 0) return fail("cannot open");
    if (!WriteAll(fd.fd, content)) return fail("cannot write");
    const int closed = close(fd.fd);
    fd.fd = -1;
    return closed == 0 ? true : fail("cannot write");
  }
  std::string tmp;
  Fd fd;
  int slot = -1;
  for (int attempt = 0; attempt < 100 && fd.fd < 0; ++attempt) {
    tmp = TempName();
    // Registered before it exists: a signal right after its creation still removes it.
    slot = RegisterTempFile((dir_path + "/" + tmp).c_str());
    fd.Reset(openat(dir, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.fd >= 0) break;
    const int saved = errno;
    ForgetTempFile(slot);
    slot = -1;
    errno = saved;
    if (errno != EEXIST) break;
  }
  if (fd.fd < 0) return fail("cannot create a temporary file next to it");
  auto drop = [&] {
    const int saved = errno;
    unlinkat(dir, tmp.c_str(), 0);
    ForgetTempFile(slot);
    errno = saved;
  };
  // The mode the file had (0600 stays 0600), or what a new file gets under the umask.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
    if (geteuid() == 0 && fchown(fd.fd, st.st_uid, st.st_gid) != 0) {
      // Keeping the owner is best effort; the content and mode still are right.
    }
  } else {
    const mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  bool ok = fchmod(fd.fd, mode) == 0 && WriteAll(fd.fd, content) && fsync(fd.fd) == 0;
  int saved = errno;
  if (close(fd.fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  fd.fd = -1;
  errno = saved;
  if (!ok) {
    drop();
    return fail("cannot write");
  }
  if (renameat(dir, tmp.c_str(), dir, name.c_str()) != 0) {
    drop();
    return fail("cannot replace");
  }
  ForgetTempFile(slot);
  return true;
}

// Opens `root` (as given: the user's folder) and walks `folders` below it, creating the
// missing ones, never through a link. -1 with `error` set on failure.
int WalkUnder(const std::string& root, const std::vector<std::string>& folders, std::string* shown,
              std::string* error) {
  Fd dir(open(root.empty() ? "." : root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.fd < 0 && errno == ENOENT && !root.empty()) {
    // The folder given, and its parents, as the user named them.
    std::error_code ec;
    std::filesystem::create_directories(root, ec);
    dir.Reset(open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  }
  if (dir.fd < 0) {
    if (error) *error = root + ": cannot open the folder: " + std::strerror(errno);
    return -1;
  }
  *shown = root.empty() ? "." : root;
  for (const auto& part : folders) {
    *shown += "/" + part;
    const int next = OpenFolderAt(dir.fd, part, true);
    if (next < 0) {
      struct stat st {};
      const bool link =
          fstatat(dir.fd, part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
      if (error)
        *error = *shown + (link ? ": is a symbolic link inside the folder written; not followed"
                                : ": not a folder: " + std::string(std::strerror(errno)));
      return -1;
    }
    dir.Reset(next);
  }
  const int out = dir.fd;
  dir.fd = -1;
  return out;
}

}  // namespace

bool IsPlainName(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.size() > 255) return false;
  for (char c : name)
    if (c == '/' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  return true;
}

bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error) {
  if (int fd = DescriptorPath(path); fd >= 0) {
    if (fcntl(fd, F_GETFD) < 0 || !WriteAll(fd, content)) {
      if (error) *error = path + ": cannot write: " + std::strerror(errno);
      return false;
    }
    return true;
  }
  const size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "."
                             : slash == 0               ? "/"
                                                        : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (!IsPlainName(name)) {
    errno = EINVAL;
    if (error) *error = path + ": not a file name";
    return false;
  }
  Fd dir(open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.fd < 0) {
    if (error) *error = path + ": cannot open its folder: " + std::strerror(errno);
    return false;
  }
  return WriteInFolder(dir.fd, folder, name, content, path, error);
}

bool WriteFileUnder(const std::string& root, const std::string& relative, std::string_view content,
                    std::string* error) {
  std::vector<std::string> parts;
  if (!SplitPlain(relative, &parts)) {
    if (error) *error = root + "/" + relative + ": not a plain path inside the folder";
    return false;
  }
  const std::string name = parts.back();
  parts.pop_back();
  std::string shown;
  Fd dir(WalkUnder(root, parts, &shown, error));
  if (dir.fd < 0) return false;
  return WriteInFolder(dir.fd, shown, name, content, shown + "/" + name, error);
}

bool MakeFolderUnder(const std::string& root, const std::string& relative, std::string* error) {
  std::vector<std::string> parts;
  if (!relative.empty() && !SplitPlain(relative, &parts)) {
    if (error) *error = root + "/" + relative + ": not a plain path inside the folder";
    return false;
  }
  std::string shown;
  Fd dir(WalkUnder(root, parts, &shown, error));
  return dir.fd >= 0;
}

}  // namespace feedcheck
