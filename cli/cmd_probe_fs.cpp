// `feedcheck probe list | smallfiles | disk | nic`: listing cost and dataset shape, per-object
// overhead, the cache disk and the NIC. Parses flags, states the budget, runs the probe from
// probes/, prints a summary (or --json evidence). Anything --create-test-data writes is removed
// before the command returns, also after SIGINT/SIGTERM (SignalGuard + cleanup registry).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/cmd_probe.h"
#include "cli/probe_options.h"
#include "cli/signal_guard.h"
#include "cli/sizing_common.h"
#include "core/evidence_json.h"
#include "core/exit_status.h"
#include "core/json_text.h"
#include "core/terminal_text.h"
#include "core/units.h"
#include "probes/budget_tracker.h"
#include "probes/disk_probe.h"
#include "probes/list_probe.h"
#include "probes/nic_probe.h"
#include "probes/redact.h"
#include "probes/smallfile_probe.h"
#include "probes/test_data.h"

namespace feedcheck::cli {
namespace {

struct ListFlags {
  ProbeOptions common;
  int max_pages = 100;
  int page_size = 5000;
  std::string delimiter;
  bool create_test_data = false;
};

struct SmallFileFlags {
  ProbeOptions common;
  std::vector<std::string> sizes;
  int concurrency = 4;
  int requests_per_size = 16;
  bool create_test_data = false;
};

struct DiskFlags {
  ProbeOptions common;
  std::string path;
  std::string file_size = "1GiB";
  std::string block_size = "1MiB";
  int random_threads = 4;
  std::string random_duration = "3s";
  bool no_direct = false;
};

struct NicFlags {
  std::string target;
  std::string sku;
  std::string nic_gbps;
  std::string interface;
};

int ExitFor(const ProbeResult& r) { return ProbeExit(r.status); }

int Fail(const std::string& command, int code, const std::string& message) {
  fmt::print(stderr, "feedcheck probe {}: {}\n", command, TerminalSafe(RedactText(message)));
  if (int interrupted = SignalGuard::InterruptedExitCode()) return interrupted;
  return code;
}

std::string FactText(const FactSet& f, const std::string& key) {
  const Fact* fact = f.Find(key);
  return fact ? FormatFactValue(*fact) : "-";
}

struct TestDataReport {
  bool used = false;
  std::string location;
  size_t objects = 0;
  uint64_t bytes = 0;
  size_t left = 0;
};

void PrintJson(const ProbeResult& r, const std::string& target, const std::string& kind,
               const TestDataReport& td) {
  nlohmann::json j = EvidenceToJson(r.evidence);
  j["probe"] = {{"name", r.probe},
                {"status", ProbeStatusName(r.status)},
                {"message", RedactText(r.message)},
                {"target", RedactUrl(target)},
                {"target_kind", kind},
                {"requests", r.requests_sent},
                {"bytes", r.bytes_received},
                {"elapsed_s", r.elapsed_s}};
  if (td.used)
    j["probe"]["test_data"] = {{"location", RedactUrl(td.location)},
                               {"objects", td.objects},
                               {"bytes", td.bytes},
                               {"removed", td.left == 0}};
  fmt::print("{}\n", JsonText(j, 2));
}

void PrintCommon(const ProbeResult& r, const TestDataReport& td) {
  for (const auto& d : r.evidence.diagnostics.kept())
    if (d.severity != DiagnosticSeverity::kNote || r.probe != "smallfiles")
      fmt::print("  {}: {}\n", SeverityName(d.severity), TerminalSafe(RedactText(d.message)));
  if (td.used)
    fmt::print("  test data: {} objects ({}) under {} — {}\n", td.objects,
               FormatBytes(static_cast<double>(td.bytes)), RedactUrl(td.location),
               td.left == 0 ? "removed" : fmt::format("{} NOT removed", td.left));
  if (r.status != ProbeStatus::kOk)
    fmt::print(stderr, "probe {}: {}: {}\n", r.probe, ProbeStatusName(r.status),
               TerminalSafe(RedactText(r.message)));
}

// Parses TARGET; a local path needs none of the HTTP setup.
bool IsLocalTarget(const std::string& text, std::string* path) {
  Target t;
  std::string error;
  if (ParseTarget(text, {}, &t, &error) && t.kind == TargetKind::kLocalPath) {
    *path = t.path;
    return true;
  }
  return false;
}

TestDataSpec SpecFor(const std::vector<uint64_t>& sizes) {
  TestDataSpec spec;
  spec.sizes = sizes;
  return spec;
}

void Finish(TestData* td, TestDataReport* report) {
  report->used = true;
  report->location = td->location();
  report->objects = td->created();
  report->bytes = td->created_bytes();
  report->left = td->Remove();
}

// ---------------------------------------------------------------- list
void PrintList(const ProbeResult& r, bool local) {
  const FactSet& f = r.evidence.facts;
  fmt::print("list: {} entries", FactText(f, "probe.list.entries"));
  if (!local) fmt::print(" in {} pages", FactText(f, "probe.list.pages"));
  fmt::print(", {}{}\n", FactText(f, "probe.list.entries_per_s"),
             f.Bool("probe.list.complete").value_or(false) ? "" : " (incomplete)");
  fmt::print("  first entry after {}", FactText(f, "probe.list.first_entry_ms"));
  if (local) {
    fmt::print("; whole walk {}; stat {} per entry\n", FactText(f, "probe.list.full_ms"),
               FactText(f, "probe.list.stat_per_entry_ms"));
  } else {
    fmt::print("; page p50 {}, p99 {}\n", FactText(f, "probe.list.page_p50_ms"),
               FactText(f, "probe.list.page_p99_ms"));
  }
  if (f.Has("dataset.files"))
    fmt::print("  dataset: {} files, {}, median {}, {} dirs, {} under 4 MiB\n",
               FactText(f, "dataset.files"), FactText(f, "dataset.bytes"),
               FactText(f, "dataset.median_file_bytes"), FactText(f, "dataset.dirs"),
               FactText(f, "dataset.small_file_fraction"));
}

int RunList(const ListFlags& flags, const GlobalOptions& globals) {
  if (flags.max_pages < 1)
    return Fail("list", ToInt(ExitStatus::kUsage), "--max-pages must be >= 1");
  if (flags.page_size < 1 || flags.page_size > 5000)
    return Fail("list", ToInt(ExitStatus::kUsage), "--page-size must be from 1 to 5000");
  ListProbeOptions o;
  o.max_pages = flags.max_pages;
  o.max_results = flags.page_size;
  o.delimiter = flags.delimiter;
  CleanupRegistry registry;
  SignalGuard guard(&registry);
  TestData td;
  TestDataReport report;
  std::string path, error;
  ProbeResult r;
  if (IsLocalTarget(flags.common.target, &path)) {
    ProbeBudget budget;
    if (!ParseBudget(flags.common, &budget, &error))
      return Fail("list", ToInt(ExitStatus::kUsage), error);
    fmt::print(stderr, "probe list: {} (local path); budget {}, at most {} entries\n", path,
               DescribeBudget(budget), static_cast<uint64_t>(o.max_pages) * o.max_results);
    if (flags.create_test_data &&
        !td.CreateInDirectory(path, SpecFor({4096, 65536}), &registry, &path, &error)) {
      td.Remove();
      return Fail("list", ToInt(ExitStatus::kInputError), error);
    }
    r = RunLocalListProbe(path, o, budget, TerminalProgress());
  } else {
    HttpProbeEnv env;
    if (int rc = BuildHttpProbeEnv(flags.common, &env, &error)) return Fail("list", rc, error);
    env.progress = TerminalProgress();
    StateBudget("list", env,
                fmt::format("at most {} pages of {}{}", o.max_pages, o.max_results,
                            flags.create_test_data
                                ? "; creates test data under a new prefix within this budget "
                                  "(its cleanup may run past it only to remove what "
                                  "was written)"
                                : ""));
    HttpProbeEnv run_env = env;
    std::vector<std::pair<std::string, uint64_t>> plan;
    if (flags.create_test_data &&
        !PlanTestDataWithin(SpecFor({4096, 65536}), env.budget, &plan, &error))
      return Fail("list", ToInt(ExitStatus::kUsage), error);  // refused before any write
    if (flags.create_test_data &&
        !td.CreateInStorage(env, SpecFor({4096, 65536}), &registry, &run_env, &error)) {
      td.Remove();
      return Fail("list", ToInt(ExitStatus::kInputError), error);
    }
    r = RunListProbe(run_env, o);
    path = env.target.Display();
  }
  if (flags.create_test_data) Finish(&td, &report);
  if (globals.json) {
    PrintJson(r, flags.common.target, path == flags.common.target ? "local_path" : "storage",
              report);
  } else {
    PrintList(r, IsLocalTarget(flags.common.target, &error));
    PrintCommon(r, report);
  }
  return ExitFor(r);
}

// ---------------------------------------------------------------- smallfiles
void PrintSmallFiles(const ProbeResult& r) {
  const FactSet& f = r.evidence.facts;
  fmt::print(
      "smallfiles: overhead {} per request, aggregate bandwidth {}, break-even {} at concurrency "
      "{} ({} one request at a time; fit R² {})\n",
      FactText(f, "probe.smallfile.overhead_ms"), FactText(f, "probe.smallfile.bandwidth_gbps"),
      FactText(f, "probe.smallfile.breakeven_bytes"), FactText(f, "probe.smallfile.concurrency"),
      FactText(f, "probe.smallfile.breakeven_bytes_one_stream"),
      FactText(f, "probe.smallfile.fit_r2"));
  const Series* t = r.evidence.FindSeries("probe.smallfile.time_by_size");
  const Series* g = r.evidence.FindSeries("probe.smallfile.throughput_by_size");
  if (!t || !g) return;
  fmt::print("  {:>10}  {:>14}  {:>12}\n", "size", "ms/request", "Gbit/s");
  for (size_t i = 0; i < t->points.size() && i < g->points.size(); ++i)
    fmt::print("  {:>10}  {:>14.3f}  {:>12.3f}\n", FormatBytes(t->points[i].x), t->points[i].y,
               g->points[i].y);
}

int RunSmallFiles(const SmallFileFlags& flags, const GlobalOptions& globals) {
  SmallFileOptions o;
  if (!flags.sizes.empty()) {
    o.sizes.clear();
    for (const auto& s : flags.sizes) {
      std::string err;
      auto b = ParseBytes(s, &err);
      if (!b || *b < 1 || *b > double(1ull << 30))
        return Fail(
            "smallfiles", ToInt(ExitStatus::kUsage),
            "--sizes '" + s + "': a size from 1 B to 1 GiB" + (err.empty() ? "" : ": " + err));
      o.sizes.push_back(static_cast<uint64_t>(*b));
    }
  }
  if (flags.concurrency < 1 || flags.concurrency > 256)
    return Fail("smallfiles", ToInt(ExitStatus::kUsage), "--concurrency must be from 1 to 256");
  if (flags.requests_per_size < 1)
    return Fail("smallfiles", ToInt(ExitStatus::kUsage), "--requests-per-size must be >= 1");
  o.concurrency = flags.concurrency;
  o.requests_per_size = flags.requests_per_size;
  CleanupRegistry registry;
  SignalGuard guard(&registry);
  TestData td;
  TestDataReport report;
  std::string path, error;
  ProbeResult r;
  std::string kind = "storage";
  if (IsLocalTarget(flags.common.target, &path)) {
    kind = "local_path";
    ProbeBudget budget;
    if (!ParseBudget(flags.common, &budget, &error))
      return Fail("smallfiles", ToInt(ExitStatus::kUsage), error);
    fmt::print(stderr, "probe smallfiles: {} (local path); budget {}; concurrency {}\n", path,
               DescribeBudget(budget), o.concurrency);
    if (flags.create_test_data &&
        !td.CreateInDirectory(path, SpecFor(o.sizes), &registry, &path, &error)) {
      td.Remove();
      return Fail("smallfiles", ToInt(ExitStatus::kInputError), error);
    }
    r = RunLocalSmallFileProbe(path, o, budget, TerminalProgress());
  } else {
    HttpProbeEnv env;
    if (int rc = BuildHttpProbeEnv(flags.common, &env, &error))
      return Fail("smallfiles", rc, error);
    env.progress = TerminalProgress();
    StateBudget("smallfiles", env,
                fmt::format("{} sizes, concurrency {}{}", o.sizes.size(), o.concurrency,
                            flags.create_test_data
                                ? "; creates test data under a new prefix within this budget "
                                  "(its cleanup may run past it only to remove what "
                                  "was written)"
                                : ""));
    HttpProbeEnv run_env = env;
    std::vector<std::pair<std::string, uint64_t>> plan;
    if (flags.create_test_data && !PlanTestDataWithin(SpecFor(o.sizes), env.budget, &plan, &error))
      return Fail("smallfiles", ToInt(ExitStatus::kUsage), error);  // refused before any write
    if (flags.create_test_data &&
        !td.CreateInStorage(env, SpecFor(o.sizes), &registry, &run_env, &error)) {
      td.Remove();
      return Fail("smallfiles", ToInt(ExitStatus::kInputError), error);
    }
    r = RunSmallFileProbe(run_env, o);
  }
  if (flags.create_test_data) Finish(&td, &report);
  if (globals.json) {
    PrintJson(r, flags.common.target, kind, report);
  } else {
    PrintSmallFiles(r);
    PrintCommon(r, report);
  }
  return ExitFor(r);
}

// ---------------------------------------------------------------- disk
int RunDisk(const DiskFlags& flags, const GlobalOptions& globals) {
  DiskProbeOptions o;
  o.path = flags.path;
  std::string error;
  ProbeBudget budget;
  if (!ParseBudget(flags.common, &budget, &error))
    return Fail("disk", ToInt(ExitStatus::kUsage), error);
  auto file = ParseBytes(flags.file_size, &error);
  if (!file || *file < double(8 << 20))
    return Fail("disk", ToInt(ExitStatus::kUsage),
                "--file-size '" + flags.file_size + "': at least 8MiB");
  auto block = ParseBytes(flags.block_size, &error);
  if (!block || *block < 4096 || *block > double(64 << 20))
    return Fail("disk", ToInt(ExitStatus::kUsage),
                "--block-size '" + flags.block_size + "': from 4KiB to 64MiB");
  auto rd = ParseSeconds(flags.random_duration, &error);
  if (!rd || *rd <= 0)
    return Fail("disk", ToInt(ExitStatus::kUsage),
                "--random-duration '" + flags.random_duration + "'");
  if (flags.random_threads < 1 || flags.random_threads > 256)
    return Fail("disk", ToInt(ExitStatus::kUsage), "--random-threads must be from 1 to 256");
  o.file_bytes = static_cast<uint64_t>(*file);
  o.block_bytes = static_cast<uint64_t>(*block);
  o.random_duration_s = *rd;
  o.random_threads = flags.random_threads;
  o.direct = !flags.no_direct;
  fmt::print(stderr,
             "probe disk: {}; budget {}; writes one test file of up to {} (removed afterwards)\n",
             o.path, DescribeBudget(budget), FormatBytes(static_cast<double>(o.file_bytes)));
  CleanupRegistry registry;
  SignalGuard guard(&registry);
  ProbeResult r = RunDiskProbe(o, budget, &registry, TerminalProgress());
  registry.RunAll();
  if (globals.json) {
    PrintJson(r, o.path, "local_path", {});
    return ExitFor(r);
  }
  const FactSet& f = r.evidence.facts;
  fmt::print("disk: {} ({}, {} on {}), {} free\n", FactText(f, "probe.disk.device"),
             FactText(f, "probe.disk.kind"), FactText(f, "probe.disk.fstype"),
             FactText(f, "probe.disk.mount_point"), FactText(f, "probe.disk.free_bytes"));
  fmt::print(
      "  sequential write {} (fsync included), read {}; 4 KiB random reads {} "
      "({} threads){}\n",
      FactText(f, "probe.disk.write_gbps"), FactText(f, "probe.disk.read_gbps"),
      FactText(f, "probe.disk.random_read_iops"), o.random_threads,
      f.Bool("probe.disk.direct_io").value_or(false) ? "" : " [page cache not bypassed]");
  PrintCommon(r, {});
  return ExitFor(r);
}

// ---------------------------------------------------------------- nic
int RunNic(const NicFlags& flags, const GlobalOptions& globals) {
  NicProbeOptions o;
  o.interface = flags.interface;
  if (!flags.target.empty()) {
    Target t;
    std::string error;
    if (!ParseTarget(flags.target, {}, &t, &error))
      return Fail("nic", ToInt(ExitStatus::kUsage),
                  "target '" + RedactUrl(flags.target) + "': " + error);
    if (t.kind != TargetKind::kLocalPath) {
      o.host = t.HostName();
    }
  }
  if (!flags.sku.empty() || !flags.nic_gbps.empty()) {
    KnowledgeBase kb;
    if (int code = LoadKnowledgeBase(globals, &kb)) return code;
    NodeChoice node;
    FlagError err;
    if (!ResolveNode(kb, flags.sku, flags.nic_gbps, &node, &err))
      return Fail("nic", ToInt(ExitStatus::kUsage), err.message);
    o.expected_gbps = node.nic_gbps;
    o.expected_source = NicSource(node);
  }
  ProbeResult r = RunNicProbe(o);
  if (globals.json) {
    PrintJson(r, flags.target.empty() ? "(default route)" : flags.target, "nic", {});
    return ExitFor(r);
  }
  const FactSet& f = r.evidence.facts;
  fmt::print("nic: {} (driver {}, MTU {}), link {}, accelerated networking {}\n",
             FactText(f, "probe.nic.interface"), FactText(f, "probe.nic.driver"),
             FactText(f, "probe.nic.mtu"), FactText(f, "probe.nic.link_gbps"),
             f.Bool("probe.nic.accelerated").value_or(false)
                 ? "on (" + FactText(f, "probe.nic.vf_interface") + ", " +
                       FactText(f, "probe.nic.vf_driver") + ")"
                 : "off");
  if (f.Has("probe.nic.expected_gbps"))
    fmt::print("  the VM size should get {} ({})\n", FactText(f, "probe.nic.expected_gbps"),
               o.expected_source);
  PrintCommon(r, {});
  return ExitFor(r);
}

}  // namespace

void SetupProbeFs(CLI::App& probe, CommandTable& table) {
  GlobalOptions* globals = &table.globals();

  auto list_flags = std::make_shared<ListFlags>();
  CLI::App* list = probe.add_subcommand(
      "list", "List Blobs / List Paths cost and the dataset's shape (or readdir+stat on a path)");
  AddProbeTargetOptions(list, &list_flags->common);
  AddProbeBudgetOptions(list, &list_flags->common);
  list->add_option("--max-pages", list_flags->max_pages, "Pages (requests) at most")
      ->capture_default_str();
  list->add_option("--page-size", list_flags->page_size, "maxresults per page (1-5000)")
      ->capture_default_str();
  list->add_option("--delimiter", list_flags->delimiter,
                   "List one level with this delimiter (usually /) instead of everything");
  list->add_flag("--create-test-data", list_flags->create_test_data,
                 "Seed a new unique prefix first and remove it at the end (needs write access)");
  table.Add(list, [list_flags, globals] { return RunList(*list_flags, *globals); });

  auto sf_flags = std::make_shared<SmallFileFlags>();
  CLI::App* sf = probe.add_subcommand(
      "smallfiles", "Per-request overhead and bandwidth from reads of 4 KiB ... 64 MiB objects");
  AddProbeTargetOptions(sf, &sf_flags->common);
  AddProbeBudgetOptions(sf, &sf_flags->common);
  sf->add_option("--sizes", sf_flags->sizes, "Object sizes, e.g. 4KiB,64KiB,1MiB")->delimiter(',');
  sf->add_option("--concurrency", sf_flags->concurrency, "Parallel reads")->capture_default_str();
  sf->add_option("--requests-per-size", sf_flags->requests_per_size,
                 "Reads per size (fewer for big sizes when --max-bytes is tight)")
      ->capture_default_str();
  sf->add_flag("--create-test-data", sf_flags->create_test_data,
               "Seed objects of these sizes under a new unique prefix and remove them at the end");
  table.Add(sf, [sf_flags, globals] { return RunSmallFiles(*sf_flags, *globals); });

  auto disk_flags = std::make_shared<DiskFlags>();
  disk_flags->common.duration = "30s";
  CLI::App* disk = probe.add_subcommand(
      "disk", "Sequential write/read and 4 KiB random-read IOPS of a cache directory");
  disk->add_option("path", disk_flags->path, "Directory to test (the intended cache path)")
      ->required();
  AddProbeBudgetOptions(disk, &disk_flags->common);
  disk->add_option("--file-size", disk_flags->file_size, "Size of the test file")
      ->capture_default_str();
  disk->add_option("--block-size", disk_flags->block_size, "Sequential I/O size")
      ->capture_default_str();
  disk->add_option("--random-threads", disk_flags->random_threads, "Random-read queue depth")
      ->capture_default_str();
  disk->add_option("--random-duration", disk_flags->random_duration, "Random-read phase length")
      ->capture_default_str();
  disk->add_flag("--no-direct", disk_flags->no_direct, "Do not try O_DIRECT");
  table.Add(disk, [disk_flags, globals] { return RunDisk(*disk_flags, *globals); });

  auto nic_flags = std::make_shared<NicFlags>();
  CLI::App* nic = probe.add_subcommand(
      "nic", "The interface that routes to TARGET: speed, driver, MTU, accelerated networking");
  nic->add_option("target", nic_flags->target, "Storage URL (default: the default route)");
  nic->add_option("--sku", nic_flags->sku, "VM size, for its expected bandwidth");
  nic->add_option("--nic-gbps", nic_flags->nic_gbps, "Expected bandwidth, overrides --sku's");
  nic->add_option("--interface", nic_flags->interface, "Describe this interface instead");
  table.Add(nic, [nic_flags, globals] { return RunNic(*nic_flags, *globals); });
}

}  // namespace feedcheck::cli
