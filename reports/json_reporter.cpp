#include "reports/json_reporter.h"

#include <nlohmann/json.hpp>
#include <string_view>

#include "reports/report_json.h"

namespace feedcheck {

void JsonReporter::Render(const Report& report, std::ostream& out) const {
  // What a reader looks at first comes first (schema_version, verdict, result), the result in
  // the order the run showed it; the rest as ReportToJson lays it out.
  const nlohmann::json j = ReportToJson(report);
  nlohmann::ordered_json ordered;
  for (std::string_view key : {"schema_version", "verdict", "result"})
    if (auto it = j.find(std::string(key)); it != j.end())
      ordered[std::string(key)] = nlohmann::ordered_json(*it);
  nlohmann::ordered_json result = nlohmann::ordered_json::object();
  // The values as ReportToJson wrote them (whole numbers as integers), in the run's order.
  if (auto rj = j.find("result"); rj != j.end() && rj->is_object())
    for (const auto& v : report.result)
      if (auto it = rj->find(v.key); it != rj->end()) result[v.key] = nlohmann::ordered_json(*it);
  ordered["result"] = std::move(result);
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!ordered.contains(it.key())) ordered[it.key()] = nlohmann::ordered_json(it.value());
  out << ordered.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace feedcheck
