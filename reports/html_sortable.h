// The HTML page's sortable tables (ReportTable::sortable), sorted without script: the rows are
// grid lines in a flex column, so CSS `order` can move them; each column's radio pair
// (ascending, descending) sets every row's order from the row's rank for that column, a custom
// property written on the row. The ranks come with the table: nothing is sorted here.
#pragma once

#include <string>
#include <vector>

#include "reports/report.h"

namespace feedcheck {

/// The sortable tables of `report` in the order the page shows them (the sections' tables, then
/// the report's): a table's place in it is its index below.
std::vector<const ReportTable*> SortableTables(const Report& report);

/// The CSS the page's sortable tables need: their layout, and each sortable column's rules;
/// "" when there is none.
std::string SortableTablesCss(const std::vector<const ReportTable*>& tables);

/// " lv-bad" (the level's name) when `row` of `table` has a standing (ReportTable::row_levels),
/// "" when not: the class both layouts of a table add to a row, for its coloured left edge.
std::string RowLevelClass(const ReportTable& table, size_t row);

/// The `index`-th sortable table of the page: its radio pairs, header, rows and notes.
std::string SortableTableHtml(const ReportTable& table, size_t index);

}  // namespace feedcheck
