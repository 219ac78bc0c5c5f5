// The PyTorch profiler trace reader: the real Kineto samples read whole (checked against a DOM
// parse of the same bytes), any split of the input reads the same, a trace cut anywhere is read
// up to the cut, hostile input is refused with its byte, and the per-step figures match a
// brute-force count over generated traces.
#include "analyzers/torch_trace.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "analyzers/format_detect.h"
#include "analyzers/torch_steps.h"
#include "core/diagnostic_codes.h"
#include "test_util.h"

namespace fa = feedcheck::analyzers;
using Json = nlohmann::json;

namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Gunzip(const std::string& gz) {
  z_stream zs{};
  REQUIRE(inflateInit2(&zs, 15 + 32) == Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  zs.avail_in = static_cast<uInt>(gz.size());
  std::string out;
  char buf[65536];
  int r = Z_OK;
  while (r != Z_STREAM_END) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof(buf);
    r = inflate(&zs, Z_NO_FLUSH);
    REQUIRE((r == Z_OK || r == Z_STREAM_END));
    out.append(buf, sizeof(buf) - zs.avail_out);
  }
  inflateEnd(&zs);
  return out;
}

std::string Gzip(const std::string& text) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, text.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

bool HasCode(const fa::TorchTrace& t, const char* code, const std::string& text = "") {
  for (const auto& d : t.diagnostics.kept())
    if (d.code == code && d.message.find(text) != std::string::npos) return true;
  return false;
}

bool IsGpuCat(const std::string& c) {
  return c == "kernel" || c == "gpu_memcpy" || c == "gpu_memset";
}

// What a DOM parse of the whole document says: the oracle for the streaming scanner.
struct Expected {
  uint64_t events = 0, gpu = 0, steps = 0, waits = 0;
  std::optional<int64_t> rank, base;
};
Expected FromDom(const std::string& text) {
  Json doc = Json::parse(text);
  Expected e;
  const Json& events = doc.is_array() ? doc : doc["traceEvents"];
  if (doc.is_object()) {
    if (doc.contains("distributedInfo") && doc["distributedInfo"].contains("rank"))
      e.rank = doc["distributedInfo"]["rank"].get<int64_t>();
    if (doc.contains("baseTimeNanoseconds")) e.base = doc["baseTimeNanoseconds"].get<int64_t>();
  }
  for (const Json& ev : events) {
    ++e.events;
    if (ev.value("ph", "") != "X" || !ev.contains("dur")) continue;
    const std::string cat = ev.value("cat", "");
    const std::string name = ev.value("name", "");
    if (IsGpuCat(cat)) {
      ++e.gpu;
    } else if (cat.rfind("gpu_", 0) == 0) {
      continue;
    } else if (name.rfind("ProfilerStep#", 0) == 0) {
      ++e.steps;
    } else if (name.rfind("enumerate(DataLoader)#", 0) == 0 &&
               name.find("__next__") != std::string::npos) {
      ++e.waits;
    }
  }
  return e;
}

const char* kSamples[] = {
    "cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
    "ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
    "trace_filter__sampled_rank-0.json.gz",
    "trace_filter__sampled_rank-1.json.gz",
};

std::string SamplePath(const char* name) { return fa::test::DataDir() + "/traces/" + name; }

// A legacy (top-level array) trace with `steps` steps of known shape.
std::string LegacyTrace(int steps, double wait_share) {
  std::string out = "[";
  double ts = 100;
  for (int i = 0; i < steps; ++i) {
    const double dur = 1000, wait = dur * wait_share;
    out += fmt::format(
        "{}{{\"name\": \"ProfilerStep#{}\", \"ph\": \"X\", \"ts\": {}, \"dur\": {}, \"tid\": 1, "
        "\"pid\": \"CPU functions\", \"args\": {{}}}}, {{\"name\": "
        "\"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__\", \"ph\": \"X\", \"ts\": "
        "{}, \"dur\": {}, \"tid\": 1, \"pid\": \"CPU functions\", \"args\": {{}}}}, {{\"name\": "
        "\"aten::mm\", \"ph\": \"X\", \"ts\": {}, \"dur\": 5, \"tid\": 1, \"pid\": \"CPU "
        "functions\", \"args\": {{}}}}",
        i == 0 ? "" : ", ", i + 1, ts, dur, ts + 1, wait, ts + wait + 2);
    ts += dur;
  }
  return out + "]";
}

}  // namespace

TEST_CASE("torch trace: the Kineto samples are read whole, as a DOM parse reads them",
          "[torch_trace]") {
  const char* name = GENERATE(from_range(std::begin(kSamples), std::end(kSamples)));
  const std::string gz = ReadAll(SamplePath(name));
  REQUIRE(!gz.empty());
  const Expected e = FromDom(Gunzip(gz));
  fa::TorchTrace t = fa::ReadTorchTrace(fa::InputFile::Open(SamplePath(name)));
  INFO(name);
  CHECK(t.complete);
  CHECK_FALSE(t.stopped);
  CHECK(t.kineto);
  CHECK(t.events == e.events);
  CHECK(t.gpu_events == e.gpu);
  CHECK(t.steps.size() == e.steps);
  CHECK(t.loader_waits.size() == e.waits);
  CHECK(t.rank == e.rank);
  CHECK(t.base_time_ns == e.base);
  CHECK(t.diagnostics.total() == 0);
  CHECK(fa::DetectFormat(gz.substr(0, 65536), name) == fa::InputFormat::kTorchTrace);
}

TEST_CASE("torch trace: the GPU sample's steps get GPU busy and idle time that add up",
          "[torch_trace]") {
  fa::TorchTrace t = fa::ReadTorchTrace(fa::InputFile::Open(SamplePath(kSamples[1])));
  fa::RankFigures r = fa::FiguresOf(t, "node-0");
  REQUIRE(r.gpu);
  REQUIRE(r.steps.size() == t.steps.size());
  CHECK(r.clock == fa::TraceClock::kEpoch);
  for (const auto& s : r.steps) {
    CHECK(s.gpu_busy_s + s.gpu_idle_s == Approx(s.step_s));
    CHECK(s.gpu_busy_s > 0);
    CHECK(s.gpu_idle_in_wait_s <= s.wait_s + 1e-9);
    // The epoch: 2024, as the file's name says (Apr 03).
    CHECK(s.start_epoch_s > 1.7e9);
    CHECK(s.start_epoch_s < 1.72e9);
  }
  // The merged busy intervals are sorted and disjoint.
  for (size_t i = 1; i < t.gpu_busy.size(); ++i)
    CHECK(t.gpu_busy[i].start_us > t.gpu_busy[i - 1].end_us);
}

TEST_CASE("torch trace: baseTimeNanoseconds places a Kineto trace on the wall clock",
          "[torch_trace]") {
  fa::TorchTrace t = fa::ReadTorchTrace(fa::InputFile::Open(SamplePath(kSamples[0])));
  REQUIRE(t.base_time_ns);
  REQUIRE(t.first_ts_us);
  fa::RankFigures r = fa::FiguresOf(t, "");
  CHECK(r.clock == fa::TraceClock::kBaseTime);
  CHECK(r.rank == "34");
  // The profiler's INFO lines say it ran at 10:52 Pacific on 2024-07-15 (17:52 UTC).
  const double start = *t.first_ts_us / 1e6 + r.offset_s;
  CHECK(start > 1721065800);  // 2024-07-15T17:50:00Z
  CHECK(start < 1721066100);  // 2024-07-15T17:55:00Z
}

TEST_CASE("torch trace: any split of the input reads the same", "[torch_trace]") {
  const std::string text = GENERATE(LegacyTrace(5, 0.85), Gunzip(ReadAll(SamplePath(kSamples[2]))));
  const size_t piece = GENERATE(1, 3, 17, 4096, 1 << 20);
  fa::TorchTrace whole = fa::ReadTorchTraceBytes(text, "a.pt.trace.json");
  fa::TorchTraceScanner scanner("a.pt.trace.json");
  for (size_t at = 0; at < text.size(); at += piece)
    scanner.Feed(std::string_view(text).substr(at, std::min(piece, text.size() - at)));
  fa::TorchTrace split = scanner.Finish();
  CHECK(split.complete);
  CHECK(split.events == whole.events);
  CHECK(split.steps.size() == whole.steps.size());
  CHECK(split.loader_waits.size() == whole.loader_waits.size());
  CHECK(split.gpu_busy.size() == whole.gpu_busy.size());
  CHECK(split.gpu_events == whole.gpu_events);
}

TEST_CASE("torch trace: gzip reads as the plain text does; a cut gzip is read up to the cut",
          "[torch_trace]") {
  const std::string text = LegacyTrace(20, 0.5);
  fa::TorchTrace plain = fa::ReadTorchTraceBytes(text, "w.pt.trace.json");
  const std::string gz = Gzip(text);
  fa::TorchTrace zipped = fa::ReadTorchTraceBytes(gz, "w.pt.trace.json.gz");
  CHECK(zipped.complete);
  CHECK(zipped.events == plain.events);
  CHECK(zipped.steps.size() == 20);
  fa::TorchTrace cut = fa::ReadTorchTraceBytes(gz.substr(0, gz.size() / 2), "w.pt.trace.json.gz");
  CHECK_FALSE(cut.complete);
  CHECK(cut.events < plain.events);
  CHECK(HasCode(cut, feedcheck::codes::kTraceCut, "gzip stream ends early"));
}

TEST_CASE("torch trace: a trace cut anywhere is read up to the cut, naming the byte",
          "[torch_trace]") {
  const std::string text = LegacyTrace(8, 0.85);
  fa::TorchTrace whole = fa::ReadTorchTraceBytes(text, "w.pt.trace.json");
  uint64_t last_events = 0;
  for (size_t cut = 1; cut < text.size(); cut += 37) {
    fa::TorchTrace t = fa::ReadTorchTraceBytes(text.substr(0, cut), "w.pt.trace.json");
    INFO("cut at " << cut);
    CHECK_FALSE(t.complete);
    CHECK_FALSE(t.stopped);
    REQUIRE(t.cut_at_byte);
    CHECK(*t.cut_at_byte <= cut);
    CHECK(HasCode(t, feedcheck::codes::kTraceCut, fmt::format("ends at byte {}", cut)));
    // Every event wholly before the cut is read; none after it.
    const size_t complete_events =
        static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(cut), '}')) /
        2;
    CHECK(t.events == complete_events);
    CHECK(t.events >= last_events);
    CHECK(t.events <= whole.events);
    last_events = t.events;
  }
}

TEST_CASE("torch trace: hostile input is refused with its byte and bounded memory",
          "[torch_trace]") {
  fa::TraceLimits limits;
  limits.max_depth = 16;
  limits.max_event_bytes = 4096;
  limits.max_events = 50;
  SECTION("deep nesting") {
    const int depth = GENERATE(17, 1000, 200000);
    std::string text = "{\"traceEvents\": [{\"name\": \"a\", \"args\": " +
                       std::string(static_cast<size_t>(depth), '[');
    fa::TorchTrace t = fa::ReadTorchTraceBytes(text, "h.json", limits);
    CHECK(t.stopped);
    CHECK((HasCode(t, feedcheck::codes::kTraceRefused, "nesting deeper than 16") ||
           HasCode(t, feedcheck::codes::kTraceRefused, "larger than 4096")));
  }
  SECTION("deep nesting in a value skipped at the top") {
    std::string text = "{\"INFO\": " + std::string(100, '[') + std::string(100, ']') + "}";
    fa::TorchTrace t = fa::ReadTorchTraceBytes(text, "h.json", limits);
    CHECK(t.stopped);
    CHECK(HasCode(t, feedcheck::codes::kTraceRefused, "nesting deeper than 16"));
  }
  SECTION("an event larger than the bound") {
    std::string text = "[{\"name\": \"" + std::string(100000, 'x') + "\", \"ph\": \"X\"}]";
    fa::TorchTrace t = fa::ReadTorchTraceBytes(text, "h.json", limits);
    CHECK(t.stopped);
    CHECK(
        HasCode(t, feedcheck::codes::kTraceRefused, "at byte 1: an event larger than 4096 bytes"));
  }
  SECTION("numbers out of range skip their event, the rest is read") {
    const std::string bad =
        GENERATE(as<std::string>{}, "1e400", "-1e309", "1e30", "123456789012345678901234567890");
    std::string text = "[{\"name\": \"ProfilerStep#1\", \"ph\": \"X\", \"ts\": " + bad +
                       ", \"dur\": 5}, {\"name\": \"ProfilerStep#2\", \"ph\": \"X\", \"ts\": 10, "
                       "\"dur\": 5}]";
    fa::TorchTrace t = fa::ReadTorchTraceBytes(text, "h.json", limits);
    INFO(bad);
    CHECK(t.complete);
    CHECK(t.events == 2);
    CHECK(t.malformed_events == 1);
    REQUIRE(t.steps.size() == 1);
    CHECK(t.steps[0].number == 2);
    CHECK(HasCode(t, feedcheck::codes::kTraceEvent, "event skipped"));
  }
  SECTION("more events than the bound") {
    fa::TorchTrace t = fa::ReadTorchTraceBytes(LegacyTrace(40, 0.5), "h.json", limits);
    CHECK(t.stopped);
    CHECK(t.events == 50);
    CHECK(HasCode(t, feedcheck::codes::kTraceRefused, "more than 50 events"));
  }
  SECTION("not JSON") {
    const std::string text =
        GENERATE(as<std::string>{}, "hello", "{\"a\" 1}", "[{\"ph\": x}]", "[1 2]");
    fa::TorchTrace t = fa::ReadTorchTraceBytes(text, "h.json", limits);
    CHECK(t.stopped);
    CHECK(HasCode(t, feedcheck::codes::kTraceRefused, "at byte"));
  }
}

TEST_CASE("torch trace: kept spans stay within their bounds", "[torch_trace]") {
  fa::TraceLimits limits;
  limits.max_steps = 7;
  limits.max_waits = 3;
  fa::TorchTrace t = fa::ReadTorchTraceBytes(LegacyTrace(30, 0.5), "h.json", limits);
  CHECK(t.complete);
  CHECK(t.steps.size() == 7);
  CHECK(t.loader_waits.size() == 3);
  CHECK(t.dropped == (30 - 7) + (30 - 3));
  CHECK(HasCode(t, feedcheck::codes::kTraceEvent, "than kept"));
}

TEST_CASE("torch trace: step figures match a brute-force count over generated traces",
          "[torch_trace]") {
  std::mt19937 rng(static_cast<unsigned>(GENERATE(1, 2, 3, 4, 5, 6, 7, 8)));
  auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  // Microsecond-resolution intervals within [0, 2000): steps back to back, waits and GPU work
  // anywhere (overlapping each other, crossing step edges).
  Json events = Json::array();
  std::vector<int> wait(2000, 0), gpu(2000, 0);
  struct S {
    int start, end;
  };
  std::vector<S> steps;
  for (int at = draw(0, 50); at < 1900;) {
    int len = draw(50, 300);
    steps.push_back({at, std::min(at + len, 1999)});
    at += len + draw(0, 20);
  }
  for (size_t i = 0; i < steps.size(); ++i)
    events.push_back({{"ph", "X"},
                      {"cat", "user_annotation"},
                      {"name", fmt::format("ProfilerStep#{}", i)},
                      {"ts", steps[i].start},
                      {"dur", steps[i].end - steps[i].start}});
  for (int k = draw(0, 30); k > 0; --k) {
    int s = draw(0, 1990), d = draw(0, 120);
    d = std::min(d, 1999 - s);
    for (int x = s; x < s + d; ++x) wait[static_cast<size_t>(x)] = 1;
    events.push_back({{"ph", "X"},
                      {"cat", "user_annotation"},
                      {"name", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"},
                      {"ts", s},
                      {"dur", d}});
  }
  for (int k = draw(1, 60); k > 0; --k) {
    int s = draw(0, 1990), d = draw(0, 80);
    d = std::min(d, 1999 - s);
    for (int x = s; x < s + d; ++x) gpu[static_cast<size_t>(x)] = 1;
    events.push_back({{"ph", "X"},
                      {"cat", k % 3 == 0 ? "gpu_memcpy" : "kernel"},
                      {"name", "k"},
                      {"ts", s},
                      {"dur", d}});
  }
  std::shuffle(events.begin(), events.end(), rng);
  Json doc = {{"traceEvents", events}, {"distributedInfo", {{"rank", 5}}}};
  fa::TorchTrace t = fa::ReadTorchTraceBytes(doc.dump(), "r.json");
  REQUIRE(t.complete);
  fa::RankFigures r = fa::FiguresOf(t, "");
  CHECK(r.rank == "5");
  REQUIRE(r.steps.size() == steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    int w = 0, busy = 0, idle_wait = 0;
    for (int x = steps[i].start; x < steps[i].end; ++x) {
      w += wait[static_cast<size_t>(x)];
      busy += gpu[static_cast<size_t>(x)];
      idle_wait += wait[static_cast<size_t>(x)] && !gpu[static_cast<size_t>(x)];
    }
    INFO("step " << i);
    CHECK(r.steps[i].wait_s * 1e6 == Approx(w).margin(1e-6));
    CHECK(r.steps[i].gpu_busy_s * 1e6 == Approx(busy).margin(1e-6));
    CHECK(r.steps[i].gpu_idle_in_wait_s * 1e6 == Approx(idle_wait).margin(1e-6));
  }
}

TEST_CASE("torch trace: a legacy trace is placed by its file name's stamp", "[torch_trace]") {
  const double stamp_ms = GENERATE(1700000000123.0, 1795895690323.0);
  const std::string name = fmt::format("host-1_4242.{:.0f}.pt.trace.json", stamp_ms);
  fa::TorchTrace t = fa::ReadTorchTraceBytes(LegacyTrace(3, 0.85), name);
  fa::RankFigures r = fa::FiguresOf(t, "");
  CHECK(r.clock == fa::TraceClock::kFileStamp);
  CHECK(r.node == "host-1");
  REQUIRE(t.last_end_us);
  // The trace's end is the stamp.
  CHECK(*t.last_end_us / 1e6 + r.offset_s == Approx(stamp_ms / 1e3));
  CHECK(r.loader_wait_fraction() == Approx(0.85).margin(0.01));
  feedcheck::Evidence ev;
  fa::AddTraceEvidence({r}, &ev);
  CHECK(ev.facts.Number("trace.loader_wait_fraction") == Approx(r.loader_wait_fraction()));
  CHECK(ev.facts.Number("trace.rank_steps." + r.rank) == Approx(3));
  CHECK(ev.facts.Number("trace.node_loader_wait_fraction.host-1") ==
        Approx(r.loader_wait_fraction()));
  REQUIRE(ev.FindSeries("trace.step_wait." + r.rank, "host-1"));
  CHECK(ev.timeline.size() == 3);
}

TEST_CASE("torch trace: file names give the stamp and the rank", "[torch_trace]") {
  CHECK(fa::FileNameStampMs("w_1.1700000000123.pt.trace.json") == Approx(1700000000123.0));
  CHECK(fa::FileNameStampMs("w_1.1700000000123.pt.trace.json.gz") == Approx(1700000000123.0));
  CHECK_FALSE(fa::FileNameStampMs("rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"));
  CHECK_FALSE(fa::FileNameStampMs("trace.json"));
  CHECK(fa::RankInFileName("rank-0.Apr_03.pt.trace.json") == "0");
  CHECK(fa::RankInFileName("sampled_rank_12.json.gz") == "12");
  CHECK(fa::RankInFileName("worker.json") == "");
}

TEST_CASE("torch trace: a rank's profiling windows, a file each, count as one rank",
          "[torch_trace]") {
  // torch.profiler writes a file per window: one rank, windows of different waits.
  const int windows = GENERATE(1, 2, 3);
  std::vector<fa::RankFigures> files;
  double wait_s = 0, step_s = 0;
  size_t steps = 0;
  for (int w = 0; w < windows; ++w) {
    const std::string name =
        fmt::format("host-1_4242.{}.pt.trace.json", 1700000000123LL + 600000LL * w);
    fa::TorchTrace t = fa::ReadTorchTraceBytes(LegacyTrace(3 + w, 0.2 + 0.3 * w), name);
    fa::RankFigures r = fa::FiguresOf(t, "node-1");
    for (auto& s : r.steps) s.number += 100 * w;  // later windows profile later steps
    wait_s += r.wait_s;
    step_s += r.step_s;
    steps += r.steps.size();
    files.push_back(r);
  }
  REQUIRE(step_s > 0);
  feedcheck::Evidence ev;
  fa::AddTraceEvidence(files, &ev);
  const std::string rank = files.front().rank;
  CHECK(ev.facts.Number("trace.rank_steps." + rank) == Approx(static_cast<double>(steps)));
  CHECK(ev.facts.Number("trace.loader_wait_fraction." + rank) == Approx(wait_s / step_s));
  CHECK(ev.facts.Number("trace.loader_wait_fraction") == Approx(wait_s / step_s));
  const auto merged = fa::MergeRankWindows(files);
  REQUIRE(merged.size() == 1);
  CHECK(merged.front().more_files == static_cast<size_t>(windows - 1));
  // Each window's steps are a run of its own in the steps covered.
  const std::string covered = merged.front().StepsCovered();
  CHECK(std::count(covered.begin(), covered.end(), '#') == 2 * windows);
}
