#include "run_feedcheck.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One scratch directory per test process, removed when the process exits.
const fs::path& Scratch() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("feedcheck_cli_test_" + std::to_string(getpid()));
    fs::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(fs::temp_directory_path() / ("feedcheck_cli_test_" + std::to_string(getpid())),
                     ec);
    });
    return d;
  }();
  return dir;
}

}  // namespace

nlohmann::json RunResult::Json() const {
  return nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
}

RunResult RunFeedcheck(const std::vector<std::string>& args) { return RunFeedcheckIn("", args); }

RunResult RunFeedcheckIn(const std::string& dir, const std::vector<std::string>& args) {
  static int counter = 0;
  const std::string err_path = (Scratch() / ("stderr_" + std::to_string(counter++))).string();
  std::string command = dir.empty() ? std::string() : "cd " + Quote(dir) + " && ";
  command += Quote(std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck");
  for (const auto& a : args) command += " " + Quote(a);
  command += " 2>" + Quote(err_path);
  RunResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = ReadAll(err_path);
  return r;
}

std::string WriteTempFile(const std::string& name, const std::string& text) {
  const std::string path = (Scratch() / name).string();
  std::ofstream(path) << text;
  return path;
}
