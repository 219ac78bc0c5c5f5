// Escaping for HTML text and attribute values (and SVG, which shares the rules).
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// Replaces & < > " ' with entities, after VisibleControls (core/terminal_text); safe in text
/// and in quoted attributes.
std::string HtmlEscape(std::string_view text);

}  // namespace feedcheck
