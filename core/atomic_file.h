// Writes a file whole or not at all: to a temporary file in the same directory, then rename(2),
// so a crash, a full disk or a signal never leaves a truncated report where the user looks.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// Writes `content` to `path` atomically. False with `error` naming the file and the cause; the
/// temporary file is removed then and `path` is left as it was.
bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error);

}  // namespace feedcheck
