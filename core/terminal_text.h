// The one place that makes text safe for a person to read, whatever output kind carries it
// (terminal, Markdown, HTML: each reporter's escaping starts here): control characters (ESC that
// starts colour, cursor and OSC 52 clipboard / OSC 8 hyperlink sequences, BEL, backspace, C1
// controls) and the bidirectional formatting characters (U+202E RIGHT-TO-LEFT OVERRIDE and its
// kin, which reorder what is shown) become visible escapes instead of being obeyed, and invalid
// UTF-8 becomes U+FFFD.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// `text` with every control and bidi character written as a visible escape ("\x1b",
/// "\u202e"); '\n' (and '\t') kept when `keep_newlines`, escaped otherwise.
std::string VisibleControls(std::string_view text, bool keep_newlines);

/// Text for the terminal (a message, a note): VisibleControls keeping newlines, and every line
/// after the first indented, so nothing inside a value (a folder name with a newline) can start
/// a line of its own (a forged "Verdict:" line).
std::string TerminalSafe(std::string_view text);

/// One value on the terminal (a name, a table cell, a verdict): VisibleControls with newlines
/// and tabs escaped too.
std::string TerminalSafeLine(std::string_view text);

}  // namespace feedcheck
