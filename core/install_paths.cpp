#include "core/install_paths.h"

#include <cstdlib>
#include <filesystem>

namespace feedcheck {
namespace fs = std::filesystem;

std::string ExecutableDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return ".";
  return exe.parent_path().string();
}

namespace {
std::string Find(const char* name) {
  std::error_code ec;
  if (const char* home = std::getenv("FEEDCHECK_HOME")) {
    fs::path p = fs::path(home) / name;
    if (fs::is_directory(p, ec)) return p.string();
  }
  fs::path exe_dir = ExecutableDir();
  for (const fs::path& p :
       {exe_dir / name, exe_dir / ".." / "share" / "feedcheck" / name, exe_dir / ".." / name}) {
    if (fs::is_directory(p, ec)) return fs::weakly_canonical(p, ec).string();
  }
  return (exe_dir / name).string();
}
}  // namespace

std::string DataDir() { return Find("data"); }
std::string BuiltinRulesDir() { return Find("rules"); }

}  // namespace feedcheck
