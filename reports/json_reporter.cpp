#include "reports/json_reporter.h"

#include <nlohmann/json.hpp>

#include "core/json_text.h"
#include "reports/report_json.h"

namespace feedcheck {

void JsonReporter::Render(const Report& report, std::ostream& out) const {
  out << JsonText(ReportToJson(report), 2) << "\n";
}

}  // namespace feedcheck
