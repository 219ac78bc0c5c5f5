#include "tests/fault_server/server_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "tests/support/subprocess.h"

namespace feedcheck::testing {

FaultServerProcess::FaultServerProcess(const std::string& binary,
                                       std::vector<std::string> extra_args) {
  char dir_template[] = "/tmp/feedcheck-fault-XXXXXX";
  char* dir = mkdtemp(dir_template);
  REQUIRE(dir != nullptr);
  port_file_ = std::string(dir) + "/port";
  std::vector<std::string> args = {binary,
                                   "--port",
                                   "0",
                                   "--port-file",
                                   port_file_,
                                   "--silent-port-file",
                                   port_file_ + ".silent",
                                   "--lifetime-s",
                                   "120"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  pid_ = fork();
  REQUIRE(pid_ >= 0);
  if (pid_ == 0) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < until) {
    std::ifstream in(port_file_), silent(port_file_ + ".silent");
    if ((in >> port_) && (silent >> silent_port_)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(port_ > 0);
  REQUIRE(silent_port_ > 0);
}

FaultServerProcess::~FaultServerProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  if (!port_file_.empty()) {
    std::remove(port_file_.c_str());
    std::remove((port_file_ + ".silent").c_str());
    std::string dir = port_file_.substr(0, port_file_.rfind('/'));
    rmdir(dir.c_str());
  }
}

std::string FaultServerProcess::Url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::string FaultServerProcess::SilentUrl(const std::string& scheme,
                                          const std::string& path) const {
  return scheme + "://127.0.0.1:" + std::to_string(silent_port_) + path;
}

ServerStats FaultServerProcess::Stats() const {
  ServerStats s;
  CommandResult r = RunCommand("curl -sS --max-time 5 " + ShellQuote(Url("/__stats")));
  auto j = ParseJson(r.out);
  if (r.exit_code != 0 || !j || !j->contains("requests")) return s;
  s.requests = (*j)["requests"].get<uint64_t>();
  s.body_bytes = (*j)["body_bytes"].get<uint64_t>();
  s.upload_bytes = j->value("upload_bytes", uint64_t{0});
  s.silent_connections = j->value("silent_connections", uint64_t{0});
  if (j->contains("by_status"))
    for (const auto& [status, n] : (*j)["by_status"].items())
      s.by_status[std::stoi(status)] = n.get<uint64_t>();
  s.ok = true;
  return s;
}

}  // namespace feedcheck::testing
