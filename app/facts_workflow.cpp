#include "app/facts_workflow.h"

#include <fmt/format.h>

#include <set>

#include "core/diagnostic_codes.h"
#include "core/fact_registry.h"
#include "core/run_context.h"
#include "core/units.h"

namespace feedcheck::app {
namespace {

bool IsFamily(std::string_view key) { return key.find(".<") != std::string_view::npos; }

// The first segments of every key ("probe", "dataset", ...), for the error on a bad prefix.
std::string KnownPrefixes(const std::vector<FactSpec>& specs) {
  std::set<std::string> firsts;
  for (const auto& s : specs) firsts.insert(std::string(s.key.substr(0, s.key.find('.'))));
  std::string out;
  for (const auto& f : firsts) out += (out.empty() ? "" : ", ") + f;
  return out;
}

}  // namespace

Outcome RunFactsList(const FactsListRequest& request) {
  const auto& specs = FactRegistry::Builtin().all();
  ReportTable table;
  table.title = "Fact keys";
  table.columns = {
      {"key", "Key"}, {"unit", "Unit"}, {"origin", "Origin"}, {"description", "Description"}};
  double families = 0;
  for (const auto& s : specs) {
    if (s.key.substr(0, request.prefix.size()) != request.prefix) continue;
    if (IsFamily(s.key)) ++families;
    table.rows.push_back({{std::string(s.key), std::nullopt},
                          {std::string(UnitName(s.unit)), std::nullopt},
                          {std::string(OriginName(s.origin)), std::nullopt},
                          {std::string(s.description), std::nullopt}});
  }
  if (table.rows.empty())
    return Stopped(ExitStatus::kUsage, codes::kBadFlag,
                   fmt::format("no fact key starts with '{}'; keys start with {}", request.prefix,
                               KnownPrefixes(specs)));
  const size_t keys = table.rows.size();
  table.notes.push_back(
      fmt::format("{} keys. Keys ending in .<name> are families (runtime.http_errors.503).", keys));

  Outcome out;
  out.report.context = CurrentRunContext("facts list");
  out.report.title = "Fact vocabulary";
  if (!request.prefix.empty())
    out.report.verdict_detail = fmt::format("Keys starting with '{}'", request.prefix);
  out.report.result.push_back({"keys", static_cast<double>(keys), "", "Keys"});
  out.report.result.push_back({"families", families, "", "Families"});
  out.report.tables.push_back(std::move(table));
  out.has_report = true;
  return out;
}

}  // namespace feedcheck::app
