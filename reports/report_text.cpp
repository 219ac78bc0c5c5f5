#include "reports/report_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/units.h"
#include "reports/report_charts.h"

namespace feedcheck {

std::string ProvenanceText(const Provenance& p) {
  std::string out(OriginName(p.origin));
  std::string where = p.source;
  // "knowledge base: vm_sizes.yaml ..." already says where it came from.
  if (where.rfind(out, 0) == 0) out.clear();
  if (!p.file.empty()) {
    std::string file_line = p.line > 0 ? fmt::format("{}:{}", p.file, p.line) : p.file;
    // The source often names its file already ("rslex.log:168", "storage-metrics.json (Egress
    // at ...)"): add the file only when it is not in the text yet.
    if (where.empty()) {
      where = file_line;
    } else if (where.find(p.file) == std::string::npos) {
      where = fmt::format("{} ({})", where, file_line);
    }
  }
  if (!where.empty()) out += (out.empty() ? "" : ": ") + where;
  if (!p.host.empty() || p.rank >= 0) {
    std::string who = p.host;
    if (p.rank >= 0) who += fmt::format("{}rank {}", who.empty() ? "" : " ", p.rank);
    out += " [" + who + "]";
  }
  return out;
}

std::string RuleLocation(const Finding& f) {
  if (f.rule_file.empty()) return "";
  return f.rule_line > 0 ? fmt::format("{}:{}", f.rule_file, f.rule_line) : f.rule_file;
}

std::map<std::string, std::vector<const Fact*>> FactsByPrefix(const FactSet& facts) {
  std::map<std::string, std::vector<const Fact*>> groups;
  for (const auto& [key, fact] : facts) {
    size_t dot = key.find('.');
    groups[dot == std::string::npos ? key : key.substr(0, dot)].push_back(&fact);
  }
  return groups;
}

std::string SkippedRulesSummary(size_t skipped_count) {
  return fmt::format("{} {} facts this run did not have", skipped_count,
                     skipped_count == 1 ? "rule needs" : "rules need");
}

const std::vector<Severity>& SeveritiesMostSevereFirst() {
  static const std::vector<Severity> order{Severity::kCritical, Severity::kWarning,
                                           Severity::kInfo};
  return order;
}

std::string ResultValueText(const ResultValue& v) {
  if (const bool* b = std::get_if<bool>(&v.value)) return *b ? "yes" : "no";
  if (const std::string* t = std::get_if<std::string>(&v.value)) return *t;
  const double number = std::get<double>(v.value);
  // A unit the units table knows prints as a fact of that unit would (durations and sizes
  // scaled to be read); any other with three significant digits.
  if (std::optional<Unit> unit = UnitFromName(v.unit);
      unit && *unit != Unit::kCount && *unit != Unit::kText && *unit != Unit::kBool)
    return FormatValue(number, *unit);
  std::string text = FormatGrouped(number, 3);
  return v.unit.empty() ? text : text + " " + v.unit;
}

std::string ResultLabel(const ResultValue& v) { return v.label.empty() ? v.key : v.label; }

bool ShowsResultBlock(const Report& r) {
  return !r.result.empty() && r.tables.empty() && r.sections.empty();
}

bool ShowsFindingsBlock(const Report& r) {
  if (!r.findings.empty() || r.findings_ranked) return true;
  if (!r.tables.empty()) return false;
  for (const auto& s : r.sections)
    if (!s.tables.empty()) return false;
  return true;
}

bool HasSectionCharts(const Report& r) {
  for (const auto& s : r.sections)
    if (!s.charts.empty()) return true;
  return false;
}

bool HasDrawableParts(const Report& r) {
  if (HasSectionCharts(r)) return true;
  return !(r.charts.decided ? r.charts : DecideCharts(r)).charts.empty();
}

}  // namespace feedcheck
