// A fact: one named value with its unit and where it came from. Facts are the contract
// between probes/analyzers (which produce them) and rules/reports (which consume them).
#pragma once

#include <string>
#include <variant>

#include "core/units.h"

namespace feedcheck {

/// How a fact became known. Ordered by how much it is trusted when two sources disagree.
enum class FactOrigin { kKnowledge, kDeclared, kDerived, kObserved, kMeasured };

std::string_view OriginName(FactOrigin origin);
std::optional<FactOrigin> OriginFromName(std::string_view name);

/// Where a fact came from: "probe throughput (concurrency=8, block=4MiB)",
/// "knowledge base: vm_sizes.yaml Standard_ND96asr_v4", "--nodes", "rslex.log.2023-05-18-14:3".
struct Provenance {
  FactOrigin origin = FactOrigin::kDeclared;
  std::string source;  ///< human-readable: the probe and its parameters, the flag, the file
  std::string file;    ///< input file, when a line in a file is the source
  int line = 0;        ///< 1-based line in `file`, 0 when not applicable
  std::string host;    ///< host that measured it (multi-node runs)
  int rank = -1;       ///< MPI rank that measured it, -1 when not from a rank
};

using FactValue = std::variant<double, std::string, bool>;

struct Fact {
  std::string key;  ///< stable dotted key, listed in the FactRegistry
  FactValue value;
  Unit unit = Unit::kCount;
  Provenance provenance;

  bool is_number() const { return std::holds_alternative<double>(value); }
  bool is_text() const { return std::holds_alternative<std::string>(value); }
  bool is_bool() const { return std::holds_alternative<bool>(value); }
  double number() const { return std::get<double>(value); }
  const std::string& text() const { return std::get<std::string>(value); }
};

/// Convenience constructors.
Fact NumberFact(std::string key, double value, Unit unit, Provenance provenance);
Fact TextFact(std::string key, std::string value, Provenance provenance);
Fact BoolFact(std::string key, bool value, Provenance provenance);

/// The value for humans: "4.00 MiB", "23.1 ms", "download", "true".
std::string FormatFactValue(const Fact& fact);

}  // namespace feedcheck
