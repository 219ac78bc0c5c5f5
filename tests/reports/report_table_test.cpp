// Report::tables: written to JSON with the numbers in the row objects and read back, and laid
// out by every reporter (term, md, html) with the texts as given.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/report_json.h"
#include "reports/reporter.h"

using namespace feedcheck;

namespace {

Report WithTable() {
  Report r;
  r.title = "Egress";
  ReportTable t;
  t.title = "By VM size";
  t.columns = {{"sku", "Size"}, {"nic_gbps", "NIC", true}, {"full_rate_nodes", "Full-rate", true}};
  t.rows.push_back({{"Standard_ND96asr_v4", std::nullopt}, {"24 Gbit/s", 24}, {"8", 8}});
  t.rows.push_back({{"Standard_D2_v2 | <b>", std::nullopt}, {"1.5 Gbit/s", 1.5}, {"133", 133}});
  t.notes.push_back("Note: assumed a listed region");
  r.tables.push_back(t);
  return r;
}

std::string Render(const char* format, const Report& r) {
  std::ostringstream out;
  MakeReporter(format)->Render(r, out);
  return out.str();
}

}  // namespace

TEST_CASE("a table in JSON: row objects carry the numbers; it reads back", "[reports][tables]") {
  nlohmann::json j = ReportToJson(WithTable());
  REQUIRE(j["tables"].size() == 1);
  const auto& t = j["tables"][0];
  CHECK(t["title"] == "By VM size");
  CHECK(t["columns"][1]["key"] == "nic_gbps");
  CHECK(t["columns"][1]["numeric"] == true);
  CHECK(t["rows"][0]["sku"] == "Standard_ND96asr_v4");
  CHECK(t["rows"][0]["nic_gbps"] == 24);
  CHECK(t["text"][1][1] == "1.5 Gbit/s");
  CHECK(t["notes"][0] == "Note: assumed a listed region");

  j["kind"] = kReportKind;
  Report back;
  DiagnosticList diags;
  REQUIRE(ReportFromJson(j, "saved.json", &back, &diags));
  CHECK(diags.total() == 0);
  REQUIRE(back.tables.size() == 1);
  const ReportTable& b = back.tables[0];
  CHECK(b.columns.size() == 3);
  CHECK(b.columns[2].numeric);
  REQUIRE(b.rows.size() == 2);
  CHECK(b.rows[1][0].text == "Standard_D2_v2 | <b>");
  CHECK_FALSE(b.rows[1][0].value);
  CHECK(b.rows[1][1].value == 1.5);
  CHECK(b.notes == std::vector<std::string>{"Note: assumed a listed region"});
  CHECK(ReportToJson(back)["tables"] == j["tables"]);
}

TEST_CASE("a malformed table is a diagnostic naming its path", "[reports][tables]") {
  nlohmann::json j = ReportToJson(WithTable());
  j["tables"] = nlohmann::json::array({42});
  Report back;
  DiagnosticList diags;
  CHECK(ReportFromJson(j, "saved.json", &back, &diags));
  REQUIRE(diags.total() == 1);
  CHECK(diags.kept()[0].context == "/tables/0");
  CHECK(back.tables.empty());
}

TEST_CASE("every reporter lays a table out, escaping what its format needs", "[reports][tables]") {
  const Report r = WithTable();
  std::string term = Render("term", r);
  CHECK(term.find("By VM size") != std::string::npos);
  CHECK(term.find("Standard_ND96asr_v4    24 Gbit/s          8") != std::string::npos);
  CHECK(term.find("Note: assumed a listed region") != std::string::npos);
  CHECK(term.find("Findings") == std::string::npos);  // a table report without findings
  std::string md = Render("md", r);
  CHECK(md.find("## By VM size") != std::string::npos);
  CHECK(md.find("| Size | NIC | Full-rate |\n|---|---:|---:|") != std::string::npos);
  CHECK(md.find("Standard_D2_v2 \\| &lt;b>") != std::string::npos);
  std::string html = Render("html", r);
  CHECK(html.find("<h2>By VM size</h2>") != std::string::npos);
  CHECK(html.find("<th>Full-rate</th>") != std::string::npos);
  CHECK(html.find("Standard_D2_v2 | &lt;b&gt;") != std::string::npos);
  CHECK(html.find("<td class=\"value\">24 Gbit/s</td>") != std::string::npos);
}
