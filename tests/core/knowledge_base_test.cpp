#include "core/knowledge_base.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/diagnostic_codes.h"
#include "core/embedded_file.h"

using namespace feedcheck;
namespace fs = std::filesystem;

namespace {

const std::string kDataDir = std::string(FEEDCHECK_SOURCE_DIR) + "/data";

// A YAML file in a fresh temp directory, removed with the object.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text) {
    dir_ = fs::temp_directory_path() /
           ("feedcheck_kb_test_" + std::to_string(reinterpret_cast<uintptr_t>(this)) + "_" +
            std::to_string(counter_++));
    fs::create_directories(dir_);
    path_ = (dir_ / name).string();
    std::ofstream(path_) << text;
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  const std::string& path() const { return path_; }
  std::string dir() const { return dir_.string(); }

 private:
  static inline int counter_ = 0;
  fs::path dir_;
  std::string path_;
};

KnowledgeBase LoadBuiltin(DiagnosticList* d, std::vector<std::string> overrides = {}) {
  KnowledgeBase kb;
  KnowledgeBase::Load(kDataDir, overrides, &kb, d);
  return kb;
}

const Diagnostic* FindCode(const DiagnosticList& d, std::string_view code) {
  for (const auto& x : d.kept())
    if (x.code == code) return &x;
  return nullptr;
}

}  // namespace

TEST_CASE("built-in knowledge base loads clean and every row cites a source", "[core][kb]") {
  DiagnosticList d;
  KnowledgeBase kb;
  REQUIRE(KnowledgeBase::Load(kDataDir, {}, &kb, &d));
  for (const auto& x : d.kept()) FAIL(FormatDiagnostic(x));
  CHECK(kb.vms().size() >= 22);
  for (const auto& vm : kb.vms()) {
    INFO(vm.name);
    CHECK_FALSE(vm.source.empty());
    CHECK(vm.nic_gbps > 0);
    CHECK(vm.line > 0);
    CHECK(vm.file == "data/vm_sizes.yaml");  // the same on every machine
  }
  for (const auto& t : kb.targets()) {
    INFO(t.name);
    CHECK_FALSE(t.source.empty());
  }
  CHECK(kb.listed_regions().size() == 29);
}

TEST_CASE("VM rows carry the size pages' figures", "[core][kb]") {
  DiagnosticList d;
  KnowledgeBase kb = LoadBuiltin(&d);
  const VmSize* nd = kb.FindVm("Standard_ND96asr_v4");
  REQUIRE(nd);
  CHECK(nd->vcpus == 96);
  CHECK(nd->gpus == 8);
  CHECK(nd->gpu_model == "A100 40GB");
  CHECK(nd->ram_bytes == 900.0 * 1073741824.0);
  CHECK(nd->local_disk_bytes == 6000.0 * 1073741824.0);
  CHECK(nd->nic_gbps == 24);
  const VmSize* d2 = kb.FindVm("Standard_D2_v2");
  REQUIRE(d2);
  CHECK(d2->nic_gbps == Approx(1.5));
  CHECK(d2->gpus == 0);
  CHECK(d2->gpu_model.empty());
  const VmSize* nc6 = kb.FindVm("Standard_NC6s_v3");
  REQUIRE(nc6);
  CHECK(nc6->nic_gbps == 24);
  CHECK(nc6->note.find("lists no network bandwidth") != std::string::npos);
  CHECK(kb.FindVm("Standard_ND96isr_H100_v5")->nic_gbps == 80);
  CHECK(kb.FindVm("Standard_D4s_v5")->local_disk_bytes == 0);
}

TEST_CASE("size lookup ignores case and the Standard_ prefix", "[core][kb]") {
  DiagnosticList d;
  KnowledgeBase kb = LoadBuiltin(&d);
  const VmSize* a = kb.FindVm("standard_nd96asr_v4");
  REQUIRE(a);
  CHECK(a->name == "Standard_ND96asr_v4");
  CHECK(kb.FindVm("ND96asr_v4") == a);
  CHECK(kb.FindVm("nd96asr v4") == a);
  CHECK_FALSE(kb.FindVm("ND96asr_v5"));
  CHECK_FALSE(kb.FindVm(""));
  CHECK_FALSE(kb.FindVm("Standard_"));
}

TEST_CASE("unknown sizes get near-miss suggestions", "[core][kb]") {
  DiagnosticList d;
  KnowledgeBase kb = LoadBuiltin(&d);
  auto s = kb.SuggestVm("Standard_ND96asr_v5");
  REQUIRE_FALSE(s.empty());
  CHECK(s.front() == "Standard_ND96asr_v4");
  s = kb.SuggestVm("NC6s_v2");
  REQUIRE_FALSE(s.empty());
  CHECK(s.front() == "Standard_NC6s_v3");
  s = kb.SuggestVm("Standard_D2v2");
  REQUIRE_FALSE(s.empty());
  CHECK(s.front() == "Standard_D2_v2");
  CHECK(kb.SuggestVm("completely-unrelated-name").empty());
}

TEST_CASE("storage targets: region defaults, legacy profile, no-limit premium", "[core][kb]") {
  DiagnosticList d;
  KnowledgeBase kb = LoadBuiltin(&d);
  const StorageTarget& east = kb.TargetForRegion("eastus");
  CHECK(east.name == "standard_gpv2");
  CHECK(east.egress_gbps == 200);
  CHECK(east.ingress_gbps == 60);
  CHECK(east.requests_per_s == 40000);
  const StorageTarget& other = kb.TargetForRegion("westindia");
  CHECK(other.name == "standard_gpv2_other_regions");
  CHECK(other.egress_gbps == 50);
  CHECK(other.ingress_gbps == 25);
  CHECK(other.requests_per_s == 20000);
  const StorageTarget* legacy = kb.FindTarget("standard_gpv2_legacy_120");
  REQUIRE(legacy);
  CHECK(legacy->egress_gbps == 120);
  CHECK(kb.FindTarget("STANDARD_GPV2_LEGACY_120") == legacy);
  REQUIRE(kb.FindTarget("premium_block_blob"));
  CHECK(kb.FindTarget("premium_block_blob")->egress_gbps == 0);
  const StorageTarget* files = kb.FindTarget("azure_files_premium");
  REQUIRE(files);
  CHECK(files->egress_gbps == Approx(10340 * 1048576.0 * 8 / 1e9));
  CHECK(files->requests_per_s == 102400);
  REQUIRE(kb.FindTarget("netapp_files"));
  CHECK(kb.FindTarget("netapp_files")->egress_gbps == Approx(4500 * 1048576.0 * 8 / 1e9));
  CHECK_FALSE(kb.FindTarget("standard_gpv3"));
  CHECK(kb.SuggestTarget("standard_gpv3").front() == "standard_gpv2");
}

TEST_CASE("listed regions match without case or spaces", "[core][kb]") {
  DiagnosticList d;
  KnowledgeBase kb = LoadBuiltin(&d);
  for (const char* r :
       {"eastus", "East US", "EAST US", "east-us", "East_US", "eastus2", "East US 2", "westeurope",
        "USGov Virginia", "usgovvirginia", "jioindiawest", "South Africa North"})
    CHECK(kb.IsListedRegion(r));
  for (const char* r : {"westindia", "West India", "uaenorth", "", "east", "eastus3"}) {
    INFO(r);
    CHECK_FALSE(kb.IsListedRegion(r));
  }
  CHECK(NormalizeRegion("East US 2") == "eastus2");
}

TEST_CASE("node and account facts carry knowledge-base provenance", "[core][kb]") {
  DiagnosticList d;
  KnowledgeBase kb = LoadBuiltin(&d);
  FactSet facts;
  const VmSize* vm = kb.FindVm("Standard_ND96asr_v4");
  kb.AddNodeFacts(*vm, &facts);
  REQUIRE(facts.Find("node.nic_gbps"));
  CHECK(*facts.Number("node.nic_gbps") == 24);
  CHECK(*facts.Number("node.gpus") == 8);
  CHECK(*facts.Text("node.sku") == "Standard_ND96asr_v4");
  CHECK(*facts.Number("node.local_disk_bytes") == 6000.0 * 1073741824.0);
  const Provenance& p = facts.Find("node.nic_gbps")->provenance;
  CHECK(p.origin == FactOrigin::kKnowledge);
  CHECK(p.line == vm->line);
  CHECK(p.source ==
        "knowledge base: " + vm->file + ":" + std::to_string(vm->line) + " Standard_ND96asr_v4");
  kb.AddAccountFacts(kb.TargetForRegion("East US"), &facts);
  CHECK(*facts.Number("account.egress_gbps") == 200);
  CHECK(*facts.Text("account.kind") == "standard_gpv2");
  FactSet premium;
  kb.AddAccountFacts(*kb.FindTarget("premium_block_blob"), &premium);
  CHECK(premium.Has("account.kind"));
  CHECK_FALSE(premium.Has("account.egress_gbps"));  // no published limit: absent, not 0
}

TEST_CASE("override files replace rows by name and add new ones", "[core][kb]") {
  TempFile over("mine.yaml", R"(vm_sizes:
  - name: standard_nd96asr_v4
    vcpus: 96
    gpus: 8
    gpu_model: A100 40GB
    ram: 900 GiB
    local_disk: 6000 GiB
    nic: 100 Gbit/s
    source: our own measurement, 2026-11
  - name: Standard_Custom_v1
    vcpus: 8
    gpus: 0
    ram: 32 GiB
    local_disk: 0
    nic: 10 Gbit/s
    source: made up for the test
storage_targets:
  - name: standard_gpv2
    kind: standard_gpv2
    egress: 400 Gbit/s
    ingress: 60 Gbit/s
    requests_per_s: 40,000
    source: support raised our limit
listed_regions: [West India]
)");
  DiagnosticList d;
  KnowledgeBase kb;
  REQUIRE(KnowledgeBase::Load(kDataDir, {over.path()}, &kb, &d));
  CHECK(d.total() == 0);
  const VmSize* nd = kb.FindVm("Standard_ND96asr_v4");
  REQUIRE(nd);
  CHECK(nd->nic_gbps == 100);
  CHECK(nd->file == over.path());
  CHECK(nd->line == 2);
  CHECK(nd->name == "standard_nd96asr_v4");
  int count = 0;
  for (const auto& vm : kb.vms())
    if (vm.nic_gbps == 100 || vm.name == "Standard_ND96asr_v4") ++count;
  CHECK(count == 1);  // replaced, not duplicated
  REQUIRE(kb.FindVm("Custom_v1"));
  CHECK(kb.FindVm("Custom_v1")->local_disk_bytes == 0);
  CHECK(kb.TargetForRegion("eastus").egress_gbps == 400);
  CHECK(kb.IsListedRegion("westindia"));
}

TEST_CASE("bad rows are diagnosed with file:line and skipped, good rows stay", "[core][kb]") {
  TempFile over("bad.yaml", R"(vm_sizes:
  - name: Standard_Bad_Number
    vcpus: lots
    gpus: 0
    ram: 8 GiB
    local_disk: 0
    nic: 10 Gbit/s
    source: test
  - name: Standard_Missing_Nic
    vcpus: 2
    gpus: 0
    ram: 8 GiB
    local_disk: 0
    source: test
  - name: Standard_Extra_Key
    vcpus: 2
    gpus: 0
    ram: 8 GiB
    local_disk: 0
    nic: 10 Gbit/s
    nic_speed: 10
    source: test
  - name: Standard_Bare_Ram
    vcpus: 2
    gpus: 0
    ram: 900
    local_disk: 0
    nic: 24
    source: test
)");
  DiagnosticList d;
  KnowledgeBase kb;
  CHECK_FALSE(KnowledgeBase::Load(kDataDir, {over.path()}, &kb, &d));

  const Diagnostic* bad = FindCode(d, codes::kKbBadValue);
  REQUIRE(bad);
  CHECK(bad->location.file == over.path());
  CHECK(bad->location.line == 3);
  CHECK(bad->message.find("'vcpus'") != std::string::npos);
  CHECK(bad->snippet == "    vcpus: lots");
  CHECK(FormatDiagnostic(*bad).find(over.path() + ":3:") != std::string::npos);

  const Diagnostic* missing = FindCode(d, codes::kKbMissingField);
  REQUIRE(missing);
  CHECK(missing->location.line == 9);
  CHECK(missing->message.find("missing field 'nic'") != std::string::npos);
  CHECK(missing->context.find("Standard_Missing_Nic") != std::string::npos);

  const Diagnostic* unknown = FindCode(d, codes::kKbUnknownKey);
  REQUIRE(unknown);
  CHECK(unknown->severity == DiagnosticSeverity::kWarning);
  CHECK(unknown->location.line == 21);
  CHECK(unknown->message.find("unknown key 'nic_speed'") != std::string::npos);
  CHECK(unknown->message.find("did you mean 'nic'") != std::string::npos);

  // "ram: 900" would silently be 900 bytes; "nic: 24" has no unit either.
  int bare = 0;
  for (const auto& x : d.kept())
    if (x.code == codes::kKbBadValue && (x.location.line == 26 || x.location.line == 28)) ++bare;
  CHECK(bare == 2);

  CHECK_FALSE(kb.FindVm("Bad_Number"));
  CHECK_FALSE(kb.FindVm("Missing_Nic"));
  CHECK_FALSE(kb.FindVm("Bare_Ram"));
  CHECK(kb.FindVm("Extra_Key"));            // an unknown key is a warning only
  CHECK(kb.FindVm("Standard_ND96asr_v4"));  // the built-ins are untouched
}

TEST_CASE("YAML syntax errors and wrong shapes name the file and line", "[core][kb]") {
  TempFile broken("broken.yaml", "vm_sizes:\n  - name: [unclosed\n    vcpus: 2\n");
  DiagnosticList d;
  KnowledgeBase kb;
  CHECK_FALSE(kb.LoadFile(broken.path(), &d));
  const Diagnostic* syntax = FindCode(d, codes::kKbSyntax);
  REQUIRE(syntax);
  CHECK(syntax->location.file == broken.path());
  CHECK(syntax->location.line >= 2);

  TempFile shape("shape.yaml", "vm_sizes:\n  name: Standard_X\nsurprise: 1\n");
  DiagnosticList d2;
  CHECK_FALSE(kb.LoadFile(shape.path(), &d2));
  const Diagnostic* s = FindCode(d2, codes::kKbShape);
  REQUIRE(s);
  CHECK(s->location.line == 2);
  const Diagnostic* section = FindCode(d2, codes::kKbUnknownKey);
  REQUIRE(section);
  CHECK(section->location.line == 3);

  DiagnosticList d3;
  CHECK_FALSE(kb.LoadFile("/nonexistent/feedcheck.yaml", &d3));
  REQUIRE(FindCode(d3, codes::kKbUnreadable));

  TempFile empty("empty.yaml", "");
  DiagnosticList d4;
  CHECK(kb.LoadFile(empty.path(), &d4));
  CHECK(d4.total() == 0);
}

TEST_CASE("a duplicate row in one file warns and the later wins", "[core][kb]") {
  TempFile dup("dup.yaml", R"(storage_targets:
  - {name: mine, kind: standard_gpv2, egress: 10 Gbit/s, ingress: 5 Gbit/s, requests_per_s: 100, source: a}
  - {name: mine, kind: standard_gpv2, egress: 20 Gbit/s, ingress: 5 Gbit/s, requests_per_s: 100, source: b}
)");
  DiagnosticList d;
  KnowledgeBase kb;
  CHECK(kb.LoadFile(dup.path(), &d));
  const Diagnostic* w = FindCode(d, codes::kKbDuplicate);
  REQUIRE(w);
  CHECK(w->location.line == 3);
  REQUIRE(kb.FindTarget("mine"));
  CHECK(kb.FindTarget("mine")->egress_gbps == 20);
}

TEST_CASE("a data directory without the standard rows is an error, with fallbacks", "[core][kb]") {
  // Its storage_targets.yaml replaces the compiled-in one, and holds no target.
  TempFile only("storage_targets.yaml", "storage_targets: []\n");
  DiagnosticList d;
  KnowledgeBase kb;
  CHECK_FALSE(KnowledgeBase::Load(only.dir(), {}, &kb, &d));
  CHECK(FindCode(d, codes::kKbMissingRow));
  // No listed regions were loaded: every region gets the other-regions fallback, a valid reference.
  CHECK(kb.TargetForRegion("eastus").egress_gbps == 50);
  CHECK(kb.TargetForRegion("westindia").name == "standard_gpv2_other_regions");
  CHECK(kb.FindVm("Standard_ND96asr_v4"));  // vm_sizes.yaml is still the compiled-in one
}

TEST_CASE("the knowledge base is compiled in: no folder is needed, one overrides by file",
          "[core][kb]") {
  // The embedded files are data/*.yaml byte for byte (so rows cite the source file's lines).
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(kDataDir)) {
    if (entry.path().extension() != ".yaml") continue;
    ++files;
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string name = "data/" + entry.path().filename().string();
    bool found = false;
    for (const auto& e : EmbeddedKnowledgeBase())
      if (e.name == name) found = e.text == text;
    CHECK(found);
  }
  CHECK(EmbeddedKnowledgeBase().size() == files);
  // A folder that is not there overrides nothing: the compiled-in rows, cited as data/FILE:LINE.
  DiagnosticList d;
  KnowledgeBase kb;
  CHECK(KnowledgeBase::Load("/nonexistent/data", {}, &kb, &d));
  CHECK(d.total() == 0);
  const VmSize* vm = kb.FindVm("Standard_ND96asr_v4");
  REQUIRE(vm);
  CHECK(vm->file == "data/vm_sizes.yaml");
  CHECK(vm->line > 0);
  // A file of the folder replaces the compiled-in file of the same name; others add.
  TempFile mine("vm_sizes.yaml", "vm_sizes: []\n");
  KnowledgeBase replaced;
  DiagnosticList d2;
  KnowledgeBase::Load(mine.dir(), {}, &replaced, &d2);
  CHECK_FALSE(replaced.FindVm("Standard_ND96asr_v4"));
  CHECK(replaced.FindTarget("standard_gpv2"));
}

TEST_CASE("malformed knowledge-base files never crash and always say why", "[core][kb]") {
  const std::vector<std::string> inputs = {
      "vm_sizes: [1, 2, 3]\n",
      "vm_sizes:\n  - name: {a: b}\n    vcpus: [1]\n",
      "vm_sizes:\n  ? [a, b]\n  : c\n",
      "vm_sizes: &a [*a]\n",
      "vm_sizes:\n  - &row {name: X, vcpus: 1}\n  - *row\n",
      std::string("\x00\xff\xfe garbage", 12),
      "listed_regions: 5\n",
      "listed_regions: [[East US]]\n",
      "storage_targets:\n  - {name: x, kind: k, egress: 1e400 Gbit/s, ingress: 0, requests_per_s: "
      "0, source: s}\n",
      "vm_sizes:\n  - {name: Y, vcpus: 1e300, gpus: -1, ram: nan GiB, local_disk: 0, nic: -5 "
      "Gbit/s, source: s}\n",
      "vm_sizes:\n  - name: " + std::string(100000, 'x') + "\n",
      "- just\n- a\n- list\n",
      "vm_sizes:\n" + std::string(2000, ' ') + "- [\n",
  };
  int i = 0;
  for (const auto& text : inputs) {
    INFO("input #" << i);
    TempFile f("m" + std::to_string(i++) + ".yaml", text);
    DiagnosticList d;
    KnowledgeBase kb;
    const bool ok = kb.LoadFile(f.path(), &d);
    // Every input above is wrong somewhere: the loader must say so, with the file named.
    CHECK_FALSE(ok);
    REQUIRE(d.total() > 0);
    CHECK(d.kept().front().location.file == f.path());
    for (const auto& vm : kb.vms()) CHECK(vm.nic_gbps > 0);
  }
}
