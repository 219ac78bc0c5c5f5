// Writes a report or facts file whole or not at all. A regular file (or a path not there yet) is
// written to a temporary file created exclusively (mkstemp: an unpredictable name, O_EXCL, so a
// planted link or FIFO is never opened) in the same directory, then renamed over it, so a crash,
// a full disk or a signal never leaves a truncated report; the old file's mode (and, as root,
// owner) is kept. Anything else (/dev/null, /dev/stdout, a FIFO, a device) is written through,
// never renamed over; a link to a regular file is followed, and the link kept.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// Writes `content` to `path` as above. False with `error` naming the file and the cause; the
/// temporary file is removed then and `path` is left as it was.
bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error);

}  // namespace feedcheck
