// A report's tables on a terminal: aligned columns when they fit the width, else one record per
// row (the short cells on one line, each long cell wrapped under it with its column's label), so
// a table never runs off the screen or wraps a sentence into a column 17 characters wide.
#pragma once

#include <ostream>
#include <vector>

#include "reports/report.h"
#include "reports/terminal_layout.h"

namespace feedcheck {

/// Every table of `tables` (a report's own, or a section's) as the layout allows: a folded table
/// as one line counting its rows (unless -v), at most RowsShown() rows and NotesShown() notes
/// of the others. The first `fold_first` tables show as one line counting their rows too (the
/// layout's last folds of the report's own tables).
void PrintTerminalTables(const std::vector<ReportTable>& tables, std::ostream& out,
                         const TerminalLayout& paint, size_t fold_first = 0);

}  // namespace feedcheck
