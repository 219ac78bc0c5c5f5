// The command line for someone who has not read the manual: usage for a bare `feedcheck`, "did
// you mean" for misspelt commands and flags, `version`, and the global flags in every --help.
#include <catch2/catch.hpp>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/run_feedcheck.h"

namespace {}  // namespace

TEST_CASE("feedcheck alone prints its usage and the commands, exit 2", "[cli][usage]") {
  RunResult r = RunFeedcheck({});
  CHECK(r.exit_code == 2);
  INFO(r.err);
  CHECK(Has(r.err, "Usage"));
  CHECK(Has(r.err, "egress"));
  CHECK(Has(r.err, "postmortem"));
  CHECK_FALSE(Has(r.err, "A subcommand is required"));
}

TEST_CASE("a misspelt command gets the nearest one", "[cli][usage]") {
  RunResult r = RunFeedcheck({"egres", "--sku", "ND96asr_v4"});
  CHECK(r.exit_code == 2);
  INFO(r.err);
  CHECK(Has(r.err, "'egres' is not a command"));
  CHECK(Has(r.err, "Did you mean 'egress'?"));

  r = RunFeedcheck({"--json", "postmortm", "dir"});  // after a global flag, too
  CHECK(r.exit_code == 2);
  CHECK(Has(r.err, "Did you mean 'postmortem'?"));

  r = RunFeedcheck({"probe", "thruput", "http://127.0.0.1:9/x"});  // too far for an edit distance
  CHECK(r.exit_code == 2);
  INFO(r.err);
  CHECK(Has(r.err, "feedcheck probe: 'thruput' is not a command"));
  CHECK(Has(r.err, "Did you mean 'throughput'?"));
  CHECK(Has(r.err, "latency"));  // the list of what there is

  r = RunFeedcheck({"probe"});
  CHECK(r.exit_code == 2);
  CHECK(Has(r.err, "feedcheck probe: which one?"));

  r = RunFeedcheck({"xyzzy"});  // nothing near: the list only
  CHECK(r.exit_code == 2);
  CHECK_FALSE(Has(r.err, "Did you mean"));
  CHECK(Has(r.err, "Commands: "));
}

TEST_CASE("a misspelt flag gets the nearest flag of its command", "[cli][usage]") {
  RunResult r = RunFeedcheck({"egress", "--sku", "ND96asr_v4", "--node", "12"});
  CHECK(r.exit_code == 2);
  INFO(r.err);
  CHECK(Has(r.err, "feedcheck egress: unknown flag '--node'. Did you mean '--nodes'?"));
  r = RunFeedcheck({"plan", "--bytes", "1TB", "--jsn"});  // a global flag is near too
  CHECK(r.exit_code == 2);
  INFO(r.err);
  CHECK(Has(r.err, "Did you mean '--json'?"));
}

TEST_CASE("version and --version print the version", "[cli][usage]") {
  RunResult a = RunFeedcheck({"version"});
  RunResult b = RunFeedcheck({"--version"});
  CHECK(a.exit_code == 0);
  CHECK(b.exit_code == 0);
  CHECK(Has(a.out, FEEDCHECK_VERSION));
  CHECK(Has(b.out, FEEDCHECK_VERSION));
}

TEST_CASE("each command's --help shows the flags that work everywhere", "[cli][usage]") {
  for (const char* command : {"egress", "postmortem", "lint"}) {
    RunResult r = RunFeedcheck({command, "--help"});
    CHECK(r.exit_code == 0);
    INFO(command << ":\n" << r.out);
    CHECK(Has(r.out, "--json"));
    CHECK(Has(r.out, "--fail-on"));
    CHECK(Has(r.out, "--kb FILE"));
    CHECK(Has(r.out, "1h30m"));
  }
  RunResult r = RunFeedcheck({"probe", "throughput", "--help"});
  CHECK(Has(r.out, "--no-color"));
}

TEST_CASE("durations and sizes are taken as users type them", "[cli][usage]") {
  RunResult r = RunFeedcheck({"plan", "--bytes", "100gb", "--files", "1000", "--json"});
  CHECK(r.exit_code == 0);
  INFO(r.err);
  CHECK(r.Json()["result"]["files"] == 1000.0);
  // A probe's --duration in warp's form is accepted: the closed port is a target error (3),
  // not a usage error (2); a bad one names the forms that work.
  r = RunFeedcheck({"probe", "throughput", "http://127.0.0.1:9/x.bin", "--duration", "1m30s"});
  INFO(r.err);
  CHECK(r.exit_code == 3);
  r = RunFeedcheck({"probe", "throughput", "http://127.0.0.1:9/x.bin", "--duration", "soon"});
  CHECK(r.exit_code == 2);
  CHECK(Has(r.err, "1h30m"));
}

TEST_CASE("a probe's counts out of range are usage errors naming the flag", "[cli][usage]") {
  // Checked once, by the workflow, before any request (port 9 would refuse one: exit 3).
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::string url = "http://127.0.0.1:9/x.bin";
  for (const Case& c : std::vector<Case>{
           {{"probe", "throughput", url, "--max-concurrency", "0"},
            "feedcheck probe throughput: error[W101]: --max-concurrency must be from 1 to 1024"},
           {{"probe", "throughput", url, "--retries", "11"},
            "feedcheck probe throughput: error[W101]: --retries must be from 0 to 10"},
           {{"probe", "latency", url, "--requests", "0"},
            "feedcheck probe latency: error[W101]: --requests must be from 1 to 10000000"},
           {{"probe", "latency", url, "--concurrency", "2000"},
            "feedcheck probe latency: error[W101]: --concurrency must be from 1 to 1024"},
       }) {
    RunResult r = RunFeedcheck(c.args);
    INFO(c.args[3] << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(Has(r.err, c.message));
  }
}

TEST_CASE("an -o with an unknown extension is refused before the command runs", "[cli][usage]") {
  const std::string dir = WriteTempFile("o-ext-probe", "");  // a file: its folder is scratch
  const std::string pdf = dir + ".report.pdf";
  RunResult r = RunFeedcheck({"egress", "--sku", "Standard_ND96asr_v4", "-o", pdf});
  CHECK(r.exit_code == 2);
  INFO(r.err);
  CHECK(Has(r.err, "--output " + pdf));
  CHECK(Has(r.err, ".json, .md, .html, .sarif, .txt"));
  CHECK(r.out.empty());
  // The same before a probe ever connects.
  RunResult probe = RunFeedcheck({"probe", "latency", "http://127.0.0.1:1/c/x", "-o", pdf});
  CHECK(probe.exit_code == 2);
  CHECK(Has(probe.err, "--output"));
  CHECK(!Has(probe.err, "127.0.0.1"));  // refused at parse time: no connection was tried
  // An explicit format writes any name; so does --json, before or after the command.
  RunResult md = RunFeedcheck({"egress", "--sku", "Standard_ND96asr_v4", "-f", "md", "-o", pdf});
  CHECK(md.exit_code == 0);
  RunResult json = RunFeedcheck({"egress", "--sku", "Standard_ND96asr_v4", "-o", pdf, "--json"});
  CHECK(json.exit_code == 0);
}

TEST_CASE("each command's --help ends with examples that run as printed", "[cli][usage]") {
  const std::string top = FEEDCHECK_SOURCE_DIR;
  const std::string scratch = WriteTempFile("help-example-out", "");
  for (const char* command : {"egress",         "plan",       "probe throughput",
                              "probe latency",  "probe list", "probe smallfiles",
                              "probe disk",     "probe nic",  "cleanup",
                              "advise",         "lint",       "rules list",
                              "rules validate", "facts list", "report",
                              "preflight",      "postmortem", "compare",
                              "analyze",        "fetch"}) {
    std::vector<std::string> args;
    std::istringstream words(command);
    for (std::string w; words >> w;) args.push_back(w);
    args.push_back("--help");
    RunResult help = RunFeedcheck(args);
    INFO(command << ":\n" << help.out);
    REQUIRE(help.exit_code == 0);
    const size_t at = help.out.rfind("Examples:\n");
    REQUIRE(at != std::string::npos);
    // Two or three, and nothing after them.
    std::istringstream lines(help.out.substr(at + 10));
    std::vector<std::string> examples;
    for (std::string line; std::getline(lines, line);) {
      if (line.empty()) continue;  // CLI11 ends the help with a blank line
      REQUIRE(line.rfind("  feedcheck ", 0) == 0);
      examples.push_back(line.substr(2));
    }
    CHECK(examples.size() >= 2);
    CHECK(examples.size() <= 3);
    // Those that need no Azure account or saved file run from the top directory as printed
    // (a report file goes to scratch instead).
    for (const std::string& example : examples) {
      if (Has(example, "ACCOUNT") || Has(example, "WORKSPACE") || Has(example, ".json ") ||
          Has(example, "probe ") || Has(example, "my-rules") || Has(example, ".json\n") ||
          example.substr(example.size() - 5) == ".json")
        continue;
      std::vector<std::string> run;
      std::istringstream in(example.substr(10));
      for (std::string w; in >> w;) run.push_back(w);
      for (size_t i = 0; i + 1 < run.size(); ++i)
        if (run[i] == "-o") run[i + 1] = scratch + "." + run[i + 1];
      RunResult r = RunFeedcheckIn(top, run);
      INFO(example << "\n" << r.err);
      CHECK((r.exit_code == 0 || r.exit_code == 1));
    }
  }
}

TEST_CASE("a probe on a terminal shows its progress against the time budget", "[cli][usage]") {
  // script(1) gives the probe a terminal on stderr; the disk probe needs no server.
  const std::string dir = WriteTempFile("progress-probe-marker", "") + ".dir";
  const std::string bin = std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck";
  const std::string cmd = "mkdir -p '" + dir + "' && script -qec \"'" + bin + "' probe disk '" +
                          dir + "' --file-size 16MiB --duration 5s\" /dev/null 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  CHECK(pclose(pipe) == 0);
  INFO(out);
  CHECK(Has(out, "% of 5 s, at most "));
  CHECK(Has(out, " left]"));
  // Without a terminal (a pipe, a CI log) no progress line at all.
  RunResult piped =
      RunFeedcheck({"probe", "disk", dir, "--file-size", "16MiB", "--duration", "5s"});
  CHECK(piped.exit_code == 0);
  CHECK(!Has(piped.err, "left]"));
}
