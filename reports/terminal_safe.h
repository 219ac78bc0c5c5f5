// A copy of a Report whose every text is safe to print on a terminal (TerminalSafe): blob names,
// error codes and messages from servers, values from input files. The terminal reporter renders
// the copy, so nothing a server sent can move the cursor, retitle the window or forge a link.
#pragma once

#include "reports/report.h"

namespace feedcheck {

Report TerminalSafeCopy(const Report& report);

}  // namespace feedcheck
