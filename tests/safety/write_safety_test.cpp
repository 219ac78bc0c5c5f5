// The third safety pass, data written or deleted that feedcheck did not create (label safety):
// feedcheck-seed's emptiness check follows NextMarker through empty pages, every write of test
// data is conditional (a blob created after the check is reported, never replaced or deleted),
// and `feedcheck cleanup` takes only names the generator can make, under the prefix asked for,
// skips a live run's prefixes and deletes nothing from a listing it did not read to its end.
// Writes go to the fault server's in-memory blob store (fault-store), in its hostile modes.
#include <catch2/catch.hpp>
#include <ctime>
#include <string>

#include "tests/fault_server/server_process.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

std::string Bin(const std::string& name) {
  return EnvOr(name == "feedcheck" ? "FEEDCHECK" : "FEEDCHECK_SEED",
               std::string(FEEDCHECK_BINARY_DIR) + "/" + name);
}

// Azurite's published development key: the store does not check it, the signer needs one.
const std::string kKeyEnv =
    "AZURE_STORAGE_KEY=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
    "K1SZFPTOtr/KBHBeksoGMGw== ";

std::string Describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + " in " + std::to_string(r.wall_s) +
         " s\nstderr: " + r.err.substr(0, 3000) + "\nstdout: " + r.out.substr(0, 3000);
}

CommandResult Run(const std::string& program, const std::string& args) {
  return RunCommand(kKeyEnv + " timeout -s KILL 60 " + ShellQuote(Bin(program)) + " " + args);
}

std::string Store(const FaultServerProcess& s, const std::string& prefix = "") {
  return s.Url("/devstoreaccount1/fault-store/" + prefix);
}

// The store's listing of `prefix`, every page (the requests are its own: read the server's
// stats first). Markers are percent-encoded as any client would.
std::string Listing(const FaultServerProcess& s, const std::string& prefix = "") {
  std::string all, marker;
  for (int page = 0; page < 100; ++page) {
    std::string xml =
        RunCommand("curl -sS --max-time 5 -G " +
                   ShellQuote(s.Url("/devstoreaccount1/fault-store")) +
                   " --data restype=container --data comp=list --data maxresults=5000" +
                   " --data-urlencode " + ShellQuote("prefix=" + prefix) +
                   (marker.empty() ? "" : " --data-urlencode " + ShellQuote("marker=" + marker)))
            .out;
    all += xml;
    size_t at = xml.find("<NextMarker>");
    if (at == std::string::npos) break;
    at += 12;
    marker = xml.substr(at, xml.find("</NextMarker>", at) - at);
  }
  return all;
}

// The stored size of blob `name`, or -1 when it is not there.
long long StoredSize(const FaultServerProcess& s, const std::string& name) {
  std::string xml = Listing(s, name);
  size_t at = xml.find("<Name>" + name + "</Name>");
  if (at == std::string::npos) return -1;
  size_t len = xml.find("<Content-Length>", at);
  return std::stoll(xml.substr(len + 16));
}

int CountBlobs(const FaultServerProcess& s, const std::string& prefix = "") {
  std::string xml = Listing(s, prefix);
  int n = 0;
  for (size_t at = 0; (at = xml.find("<Name>", at)) != std::string::npos; ++at) ++n;
  return n;
}

void Put(const FaultServerProcess& s, const std::string& name) {
  CommandResult r = RunCommand("curl -sS --max-time 5 -X PUT --data-binary xyz " +
                               ShellQuote(s.Url("/devstoreaccount1/fault-store/" + name)));
  REQUIRE(r.exit_code == 0);
}

// A test prefix segment dated now, as a live --create-test-data run makes it.
std::string LiveSegment() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  return std::string("feedcheck-test-") + stamp + "-4242-0badcafe";
}

}  // namespace

TEST_CASE("feedcheck-seed follows NextMarker through empty pages before writing",
          "[safety][test-data][seed]") {
  // Three empty pages, each with a NextMarker, before the entries: Azure documents such pages.
  FaultServerProcess server(FAULT_SERVER, {"--store-empty-pages", "3"});
  Put(server, "data/existing.bin");
  const std::string seed = " --small 2 --small-bytes 1KiB --dirs 1 --large 0";
  CommandResult r = Run("feedcheck-seed", ShellQuote(Store(server, "data/")) + seed);
  INFO(Describe(r));
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("already holds blobs (first: data/existing.bin)") != std::string::npos);
  CHECK(StoredSize(server, "data/existing.bin") == 3);  // not overwritten
  CHECK(CountBlobs(server, "data/") == 1);              // nothing written beside it

  // An empty prefix behind the same empty pages is seeded.
  CommandResult fresh = Run("feedcheck-seed", ShellQuote(Store(server, "fresh/")) + seed);
  INFO(Describe(fresh));
  CHECK(fresh.exit_code == 0);
  CHECK(CountBlobs(server, "fresh/") == 2);
}

TEST_CASE("a blob created after the emptiness check is reported, never replaced or deleted",
          "[safety][test-data][seed]") {
  SECTION("feedcheck-seed") {
    // Another writer creates the seeder's first name right after its emptiness check.
    FaultServerProcess server(FAULT_SERVER,
                              {"--store-plant-after-list", "images/dir-0000/img-000000.bin"});
    CommandResult r = Run("feedcheck-seed", ShellQuote(Store(server, "data/")) +
                                                " --small 1 --small-bytes 1KiB --dirs 1 "
                                                "--large 0 --threads 1");
    INFO(Describe(r));
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("HTTP 409 BlobAlreadyExists: a blob of that name already exists") !=
          std::string::npos);
    CHECK(StoredSize(server, "data/images/dir-0000/img-000000.bin") == 3);
    ServerStats stats = server.Stats();
    REQUIRE(stats.ok);
    CHECK(stats.by_status[409] == 2);  // the container's (it exists) and the one refused PUT
  }
  SECTION("probe smallfiles --create-test-data") {
    FaultServerProcess server(FAULT_SERVER, {"--store-plant-after-list", "d0/size-4096-0.bin"});
    CommandResult r = Run("feedcheck", "probe smallfiles " + ShellQuote(Store(server)) +
                                           " --create-test-data --sizes 4KiB,64KiB --json");
    INFO(Describe(r));
    CHECK(r.exit_code != 0);
    CHECK((r.out + r.err).find("a blob of that name already exists") != std::string::npos);
    // The other writer's blob is there as it wrote it; nothing of the run's is left.
    std::string xml = Listing(server);
    CHECK(CountBlobs(server) == 1);
    CHECK(xml.find("/d0/size-4096-0.bin</Name><Properties><Content-Length>3<") !=
          std::string::npos);
    ServerStats stats = server.Stats();
    REQUIRE(stats.ok);
    CHECK(stats.by_status[409] == 1);  // refused once, not tried again
  }
}

TEST_CASE("feedcheck cleanup takes only names the generator can make", "[safety][cleanup]") {
  FaultServerProcess server(FAULT_SERVER);
  const std::string ours = "feedcheck-test-20261122T035500Z-4242-1a2b3c4d/";
  Put(server, ours + "d0/a.bin");
  // Shaped like it, but no run of feedcheck names a prefix so.
  const std::vector<std::string> look_alikes = {
      "feedcheck-test-20261122T035500Z-4242-1A2B3C4D/a.bin",  // uppercase hex
      "feedcheck-test-20269922T035500Z-4242-1a2b3c4d/a.bin",  // month 99
      "feedcheck-test-20261122T035500Z-123456789012345678901234567-1a2b3c4d/a.bin",  // pid
      "feedcheck-test-20261122T035500Z-04242-1a2b3c4d/a.bin",  // a pid with a leading zero
      "feedcheck-test-20261122T256100Z-4242-1a2b3c4d/a.bin",   // 25:61
  };
  for (const auto& name : look_alikes) Put(server, name);
  CommandResult r = Run("feedcheck", "cleanup " + ShellQuote(Store(server)) + " --json");
  INFO(Describe(r));
  CHECK(r.exit_code == 0);
  CHECK(CountBlobs(server, ours) == 0);
  for (const auto& name : look_alikes) {
    INFO(name);
    CHECK(StoredSize(server, name) == 3);
  }
}

TEST_CASE("feedcheck cleanup skips a live run's prefix unless --force, and says so",
          "[safety][cleanup]") {
  FaultServerProcess server(FAULT_SERVER);
  const std::string live = LiveSegment() + "/d0/size-4096-0.bin";
  Put(server, live);
  CommandResult r = Run("feedcheck", "cleanup " + ShellQuote(Store(server)));
  INFO(Describe(r));
  CHECK(r.exit_code == 0);
  CHECK(StoredSize(server, live) == 3);
  CHECK((r.out + r.err).find("from the last 24 hours") != std::string::npos);
  CHECK((r.out + r.err).find("--force") != std::string::npos);
  CHECK(r.out.find("skipped (recent)") != std::string::npos);

  CommandResult forced = Run("feedcheck", "cleanup " + ShellQuote(Store(server)) + " --force");
  INFO(Describe(forced));
  CHECK(forced.exit_code == 0);
  CHECK(StoredSize(server, live) == -1);
}

TEST_CASE("feedcheck cleanup deletes only under the prefix asked for, whatever the server lists",
          "[safety][cleanup]") {
  // A server that ignores prefix= and lists the whole container.
  FaultServerProcess server(FAULT_SERVER, {"--store-ignore-prefix", "1"});
  const std::string segment = "feedcheck-test-20261122T035500Z-4242-1a2b3c4d/";
  Put(server, "prod/" + segment + "a.bin");
  Put(server, "scratch/" + segment + "b.bin");
  CommandResult r = Run("feedcheck", "cleanup " + ShellQuote(Store(server, "scratch/")));
  INFO(Describe(r));
  CHECK(r.exit_code == 0);
  CHECK(StoredSize(server, "prod/" + segment + "a.bin") == 3);
  CHECK(StoredSize(server, "scratch/" + segment + "b.bin") == -1);
  CHECK(r.err.find("outside the prefix 'scratch/'") != std::string::npos);
}

TEST_CASE("feedcheck cleanup deletes nothing from a listing it did not read to its end",
          "[safety][cleanup]") {
  // Pages of two entries: --max-pages 1 sees two of the three leftovers.
  FaultServerProcess server(FAULT_SERVER, {"--store-page-entries", "2"});
  const std::string segment = "feedcheck-test-20261122T035500Z-4242-1a2b3c4d/";
  for (const char* name : {"a.bin", "b.bin", "c.bin"}) Put(server, segment + name);
  CommandResult r =
      Run("feedcheck", "cleanup " + ShellQuote(Store(server)) + " --max-pages 1 --json");
  INFO(Describe(r));
  CHECK(r.exit_code == 4);
  CHECK(CountBlobs(server, segment) == 3);
  CHECK(r.err.find("nothing was deleted") != std::string::npos);
  CHECK(r.err.find("--max-pages 1 reached") != std::string::npos);
  auto j = ParseJson(r.out);
  REQUIRE(j);
  CHECK((*j)["result"]["blobs_deleted"] == 0);
  CHECK((*j)["tables"][0]["rows"][0]["action"] == "not removed");

  // The whole listing, three pages: all three go.
  CommandResult whole = Run("feedcheck", "cleanup " + ShellQuote(Store(server)));
  INFO(Describe(whole));
  CHECK(whole.exit_code == 0);
  CHECK(CountBlobs(server, segment) == 0);
}
