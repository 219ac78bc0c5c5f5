// The default terminal report of each judging command (postmortem, analyze, advise, lint,
// egress, plan) on the bundled inputs: one screen (at most 40 lines), every line within
// $COLUMNS (100 and 80), valid UTF-8, ending with the verdict (when the command has one) and the
// line that says where the rest is; -v says more. Preflight's is checked against Azurite in
// tests/workflows/preflight_azurite_test.cpp.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/run_feedcheck.h"

namespace fs = std::filesystem;

namespace {

std::string Source(const std::string& path) {
  return std::string(FEEDCHECK_SOURCE_DIR) + "/" + path;
}

bool ValidUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    auto b = static_cast<unsigned char>(s[i]);
    size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    i += n;
  }
  return true;
}

size_t Columns(const std::string& line) {
  size_t n = 0;
  for (unsigned char c : line) n += (c & 0xC0) != 0x80;
  return n;
}

struct Shape {
  size_t lines = 0;
  size_t widest = 0;
  std::string last, verdict_line;
};

// Checks the screen rules on `out` for `columns` and returns its shape. Config fragments are
// printed as they are pasted, never re-flowed: `verbatim_ok` lets their lines run over.
Shape CheckFits(const std::string& out, size_t columns, bool verbatim_ok = false) {
  REQUIRE(ValidUtf8(out));
  Shape s;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    ++s.lines;
    s.widest = std::max(s.widest, Columns(line));
    INFO(columns << " columns: '" << line << "'");
    // Only a URL longer than a line may run over (a path is cut after a slash).
    if (Columns(line) > columns && !verbatim_ok) CHECK(line.find("://") != std::string::npos);
    if (line.rfind("Verdict: ", 0) == 0) s.verdict_line = line;
    s.last = line;
  }
  CHECK(s.lines <= 40);
  CHECK(s.last.find("-v: every finding, fact and rule") != std::string::npos);
  return s;
}

struct Case {
  std::vector<std::string> args;
  bool has_verdict;
};

std::vector<Case> Cases() {
  std::vector<Case> cases = {
      {{"postmortem", Source("tests/data/joblogs/job-demo")}, true},
      {{"analyze", Source("tests/data/joblogs/job-demo")}, false},
      {{"egress", "--sku", "Standard_ND96asr_v4", "--region", "eastus", "--nodes", "12"}, false},
      {{"plan", "--bytes", "1TB", "--mean-file-bytes", "500KB", "--sku", "Standard_ND96asr_v4",
        "--nodes", "12", "--region", "eastus"},
       false},
  };
  for (const auto& e : fs::directory_iterator(Source("examples")))
    if (e.path().extension() == ".yaml")
      cases.push_back({{"advise", "--profile", e.path().string()}, false});
  for (const auto& e : fs::directory_iterator(Source("examples/jobs")))
    if (e.path().extension() == ".yml") {
      cases.push_back({{"lint", e.path().string()}, false});
      cases.push_back(
          {{"lint", e.path().string(), "--profile", Source("examples/small-files-multi-epoch.yaml"),
            "--region", "eastus", "--sku", "Standard_ND96asr_v4"},
           false});
    }
  return cases;
}

}  // namespace

TEST_CASE("each judging command's terminal report fits one screen", "[cli][terminal]") {
  for (const char* columns : {"100", "80"}) {
    setenv("COLUMNS", columns, 1);
    for (const Case& c : Cases()) {
      std::vector<std::string> args = {"--fail-on", "never"};
      args.insert(args.end(), c.args.begin(), c.args.end());
      RunResult r = RunFeedcheck(args);
      std::string command;
      for (const auto& a : c.args) command += a + " ";
      INFO(columns << " columns: feedcheck " << command << "\n" << r.out << r.err);
      REQUIRE(r.exit_code == 0);
      // At 100 columns every line fits; at 80 a BlobFuse2 fragment's line may not (pasted as is).
      Shape shape =
          CheckFits(r.out, std::stoul(columns), c.args[0] == "advise" && columns[0] == '8');
      // The verdict again, at the end, when the command has one.
      if (c.has_verdict) {
        CHECK(!shape.verdict_line.empty());
        CHECK(r.out.rfind(shape.verdict_line) > r.out.size() / 2);
      }
      // -v says more: every fact, every rule not evaluated.
      RunResult verbose = RunFeedcheck([&] {
        std::vector<std::string> v = args;
        v.insert(v.begin(), "-v");
        return v;
      }());
      CHECK(verbose.out.size() > r.out.size());
    }
  }
  unsetenv("COLUMNS");
}

TEST_CASE("the demo's post-mortem and a fleet of the corpus: one screen, the action first",
          "[cli][terminal]") {
  setenv("COLUMNS", "100", 1);
  const std::string demo = Source("tests/data/joblogs/job-demo");
  const std::vector<std::vector<std::string>> runs = {
      {"postmortem", demo},                                        // the README's
      {"postmortem", demo, "--region", "eastus", "--nodes", "2"},  // scripts/demo.sh's
      {"postmortem", Source("tests/data/joblogs")}};               // the corpus as a fleet
  for (const auto& run : runs) {
    std::vector<std::string> args = {"--fail-on", "never"};
    args.insert(args.end(), run.begin(), run.end());
    RunResult r = RunFeedcheck(args);
    INFO("feedcheck " << run.back() << "\n" << r.out << r.err);
    REQUIRE(r.exit_code == 0);
    Shape shape = CheckFits(r.out, 100);
    CHECK(shape.lines <= 40);
    // The action: the post-mortem's "Fix:", the fleet's "Fix first:", within the first 10 lines.
    std::istringstream in(r.out);
    size_t n = 0, action = 0;
    for (std::string line; std::getline(in, line) && action == 0;) {
      ++n;
      if (line.find("  Fix: ") == 0 || line.find("  Fix first: ") == 0) action = n;
    }
    CHECK(action > 0);
    CHECK(action <= 10);
  }
  unsetenv("COLUMNS");
}

namespace {

struct CorpusJob {
  std::string name;
  std::vector<std::string> args;
};

// Every job of the labelled corpus with the flags it is run with (corpus.json's `args`).
std::vector<CorpusJob> CorpusJobs() {
  std::ifstream in(Source("tests/data/joblogs/corpus.json"));
  const nlohmann::json corpus = nlohmann::json::parse(in);
  std::vector<CorpusJob> jobs;
  for (const auto& job : corpus.at("jobs"))
    jobs.push_back(
        {job.at("name").get<std::string>(), job.at("args").get<std::vector<std::string>>()});
  return jobs;
}

// The line "Fix:" opens (1-based), 0 when there is none.
size_t FixLine(const std::string& out) {
  std::istringstream in(out);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.rfind("  Fix: ", 0) == 0) return n;
  }
  return 0;
}

}  // namespace

// Each job once as a user runs it (its own flags), once with -v, and its analysis: under the
// sanitizers every run is a whole process, so no job is run a way that adds no new output.
TEST_CASE("every corpus job's post-mortem, run with its own flags, and analysis fit one screen",
          "[cli][terminal][corpus]") {
  static const std::vector<CorpusJob> jobs = CorpusJobs();
  REQUIRE(jobs.size() > 40);
  const CorpusJob job = GENERATE(from_range(jobs));
  setenv("COLUMNS", "100", 1);
  std::vector<std::string> args = {"--fail-on", "never", "postmortem", job.name};
  args.insert(args.end(), job.args.begin(), job.args.end());
  // Run where corpus.json's paths (profiles/...) are relative to.
  RunResult r = RunFeedcheckIn(Source("tests/data/joblogs"), args);
  std::string command;
  for (const auto& a : args) command += a + " ";
  INFO("feedcheck " << command << "\n" << r.out << r.err);
  REQUIRE(r.exit_code == 0);
  Shape shape = CheckFits(r.out, 100);
  CHECK(shape.lines <= 40);
  // The action, when the post-mortem has one, within the first 10 lines.
  const size_t fix = FixLine(r.out);
  if (fix > 0) CHECK(fix <= 10);
  // Shortened at the terminal only: -v says the whole of what the screen cut.
  std::vector<std::string> verbose = args;
  verbose.insert(verbose.begin(), "-v");
  RunResult whole = RunFeedcheckIn(Source("tests/data/joblogs"), verbose);
  CHECK(whole.out.size() > r.out.size());
  if (r.out.find("An estimate, not a bill:") != std::string::npos)  // the price's short form
    CHECK(whole.out.find("not a bill: your region") != std::string::npos);
  RunResult analysis =
      RunFeedcheckIn(Source("tests/data/joblogs"), {"--fail-on", "never", "analyze", job.name});
  INFO("feedcheck analyze " << job.name << "\n" << analysis.out << analysis.err);
  CHECK(analysis.exit_code == 0);
  CheckFits(analysis.out, 100);
  unsetenv("COLUMNS");
}

TEST_CASE("a folded post-mortem keeps the fix's action and points at the rest", "[cli][terminal]") {
  // The corpus job whose default post-mortem says the most: its fix cut to the first sentence,
  // the price's source to its title; -v and Markdown keep both whole.
  setenv("COLUMNS", "100", 1);
  const std::vector<std::string> args = {
      "--fail-on",      "never",
      "postmortem",     "request-throttled-small-files-mount",
      "--sku",          "Standard_NC24ads_A100_v4",
      "--nodes",        "2",
      "--account-kind", "standard_gpv2_other_regions",
      "--profile",      "profiles/request-throttled-small-files-mount.yaml"};
  const std::string dir = Source("tests/data/joblogs");
  RunResult term = RunFeedcheckIn(dir, args);
  std::vector<std::string> md_args = args;
  md_args.insert(md_args.end(), {"-f", "md"});
  RunResult md = RunFeedcheckIn(dir, md_args);
  std::vector<std::string> v_args = args;
  v_args.insert(v_args.begin(), "-v");
  RunResult verbose = RunFeedcheckIn(dir, v_args);
  INFO(term.out);
  REQUIRE(term.exit_code == 0);
  const std::string action = "Fix: Pack small files into shards, or spread the data over accounts.";
  CHECK(term.out.find(action + " ...") != std::string::npos);
  for (const RunResult* full : {&md, &verbose}) {
    CHECK(full->out.find("ClientAccountRequestThrottlingError") != std::string::npos);
    CHECK(full->out.find("https://raw.githubusercontent.com/") != std::string::npos);
  }
  CHECK(term.out.find("https://") == std::string::npos);
  unsetenv("COLUMNS");
}

TEST_CASE("a listing asked for whole is not cut to a screen", "[cli][terminal]") {
  setenv("COLUMNS", "100", 1);
  RunResult facts = RunFeedcheck({"facts", "list"});
  CHECK(facts.out.find("-v lists them") == std::string::npos);
  CHECK(facts.out.find("node.local_disk_bytes") != std::string::npos);
  RunResult all = RunFeedcheck({"egress", "--all"});
  CHECK(all.out.find("Standard_D4s_v5") != std::string::npos);
  CHECK(all.out.find("more rows") == std::string::npos);
  // Its columns still fit: the long headers wrap onto a second line.
  std::istringstream in(all.out);
  std::string line;
  while (std::getline(in, line)) CHECK(Columns(line) <= 100);
  unsetenv("COLUMNS");
}

TEST_CASE("quotes cut at a character: every format stays valid UTF-8", "[cli][terminal][utf8]") {
  // A job whose logs put "µ" (0xC2 0xB5) right at the points quotes are cut: a setting's value
  // at byte 256, an error code at byte 128, a malformed line at 160 characters.
  const fs::path job = fs::path(WriteTempFile("utf8-job-marker", "")).parent_path() / "utf8-job";
  const fs::path logs = job / "system_logs" / "data_capability";
  fs::create_directories(logs);
  const std::string micro = "\xC2\xB5";
  std::string value(255, 'a');
  value += micro + std::string(40, 'b');
  std::string rslex =
      "2024-05-01T09:52:01.400040Z  INFO rslex::settings: RSLEX_DOWNLOADER_THREADS set in "
      "environment, using: " +
      value + " threads=16\n";
  rslex += "2024-05-01T09:52:02.000000Z  INFO rslex::x: close time.busy=1ms time.idle=9.50" +
           micro + "s";
  for (int i = 0; i < 200; ++i) rslex += micro;
  rslex += "\ngarbage line " + std::string(146, 'x');
  for (int i = 0; i < 10; ++i) rslex += micro;
  rslex += " tail\n";
  std::string code(107, 'S');
  for (int i = 0; i < 4; ++i) code += micro;
  const std::string capability =
      "INFO 2024-05-01 09:52:01,112 sdk_logger.py:44 [28] - ActivityStarted, download\n"
      "ERROR 2024-05-01 09:55:00,000 data_capability.py:318 [28] - Error Code: "
      "ScriptExecution." +
      code + ", more text\n";
  std::ofstream(logs / "rslex.log.2024-05-01-09", std::ios::binary) << rslex;
  std::ofstream(logs / "data-capability.log", std::ios::binary) << capability;
  for (const char* command : {"postmortem", "analyze"})
    for (const char* format : {"term", "json", "md", "html"}) {
      RunResult r = RunFeedcheck({"-v", "--fail-on", "never", command, job.string(), "-f", format});
      INFO(command << " -f " << format << "\n" << r.err);
      CHECK(r.exit_code == 0);
      CHECK(ValidUtf8(r.out));
      CHECK(ValidUtf8(r.err));
      // The cut values are quoted (the test reached the cut points).
      CHECK(r.out.find(std::string(200, 'a')) != std::string::npos);
      CHECK(r.out.find("ScriptExecution.SSSS") != std::string::npos);
    }
}

TEST_CASE("a folded screen keeps each shown finding's action and uses its budget",
          "[cli][terminal]") {
  // lint at 80 columns: each problem shown with what to change, not its code alone.
  setenv("COLUMNS", "80", 1);
  RunResult lint = RunFeedcheck(
      {"--fail-on", "never", "lint", Source("examples/jobs/train-images-12-nodes.yml"), "--profile",
       Source("examples/small-files-multi-epoch.yaml"), "--region", "eastus"});
  INFO(lint.out);
  Shape shape = CheckFits(lint.out, 80);
  CHECK(shape.lines >= 30);  // the budget is used, not left at 16 lines of codes
  CHECK(lint.out.find("    Change: ") != std::string::npos);
  // advise: the finding opens with the change to make (its rule's first sentence), and the
  // prices that back it come after the findings and the settings to paste.
  setenv("COLUMNS", "100", 1);
  RunResult advise = RunFeedcheck({"--fail-on", "never", "advise", "--profile",
                                   Source("examples/small-files-multi-epoch.yaml")});
  INFO(advise.out);
  CheckFits(advise.out, 100);
  const size_t finding = advise.out.find("[small-files-pack-shards]");
  REQUIRE(finding != std::string::npos);
  CHECK(advise.out.find("Pack the files into shards", finding) != std::string::npos);
  CHECK(advise.out.find("Settings to paste") < advise.out.find("Small files: storage read"));
  CHECK(advise.out.find("Findings") < advise.out.find("Small files: storage read"));
  unsetenv("COLUMNS");
}
