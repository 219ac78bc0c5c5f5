// JSON input (label safety), through the real CLI: a number out of double range, a field of the
// wrong type or nesting 16 MiB deep, in every place feedcheck reads JSON from (a saved result
// for report, compare and postmortem --with, a facts file, a job folder's job.json, az's
// answers), ends in a diagnostic naming the file and the field: never an abort (exit 134),
// never memory that grows with the depth.
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "tests/support/subprocess.h"

using namespace feedcheck::testing;
namespace fs = std::filesystem;

namespace {

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }

struct TempDir {
  fs::path path;
  TempDir() {
    char name[] = "/tmp/feedcheck-json-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string Write(const std::string& name, const std::string& content) const {
    const fs::path p = path / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
};

double ChildPeakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

CommandResult Run(const std::string& args) {
  return RunCommand("timeout -s KILL 60 " + ShellQuote(Feedcheck()) + " " + args);
}

// An input error (exit 3), not a crash, with the file and `says` in the output.
void RequireRefusal(const CommandResult& r, const std::string& file, const std::string& says) {
  const std::string output = r.out + r.err;
  INFO("exit " << r.exit_code << "\noutput: " << output.substr(0, 3000));
  CHECK(r.exit_code == 3);
  CHECK(output.find(file) != std::string::npos);
  CHECK(output.find(says) != std::string::npos);
}

const std::string kJob =
    std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/egress-throttled-download";

}  // namespace

TEST_CASE("a number out of double range in a saved result is an input error naming the field",
          "[safety][limits][json]") {
  TempDir dir;
  // {document, the field the message names}
  auto c = GENERATE(table<std::string, std::string>({
      {R"({"result": 1e999})", "field 'result'"},
      {R"({"kind": "feedcheck-report", "schema_version": 1, "result": {"lost_gpu_s": -1e999}})",
       "field 'result.lost_gpu_s'"},
      {R"({"schema_version": 1, "facts": [{"key": "node.count", "value": 1e400}]})",
       "field 'facts[0].value'"},
  }));
  const std::string bad = dir.Write("result.json", std::get<0>(c));
  SECTION("report") { RequireRefusal(Run("report " + ShellQuote(bad)), bad, std::get<1>(c)); }
  SECTION("compare") {
    RequireRefusal(Run("compare " + ShellQuote(bad) + " " + ShellQuote(bad)), bad, std::get<1>(c));
  }
  SECTION("postmortem --with") {
    const CommandResult r = Run("postmortem " + ShellQuote(kJob) + " --with " + ShellQuote(bad));
    const std::string output = r.out + r.err;
    INFO("exit " << r.exit_code << "\noutput: " << output.substr(0, 3000));
    CHECK(r.exit_code < 128);
    CHECK(output.find(bad) != std::string::npos);
    CHECK(output.find(std::get<1>(c)) != std::string::npos);
  }
  SECTION("advise FACTS") { RequireRefusal(Run("advise " + ShellQuote(bad)), bad, std::get<1>(c)); }
}

TEST_CASE("a field of the wrong type in a saved result is a diagnostic, the rest is read",
          "[safety][limits][json]") {
  TempDir dir;
  const std::string bad =
      dir.Write("result.json",
                R"({"kind": "feedcheck-report", "schema_version": 1, "title": ["x"], "verdict": "v",
          "findings": [{"rule_id": 7, "severity": "info", "title": "t", "rule_line": 1e300}],
          "evidence": {"schema_version": 1, "facts": [{"key": "node.count", "value": 2,
                       "provenance": {"line": "three", "rank": 1e300}}]}})");
  const CommandResult r = Run("report " + ShellQuote(bad) + " --format json");
  const std::string output = r.out + r.err;
  INFO("exit " << r.exit_code << "\noutput: " << output.substr(0, 3000));
  CHECK(r.exit_code < 128);
  for (const char* field :
       {"field 'title'", "field 'findings[0].rule_id'", "field 'findings[0].rule_line'",
        "field 'facts[0].provenance.line'", "field 'facts[0].provenance.rank'"})
    CHECK(output.find(field) != std::string::npos);
  CHECK(output.find("\"verdict\": \"v\"") != std::string::npos);
}

TEST_CASE("a job folder's job.json with a number out of range is a warning, the logs are read",
          "[safety][limits][json]") {
  TempDir dir;
  const fs::path job = dir.path / "job";
  fs::copy(kJob, job, fs::copy_options::recursive);
  fs::remove(job / "job.yml");
  const std::string definition = dir.Write(
      "job/job.json", R"({"name": "j", "environment_variables": {"RSLEX_RETRIES": 1e999}})");
  const CommandResult r = Run("--fail-on never postmortem " + ShellQuote(job.string()));
  const std::string output = r.out + r.err;
  INFO("exit " << r.exit_code << "\noutput: " << output.substr(0, 3000));
  CHECK(r.exit_code == 0);
  CHECK(output.find(definition) != std::string::npos);
  CHECK(output.find("field 'environment_variables.RSLEX_RETRIES'") != std::string::npos);
}

TEST_CASE("JSON nested 16 MiB deep is refused in bounded memory", "[safety][limits][json]") {
  TempDir dir;
  const std::string deep = dir.Write("deep.json", std::string(16u << 20, '['));
  const CommandResult r = Run("report " + ShellQuote(deep));
  RequireRefusal(r, deep, "nested deeper than 128 levels");
  CHECK(r.wall_s < 10);
  CHECK(ChildPeakRssMiB() < 256);
}

TEST_CASE("fetch --jobs-since reads an az job list whose name is a number without aborting",
          "[safety][limits][json]") {
  TempDir dir;
  // A stand-in az: `ml job list` answers jobs whose fields have the wrong types (a name that
  // is a number, a creation_context that is a string) beside a deep array.
  const std::string az = dir.Write("bin/az", R"(#!/bin/sh
case "$*" in
  *"ml job list"*) printf '%s\n' '[{"name": 5, "status": "Completed", "creation_context": {"created_at": "2026-01-01T00:00:00Z"}}, {"name": "x", "creation_context": "late"}, [[[[1e999]]]]]' ;;
  *) echo "ERROR: stand-in: $*" >&2; exit 1 ;;
esac
)");
  fs::permissions(az, fs::perms::owner_all);
  const CommandResult r =
      RunCommand("PATH=" + ShellQuote((dir.path / "bin").string()) + ":$PATH timeout -s KILL 60 " +
                 ShellQuote(Feedcheck()) + " fetch --jobs-since 3650d -w ws -g rg -o " +
                 ShellQuote((dir.path / "out").string()));
  const std::string output = r.out + r.err;
  INFO("exit " << r.exit_code << "\noutput: " << output.substr(0, 3000));
  CHECK(r.exit_code == 3);
  CHECK(output.find("az ml job list") != std::string::npos);
  CHECK(output.find("field '[2][0][0][0][0]'") != std::string::npos);
}

TEST_CASE("fetch --jobs-since skips a job whose name is a number, naming the field",
          "[safety][limits][json]") {
  TempDir dir;
  const std::string az = dir.Write("bin/az", R"(#!/bin/sh
case "$*" in
  *"ml job list"*) printf '%s\n' '[{"name": 5, "status": "Completed", "creation_context": {"created_at": "2026-01-01T00:00:00Z"}}]' ;;
  *) echo "ERROR: stand-in: $*" >&2; exit 1 ;;
esac
)");
  fs::permissions(az, fs::perms::owner_all);
  const CommandResult r =
      RunCommand("PATH=" + ShellQuote((dir.path / "bin").string()) + ":$PATH timeout -s KILL 60 " +
                 ShellQuote(Feedcheck()) + " fetch --jobs-since 3650d -w ws -g rg -o " +
                 ShellQuote((dir.path / "out").string()));
  const std::string output = r.out + r.err;
  INFO("exit " << r.exit_code << "\noutput: " << output.substr(0, 3000));
  CHECK(r.exit_code < 128);
  CHECK(output.find("field '[0].name': expected a string, found a number") != std::string::npos);
}

TEST_CASE("metric values that sum past a double saturate with a warning, never print inf or nan",
          "[safety][limits][finite]") {
  TempDir dir;
  // Four Egress totals of 1.7e308 bytes, two in one minute: their sum is past the largest double.
  std::string data;
  for (int i = 0; i < 4; ++i)
    data += std::string(i ? ", " : "") + "{\"timeStamp\": \"2024-01-01T00:0" +
            std::to_string(i % 3) + ":00Z\", \"total\": 1.7e308}";
  const std::string metrics = dir.Write(
      "metrics.json",
      R"({"interval": "PT1M", "namespace": "microsoft.storage/storageaccounts/blobservices",
          "value": [{"name": {"value": "Egress"}, "timeseries": [{"data": [)" +
          data + "]}]}]}");
  for (const char* format : {"term", "json", "md"}) {
    const CommandResult r = Run("analyze " + ShellQuote(metrics) + " -v --format " + format);
    const std::string output = r.out + r.err;
    INFO(format << ": exit " << r.exit_code << "\noutput: " << output.substr(0, 4000));
    CHECK(r.exit_code < 128);
    CHECK(output.find("A210") != std::string::npos);  // the sums saturated, and it says so
    static const std::regex kNotFinite(R"(\b(inf|nan|infinity)\b)", std::regex::icase);
    CHECK_FALSE(std::regex_search(output, kNotFinite));
    CHECK(output.find("\"value\": null") == std::string::npos);
  }
}
