// How a workflow's Outcome becomes output: the report rendered by the reporters in the format
// app/report_format chose, the one JSON shape a script gets also when a workflow stopped early,
// and text made safe to show (secrets removed, control characters escaped). app never prints:
// this returns text; cli/ writes it to the terminal or a file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/outcome.h"

namespace feedcheck::app {

struct RenderOptions {
  bool color = false;    ///< terminal only: the caller knows whether stdout is a terminal
  bool verbose = false;  ///< -v: rules not evaluated and folded tables listed in full
  size_t width = 100;    ///< terminal only: the columns lines wrap to
  std::string base_dir;  ///< SARIF only: file paths relative to it (the working directory)
  /// Terminal only: a listing asked for whole (facts list, rules list, egress --all) shows every
  /// row; any other report says less until it fits one screen (reports/terminal_layout.h).
  bool whole = false;
};

/// "term", "json", "md", "html", "sarif": the formats every command's report renders in.
std::vector<std::string> ReportFormatNames();

/// `report` rendered as `format`; nullopt for a format no reporter knows.
std::optional<std::string> RenderReport(const Report& report, const std::string& format,
                                        const RenderOptions& options);

/// What `outcome` shows in `format`. Its report, with the outcome's diagnostics added to the
/// evidence in the formats that are saved (the terminal has them on stderr already). When the
/// workflow stopped before its report: nothing, except in JSON, where a script gets the one
/// shape anyway, titled `command`, with the first error as `result.error`, and in SARIF after an
/// input error (exit 3: the run was made, its input unreadable), where an upload step gets a
/// valid log with the error (and the codes the workflow described); both such reports are not
/// `complete`.
std::optional<Report> ReportToShow(const Outcome& outcome, const std::string& format,
                                   const std::string& command);

/// The columns terminal text wraps to: $COLUMNS (`columns_env`) when it is a number >= 40, else
/// the terminal's width (`tty_columns`, 0 when standard output is not one), else 100.
size_t ChooseTerminalWidth(const char* columns_env, size_t tty_columns);

/// Colour only on a terminal, never with --no-color, never when NO_COLOR is set (to anything);
/// `no_color_env` is getenv("NO_COLOR").
bool ColorWanted(bool no_color_flag, bool stream_is_tty, const char* no_color_env);

/// `text` as it may be shown: SAS signatures, keys and tokens removed, control characters
/// escaped (server text and file names can carry both).
std::string DisplaySafe(std::string_view text);

}  // namespace feedcheck::app
