// libFuzzer target: a knowledge-base YAML file (vm_sizes, storage_targets, listed_regions)
// through KnowledgeBase::LoadFile, then the lookups and fact builders callers use.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/knowledge_base.h"

using namespace feedcheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // LoadFile reads a path only; one scratch file per fuzzing process.
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("fuzz_knowledge_base_" + std::to_string(getpid()) + ".yaml"))
                                      .string();
  // Registered after `path` exists, so it runs before `path` is destroyed.
  static const bool cleanup = std::atexit([] { std::remove(path.c_str()); }) == 0;
  (void)cleanup;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  KnowledgeBase kb;
  DiagnosticList diagnostics;
  // Twice: the second load replaces every row by name, as an override file does.
  (void)kb.LoadFile(path, &diagnostics, "data/fuzz.yaml");
  (void)kb.LoadFile(path, &diagnostics);
  for (const auto& d : diagnostics.kept()) (void)FormatDiagnostic(d);
  FactSet facts;
  for (const auto& vm : kb.vms()) {
    (void)kb.FindVm(vm.name);
    kb.AddNodeFacts(vm, &facts);
  }
  for (const auto& t : kb.targets()) {
    if (kb.FindTarget(t.name) == nullptr) __builtin_trap();  // rows are kept by the same name
    kb.AddAccountFacts(t, &facts);
  }
  for (const auto& r : kb.listed_regions()) (void)kb.TargetForRegion(r);
  (void)kb.FindVm("Standard_ND96asr_v4");
  (void)kb.SuggestVm("nd96asr");
  (void)kb.SuggestTarget("standard");
  kb.AddAccountFacts(kb.TargetForRegion("East US"), &facts);
  kb.AddAccountFacts(kb.TargetForRegion("nowhere"), &facts);
  return 0;
}
