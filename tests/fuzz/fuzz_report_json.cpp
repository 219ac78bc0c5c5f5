// libFuzzer target: a saved result, as `feedcheck report FILE` reads it (app/report_workflow):
// the JSON read into the Report model (ReportFromJson), its post-mortem and fleet sections laid
// out again from their JSON (RestoreSections), then rendered by every reporter. A result file
// is the user's to edit, so every field may hold anything JSON can.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/postmortem_report.h"
#include "reports/report_json.h"
#include "reports/reporter.h"

using namespace feedcheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nlohmann::json json =
      nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return 0;
  Report report;
  DiagnosticList diagnostics;
  if (!ReportFromJson(json, "result.json", &report, &diagnostics)) return 0;
  app::RestoreSections(&report);
  for (std::string_view format : ReporterNames()) {
    for (bool verbose : {false, true}) {
      ReporterOptions options;
      options.verbose = verbose;
      std::ostringstream out;
      MakeReporter(format, options)->Render(report, out);
    }
  }
  return 0;
}
