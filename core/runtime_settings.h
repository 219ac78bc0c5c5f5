// The Azure ML data runtime's environment variables as the guide documents them: name, type,
// default, meaning and allowed range, so a job's settings (and feedcheck's own advice) can be
// checked against what the runtime understands.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace feedcheck {

enum class SettingType {
  kBool,       ///< true / false (any case: the guide's Python writes True / False)
  kCount,      ///< a whole number (threads, blocks, retries, milliseconds, seconds)
  kBytes,      ///< a whole number of bytes
  kCacheSize,  ///< bytes, negative for "leave this much free", with KB/MB/GB modifiers
  kFraction,   ///< a real number from 0 to 1
};

struct RuntimeSetting {
  std::string_view name;
  SettingType type;
  std::string_view default_value;  ///< as the guide states it
  std::string_view meaning;        ///< the guide's description, shortened
  double min = 0;                  ///< smallest sensible value (kCount, kBytes)
  std::string_view section;        ///< the guide's section that documents it
};

/// Every setting of the guide's "Available download settings" and "Available mount settings".
const std::vector<RuntimeSetting>& RuntimeSettings();

const RuntimeSetting* FindRuntimeSetting(std::string_view name);

/// For a name the runtime does not document but that looks like one of its settings (a
/// DATASET_MOUNT_, DATASET_UNMOUNT_, DATASET_RESERVED_, RSLEX_ or AZUREML_DATASET_ prefix, or a
/// letter or two from a documented name): the
/// documented name it most likely means, or "" when there is none; nullopt when the name is
/// not meant for the data runtime at all (PYTHONPATH, NCCL_DEBUG, ...).
std::optional<std::string> LikelyRuntimeSetting(std::string_view name);

/// Why `value` is not a value the guide allows for `setting`, or nullopt when it is.
std::optional<std::string> RuntimeSettingValueProblem(const RuntimeSetting& setting,
                                                      std::string_view value);

/// The bytes a kBytes or kCacheSize value stands for ("512", "100GB", "-10 GB": KB, MB and GB
/// as powers of 1024); nullopt for another type or a value that is not a size.
std::optional<double> RuntimeSettingBytes(const RuntimeSetting& setting, std::string_view value);

/// The public document the settings come from, cited with every problem about them.
std::string RuntimeSettingSource(const RuntimeSetting& setting);

}  // namespace feedcheck
