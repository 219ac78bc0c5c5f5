// Prints docs/diagnostics.md from the diagnostic code registry (core/diagnostic_codes.cpp):
// every code with its name, usual severity, what happened and what to do, one table per family.
// The ctest test `docs: diagnostics.md matches the registry` compares the committed file with
// this program's output. Usage: diagnostics_doc > docs/diagnostics.md
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "core/diagnostic.h"
#include "core/diagnostic_codes.h"

namespace {

// A table cell: '|' would end the cell, '<' could start HTML.
std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '<')
      out += "&lt;";
    else
      out += c;
  }
  return out;
}

constexpr std::string_view kPreamble = R"(# Diagnostics: every code

What each diagnostic code means and what to do about it. A diagnostic is a problem with an input
or a run rather than a finding about the storage: a stable code, a severity, a message and, where
there is one, `file:line:column` (see [architecture.md](architecture.md#diagnostics-as-data)).
Back to the [README](../README.md).

This file is generated from the registry (`core/diagnostic_codes.cpp`) and checked by the test
`docs: diagnostics.md matches the registry`. After adding or changing a code, regenerate it with:

```sh
cmake --build build --target diagnostics_doc && FEEDCHECK_UPDATE_DOCS=1 ctest --test-dir build -R diagnostics.md
```

- **Codes are stable**: a code keeps its meaning and is never given to another problem; a code
  no longer reported is left out of the table but not reused.
- **Severity** is the usual one. Some codes are raised or lowered by the case: a probe that ended
  partial is a warning, one that failed an error. Errors make the command exit non-zero
  (usually 2 for a flag, 3 for an input).
- **Name** is the code's stable word, as SARIF's rule name for `lint`'s codes.
)";

}  // namespace

int main() {
  const auto codes = feedcheck::DiagnosticCodes();
  fmt::print("{}", kPreamble);
  for (const feedcheck::DiagnosticFamily& family : feedcheck::DiagnosticFamilies()) {
    const std::string_view prefix(family.prefix);
    fmt::print("\n## {}xx: {}\n\nReported by {}.\n\n", prefix, family.title, family.about);
    fmt::print("| Code | Name | Severity | What happened | What to do |\n|---|---|---|---|---|\n");
    for (const feedcheck::DiagnosticCodeInfo& c : codes)
      if (std::string_view(c.code).substr(0, prefix.size()) == prefix)
        fmt::print("| `{}` | {} | {} | {} | {} |\n", c.code, c.name,
                   feedcheck::SeverityName(c.severity), Cell(c.summary), Cell(c.help));
  }
  fmt::print("\n{} codes.\n", codes.size());
  return 0;
}
