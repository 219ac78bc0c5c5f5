// The known log shapes against the corpus and the docs: every rslex and data-capability log
// under tests/data/joblogs (the corpus and the demo) holds only shapes of the tables in
// analyzers/rslex_shapes.cpp and analyzers/data_capability_shapes.cpp, rslex's Status: lines
// carry the HTTP reason (never Azure's message), and docs/postmortem.md lists the tables as they
// are (FEEDCHECK_UPDATE_DOCS=1 rewrites the section).
#include "analyzers/rslex_shapes.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "analyzers/data_capability_log.h"
#include "analyzers/data_capability_shapes.h"
#include "analyzers/rslex_log.h"
#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;
using namespace feedcheck::analyzers::test;

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kBegin = "<!-- log-shapes -->";
constexpr std::string_view kEnd = "<!-- /log-shapes -->";

std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\";
    out += c;
  }
  return out;
}

template <typename Shapes>
void Table(std::ostringstream& out, const Shapes& shapes) {
  out << "| Shape | As the runtime writes it | Public source |\n|---|---|---|\n";
  for (const auto& s : shapes)
    out << "| `" << s.name << "` | `" << Cell(s.example) << "` | " << Cell(s.source) << " |\n";
}

// The docs section, from the tables.
std::string ShapesSection() {
  std::ostringstream out;
  out << kBegin << "\n`rslex.log.*`:\n\n";
  Table(out, RslexShapes());
  out << "\n`data-capability.log`:\n\n";
  Table(out, DataCapabilityShapes());
  out << kEnd;
  return out.str();
}

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("every data-capability log of the corpus and the demo holds only known shapes",
          "[analyzers][corpus]") {
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(DataDir() + "/joblogs")) {
    if (!e.is_regular_file() || e.path().filename().string().rfind("data-capability.log", 0) != 0)
      continue;
    ++files;
    DataCapabilityAnalyzer a;
    Run(a, ReadAll(e.path()), e.path().string());
    INFO(e.path().string() << ": first unknown shape at " << a.first_unknown_shape());
    CHECK(a.shape_count(DataCapabilityShape::kUnknown) == 0);
  }
  CHECK(files >= 40);
}

TEST_CASE("every rslex log of the corpus and the demo holds only known shapes",
          "[analyzers][rslex][corpus]") {
  fs::path root = DataDir() + "/joblogs";
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().filename().string().rfind("rslex.log", 0) != 0) continue;
    ++files;
    std::string text = ReadAll(e.path());
    RslexLogAnalyzer a;
    Run(a, text, e.path().string());
    INFO(e.path().string() << ": first unknown shape at " << a.first_unknown_shape());
    CHECK(a.shape_count(RslexShape::kUnknown) == 0);
    CHECK(a.parsed_lines() > 0);
    // A Status: line carries the HTTP library's reason, never Azure's message.
    for (size_t at = text.find("Status: "); at != std::string::npos;
         at = text.find("Status: ", at + 1)) {
      size_t end = text.find_first_of("\n", at);
      std::string_view line(text.data() + at, (end == std::string::npos ? text.size() : end) - at);
      int status = std::atoi(std::string(line.substr(8, 3)).c_str());
      std::string_view reason = line.substr(12);
      reason = reason.substr(0, reason.find(" Headers:"));
      INFO(line);
      CHECK(IsHttpReason(status, reason));
    }
  }
  CHECK(files >= 40);
}

TEST_CASE("docs/postmortem.md lists every known shape with its source, as the table has it",
          "[analyzers][rslex]") {
  fs::path doc = fs::path(FEEDCHECK_SOURCE_DIR) / "docs" / "postmortem.md";
  std::string text = ReadAll(doc);
  size_t begin = text.find(kBegin);
  size_t end = text.find(kEnd);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  std::string have = text.substr(begin, end + kEnd.size() - begin);
  std::string want = ShapesSection();
  if (have != want && std::getenv("FEEDCHECK_UPDATE_DOCS")) {
    std::ofstream(doc, std::ios::binary)
        << text.substr(0, begin) << want << text.substr(end + kEnd.size());
    have = want;
  }
  INFO(
      "docs/postmortem.md's log-shapes section is stale: run this test with "
      "FEEDCHECK_UPDATE_DOCS=1 to rewrite it");
  CHECK(have == want);
  for (const auto& s : RslexShapes()) {
    CHECK(s.source.find("../shared") == std::string_view::npos);
    CHECK(s.source.find("seeds") == std::string_view::npos);
  }
  for (const auto& s : DataCapabilityShapes()) {
    CHECK_FALSE(s.source.empty());
    CHECK(s.source.find("../shared") == std::string_view::npos);
  }
}

TEST_CASE("HTTP reasons: canonical only", "[analyzers][rslex]") {
  CHECK(IsHttpReason(503, "Service Unavailable"));
  CHECK(IsHttpReason(403, "Forbidden"));
  CHECK_FALSE(IsHttpReason(503, "Egress is over the account limit."));
  CHECK_FALSE(IsHttpReason(404, "The specified blob does not exist."));
  CHECK_FALSE(IsHttpReason(299, "OK"));
}
