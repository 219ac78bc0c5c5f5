#include "analyzers/job_folder_help.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

namespace feedcheck::analyzers {

namespace {

struct LookedFor {
  const char* file;
  const char* what;
};

// The formats AnalyzePaths recognises (format_detect.h), as a user would name the files.
constexpr LookedFor kLookedFor[] = {
    {"data-capability.log", "the data runtime's activities and input mode"},
    {"rslex.log.*", "its requests, retries and throttling"},
    {"nvidia-smi CSV",
     "GPU samples: nvidia-smi --query-gpu=timestamp,index,utilization.gpu "
     "--format=csv -l 1"},
    {"DCGM text", "GPU samples: the DCGM exporter's DCGM_FI_DEV_GPU_UTIL lines"},
    {"metrics JSON or CSV", "storage account metrics: az monitor metrics list ... -o json"},
    {"StorageBlobLogs", "the account's request log: a Log Analytics export (CSV or JSON)"},
};

std::string WhatWasGiven(const std::string& path) {
  std::error_code ec;
  std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) return "does not exist";
  if (!std::filesystem::is_directory(st)) return "a file in no format feedcheck reads";
  auto it = std::filesystem::directory_iterator(path, ec);
  if (ec) return "a folder that cannot be read";
  if (it == std::filesystem::directory_iterator()) return "an empty folder";
  return "a folder with no file feedcheck reads";
}

}  // namespace

std::string NothingReadableHelp(const std::string& command, const std::vector<std::string>& paths,
                                const AnalysisResult& result) {
  std::string out;
  for (const auto& p : paths)
    out += fmt::format("feedcheck {}: nothing readable in {}: {}\n", command, p, WhatWasGiven(p));
  if (!result.skipped.empty())
    out += fmt::format("  {} file{} looked at, none recognised (listed above)\n",
                       result.skipped.size(), result.skipped.size() == 1 ? "" : "s");
  out += "feedcheck reads these, at any depth of the folders given:\n";
  for (const auto& l : kLookedFor) out += fmt::format("  {:<21} {}\n", l.file, l.what);
  out +=
      "Azure ML keeps a job's logs in the job's \"Outputs + logs\" tab: "
      "system_logs/data_capability/\n"
      "holds data-capability.log and rslex.log.*; user_logs/ (azureml-logs/ on older jobs) the "
      "job's own output.\n"
      "Fetch them all, every node's, with:\n"
      "  az ml job download --name JOB_NAME --all --download-path ./job\n"
      "then run feedcheck on ./job.\n"
      "See: Azure ML docs, \"Access data in a job\", section \"Using logs to diagnose issues\", "
      "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2;\n"
      "Azure ML CLI v2, \"az ml job download\", "
      "https://learn.microsoft.com/cli/azure/ml/job#az-ml-job-download\n";
  return out;
}

}  // namespace feedcheck::analyzers
