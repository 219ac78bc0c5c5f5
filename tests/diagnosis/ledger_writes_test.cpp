// The account's Ingress bursts as a job's writes (diagnosis/ledger_writes.h): a property over
// drawn bursts. A burst is writing only for a job that writes and only where the GPUs idled more
// in the bursts than outside them; a checkpoint's partial first and last minutes are its edges.
#include "diagnosis/ledger_writes.h"

#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "tests/diagnosis/ledger_test_jobs.h"

using namespace feedcheck;
using feedcheck::diagnosis::ledger::IngressBursts;

using feedcheck::diagnosis::ledger_test::kStart;

namespace {

Series PerMinute(const std::string& key, const std::vector<double>& values) {
  Series s;
  s.key = key;
  for (size_t i = 0; i < values.size(); ++i)
    s.points.push_back({kStart + 60.0 * static_cast<double>(i), values[i]});
  return s;
}

}  // namespace

TEST_CASE("ingress bursts: writing in a burst the GPUs stopped for, never in the quiet minutes",
          "[diagnosis][ledger]") {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> start(5, 40), length(2, 10);
  std::uniform_real_distribution<double> quiet(0.0, 3.0), burst(10.0, 60.0), pace(0.0, 0.6);
  for (int k = 0; k < 40; ++k) {
    const int minutes = 60, from = start(rng), to = from + length(rng);
    const double quiet_gbps = quiet(rng), burst_gbps = burst(rng);
    const double outside = pace(rng);  // the GPUs' idle share outside the burst
    const bool held = k % 2 == 0;      // the burst stopped them, or they worked through it
    std::vector<double> ingress(minutes, quiet_gbps), lost(minutes), sampled(minutes, 60);
    for (int i = 0; i < minutes; ++i) {
      const bool in = i > from && i < to;
      ingress[i] = in ? quiet_gbps + burst_gbps : quiet_gbps;
      lost[i] = 60 * (in && held ? 1.0 : outside);
    }
    // The checkpoint's first and last minutes: a part of its bytes.
    ingress[from] = ingress[to] = quiet_gbps + 0.1 * burst_gbps;
    const Series in = PerMinute("metrics.ingress_gbps", ingress);
    const Series l = PerMinute("gpu.lost_gpu_s_by_time", lost);
    const Series s = PerMinute("gpu.sampled_gpu_s_by_time", sampled);
    const IngressBursts b(&in, true, &l, &s);
    INFO("burst " << from << "-" << to << ", " << burst_gbps << " Gbit/s over " << quiet_gbps
                  << "; idle " << outside << " outside, " << (held ? "stopped" : "worked on"));
    CHECK(b.HoldGpus() == held);
    auto inside = [&](int i) { return i > from && i < to; };
    for (int i = 0; i < minutes; ++i) {
      const double t = kStart + 60.0 * i + 30;
      CHECK(b.Writing(t) == (held && inside(i)));
      // Above the quiet minutes at all, beside a minute of the burst.
      const bool above = i >= from && i <= to;
      CHECK(b.AtEdge(t) == (held && above && (inside(i - 1) || inside(i + 1))));
    }
    // A job whose definition writes nothing: no burst is its.
    const IngressBursts none(&in, false, &l, &s);
    CHECK_FALSE(none.Writing(kStart + 60.0 * (from + 1) + 30));
    CHECK_FALSE(none.AtEdge(kStart + 60.0 * from + 30));
  }
}
