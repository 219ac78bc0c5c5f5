// Secrets in reports (label safety): what `analyze`, `lint` and `report` read from files can
// hold a credential (a planted link to /proc/self/environ, a log line with AccountKey=, a job
// file with AZURE_STORAGE_KEY, a saved result from an older version); no format shows it.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

const std::string kKey =
    "UmVwb3J0U2VjcmV0S2V5LXRoaXJkLXBhc3MtZmVlZGNoZWNrLTAxMjM0NTY3ODlBQkNERUZHSElKS0xNTk9Q";
const std::string kSig = "UmVwb3J0U2FzU2lnbmF0dXJlVGhpcmQ%3D";
const std::string kFormats[] = {"term", "json", "md", "html", "sarif"};

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }

std::string TempDir() {
  char dir[] = "/tmp/feedcheck-reportsecrets-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  return dir;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void RequireNoSecret(const std::string& what, const std::string& text) {
  for (const std::string& secret : {kKey, kKey.substr(0, 24), kSig, kSig.substr(0, 16)}) {
    INFO(what << " holds '" << secret << "':\n" << text.substr(0, 4000));
    CHECK(text.find(secret) == std::string::npos);
  }
}

// Runs `args` once per format, to stdout and to a file; everything printed and written.
std::string AllFormats(const std::string& dir, const std::string& args,
                       const std::string& env = "") {
  std::string all;
  for (const std::string& format : kFormats) {
    std::string out = dir + "/out." + format;
    CommandResult r = RunCommand(env + " timeout -s KILL 60 " + ShellQuote(Feedcheck()) + " " +
                                 args + " -f " + format + " -o " + ShellQuote(out));
    INFO(args << " -f " << format << ": exit " << r.exit_code << "\n" << r.err);
    CHECK(r.exit_code < 128);
    all += r.out + r.err + ReadFile(out);
    CommandResult s = RunCommand(env + " timeout -s KILL 60 " + ShellQuote(Feedcheck()) + " " +
                                 args + " -f " + format);
    all += s.out + s.err;
  }
  return all;
}

}  // namespace

TEST_CASE("analyze never follows a link out of the job folder", "[safety][report-secrets]") {
  std::string dir = TempDir();
  RunCommand("mkdir -p " + ShellQuote(dir + "/job/system_logs/data_capability"));
  REQUIRE(symlink("/proc/self/environ", (dir + "/job/system_logs/rslex.log").c_str()) == 0);
  std::ofstream(dir + "/secret.txt") << "AZURE_STORAGE_KEY " << kKey << "\n";
  REQUIRE(symlink((dir + "/secret.txt").c_str(),
                  (dir + "/job/system_logs/data_capability/data-capability.log").c_str()) == 0);
  // A link that stays inside the folder is read.
  std::ofstream(dir + "/job/system_logs/real.log")
      << "2026-11-20T10:00:00.000000Z  INFO rslex::x: started\n";
  REQUIRE(symlink("real.log", (dir + "/job/system_logs/inside.log").c_str()) == 0);
  std::string all = AllFormats(dir, "analyze " + ShellQuote(dir + "/job"),
                               "AZURE_STORAGE_KEY=" + ShellQuote(kKey));
  // Named on the command line, the link is refused the same way.
  all += AllFormats(dir,
                    "analyze " + ShellQuote(dir + "/job/system_logs/rslex.log") + " " +
                        ShellQuote(dir + "/job/system_logs/real.log"),
                    "AZURE_STORAGE_KEY=" + ShellQuote(kKey));
  RequireNoSecret("analyze output", all);
  CHECK(all.find("/proc/self/environ") != std::string::npos);  // the refused link is named
  CHECK(all.find("a link out of the folder") != std::string::npos);
  CHECK(all.find("inside.log: a link") == std::string::npos);
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("a log line with a key or a SAS is quoted redacted in every format",
          "[safety][report-secrets]") {
  std::string dir = TempDir();
  RunCommand("mkdir -p " + ShellQuote(dir + "/job/system_logs"));
  {
    std::ofstream log(dir + "/job/system_logs/rslex.log");
    log << "2026-11-20T10:00:00.000000Z  INFO rslex::x: started\n"
        << "garbage AZURE_STORAGE_KEY=" << kKey << " and more\n"
        << "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=" << kKey << ";x\n"
        << "GET https://a.blob.core.windows.net/c/b?sv=2023&SIG=" << kSig << " failed\n"
        << "2026-11-20T10:00:01.000000Z ERROR rslex::x: AccountKey=" << kKey << " sig=" << kSig
        << "\n";
  }
  std::string all = AllFormats(dir, "analyze " + ShellQuote(dir + "/job"));
  RequireNoSecret("analyze output", all);
  CHECK(all.find("REDACTED") != std::string::npos);
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("lint shows no secret from a job's environment_variables and warns with its line",
          "[safety][report-secrets]") {
  std::string dir = TempDir();
  std::ofstream(dir + "/job.yml")
      << "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\n"
      << "command: python train.py\n"
      << "inputs:\n"
      << "  data:\n"
      << "    type: uri_folder\n"
      << "    path: azureml://datastores/d/paths/p\n"
      << "    mode: ro_mount\n"
      << "environment_variables:\n"
      << "  AZURE_STORAGE_KEY: \"" << kKey << "\"\n"
      << "  AZURE_STORAGE_SAS_TOKEN: \"sv=2023-11-03&sp=rl&sig=" << kSig << "\"\n"
      << "  MY_SETTING: \"https://a.blob.core.windows.net/c?sv=1&sig=" << kSig << "\"\n"
      << "  DATASET_MOUNT_ATTRIBUTE_CACHE_TTL: \"60000\"\n";
  std::string all = AllFormats(dir, "lint " + ShellQuote(dir + "/job.yml"));
  CommandResult sarif =
      RunCommand(ShellQuote(Feedcheck()) + " lint " + ShellQuote(dir + "/job.yml") + " -f sarif");
  all += sarif.out + sarif.err;
  RequireNoSecret("lint output", all);
  CommandResult json =
      RunCommand(ShellQuote(Feedcheck()) + " lint " + ShellQuote(dir + "/job.yml") + " --json");
  auto j = ParseJson(json.out);
  REQUIRE(j);
  std::vector<std::pair<std::string, int>> secrets;  // (name named in the message, line)
  for (const auto& row : (*j)["tables"][0]["rows"])
    if (row["code"] == "L012")
      secrets.emplace_back(row["message"].get<std::string>().substr(0, 23), row["line"].get<int>());
  INFO(json.out.substr(0, 3000));
  REQUIRE(secrets.size() == 3);
  CHECK(secrets[0] == std::make_pair(std::string("AZURE_STORAGE_KEY holds"), 9));
  CHECK(secrets[1] == std::make_pair(std::string("AZURE_STORAGE_SAS_TOKEN"), 10));
  CHECK(secrets[2].second == 11);  // MY_SETTING: its value holds a SAS signature
  CHECK(all.find("AZURE_STORAGE_KEY") != std::string::npos);  // named, not shown
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("feedcheck report re-renders a saved result redacted, in every format",
          "[safety][report-secrets]") {
  std::string dir = TempDir();
  // A saved result as an older version (or a hand edit) could have written it.
  std::ofstream(dir + "/saved.json")
      << R"({"kind":"feedcheck-report","schema_version":1,)"
      << R"("title":"Pre-flight check","verdict":"at risk",)"
      << R"("verdict_detail":"GET https://a.blob.core.windows.net/c?sv=1&sig=)" << kSig
      << R"( failed",)"
      << R"("evidence":{"facts":[{"key":"runtime.setting.AZURE_STORAGE_KEY","value":")" << kKey
      << R"(","unit":"","origin":"declared","source":"job j"},)"
      << R"({"key":"target.url","value":"AccountKey=)" << kKey
      << R"(;x","unit":"","origin":"declared","source":"x"}],)"
      << R"("series":[],"timeline":[],"diagnostics":[{"code":"A201","severity":"warning","message":"line AccountKey=)"
      << kKey << R"(","file":"rslex.log","line":3}],"diagnostics_total":1}})";
  std::string all = AllFormats(dir, "report " + ShellQuote(dir + "/saved.json"));
  RequireNoSecret("report output", all);
  CHECK(all.find("at risk") != std::string::npos);  // the report was read and rendered
  RunCommand("rm -rf " + ShellQuote(dir));
}
