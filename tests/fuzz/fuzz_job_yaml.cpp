// libFuzzer target: the YAML a user hands `feedcheck lint` and `--profile`: an Azure ML job file
// (ReadJobText, JobFacts) and a workload profile (LoadProfileText), and the job's definition a
// post-mortem reads from a job folder (ReadJobSpecText as job.yml and as job.json), all fed the
// same bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rules/job_file.h"
#include "rules/job_spec.h"
#include "rules/profile.h"

using namespace feedcheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  DiagnosticList diagnostics;
  rules::JobFile job;
  if (rules::ReadJobText("job.yml", text, &job, &diagnostics)) {
    (void)job.FirstDataInput();
    FactSet facts = rules::JobFacts(job);
    (void)facts.WithPrefix("runtime.setting.");
  }
  for (const char* name : {"job.yml", "job.json"}) {
    rules::JobSpec spec;
    if (rules::ReadJobSpecText(name, text, &spec, &diagnostics))
      (void)rules::JobSpecFacts(spec).WithPrefix("runtime.setting.");
  }
  rules::Profile profile;
  (void)rules::LoadProfileText("profile.yaml", text, &profile, &diagnostics);
  for (const auto& d : diagnostics.kept()) (void)FormatDiagnostic(d);
  return 0;
}
