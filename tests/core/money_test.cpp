#include "core/money.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/diagnostic_codes.h"

using namespace feedcheck;
namespace fs = std::filesystem;

namespace {

const std::string kMoneyDataDir = std::string(FEEDCHECK_SOURCE_DIR) + "/data";

KnowledgeBase BuiltIn() {
  KnowledgeBase kb;
  DiagnosticList d;
  REQUIRE(KnowledgeBase::Load(kMoneyDataDir, {}, &kb, &d));
  return kb;
}

std::string Write(const std::string& name, const std::string& text) {
  fs::path dir = fs::temp_directory_path() / "feedcheck_money_test";
  fs::create_directories(dir);
  std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

bool Has(const DiagnosticList& d, const char* code, const std::string& text) {
  for (const auto& x : d.kept())
    if (x.code == code && x.message.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("every built-in price is dated, placed and sourced", "[core][money]") {
  KnowledgeBase kb = BuiltIn();
  int priced = 0;
  for (const auto& vm : kb.vms()) {
    if (vm.price_usd_per_hour < 0) continue;
    ++priced;
    CHECK(vm.gpus > 0);
    CHECK(vm.price_as_of.size() == 10);
    CHECK_FALSE(vm.price_region.empty());
    CHECK(vm.price_source.find("https://") != std::string::npos);
  }
  CHECK(priced >= 5);
  const VmSize* nd = kb.FindVm("Standard_ND96asr_v4");
  REQUIRE(nd);
  CHECK(nd->price_usd_per_hour == Approx(27.197));
  // Sizes without a citable public price stay unpriced.
  CHECK(kb.FindVm("Standard_ND40rs_v2")->price_usd_per_hour < 0);
  REQUIRE(kb.FindReadPrice("hot"));
  CHECK(kb.FindReadPrice("HOT")->usd_per_10k_reads == Approx(0.0044));
  REQUIRE(kb.FindReadPrice("cool"));
  CHECK(kb.FindReadPrice("cool")->as_of.size() == 10);
  CHECK(kb.FindReadPrice("archive") == nullptr);
}

TEST_CASE("a GPU-hour: the VM's price over its GPUs, or the price given", "[core][money]") {
  KnowledgeBase kb = BuiltIn();
  const VmSize* nd = kb.FindVm("nd96asr_v4");
  GpuHourPrice p = ChooseGpuHourPrice(-1, "nd96asr_v4", nd);
  REQUIRE(p.known());
  CHECK(p.usd_per_gpu_hour == Approx(27.197 / 8));
  CHECK_FALSE(p.given);
  CHECK(p.basis.find("Standard_ND96asr_v4") != std::string::npos);
  CHECK(p.basis.find("as of 2026-11-09") != std::string::npos);
  CHECK(p.basis.find("eastus") != std::string::npos);
  CHECK(GpuTimeUsd(2 * 3600, p) == Approx(2 * 27.197 / 8));
  CHECK(GpuTimeUsd(-1, p) < 0);
  CHECK(MoneyCaveat(p).find("An estimate from Standard_ND96asr_v4") == 0);

  // --gpu-hour-price overrides the table.
  GpuHourPrice given = ChooseGpuHourPrice(2.5, "nd96asr_v4", nd);
  CHECK(given.given);
  CHECK(given.usd_per_gpu_hour == 2.5);
  CHECK(given.basis.find("the price you gave (--gpu-hour-price 2.50") == 0);
  CHECK(GpuTimeUsd(3600, given) == Approx(2.5));
  CHECK(ChooseGpuHourPrice(0, "", nullptr).usd_per_gpu_hour == 0);

  // No price: said why, nothing computed.
  GpuHourPrice none = ChooseGpuHourPrice(-1, "Standard_ND40rs_v2", kb.FindVm("Standard_ND40rs_v2"));
  CHECK_FALSE(none.known());
  CHECK(none.missing == "no public price known for SKU Standard_ND40rs_v2: give --gpu-hour-price");
  CHECK(GpuTimeUsd(3600, none) < 0);
  CHECK(ChooseGpuHourPrice(-1, "Standard_XYZ", nullptr).missing.find("Standard_XYZ") == 0);
  CHECK(ChooseGpuHourPrice(-1, "Standard_D4s_v5", kb.FindVm("Standard_D4s_v5"))
            .missing.find("not a GPU size") != std::string::npos);
  CHECK_FALSE(ChooseGpuHourPrice(-1, "", nullptr).missing.empty());
}

TEST_CASE("read operations priced per 10,000", "[core][money]") {
  StorageReadPrice hot;
  hot.name = "hot";
  hot.usd_per_10k_reads = 0.0044;
  hot.region = "eastus";
  hot.as_of = "2026-05-05";
  hot.source = "a page";
  CHECK(ReadOpsUsd(2'000'000, hot) == Approx(0.88));
  CHECK(ReadOpsUsd(0, hot) == 0);
  CHECK(ReadOpsUsd(-1, hot) < 0);
  CHECK(ReadPriceBasis(hot).find("0.0044 USD per 10,000 reads (hot tier, eastus, as of "
                                 "2026-05-05") == 0);
}

TEST_CASE("a price row without its date, region or source is an error", "[core][money]") {
  KnowledgeBase kb = BuiltIn();
  DiagnosticList d;
  std::string path = Write("prices.yaml", R"(vm_sizes:
  - name: Standard_ND40rs_v2
    vcpus: 40
    gpus: 8
    ram: 672 GiB
    local_disk: 2948 GiB
    nic: 24 Gbit/s
    source: my notes
    price_usd_per_hour: 22.03
    price_region: eastus
    price_source: my invoice
read_prices:
  - tier: hot
    usd_per_10k_reads: 0.005
    region: westeurope
    as_of: 2026-13
    source: my invoice
  - tier: premium
    usd_per_10k_reads: 0.0018
    region: eastus
    as_of: 2026-11-20
    source: my invoice
)");
  CHECK_FALSE(kb.LoadFile(path, &d));
  CHECK(Has(d, codes::kKbMissingField, "price_as_of"));
  CHECK(Has(d, codes::kKbBadValue, "as_of"));
  // The bad rows are skipped; the built-ins stay; the good row adds.
  CHECK(kb.FindVm("Standard_ND40rs_v2")->price_usd_per_hour < 0);
  CHECK(kb.FindReadPrice("hot")->usd_per_10k_reads == Approx(0.0044));
  REQUIRE(kb.FindReadPrice("premium"));
  CHECK(kb.FindReadPrice("premium")->region == "eastus");

  // A full price row overrides: the user's own price, cited as theirs.
  DiagnosticList ok;
  std::string own = Write("own.yaml", R"(vm_sizes:
  - name: Standard_ND40rs_v2
    vcpus: 40
    gpus: 8
    ram: 672 GiB
    local_disk: 2948 GiB
    nic: 24 Gbit/s
    source: my notes
    price_usd_per_hour: 22.03
    price_region: eastus
    price_as_of: 2026-11-20
    price_source: our EA price sheet
)");
  CHECK(kb.LoadFile(own, &ok));
  CHECK(ChooseGpuHourPrice(-1, "nd40rs_v2", kb.FindVm("nd40rs_v2")).usd_per_gpu_hour ==
        Approx(22.03 / 8));
}

TEST_CASE("a price's short form names its source by title and keeps every figure",
          "[core][money]") {
  KnowledgeBase kb = BuiltIn();
  int priced = 0;
  for (const auto& vm : kb.vms()) {
    if (vm.price_usd_per_hour < 0 || vm.gpus <= 0) continue;
    ++priced;
    const GpuHourPrice p = ChooseGpuHourPrice(-1, vm.name, &vm);
    INFO(vm.name << ": " << vm.price_source);
    const std::string whole = MoneyCaveat(p), brief = MoneyCaveatBrief(p);
    const std::string title = SourceTitle(vm.price_source);
    CHECK_FALSE(title.empty());
    CHECK(title.find("://") == std::string::npos);
    CHECK(vm.price_source.find(title) != std::string::npos);
    CHECK(brief.size() < whole.size());
    // The figures and the source's title stay; the URL and the caveat's list go to -v.
    for (const std::string& part : {vm.name, vm.price_region, vm.price_as_of, title})
      CHECK(brief.find(part) != std::string::npos);
    CHECK(brief.find(fmt::format("{:.3f}", p.usd_per_gpu_hour)) != std::string::npos);
    CHECK(brief.find("://") == std::string::npos);
    CHECK(brief.find("-v: the source") != std::string::npos);
    CHECK(whole.find(vm.price_source) != std::string::npos);
  }
  CHECK(priced >= 5);
  // A price given on the command line has no source to shorten.
  const GpuHourPrice given = ChooseGpuHourPrice(2.5, "", nullptr);
  CHECK(MoneyCaveatBrief(given).find("--gpu-hour-price 2.50") != std::string::npos);
  CHECK(MoneyCaveatBrief(given).find("-v: the source") == std::string::npos);
  // No price: the same sentence saying why.
  const GpuHourPrice none = ChooseGpuHourPrice(-1, "", nullptr);
  CHECK(MoneyCaveatBrief(none) == MoneyCaveat(none));
}

TEST_CASE("a source's title: its quoted part, else what comes before its URL", "[core][money]") {
  CHECK(SourceTitle(R"(data-receipts, "109 - What an H100 costs", a.json, https://x.y/a.json)") ==
        "109 - What an H100 costs");
  CHECK(SourceTitle("Azure pricing page, https://azure.microsoft.com/pricing") ==
        "Azure pricing page");
  CHECK(SourceTitle("our EA price sheet") == "our EA price sheet");
  CHECK(SourceTitle("https://example.com/only-a-url") == "https://example.com/only-a-url");
}
