// Prints docs/facts.md from the fact registry (core/fact_registry.cpp): every key with its unit,
// origin and meaning, one table per key family. The ctest test `docs: facts.md matches the
// registry` compares the committed file with this program's output.
// Usage: facts_doc > docs/facts.md
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/fact.h"
#include "core/fact_registry.h"
#include "core/units.h"

namespace {

using feedcheck::FactSpec;

// The section a key belongs to: its first segment, or two for the probes (probe.throughput).
std::string Section(std::string_view key) {
  const auto first = key.find('.');
  if (first == std::string_view::npos) return std::string(key);
  if (key.substr(0, first) != "probe") return std::string(key.substr(0, first));
  const auto second = key.find('.', first + 1);
  return std::string(key.substr(0, second));
}

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

constexpr std::string_view kPreamble = R"(# Facts: the vocabulary

What every fact key means: its unit, the origin it normally has, and what it says. Facts are what
probes and analyzers produce and what rules and reports consume (see
[architecture.md](architecture.md#the-facts-contract)); a rule's `when:`, `evidence:`, `excess:` and
`{placeholders}` may name only these keys ([rules.md](rules.md)). Back to the [README](../README.md).

This file is generated from the registry (`core/fact_registry.cpp`) and checked by the test
`docs: facts.md matches the registry`. After adding a key, regenerate it with:

```sh
cmake --build build --target facts_doc && build/facts_doc > docs/facts.md
```

`feedcheck facts list` prints the same table (`--json` for a program).

- **Units** are part of the key's name where they are not obvious (`_bytes`, `_gbps`, `_ms`,
  `_s`, `_per_s`) and are always carried with the value in JSON (`"unit"`).
- **Origin** is how the fact is normally known, from least to most trusted when two sources give
  the same key: `knowledge` (the knowledge base in `data/`), `declared` (a flag or a profile),
  `derived` (computed from other facts), `observed` (read from a job's logs, metrics or GPU
  samples), `measured` (a probe). A fact's provenance in the JSON output says where this one came
  from (the probe and its parameters, the flag, or file and line).
- **Families** end in `.<name>`: one key per value seen, e.g. `runtime.http_errors.503`.
)";

}  // namespace

int main() {
  const auto& specs = feedcheck::FactRegistry::Builtin().all();
  fmt::print("{}", kPreamble);
  // Sections in the order they first appear in the registry, each with all its keys.
  std::vector<std::string> sections;
  for (const FactSpec& spec : specs)
    if (std::find(sections.begin(), sections.end(), Section(spec.key)) == sections.end())
      sections.push_back(Section(spec.key));
  for (const std::string& section : sections) {
    fmt::print("\n## `{}`\n\n| Key | Unit | Origin | Meaning |\n|---|---|---|---|\n", section);
    for (const FactSpec& spec : specs)
      if (Section(spec.key) == section)
        fmt::print("| `{}` | {} | {} | {} |\n", spec.key, Cell(feedcheck::UnitName(spec.unit)),
                   feedcheck::OriginName(spec.origin), Cell(spec.description));
  }
  fmt::print("\n{} keys.\n", specs.size());
  return 0;
}
