#include "core/embedded_file.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace feedcheck {
namespace fs = std::filesystem;

std::vector<OverlaidFile> OverlayFolder(const std::vector<EmbeddedFile>& embedded,
                                        const std::string& folder, const std::string& prefix,
                                        bool yml) {
  std::map<std::string, OverlaidFile> by_file_name;
  for (const auto& e : embedded) {
    const std::string file_name = fs::path(e.name).filename().string();
    by_file_name[file_name] = OverlaidFile{prefix + file_name, "", e.text};
  }
  std::error_code ec;
  if (!folder.empty() && fs::is_directory(folder, ec)) {
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file(ec) || !(ext == ".yaml" || (yml && ext == ".yml"))) continue;
      const std::string file_name = entry.path().filename().string();
      by_file_name[file_name] = OverlaidFile{prefix + file_name, entry.path().string(), ""};
    }
  }
  std::vector<OverlaidFile> out;
  out.reserve(by_file_name.size());
  for (auto& [name, file] : by_file_name) out.push_back(std::move(file));
  return out;
}

}  // namespace feedcheck
