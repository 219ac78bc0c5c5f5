// Prose fitted to a terminal's width: lines cut at spaces, counted in code points (so "µs" is
// two columns, not three), never inside a UTF-8 character. A path longer than a line is cut after
// its slashes; a URL longer than the width stays whole on its own line (a cut URL no longer opens).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace feedcheck {

/// The terminal width the reporters use when nobody says: 100 columns.
inline constexpr size_t kDefaultTerminalWidth = 100;

/// Display width of `text` in code points.
size_t DisplayWidth(std::string_view text);

/// `text` (one paragraph, no newlines) cut into lines of at most `width` code points, the
/// first `first_indent` wide already, the rest starting with `next_indent` (which counts).
std::vector<std::string> WrapText(std::string_view text, size_t width, size_t first_indent,
                                  std::string_view next_indent);

/// The terminal width from $COLUMNS (`columns_env`) when it is a number >= 40, else the width
/// the terminal reports (`tty_columns`, 0 when not a terminal), else the default.
size_t ChooseTerminalWidth(const char* columns_env, size_t tty_columns);

}  // namespace feedcheck
