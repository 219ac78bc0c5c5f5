// Builds throwaway directory trees (fake /proc and /sys, listing trees) under a unique temp dir
// that is removed when the fixture goes out of scope.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace feedcheck::testing {

class FixtureTree {
 public:
  FixtureTree() {
    std::random_device rd;
    root_ = std::filesystem::temp_directory_path() /
            ("feedcheck-fixture-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(root_);
  }
  ~FixtureTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  FixtureTree(const FixtureTree&) = delete;
  FixtureTree& operator=(const FixtureTree&) = delete;

  std::string root() const { return root_.string(); }
  std::string Path(const std::string& rel) const { return (root_ / rel).string(); }

  void Write(const std::string& rel, const std::string& content) const {
    auto p = root_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << content;
  }
  void Dir(const std::string& rel) const { std::filesystem::create_directories(root_ / rel); }
  /// A symlink at `rel` pointing to `target` (relative targets as in sysfs).
  void Link(const std::string& rel, const std::string& target) const {
    auto p = root_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::filesystem::create_symlink(target, p);
  }

 private:
  std::filesystem::path root_;
};

}  // namespace feedcheck::testing
