// feedcheck-seed: writes a synthetic training dataset into a container — many small files in
// directories plus a few large shards — for the README demo and for tests against Azurite.
// It writes; the probes never do. Credentials come from the environment or files, as for the
// probes (AZURE_STORAGE_KEY for the emulator's well-known account).
//
//   feedcheck-seed CONTAINER_URL [--small N] [--small-bytes B] [--dirs D]
//                                [--large M] [--large-bytes B] [--threads T] [--overwrite]
// A prefix that already holds blobs is refused unless --overwrite: seeding must never replace
// data that was there. The check follows the listing through empty pages, and every Put Blob is
// conditional (If-None-Match: *) unless --overwrite, so a blob created after the check is
// reported (409/412), never replaced.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "app/probe_session.h"
#include "app/report_output.h"
#include "core/exit_cleanup.h"
#include "core/redact.h"
#include "core/units.h"
#include "probes/blob_writes.h"
#include "probes/list_probe.h"
#include "probes/redact.h"
#include "probes/test_data.h"
#include "tools/seed_cli.h"
#include "transport/http_errors.h"
#include "transport/list_blobs_xml.h"

namespace {

struct SeedFlags {
  feedcheck::app::ProbeSessionRequest target;
  uint64_t small = 2000;
  std::string small_bytes = "64KiB";
  uint64_t dirs = 20;
  uint64_t large = 4;
  std::string large_bytes = "64MiB";
  int threads = 4;
  bool overwrite = false;
};

struct Blob {
  std::string name;
  uint64_t bytes = 0;
};

// Every line the seeder prints goes through the terminal sink: secrets redacted and control
// characters (ESC, OSC 52 / OSC 8, BEL, U+202E) shown as escapes, whatever the server sent.
int Fail(const std::string& message) {
  fmt::print(stderr, "feedcheck-seed: {}\n", feedcheck::app::DisplaySafe(message));
  return 3;
}

// A flag's value out of range: a usage error, exit 2 as for feedcheck.
int Usage(const std::string& message) {
  Fail(message);
  return feedcheck::ToInt(feedcheck::ExitStatus::kUsage);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace feedcheck;
  InstallExitCleanupHandlers();
  IgnoreSigpipe();
  SeedFlags flags;
  CLI::App app{"Write a synthetic dataset (many small files, a few large ones) into a container"};
  seed::AddTargetOptions(&app, &flags.target);
  app.add_option("--small", flags.small, "Small files")->capture_default_str();
  app.add_option("--small-bytes", flags.small_bytes, "Size of each small file")
      ->capture_default_str();
  app.add_option("--dirs", flags.dirs, "Directories the small files are spread over")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--large", flags.large, "Large files")->capture_default_str();
  app.add_option("--large-bytes", flags.large_bytes, "Size of each large file")
      ->capture_default_str();
  app.add_option("--threads", flags.threads, "Parallel uploads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_flag("--overwrite", flags.overwrite,
               "Write even when the prefix already holds blobs (they may be replaced)");
  if (int rc = seed::ParseCommandLine(app, argc, argv); rc >= 0) return rc;

  std::string error;
  auto small_bytes = ParseBytes(flags.small_bytes, &error);
  auto large_bytes = ParseBytes(flags.large_bytes, &error);
  if (!small_bytes || !large_bytes || *small_bytes < 1 || *large_bytes < 1 ||
      *large_bytes > double(1ull << 30))
    return Usage("--small-bytes / --large-bytes: sizes from 1 B; large files at most 1 GiB");
  if (flags.small > 1000000 || flags.large > 1000)
    return Usage("at most 1,000,000 small files and 1,000 large ones");

  HttpProbeEnv env;
  DiagnosticList diagnostics;
  ExitStatus opened = app::OpenHttpSession(flags.target, &env, &diagnostics);
  for (const Diagnostic& d : diagnostics.kept())
    fmt::print(stderr, "feedcheck-seed: {}{}\n",
               d.severity == DiagnosticSeverity::kError ? "" : "warning: ", RedactText(d.message));
  if (opened != ExitStatus::kOk) return ToInt(opened);
  if (!env.target.is_azure() || env.target.container.empty())
    return Fail("the target must be a Blob container URL");

  auto client = env.make_client();
  HttpRequest create = env.SignedRequest("PUT", env.target.ContainerUrl() + "?restype=container",
                                         {{"Content-Length", "0"}});
  HttpResponse cr = client->Perform(create);
  if (cr.status != 201 && cr.status != 409)
    return Fail(cr.status == 0 ? cr.transport_error
                               : fmt::format("Create Container: HTTP {} {}", cr.status,
                                             cr.Header("x-ms-error-code")));

  std::string base = env.target.prefix;
  if (!base.empty() && base.back() != '/') base += '/';
  if (!flags.overwrite) {
    // Empty only when the whole listing says so: an empty page with a NextMarker is not the end.
    PrefixCheck check = CheckPrefixEmpty(env, client.get(), base, 100, 60);
    if (!check.answered) return Fail(check.error);
    if (!check.empty) {
      Target where = env.target;
      where.prefix = base;
      return Fail(
          fmt::format("'{}' already holds blobs (first: {}); refusing to write over them: "
                      "seed an empty prefix, or pass --overwrite",
                      RedactUrl(where.Display()), check.first_name));
    }
  }
  std::vector<Blob> blobs;
  for (uint64_t i = 0; i < flags.small; ++i)
    blobs.push_back({fmt::format("{}images/dir-{:04}/img-{:06}.bin", base, i % flags.dirs, i),
                     static_cast<uint64_t>(*small_bytes)});
  for (uint64_t i = 0; i < flags.large; ++i)
    blobs.push_back(
        {fmt::format("{}shards/shard-{:04}.bin", base, i), static_cast<uint64_t>(*large_bytes)});

  std::atomic<size_t> next{0};
  std::atomic<uint64_t> written_bytes{0};
  std::mutex mu;
  std::string first_error;
  std::vector<std::thread> workers;
  for (int t = 0; t < flags.threads; ++t) {
    workers.emplace_back([&] {
      auto c = env.make_client();
      for (size_t i = next++; i < blobs.size(); i = next++) {
        const Blob& b = blobs[i];
        // Conditional unless --overwrite: a blob created after the check is reported, never
        // replaced, and a refused write is not tried again.
        HttpRequest put = PutBlobRequest(env, b.name, TestContent(b.bytes, i), flags.overwrite);
        put.timeout_s = 300;
        HttpResponse r = c->Perform(put);
        if (r.status != 201) {
          std::lock_guard<std::mutex> lock(mu);
          std::string exists = ExistingBlobRefusal(r, b.name);
          if (first_error.empty())
            first_error = !exists.empty() ? exists
                          : r.status == 0 ? r.transport_error
                                          : fmt::format("Put Blob {}: HTTP {} {}", b.name, r.status,
                                                        r.Header("x-ms-error-code"));
          next = blobs.size();
          return;
        }
        written_bytes += b.bytes;
      }
    });
  }
  for (auto& w : workers) w.join();
  if (!first_error.empty()) return Fail(first_error);
  fmt::print(stderr,
             "feedcheck-seed: wrote {} small files of {} in {} directories and {} of {} ({} in "
             "all) to {}\n",
             flags.small, FormatBytes(*small_bytes), flags.dirs, flags.large,
             FormatBytes(*large_bytes), FormatBytes(double(written_bytes.load())),
             app::DisplaySafe(RedactUrl(env.target.Display())));
  return 0;
}
