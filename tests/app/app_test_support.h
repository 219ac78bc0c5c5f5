// What the workflow tests share: the build folder as FEEDCHECK_HOME (data/ and rules/ are
// copied there), a scratch folder for files, and reading a Report's result and tables by key.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/outcome.h"
#include "app/postmortem_workflow.h"

namespace feedcheck::app::testing {

/// The result value `key` of the report; nullopt when absent or not of that type.
std::optional<double> ResultNumber(const Report& report, const std::string& key);
std::optional<std::string> ResultText(const Report& report, const std::string& key);
std::optional<bool> ResultBool(const Report& report, const std::string& key);

/// The table titled `title`; nullptr when there is none.
const ReportTable* FindTable(const Report& report, const std::string& title);
/// The cell of `column` (by key) in `row`; nullptr when the table has no such column.
const TableCell* Cell(const ReportTable& table, size_t row, const std::string& column);

/// True when a kept diagnostic has `code` and its message contains `part`.
bool HasDiagnostic(const DiagnosticList& diagnostics, const std::string& code,
                   const std::string& part = "");

/// Writes `text` to a fresh file in a per-process scratch folder (removed at exit).
std::string WriteTempFile(const std::string& name, const std::string& text);

/// `path` under the source tree ("tests/data/jobs/retired-size.yml").
std::string SourcePath(const std::string& path);

/// The hand-labelled corpus of job folders.
inline const std::string kJobCorpus = SourcePath("tests/data/joblogs");

/// The post-mortem of corpus job `job` (tests/data/joblogs) with its flags as corpus.json
/// lists them (`args`: flag, value, flag, value...), never failing on its verdict.
PostmortemRequest CorpusRequest(const std::string& job, const std::vector<std::string>& args);

}  // namespace feedcheck::app::testing
