#include "reports/compare_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "reports/html_escape.h"
#include "reports/html_style.h"

namespace feedcheck {
namespace {

std::string Percent(const FactChange& c) {
  if (!c.relative) return "";
  return fmt::format("{:+.1f}%", *c.relative * 100);
}

std::string NoiseText(const FactChange& c) {
  if (!c.noise) return "";
  return "±" + FormatValue(*c.noise, c.unit);
}

std::string Side(const std::string& display) { return display.empty() ? "-" : display; }

bool Shown(const FactChange& c) { return c.change != Change::kSame; }

size_t CountShown(const Comparison& cmp, bool inputs) {
  size_t n = 0;
  for (const FactChange& c : cmp.changes)
    if (Shown(c) && c.is_input == inputs) ++n;
  return n;
}

std::string Summary(const Comparison& cmp) {
  return fmt::format(
      "{} better, {} worse, {} within their noise band, {} the same (within {:.0f}%), {} in one "
      "result only",
      cmp.better, cmp.worse, cmp.within_noise, cmp.same, cmp.tolerance * 100, cmp.one_side);
}

std::string VerdictLine(const Comparison& cmp) {
  if (cmp.a_verdict.empty() && cmp.b_verdict.empty()) return "";
  if (cmp.a_verdict == cmp.b_verdict) return "Verdict unchanged: " + cmp.a_verdict;
  return fmt::format("Verdict: {} -> {}", cmp.a_verdict.empty() ? "(none)" : cmp.a_verdict,
                     cmp.b_verdict.empty() ? "(none)" : cmp.b_verdict);
}

std::string Colored(bool color, Change change, const std::string& text) {
  if (!color) return text;
  const char* sgr = change == Change::kWorse ? "1;31" : change == Change::kBetter ? "1;32" : "2";
  return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
}

void RenderTerm(const Comparison& cmp, bool color, std::ostream& out) {
  out << fmt::format("A  {}\nB  {}\n", cmp.a_name, cmp.b_name);
  if (std::string v = VerdictLine(cmp); !v.empty()) out << v << "\n";
  for (bool inputs : {true, false}) {
    if (CountShown(cmp, inputs) == 0) continue;
    out << (inputs ? "\nInputs that differ (a different setup, not a result)\n"
                   : "\nResults that changed\n");
    size_t width = 0;
    for (const FactChange& c : cmp.changes)
      if (Shown(c) && c.is_input == inputs) width = std::max(width, c.key.size());
    for (const FactChange& c : cmp.changes) {
      if (!Shown(c) || c.is_input != inputs) continue;
      std::string line = fmt::format("  {:<12} {:<{}}  {} -> {}", ChangeName(c.change), c.key,
                                     width, Side(c.a_display), Side(c.b_display));
      if (std::string p = Percent(c); !p.empty()) line += "  " + p;
      if (std::string n = NoiseText(c); !n.empty()) line += "  (noise " + n + ")";
      out << Colored(color, c.change, line) << "\n";
    }
  }
  out << "\n" << Summary(cmp) << ".\n";
}

std::string MdCell(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|' || ch == '`' || ch == '*' || ch == '_' || ch == '<' || ch == '>' || ch == '[')
      out += '\\';
    if (ch == '\n' || ch == '\r') {
      out += ' ';
      continue;
    }
    out += ch;
  }
  return out;
}

void RenderMarkdown(const Comparison& cmp, std::ostream& out) {
  out << "# Before and after\n\n";
  out << fmt::format("- **A**: {}\n- **B**: {}\n", MdCell(cmp.a_name), MdCell(cmp.b_name));
  if (std::string v = VerdictLine(cmp); !v.empty()) out << "- " << MdCell(v) << "\n";
  for (bool inputs : {true, false}) {
    if (CountShown(cmp, inputs) == 0) continue;
    out << (inputs ? "\n## Inputs that differ\n\n" : "\n## Results that changed\n\n");
    out << "| Change | Fact | A | B | Relative | Noise band |\n|---|---|---|---|---|---|\n";
    for (const FactChange& c : cmp.changes) {
      if (!Shown(c) || c.is_input != inputs) continue;
      out << fmt::format("| {} | {} | {} | {} | {} | {} |\n", ChangeName(c.change), MdCell(c.key),
                         MdCell(Side(c.a_display)), MdCell(Side(c.b_display)), Percent(c),
                         MdCell(NoiseText(c)));
    }
  }
  out << "\n" << Summary(cmp) << ".\n";
}

void RenderHtml(const Comparison& cmp, std::ostream& out) {
  out << "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<title>feedcheck: before and after</title><style>" << kHtmlReportCss
      << "table.compare td.better{color:#166534;font-weight:600}"
      << "table.compare td.worse{color:#991b1b;font-weight:600}"
      << "table.compare td.noise{color:#64748b}"
      << "</style></head><body><main>";
  out << "<div class=\"banner\"><div class=\"kicker\">Before and after</div><h1>"
      << HtmlEscape(VerdictLine(cmp).empty() ? "What changed" : VerdictLine(cmp)) << "</h1><p>"
      << HtmlEscape(Summary(cmp)) << ".</p><div class=\"meta\">A: " << HtmlEscape(cmp.a_name)
      << "<br>B: " << HtmlEscape(cmp.b_name) << "</div></div>";
  for (bool inputs : {true, false}) {
    if (CountShown(cmp, inputs) == 0) continue;
    out << "<h2>" << (inputs ? "Inputs that differ" : "Results that changed") << "</h2>"
        << "<table class=\"compare\"><thead><tr><th>Change</th><th>Fact</th><th>A</th><th>B</th>"
        << "<th>Relative</th><th>Noise band</th></tr></thead><tbody>";
    for (const FactChange& c : cmp.changes) {
      if (!Shown(c) || c.is_input != inputs) continue;
      const char* cls = c.change == Change::kBetter        ? "better"
                        : c.change == Change::kWorse       ? "worse"
                        : c.change == Change::kWithinNoise ? "noise"
                                                           : "";
      out << "<tr><td class=\"" << cls << "\">" << HtmlEscape(ChangeName(c.change))
          << "</td><td class=\"mono\">" << HtmlEscape(c.key) << "</td><td>"
          << HtmlEscape(Side(c.a_display)) << "</td><td>" << HtmlEscape(Side(c.b_display))
          << "</td><td>" << HtmlEscape(Percent(c)) << "</td><td>" << HtmlEscape(NoiseText(c))
          << "</td></tr>";
    }
    out << "</tbody></table>";
  }
  out << "</main></body></html>\n";
}

void RenderJson(const Comparison& cmp, std::ostream& out) {
  nlohmann::json changes = nlohmann::json::array();
  for (const FactChange& c : cmp.changes) {
    nlohmann::json j = {{"key", c.key},
                        {"unit", std::string(UnitName(c.unit))},
                        {"change", std::string(ChangeName(c.change))},
                        {"input", c.is_input},
                        {"a_display", c.a_display},
                        {"b_display", c.b_display}};
    if (c.a) j["a"] = *c.a;
    if (c.b) j["b"] = *c.b;
    if (c.relative) j["relative"] = *c.relative;
    if (c.noise) j["noise"] = *c.noise;
    j["better"] = c.better == Better::kHigher  ? "higher"
                  : c.better == Better::kLower ? "lower"
                                               : "neither";
    changes.push_back(std::move(j));
  }
  nlohmann::json doc = {{"schema_version", 1},
                        {"command", "compare"},
                        {"result",
                         {{"a", cmp.a_name},
                          {"b", cmp.b_name},
                          {"a_verdict", cmp.a_verdict},
                          {"b_verdict", cmp.b_verdict},
                          {"verdict_changed", cmp.a_verdict != cmp.b_verdict},
                          {"better", cmp.better},
                          {"worse", cmp.worse},
                          {"within_noise", cmp.within_noise},
                          {"same", cmp.same},
                          {"tolerance", cmp.tolerance}}},
                        {"changes", std::move(changes)}};
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace

bool RenderComparison(const Comparison& comparison, std::string_view format, bool color,
                      std::ostream& out) {
  if (format == "term") {
    RenderTerm(comparison, color, out);
  } else if (format == "md") {
    RenderMarkdown(comparison, out);
  } else if (format == "html") {
    RenderHtml(comparison, out);
  } else if (format == "json") {
    RenderJson(comparison, out);
  } else {
    return false;
  }
  return true;
}

}  // namespace feedcheck
