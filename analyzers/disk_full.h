// A full local disk in the data runtime's words: the operating system's ENOSPC text, as Rust's
// std::io::Error prints it ("No space left on device (os error 28)") or Python's OSError
// ("[Errno 28] No space left on device"), whatever message wraps it. A download whose input
// does not fit the node's disk fails so ("Access data in a job": the dataset must completely fit
// on a compute target disk), and so does a job whose own files fill it.
#pragma once

#include <string_view>

namespace feedcheck::analyzers {

bool SaysDiskFull(std::string_view text);

}  // namespace feedcheck::analyzers
