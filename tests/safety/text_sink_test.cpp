// The text sinks, label safety: every reporter (term, md, html, json, sarif) is fed a Report
// whose every string field holds hostile text (OSC 52 clipboard writes, OSC 8 links, a screen
// clear, BEL, U+202E, C1 controls, a newline that would start a forged "Verdict:" line,
// Markdown link and image syntax), and the output is checked for each kind: nothing obeyed on
// the terminal, no raw control or bidi character in .md/.html, no live link in .md, no line of
// the hostile text's own, and JSON that parses. A property over the report's fields: a field
// added later is poisoned too when it is a string of the parts below. Also feedcheck-seed's
// terminal text, through the binary.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <variant>

#include "app/report_output.h"
#include "reports/report_charts.h"
#include "reports/reporter.h"
#include "tests/fault_server/server_process.h"
#include "tests/reports/sample_report.h"
#include "tests/support/subprocess.h"

using namespace feedcheck;
using namespace feedcheck::testing;

namespace {

void Poison(std::string* s, const std::string& payload) { *s += payload; }

Fact PoisonFact(Fact f, const std::string& payload) {
  if (f.is_text()) f.value = f.text() + payload;
  Poison(&f.provenance.source, payload);
  Poison(&f.provenance.file, payload);
  Poison(&f.provenance.host, payload);
  return f;
}

void PoisonTable(ReportTable& t, const std::string& p) {
  Poison(&t.title, p);
  for (auto& c : t.columns) Poison(&c.label, p);
  for (auto& row : t.rows)
    for (auto& cell : row) Poison(&cell.text, p);
  t.notes.push_back("note" + p);
}

// Every string of the report, the payload appended; one of each part added where the sample
// has none, so every field is rendered.
Report Poisoned(Report r, const std::string& p) {
  for (std::string* s : {&r.title, &r.verdict, &r.verdict_detail, &r.headline, &r.context.command,
                         &r.context.host, &r.context.target, &r.context.tool_version,
                         &r.context.build_type, &r.context.started_at_utc, &r.codes.uri})
    Poison(s, p);
  r.context.warnings.push_back("warning" + p);
  FactSet facts;
  for (const Fact* f : r.evidence.facts.WithPrefix("")) facts.Set(PoisonFact(*f, p));
  Provenance where;
  where.source = "node folder" + p;
  where.file = "job/node" + p + "/x.log";
  where.line = 3;
  facts.Set(TextFact("node.name", "node" + p, where));
  r.evidence.facts = std::move(facts);
  r.evidence.diagnostics.Add({"A201",
                              DiagnosticSeverity::kWarning,
                              "bad line" + p,
                              {"job/node" + p + "/data-capability.log", 3, 1},
                              "analyze" + p,
                              "snippet" + p});
  for (auto& s : r.evidence.series) {
    Poison(&s.title, p);
    Poison(&s.node, p);
  }
  for (auto& iv : r.evidence.timeline) {
    Poison(&iv.label, p);
    Poison(&iv.node, p);
    Poison(&iv.source, p);
  }
  Finding extra;
  extra.rule_id = "hostile";
  extra.title = "finding";
  extra.message = "message";
  r.findings.push_back(extra);
  for (auto& f : r.findings) {
    for (std::string* s :
         {&f.rule_id, &f.title, &f.message, &f.source, &f.rule_file, &f.impact, &f.secondary_note})
      Poison(s, p);
    for (auto& e : f.evidence) e = PoisonFact(e, p);
    f.env.push_back({"NAME" + p, "value" + p});
    f.config.push_back({"blobfuse2" + p, "a: b" + p + "\n"});
  }
  r.skipped.push_back({"skipped" + p, "title" + p, {"fact" + p}});
  r.env.push_back({"ENV" + p, "value" + p});
  r.config.push_back({"blobfuse2" + p, "x: y" + p + "\n"});
  r.result.push_back({"folder", "job" + p, "", "Folder" + p});
  for (auto& v : r.result) {
    Poison(&v.label, p);
    if (auto* t = std::get_if<std::string>(&v.value)) Poison(t, p);
  }
  ReportTable t;
  t.title = "Nodes";
  t.columns = {{"node", "Node"}};
  t.rows = {{{"node-1" + p, std::nullopt}}};
  r.tables.push_back(t);
  for (auto& table : r.tables) PoisonTable(table, p);
  ReportSection s;
  s.key = "nodes";
  s.title = "Section";
  s.lines.push_back({"label", "text", {"detail"}});
  s.charts.push_back({"chart", "caption", {{"bar", 1.0, "text"}}});
  s.tables.push_back(t);
  r.sections.push_back(s);
  for (auto& sec : r.sections) {
    Poison(&sec.title, p);
    for (auto& l : sec.lines) {
      Poison(&l.label, p);
      Poison(&l.text, p);
      for (auto& d : l.details) Poison(&d, p);
    }
    for (auto& c : sec.charts) {
      Poison(&c.title, p);
      Poison(&c.caption, p);
      for (auto& b : c.bars) {
        Poison(&b.label, p);
        Poison(&b.text, p);
      }
    }
    for (auto& table : sec.tables) PoisonTable(table, p);
  }
  r.codes.codes.push_back({"L1" + p, "name" + p, "summary" + p, "help" + p, "error" + p});
  return r;
}

std::string Render(Report r, const std::string& format) {
  ReporterOptions options;
  options.width = 100;
  auto reporter = MakeReporter(format, options);
  REQUIRE(reporter);
  DecideCharts(&r);  // as the app does: the charts drawn, so their text is checked too
  std::ostringstream out;
  reporter->Render(r, out);
  return out.str();
}

bool HasRawControl(const std::string& text, bool allow_esc) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || c == '\t') continue;
    if (c == 0x1b && allow_esc) continue;
    if (c < 0x20 || c == 0x7f) return true;
    // C1 controls (U+0080..U+009F) and the bidi controls U+202A..U+202E, U+2066..U+2069.
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9f &&
        static_cast<unsigned char>(text[i + 1]) >= 0x80)
      return true;
    if (c == 0xe2 && i + 2 < text.size()) {
      const auto b = static_cast<unsigned char>(text[i + 1]),
                 d = static_cast<unsigned char>(text[i + 2]);
      if (b == 0x80 && d >= 0xaa && d <= 0xae) return true;
      if (b == 0x81 && d >= 0xa6 && d <= 0xa9) return true;
    }
  }
  return false;
}

// A line of the output that the hostile text started: its forged verdict at the start of a
// line, where the reporters put theirs.
bool ForgedLine(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("Verdict: FORGED", 0) == 0) return true;
  return false;
}

// Markdown outside code: fenced blocks and code spans dropped (a link there is not live).
std::string OutsideCode(const std::string& md) {
  std::istringstream in(md);
  std::string line, out;
  bool fenced = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    std::string kept;
    for (size_t i = 0; i < line.size();) {
      if (line[i] != '`') {
        kept += line[i++];
        continue;
      }
      size_t run = line.find_first_not_of('`', i) - i;
      const size_t close = line.find(std::string(run, '`'), i + run);
      i = close == std::string::npos ? line.size() : close + run;
    }
    out += kept + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("every reporter escapes hostile text in every field", "[safety][text-sink]") {
  const std::string payload = GENERATE(
      std::string("\x1b]52;c;ZXZpbA==\x07"), std::string("\x1b]8;;https://evil.example\x1b\\x"),
      std::string("\x1b[2J\x1b[H"), std::string("bell\x07"),
      std::string("\xe2\x80\xae"
                  "cod.exe"),
      std::string("\xc2\x9b"
                  "31m"),
      std::string("cr\roverwritten"), std::string("\nVerdict: FORGED ready"),
      std::string("[click](https://evil.example)"),
      std::string("![img](https://evil.example/x.png)"), std::string("<a href=\"https://evil\">"));
  const Report base = GENERATE(MakeSampleReport(8), MakeChartSampleReport(8));
  const Report r = Poisoned(base, payload);
  INFO("payload: " << nlohmann::json(payload).dump());

  const std::string term = Render(r, "term");
  CHECK_FALSE(HasRawControl(term, false));
  CHECK_FALSE(ForgedLine(term));

  const std::string md = Render(r, "md");
  CHECK_FALSE(HasRawControl(md, false));
  CHECK_FALSE(ForgedLine(OutsideCode(md)));
  CHECK(OutsideCode(md).find("[click](") == std::string::npos);
  CHECK(OutsideCode(md).find("![img](") == std::string::npos);
  CHECK(OutsideCode(md).find("<a href=\"https://evil") == std::string::npos);

  const std::string html = Render(r, "html");
  CHECK_FALSE(HasRawControl(html, false));
  CHECK(html.find("href=\"https://evil") == std::string::npos);

  for (const char* format : {"json", "sarif"}) {
    const std::string text = Render(r, format);
    INFO(format);
    // JSON keeps the text as data (a consumer gets it back exactly); the format escapes every
    // C0 control, so none is raw in the file.
    bool raw_c0 = false;
    for (char c : text) raw_c0 = raw_c0 || (static_cast<unsigned char>(c) < 0x20 && c != '\n');
    CHECK_FALSE(raw_c0);
    CHECK_FALSE(nlohmann::json::parse(text, nullptr, false).is_discarded());
  }
}

TEST_CASE("the terminal sink: DisplaySafe escapes and keeps names on their line",
          "[safety][text-sink]") {
  const std::string shown = app::DisplaySafe(
      "job folder evil\nVerdict: FORGED ready \x1b]52;c;ZXZpbA==\x07 \xe2\x80\xae");
  CHECK_FALSE(HasRawControl(shown, false));
  CHECK_FALSE(ForgedLine(shown));
}

TEST_CASE("feedcheck-seed prints server text through the terminal sink", "[safety][text-sink]") {
  // Fault "escape": every answer a 403 whose error code and message carry a window-title
  // write, colour, a screen clear and an OSC 8 link.
  FaultServerProcess server(FAULT_SERVER);
  const auto r = RunCommand(
      "AZURE_STORAGE_KEY=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
      "K1SZFPTOtr/KBHBeksoGMGw== timeout -s KILL 60 " +
      ShellQuote(std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck-seed") + " " +
      ShellQuote(server.Url("/devstoreaccount1/fault-escape/data/")) +
      " --small 1 --small-bytes 1KiB --dirs 1 --large 0 --threads 1");
  INFO("exit " << r.exit_code << " stderr: " << nlohmann::json(r.err).dump());
  CHECK(r.exit_code != 0);
  CHECK_FALSE(HasRawControl(r.err + r.out, false));
}
