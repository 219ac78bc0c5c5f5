// The report as JSON (RESULT.json): what `feedcheck report` reads back.
#pragma once

#include "reports/reporter.h"

namespace feedcheck {

class JsonReporter : public Reporter {
 public:
  void Render(const Report& report, std::ostream& out) const override;
};

}  // namespace feedcheck
