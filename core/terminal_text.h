// Text from servers and input files made safe to print on a terminal: control characters (ESC
// that starts colour, cursor and OSC title/hyperlink sequences, BEL, backspace, C1 controls) are
// shown as visible escapes instead of being obeyed, and invalid UTF-8 becomes U+FFFD.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// `text` with every control character but '\n' and '\t' written as "\x1b"-style escapes, and
/// invalid UTF-8 sequences replaced by U+FFFD. Plain text is returned unchanged.
std::string TerminalSafe(std::string_view text);

}  // namespace feedcheck
