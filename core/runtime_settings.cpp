#include "core/runtime_settings.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "core/ascii_text.h"
#include "core/edit_distance.h"

namespace feedcheck {
namespace {

constexpr std::string_view kDownload = "Available download settings";
constexpr std::string_view kMount = "Available mount settings";

// Whole-number text: optional sign, digits only.
bool IsInteger(std::string_view s, bool allow_negative) {
  size_t i = 0;
  if (allow_negative && !s.empty() && s[0] == '-') i = 1;
  if (i >= s.size()) return false;
  for (; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

std::optional<double> Real(std::string_view s) {
  std::string text(s);
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// "512", "-10GB", "100 MB": the guide's "Supports KB, MB and GB modifiers" for the cache size.
bool IsCacheSize(std::string_view s) {
  std::string t = ToUpper(s);
  for (std::string_view unit : {"KB", "MB", "GB"})
    if (t.size() > unit.size() && t.compare(t.size() - unit.size(), unit.size(), unit) == 0) {
      t.resize(t.size() - unit.size());
      while (!t.empty() && t.back() == ' ') t.pop_back();
      break;
    }
  return IsInteger(t, /*allow_negative=*/true);
}

}  // namespace

const std::vector<RuntimeSetting>& RuntimeSettings() {
  static const std::vector<RuntimeSetting> kSettings = {
      {"RSLEX_DOWNLOADER_THREADS", SettingType::kCount, "NUMBER_OF_CPU_CORES * 4",
       "number of concurrent threads download can use", 1, kDownload},
      {"AZUREML_DATASET_HTTP_RETRY_COUNT", SettingType::kCount, "7",
       "retry attempts of each storage / HTTP request to recover from transient errors", 0,
       kDownload},
      {"DATASET_MOUNT_ATTRIBUTE_CACHE_TTL", SettingType::kCount, "not set (never expires)",
       "milliseconds to keep getattr results in cache", 0, kMount},
      {"DATASET_RESERVED_FREE_DISK_SPACE", SettingType::kBytes, "150 MB",
       "bytes of disk the runtime never uses, to keep the compute healthy", 0, kMount},
      {"DATASET_MOUNT_CACHE_SIZE", SettingType::kCacheSize, "unlimited",
       "disk space the mount may use: positive, bytes to use; negative, bytes to leave free (KB, "
       "MB, GB modifiers)",
       0, kMount},
      {"DATASET_MOUNT_FILE_CACHE_PRUNE_THRESHOLD", SettingType::kFraction, "1.0",
       "fraction of the cache size at which pruning starts; between 0 and 1", 0, kMount},
      {"DATASET_MOUNT_FILE_CACHE_PRUNE_TARGET", SettingType::kFraction, "0.7",
       "pruning frees at least (1 - this) of the cache", 0, kMount},
      {"DATASET_MOUNT_READ_BLOCK_SIZE", SettingType::kBytes, "2 MB",
       "streaming read block size in bytes", 1, kMount},
      {"DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT", SettingType::kCount, "32",
       "number of blocks to prefetch after the one read", 1, kMount},
      {"DATASET_MOUNT_READ_THREADS", SettingType::kCount, "NUMBER_OF_CORES * 4",
       "number of background prefetching threads", 1, kMount},
      {"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", SettingType::kBool, "false",
       "block-based caching (false: whole-file cache)", 0, kMount},
      {"DATASET_MOUNT_MEMORY_CACHE_SIZE", SettingType::kBytes, "128 MB",
       "RAM for block-based caching in bytes; 0 disables the memory cache", 0, kMount},
      {"DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED", SettingType::kBool, "true",
       "block-based caching also caches blocks on the local disk", 0, kMount},
      {"DATASET_MOUNT_BLOCK_FILE_CACHE_MAX_QUEUE_SIZE", SettingType::kBytes, "512 MB",
       "memory for blocks waiting to be written to the disk cache, in bytes", 1, kMount},
      {"DATASET_MOUNT_BLOCK_FILE_CACHE_WRITE_THREADS", SettingType::kCount, "NUMBER_OF_CORES * 2",
       "threads writing downloaded blocks to the disk cache", 1, kMount},
      {"DATASET_UNMOUNT_TIMEOUT_SECONDS", SettingType::kCount, "30",
       "seconds for unmount to finish pending operations", 0, kMount},
  };
  return kSettings;
}

const RuntimeSetting* FindRuntimeSetting(std::string_view name) {
  for (const auto& s : RuntimeSettings())
    if (s.name == name) return &s;
  return nullptr;
}

std::optional<std::string> LikelyRuntimeSetting(std::string_view name) {
  if (FindRuntimeSetting(name)) return std::nullopt;
  std::vector<std::string> names;
  for (const auto& s : RuntimeSettings()) names.emplace_back(s.name);
  const std::string upper = ToUpper(name);
  // Prefixes only the data runtime uses. DATASET_ alone is not one: jobs set DATASET_PATH or
  // DATASET_NAME for their own scripts.
  const bool runtime_prefix = StartsWith(upper, "DATASET_MOUNT_") ||
                              StartsWith(upper, "DATASET_UNMOUNT_") ||
                              StartsWith(upper, "DATASET_RESERVED_") ||
                              StartsWith(upper, "RSLEX_") || StartsWith(upper, "AZUREML_DATASET_");
  // Without the runtime's prefixes, only a near miss (a letter or two) is taken for one of its
  // settings: NCCL_DEBUG or DATASET_PATH is not a misspelt setting.
  // A name cut short of its last word (DATASET_MOUNT_BLOCK_BASED_CACHE for ..._ENABLED) is the
  // setting it begins, when only one begins so.
  if (runtime_prefix) {
    std::string only;
    int count = 0;
    for (const auto& n : names)
      if (n.size() > upper.size() && StartsWith(n, upper) && n[upper.size()] == '_') {
        only = n;
        ++count;
      }
    if (count == 1) return only;
  }
  std::string best;
  int best_distance = 1000;
  for (const auto& n : names) {
    int d = EditDistance(name, n, 64);
    if (d < best_distance) best_distance = d, best = n;
  }
  const int limit = runtime_prefix ? std::max(3, static_cast<int>(name.size()) / 4) : 2;
  if (best_distance <= limit) return best;
  if (runtime_prefix) return std::string();
  return std::nullopt;
}

std::optional<std::string> RuntimeSettingValueProblem(const RuntimeSetting& setting,
                                                      std::string_view value) {
  const std::string text(Trim(value));
  switch (setting.type) {
    case SettingType::kBool: {
      const std::string lower = ToLower(text);
      if (lower == "true" || lower == "false") return std::nullopt;
      return fmt::format("\"{}\" is not true or false", text);
    }
    case SettingType::kCount:
    case SettingType::kBytes: {
      if (!IsInteger(text, /*allow_negative=*/true))
        return setting.type == SettingType::kBytes
                   ? fmt::format(
                         "\"{}\" is not a whole number of bytes (the guide documents KB, MB and GB "
                         "modifiers for DATASET_MOUNT_CACHE_SIZE only)",
                         text)
                   : fmt::format("\"{}\" is not a whole number", text);
      const double v = std::strtod(text.c_str(), nullptr);
      if (v < setting.min)
        return setting.min > 0 ? fmt::format("{} is below {}: the setting needs at least {}", text,
                                             setting.min, setting.min)
                               : fmt::format("{} is negative", text);
      return std::nullopt;
    }
    case SettingType::kCacheSize:
      if (IsCacheSize(text)) return std::nullopt;
      return fmt::format(
          "\"{}\" is not a size in bytes, KB, MB or GB (negative: space to leave free)", text);
    case SettingType::kFraction: {
      auto v = Real(text);
      if (!v) return fmt::format("\"{}\" is not a number", text);
      if (*v < 0 || *v > 1) return fmt::format("{} is outside 0 to 1", text);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<double> RuntimeSettingBytes(const RuntimeSetting& setting, std::string_view value) {
  if (setting.type != SettingType::kBytes && setting.type != SettingType::kCacheSize)
    return std::nullopt;
  std::string t = ToUpper(Trim(value));
  double scale = 1;
  if (setting.type == SettingType::kCacheSize) {
    const std::pair<std::string_view, double> units[] = {
        {"KB", 1024.0}, {"MB", 1024.0 * 1024}, {"GB", 1024.0 * 1024 * 1024}};
    for (const auto& [unit, factor] : units)
      if (t.size() > unit.size() && t.compare(t.size() - unit.size(), unit.size(), unit) == 0) {
        t.resize(t.size() - unit.size());
        while (!t.empty() && t.back() == ' ') t.pop_back();
        scale = factor;
        break;
      }
  }
  if (!IsInteger(t, /*allow_negative=*/true)) return std::nullopt;
  return std::strtod(t.c_str(), nullptr) * scale;
}

std::string RuntimeSettingSource(const RuntimeSetting& setting) {
  return fmt::format(
      "Azure ML docs, \"Access data in a job\", section \"{}\", "
      "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2",
      setting.section);
}

}  // namespace feedcheck
