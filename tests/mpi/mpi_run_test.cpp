// feedcheck-mpi under a real mpirun: three ranks against nginx on loopback (merged result
// consistent with what each rank measured), small files from Azurite and from a directory,
// and the ramp in network namespaces with tbf-shaped links (run by scripts/mpi-netns.sh, which
// sets FEEDCHECK_TEST_RAMP_URL / _NETNS). The output is the report shape every feedcheck
// command has: "result" for the headline numbers, "tables" for the per-rank rows, "evidence"
// for facts and series; a saved one renders again with `feedcheck report`.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "azurite_seed.h"
#include "core/linear_fit.h"
#include "transport/curl_http_client.h"

using nlohmann::json;

namespace {

struct Run {
  int exit_code = -1;
  std::string out;
  std::string err;
  json Json() const { return json::parse(out, nullptr, false); }
};

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// mpirun -np N feedcheck-mpi ARGS; idle MPI waits yield so ranks do not steal each other's CPU.
Run MpiRun(int ranks, const std::vector<std::string>& args) {
  std::string err_path = "/tmp/feedcheck_mpi_test_" + std::to_string(getpid()) + ".err";
  std::string cmd = Quote(FEEDCHECK_MPIEXEC) +
                    " --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1 -np " +
                    std::to_string(ranks) + " " + Quote(FEEDCHECK_MPI_BIN);
  for (const std::string& a : args) cmd += " " + Quote(a);
  cmd += " 2>" + Quote(err_path);
  Run r;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_path);
  std::stringstream ss;
  ss << in.rdbuf();
  r.err = ss.str();
  std::remove(err_path.c_str());
  return r;
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string Host() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  return name;
}

const json* FindFact(const json& doc, const std::string& key) {
  for (const json& f : doc.at("evidence").at("facts"))
    if (f.at("key") == key) return &f;
  return nullptr;
}

bool HasSeries(const json& doc, const std::string& key) {
  for (const json& s : doc.at("evidence").at("series"))
    if (s.at("key") == key) return true;
  return false;
}

// The rows (objects keyed by column) of the table whose title starts with `title`.
const json& Rows(const json& doc, const std::string& title) {
  for (const json& t : doc.at("tables"))
    if (t.at("title").get<std::string>().rfind(title, 0) == 0) return t.at("rows");
  FAIL("no table " << title);
  static const json none;
  return none;
}

double Result(const json& doc, const std::string& key) {
  INFO("result key " << key);
  REQUIRE(doc.at("result").contains(key));
  return doc.at("result").at(key).get<double>();
}

// Terminal lines of the nodes table: "RANK  HOST ..." once for each rank.
size_t RowLines(const std::string& text, int rank, const std::string& host) {
  std::istringstream lines(text);
  std::string line;
  size_t n = 0;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first, second, third;
    words >> first >> second >> third;
    // A table row ("0  vm  ..."), or the record a table too wide for the terminal prints
    // instead ("0 host vm overhead ms ...").
    n += first == std::to_string(rank) && (second == host || (second == "host" && third == host));
  }
  return n;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("three ranks against nginx: aggregate over the common window, rows per rank", "[nginx]") {
  std::string base = Env("FEEDCHECK_TEST_NGINX");
  REQUIRE_FALSE(base.empty());
  Run r = MpiRun(3, {"--json", "probe", "throughput", base + "/256m.bin", "--duration", "3s",
                     "--concurrency", "2", "--warmup", "0.5s"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  json j = r.Json();
  REQUIRE(j.is_object());  // rank 0 printed one JSON document, the others nothing
  CHECK(j.at("schema_version") == 1);
  CHECK(Result(j, "ranks") == 3);
  const json& nodes = Rows(j, "Nodes");
  REQUIRE(nodes.size() == 3);
  double sum_rates = 0, sum_bytes = 0;
  for (int k = 0; k < 3; ++k) {
    CHECK(nodes[k].at("rank") == k);
    CHECK(nodes[k].at("host") == Host());
    CHECK(nodes[k].at("gbps").get<double>() > 0);
    sum_rates += nodes[k].at("gbps").get<double>();
    sum_bytes += nodes[k].at("common_window_bytes").get<double>();
    const json* f = FindFact(j, "probe.cluster.node_gbps." + std::to_string(k));
    REQUIRE(f);
    CHECK(f->at("provenance").at("rank") == k);
    CHECK(f->at("provenance").at("host") == Host());
  }
  double window_s = Result(j, "window_s");
  double aggregate = Result(j, "aggregate_gbps");
  // The ranks started together: the common window is most of each 2.4 s window.
  CHECK(window_s > 1.8);
  CHECK(window_s < 3.0);
  CHECK(sum_bytes == Approx(Result(j, "common_window_bytes")));
  CHECK(aggregate == Approx(sum_bytes * 8 / window_s / 1e9).epsilon(1e-9));
  // Over nearly the same windows, the sum of the ranks' own rates is close to the aggregate.
  CHECK(aggregate == Approx(sum_rates).epsilon(0.15));
  const json* agg = FindFact(j, "probe.cluster.aggregate_gbps");
  REQUIRE(agg);
  CHECK(agg->at("value").get<double>() == Approx(aggregate));
  CHECK(FindFact(j, "probe.cluster.nodes")->at("value") == 3);
  const json* slow = FindFact(j, "probe.cluster.slowest_node_gbps");
  const json* fast = FindFact(j, "probe.cluster.fastest_node_gbps");
  REQUIRE(slow);
  REQUIRE(fast);
  CHECK(slow->at("value").get<double>() <= fast->at("value").get<double>());
  CHECK(slow->at("provenance").contains("rank"));
  CHECK(Result(j, "node_gbps_min") == Approx(slow->at("value").get<double>()));
  CHECK(Result(j, "node_gbps_max") == Approx(fast->at("value").get<double>()));
  CHECK(slow->at("provenance").at("rank") == Result(j, "slowest_rank"));
}

TEST_CASE("rank 0 writes the format asked for and feedcheck report renders it again", "[nginx]") {
  namespace fs = std::filesystem;
  std::string base = Env("FEEDCHECK_TEST_NGINX");
  REQUIRE_FALSE(base.empty());
  fs::path dir = fs::temp_directory_path() / ("fcm-out-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string saved = (dir / "cluster.json").string();
  Run r = MpiRun(2, {"probe", "throughput", base + "/256m.bin", "--duration", "2s", "--concurrency",
                     "2", "-o", saved});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());  // the report went to the file, chosen as JSON by its extension
  CHECK(Count(r.err, "wrote " + saved) == 1);
  std::ifstream in(saved);
  json j = json::parse(in, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(Rows(j, "Nodes").size() == 2);

  // `feedcheck report` reads it back: the same rows in Markdown, the same headline number.
  std::string md_path = (dir / "cluster.md").string();
  std::string cmd = Quote(FEEDCHECK_BIN) + " report " + Quote(saved) + " -f md -o " +
                    Quote(md_path) + " 2>/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream md_in(md_path);
  std::stringstream md;
  md << md_in.rdbuf();
  CHECK(md.str().find("Cluster probe: throughput") != std::string::npos);
  CHECK(md.str().find("| " + Host() + " |") != std::string::npos);
  CHECK(RowLines(md.str(), 0, Host()) == 0);  // Markdown rows, not terminal ones

  Run m = MpiRun(2, {"probe", "throughput", base + "/256m.bin", "--duration", "1s", "-f", "md"});
  REQUIRE(m.exit_code == 0);
  CHECK(Count(m.out, "Cluster probe: throughput") == 1);  // rank 0 alone printed
  fs::remove_all(dir);

  Run bad = MpiRun(2, {"--json", "probe", "throughput", base + "/256m.bin", "-f", "md"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.empty());
  CHECK(Count(bad.err, "--json") == 1);
}

TEST_CASE("three ranks latency: histograms merged, one table, rank 0 alone prints", "[nginx]") {
  std::string base = Env("FEEDCHECK_TEST_NGINX");
  REQUIRE_FALSE(base.empty());
  Run r = MpiRun(3, {"probe", "latency", base + "/64m.bin", "--requests", "60", "--head-requests",
                     "5", "--new-connections", "3", "--duration", "20s"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(Count(r.out, "3 nodes, 180 samples of time to first byte merged") == 1);
  for (int k = 0; k < 3; ++k) CHECK(RowLines(r.out, k, Host()) == 1);
  CHECK(Count(r.out, "First byte p50 per node:") == 1);

  Run j = MpiRun(3, {"--json", "probe", "latency", base + "/64m.bin", "--requests", "60",
                     "--head-requests", "5", "--new-connections", "3", "--duration", "20s"});
  REQUIRE(j.exit_code == 0);
  json doc = j.Json();
  REQUIRE(doc.is_object());
  CHECK(Result(doc, "samples") == 180);
  CHECK(HasSeries(doc, "probe.cluster.ttfb_histogram"));
  CHECK(Rows(doc, "Nodes").size() == 3);
  const json* p99 = FindFact(doc, "probe.cluster.ttfb_p99_ms");
  REQUIRE(p99);
  CHECK(p99->at("value").get<double>() > 0);
  CHECK(Result(doc, "ttfb_p99_ms") == Approx(p99->at("value").get<double>()));
  for (int k = 0; k < 3; ++k) {
    const json* f = FindFact(doc, "probe.cluster.node_ttfb_p50_ms." + std::to_string(k));
    REQUIRE(f);
    CHECK(f->at("provenance").at("rank") == k);
  }
}

TEST_CASE("a bad flag is reported once, by rank 0, with exit 2", "[nginx]") {
  Run r = MpiRun(3, {"probe", "throughput", "http://127.0.0.1:9/x.bin", "--block-size", "1KiB"});
  CHECK(r.exit_code == 2);
  CHECK(Count(r.err, "--block-size '1KiB'") == 1);
  CHECK(r.out.empty());
  Run s = MpiRun(2, {"probe", "smallfiles", "http://127.0.0.1:9/", "--sizes", "4KiB,0B"});
  CHECK(s.exit_code == 2);
  CHECK(Count(s.err, "--sizes '0B'") == 1);
  CHECK(s.out.empty());
}

TEST_CASE("broken rules stop every rank before any measures, naming file and line", "[nginx]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("fcm-rules-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "bad.yaml") << "rules:\n  - id: x\n";
  Run r = MpiRun(2, {"--json", "--rules", dir.string(), "probe", "throughput",
                     "http://127.0.0.1:9/x.bin", "--duration", "30s"});
  fs::remove_all(dir);
  CHECK(r.exit_code == 3);
  CHECK(Count(r.err, (dir / "bad.yaml").string() + ":1:1: error[R002]") == 1);
  CHECK(Count(r.err, "error[M001]: rank 0 (") == 1);
  CHECK(Count(r.err, "feedcheck-mpi probe throughput:") == 0);  // the budget line: no start
  json j = r.Json();  // a script still gets the one shape, with what stopped it
  REQUIRE(j.is_object());
  CHECK(j.at("schema_version") == 1);
  CHECK(j.at("tables").empty());
}

TEST_CASE("a rank that cannot enter its namespace stops every rank, naming it", "[nginx]") {
  Run r = MpiRun(
      2, {"probe", "throughput", "http://127.0.0.1:9/x.bin", "--netns", "fch-no-such-ns-{rank}"});
  CHECK(r.exit_code == 3);
  CHECK(Count(r.err, "rank 0 (") == 1);
  CHECK(Count(r.err, "fch-no-such-ns-0") == 1);
}

// Azurite keeps blobs in memory for the fixture's lifetime: the test removes what it seeded.
int DeleteContainer(feedcheck::HttpClient* client, const std::string& container) {
  feedcheck::HttpRequest r;
  r.method = "DELETE";
  r.url = feedcheck::testing::AzuriteAccountUrl() + "/" + container + "?restype=container";
  feedcheck::RequestSigner(feedcheck::testing::DevSharedKey(), true).Sign(&r);
  return client->Perform(r).status;
}

// The cluster fit reported must be the fit of every node's points together (the series
// probe.smallfile.time_by_size: x bytes, y ms): refit them here.
void CheckPooledFit(const json& doc) {
  std::vector<double> xs, ys, ws;
  const json* points = nullptr;
  for (const json& s : doc.at("evidence").at("series"))
    if (s.at("key") == "probe.smallfile.time_by_size") points = &s.at("points");
  REQUIRE(points);
  for (const json& p : *points) {
    double s = p.at(1).get<double>() / 1e3;  // [bytes, ms]
    xs.push_back(p.at(0).get<double>());
    ys.push_back(s);
    ws.push_back(1 / (s * s));
  }
  auto line = feedcheck::FitLine(xs, ys, ws);
  REQUIRE(line);
  CHECK(Result(doc, "fit_points") == double(xs.size()));
  CHECK(Result(doc, "overhead_ms") == Approx(std::max(0.0, line->intercept) * 1e3).epsilon(1e-6));
  CHECK(Result(doc, "bandwidth_gbps") == Approx(8 / line->slope / 1e9).epsilon(1e-6));
}

// Rows per rank with this host, each with its own fit; aggregate rate = requests / span.
void CheckSmallFilesDoc(const json& j, int ranks, double min_requests_per_rank) {
  const json& nodes = Rows(j, "Nodes");
  REQUIRE(nodes.size() == size_t(ranks));
  double requests = 0;
  for (int k = 0; k < ranks; ++k) {
    INFO("rank " << k);
    CHECK(nodes[k].at("rank") == k);
    CHECK(nodes[k].at("host") == Host());
    CHECK(nodes[k].at("status") == "ok");
    CHECK(nodes[k].at("overhead_ms").is_number());  // this node's own fit
    CHECK(nodes[k].at("requests").get<double>() >= min_requests_per_rank);
    requests += nodes[k].at("requests").get<double>();
    const json* f = FindFact(j, "probe.cluster.node_smallfile_overhead_ms." + std::to_string(k));
    REQUIRE(f);
    CHECK(f->at("provenance").at("rank") == k);
    CHECK(f->at("provenance").at("host") == Host());
  }
  CHECK(Result(j, "requests") == requests);
  CHECK(Result(j, "requests_per_s") == Approx(requests / Result(j, "span_s")).epsilon(1e-9));
  CheckPooledFit(j);
  const json* overhead = FindFact(j, "probe.cluster.smallfile_overhead_ms");
  const json* rate = FindFact(j, "probe.cluster.requests_per_s");
  REQUIRE(overhead);
  REQUIRE(rate);
  CHECK(overhead->at("value").get<double>() == Approx(Result(j, "overhead_ms")));
  const json* slow = FindFact(j, "probe.cluster.slowest_node_smallfile_overhead_ms");
  const json* fast = FindFact(j, "probe.cluster.fastest_node_smallfile_overhead_ms");
  REQUIRE(slow);
  REQUIRE(fast);
  CHECK(slow->at("value").get<double>() >= fast->at("value").get<double>());
  CHECK(slow->at("provenance").at("rank") == Result(j, "slowest_rank"));
  CHECK(HasSeries(j, "probe.smallfile.fit"));
  CHECK(HasSeries(j, "probe.smallfile.time_by_size"));
}

// Hidden: run by ctest mpi_smallfiles_azurite, which needs the Azurite fixture.
TEST_CASE("three ranks read small files from Azurite: rows per node, one pooled fit",
          "[.azurite]") {
  using namespace feedcheck::testing;
  REQUIRE_FALSE(EnvEndpoint("FEEDCHECK_TEST_AZURITE").empty());
  feedcheck::CurlHttpClient client;
  std::string container = "fcm-sf-" + std::to_string(getpid());
  int created = CreateContainer(&client, container);
  REQUIRE((created == 201 || created == 409));
  // Objects of three sizes, a few of each: every size class reads whole objects. The largest is
  // 32 MiB so that its read time (~100 ms with six readers on two cores) stands well above the
  // scheduling noise of a loaded machine (a 4 KiB median seen at 8-25 ms): with 8 MiB objects a
  // CI run once measured 9.5 ms for 8 MiB against 24 ms for 256 KiB on one rank, no growth with
  // size, so that rank rightly had no fit.
  unsigned seed = 1;
  for (uint64_t size : {4096ull, 262144ull, 33554432ull})
    for (int i = 0; i < 3; ++i)
      REQUIRE(PutBlob(&client, container,
                      "sf/obj-" + std::to_string(size) + "-" + std::to_string(i) + ".bin", size,
                      seed++) == 201);
  setenv("AZURE_STORAGE_ACCOUNT", kDevAccount.c_str(), 1);
  setenv("AZURE_STORAGE_KEY", kDevKey.c_str(), 1);  // the emulator's public key
  std::string url = AzuriteAccountUrl() + "/" + container + "/sf/";
  std::vector<std::string> args = {"probe",
                                   "smallfiles",
                                   url,
                                   "--sizes",
                                   "4KiB,256KiB,32MiB",
                                   "--requests-per-size",
                                   "12",
                                   "--concurrency",
                                   "2",
                                   "--duration",
                                   "60s"};
  std::vector<std::string> json_args = args;
  json_args.insert(json_args.begin(), "--json");
  Run r = MpiRun(3, json_args);
  INFO(r.err);
  INFO(r.out.substr(0, 4000));
  REQUIRE(r.exit_code == 0);
  json j = r.Json();
  REQUIRE(j.is_object());  // rank 0 printed one JSON document, the others nothing
  CheckSmallFilesDoc(j, 3, 36);
  CHECK(r.out.find(kDevKey) == std::string::npos);
  CHECK(r.err.find(kDevKey) == std::string::npos);

  Run t = MpiRun(3, args);
  INFO(t.err);
  INFO(t.out);
  REQUIRE(t.exit_code == 0);
  CHECK(Count(t.out, "3 nodes, one fit over all nodes' 9 points") == 1);
  for (int k = 0; k < 3; ++k) CHECK(RowLines(t.out, k, Host()) == 1);
  CHECK(Count(t.out, "Overhead per node:") == 1);
  CHECK(DeleteContainer(&client, container) == 202);
}

TEST_CASE("three ranks read small files from a local directory", "[nginx]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("fcm-sf-dir-" + std::to_string(getpid()));
  fs::create_directories(dir);
  // Sizes 4,096x apart: page-cache reads of 4 MiB took little more than 4 KiB ones once when the
  // machine was loaded, and each rank's fit needs a slope above zero.
  for (size_t size : {size_t(4096), size_t(1 << 20), size_t(16 << 20)})
    for (int i = 0; i < 2; ++i) {
      std::ofstream out(dir / ("f-" + std::to_string(size) + "-" + std::to_string(i)),
                        std::ios::binary);
      out << std::string(size, 'x');
    }
  Run r = MpiRun(3, {"--json", "probe", "smallfiles", dir.string(), "--sizes", "4KiB,1MiB,16MiB",
                     "--requests-per-size", "8", "--duration", "30s"});
  fs::remove_all(dir);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  json j = r.Json();
  REQUIRE(j.is_object());
  CHECK(j.at("context").at("target").get<std::string>().rfind(dir.string(), 0) == 0);
  CheckSmallFilesDoc(j, 3, 24);
}

// Hidden: run by `scripts/mpi-netns.sh test ...` (ctest mpi_ramp_netns), which builds the
// emulated cluster: 3 ranks with 500 Mbit/s NICs, nginx behind a 1 Gbit/s account egress.
TEST_CASE("ramp in namespaces finds the predicted knee", "[.ramp]") {
  std::string url = Env("FEEDCHECK_TEST_RAMP_URL");
  std::string netns = Env("FEEDCHECK_TEST_RAMP_NETNS");
  REQUIRE_FALSE(url.empty());
  REQUIRE_FALSE(netns.empty());
  Run r = MpiRun(3, {"--json", "probe", "throughput", url, "--ramp", "--duration", "4s",
                     "--concurrency", "4", "--warmup", "1s", "--nic-gbps", "500Mbit/s",
                     "--account-egress-gbps", "1", "--netns", netns});
  INFO(r.err);
  INFO(r.out.substr(0, 4000));
  REQUIRE(r.exit_code == 0);
  json j = r.Json();
  REQUIRE(j.is_object());
  const json& ramp = Rows(j, "Ramp (");
  REQUIRE(ramp.size() == 3);
  const json& by_rank = Rows(j, "Ramp by rank");
  std::vector<double> expected = {0.5, 1.0, 1.0};
  for (size_t i = 0; i < 3; ++i) {
    double measured = ramp[i].at("aggregate_gbps").get<double>();
    double predicted = ramp[i].at("predicted_gbps").get<double>();
    INFO("nodes " << i + 1 << ": measured " << measured << ", predicted " << predicted);
    CHECK(predicted == Approx(expected[i]));
    CHECK(std::abs(measured - predicted) <= 0.1 * predicted);
    size_t ranks_in_step = 0;
    for (const json& row : by_rank) ranks_in_step += row.at("nodes") == i + 1;
    CHECK(ranks_in_step == i + 1);
  }
  // Each rank is held to its own NIC (it really ran in its namespace): at one node, rank 0
  // alone gets at most 500 Mbit/s even though the account allows 1 Gbit/s.
  REQUIRE(by_rank.at(0).at("nodes") == 1);
  CHECK(by_rank.at(0).at("gbps").get<double>() < 0.52);
  const json* knee = FindFact(j, "probe.cluster.knee_nodes");
  const json* predicted_knee = FindFact(j, "probe.cluster.predicted_knee_nodes");
  const json* knee_gbps = FindFact(j, "probe.cluster.knee_gbps");
  const json* plateau = FindFact(j, "probe.cluster.predicted_plateau_gbps");
  REQUIRE(knee);
  REQUIRE(predicted_knee);
  REQUIRE(knee_gbps);
  REQUIRE(plateau);
  CHECK(knee->at("value") == 2);
  CHECK(predicted_knee->at("value") == 2);
  CHECK(std::abs(knee_gbps->at("value").get<double>() - plateau->at("value").get<double>()) <=
        0.1 * plateau->at("value").get<double>());
  CHECK(Result(j, "knee_nodes") == 2);
  CHECK(Result(j, "predicted_knee_nodes") == 2);
  CHECK(Result(j, "nodes_to_egress_limit") == 2);
  CHECK(HasSeries(j, "probe.cluster.ramp"));
  CHECK(HasSeries(j, "probe.cluster.ramp_predicted"));
}
