// The disk probe against real directories on this machine (no server needed).
#include "probes/disk_probe.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "fixture_tree.h"

using namespace feedcheck;
using feedcheck::testing::FixtureTree;

namespace {

size_t FilesIn(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++n;
  }
  return n;
}

DiskProbeOptions SmallOptions(const std::string& path) {
  DiskProbeOptions o;
  o.path = path;
  o.file_bytes = 32ull << 20;
  o.block_bytes = 1ull << 20;
  o.random_duration_s = 0.3;
  o.random_threads = 2;
  return o;
}

}  // namespace

TEST_CASE("disk probe measures a temp directory and removes its file", "[probes][disk][local]") {
  ResetStopRequest();
  FixtureTree t;
  CleanupRegistry registry;
  ProbeBudget budget;
  budget.duration_s = 6;
  auto r = RunDiskProbe(SmallOptions(t.root()), budget, &registry, nullptr);
  INFO(r.message);
  CHECK(r.status == ProbeStatus::kOk);
  const FactSet& f = r.evidence.facts;
  CHECK(f.Number("probe.disk.write_gbps").value_or(0) > 0);
  CHECK(f.Number("probe.disk.read_gbps").value_or(0) > 0);
  CHECK(f.Number("probe.disk.random_read_iops").value_or(0) > 0);
  CHECK(f.Number("probe.disk.free_bytes").value_or(0) > 0);
  CHECK_FALSE(f.Text("probe.disk.kind").value_or("").empty());
  CHECK(r.bytes_received >= (64ull << 20));  // written once and read once
  CHECK(FilesIn(t.root()) == 0);
  CHECK(registry.pending() == 0);
}

TEST_CASE("disk probe on tmpfs names it, and notes a buffered fallback", "[probes][disk][local]") {
  ResetStopRequest();
  if (!std::filesystem::is_directory("/dev/shm")) return;  // not Linux-like: nothing to check
  FixtureTree t;
  std::string dir = "/dev/shm/" + std::filesystem::path(t.root()).filename().string();
  std::filesystem::create_directories(dir);
  ProbeBudget budget;
  budget.duration_s = 6;
  auto r = RunDiskProbe(SmallOptions(dir), budget, nullptr, nullptr);
  CHECK(r.evidence.facts.Text("probe.disk.kind") == std::optional<std::string>("tmpfs"));
  // tmpfs accepts O_DIRECT since Linux 6.6; before that the probe falls back and says so.
  auto direct = r.evidence.facts.Bool("probe.disk.direct_io");
  REQUIRE(direct.has_value());
  bool noted = false;
  for (const auto& d : r.evidence.diagnostics.kept())
    noted = noted || d.message.find("O_DIRECT") != std::string::npos;
  CHECK(noted == !*direct);
  CHECK(FilesIn(dir) == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("disk probe respects the byte budget", "[probes][disk][local]") {
  ResetStopRequest();
  FixtureTree t;
  ProbeBudget budget;
  budget.max_bytes = 20ull << 20;  // 10 MiB written + 10 MiB read
  auto r = RunDiskProbe(SmallOptions(t.root()), budget, nullptr, nullptr);
  CHECK(r.bytes_received <= budget.max_bytes);
  CHECK(PlanDiskFileBytes(SmallOptions(t.root()), budget, 1ull << 40) == (10ull << 20));
  CHECK(PlanDiskFileBytes(SmallOptions(t.root()), ProbeBudget{}, 8ull << 20) == (4ull << 20));
}

TEST_CASE("a stop request ends the disk probe early and still removes its file",
          "[probes][disk][local]") {
  FixtureTree t;
  RequestStop(2);
  auto r = RunDiskProbe(SmallOptions(t.root()), ProbeBudget{}, nullptr, nullptr);
  ResetStopRequest();
  CHECK(r.status != ProbeStatus::kOk);
  CHECK(FilesIn(t.root()) == 0);
}

TEST_CASE("disk probe on a missing directory is a target error", "[probes][disk][local]") {
  auto r = RunDiskProbe(SmallOptions("/nonexistent/feedcheck"), ProbeBudget{}, nullptr, nullptr);
  CHECK(r.status == ProbeStatus::kUnreachable);
  CHECK(r.message.find("/nonexistent/feedcheck") != std::string::npos);
}
