#include "analyzers/disk_full.h"

namespace feedcheck::analyzers {

bool SaysDiskFull(std::string_view text) {
  return text.find("No space left on device") != std::string_view::npos ||
         text.find("(os error 28)") != std::string_view::npos ||
         text.find("[Errno 28]") != std::string_view::npos;
}

}  // namespace feedcheck::analyzers
