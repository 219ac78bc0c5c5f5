#include "reports/json_reporter.h"

#include <nlohmann/json.hpp>

#include "reports/report_json.h"

namespace feedcheck {

void JsonReporter::Render(const Report& report, std::ostream& out) const {
  out << ReportToJson(report).dump(2) << "\n";
}

}  // namespace feedcheck
