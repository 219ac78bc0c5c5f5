// The one writer of every file the tools write: reports and facts files (-o FILE), the files of
// a fetched folder, the seeder's and the probes' local files. A file is written whole or not at
// all, and never through a link:
// - the target's folder is opened once and everything after is relative to that descriptor
//   (openat): below the folder given, every component is opened with O_NOFOLLOW|O_DIRECTORY,
//   so a link planted in a downloaded tree (OUT/metrics -> /etc) is refused, never followed,
//   and a name with ".." or "/" in it cannot leave the folder;
// - the final component is never followed: a link there is refused (O_NOFOLLOW semantics);
// - the content goes to a temporary file created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW, an
//   unpredictable ".feedcheck-XXXXXX" name) in the target's own folder, is synced, then renamed
//   over the target (renameat replaces a name, it never follows one), so a crash, a full disk
//   or a signal never leaves a truncated file; the temporary name is registered with
//   core/exit_cleanup, so a signal between creation and rename removes it;
// - the old file's mode (and, as root, owner) is kept.
// A FIFO, a device or a descriptor path (/dev/stdout, /dev/fd/N) is written through, never
// renamed over: that is the user asking for a stream.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// Writes `content` to `path` (a path the user gave: its folder is taken as given). False with
/// `error` naming the file and the cause; the temporary file is removed then and `path` is
/// left as it was. A link at `path` is refused.
bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error);

/// Writes `content` to `root`/`relative`, staying under `root`: `relative` is a path of plain
/// names ("metrics/acct-egress.json"; no "..", ".", empty or absolute part); missing folders on
/// the way are created; a link anywhere below `root` (a folder on the way or the file itself)
/// or a non-regular file at the end is refused.
bool WriteFileUnder(const std::string& root, const std::string& relative, std::string_view content,
                    std::string* error);

/// Creates the folder `root`/`relative` (and the folders on the way) under the same rules:
/// plain names only, no link below `root` followed. True when it exists as a real folder.
bool MakeFolderUnder(const std::string& root, const std::string& relative, std::string* error);

/// True when `name` is one plain path component: not empty, not "." or "..", no '/' and no
/// control character. What a name from a server or a list must be to become a file name.
bool IsPlainName(std::string_view name);

}  // namespace feedcheck
