// Files compiled into the binary (cmake/EmbedFiles.cmake): the knowledge base and the built-in
// rules, so that a copied `feedcheck` runs without a data folder. A folder on disk
// (FEEDCHECK_HOME, beside the binary, the installed share/feedcheck) only overrides them.
#pragma once

#include <string>
#include <vector>

namespace feedcheck {

/// One embedded file: its name as findings cite it ("data/vm_sizes.yaml") and its text, byte for
/// byte, so a row's line number is the source file's.
struct EmbeddedFile {
  std::string name;
  std::string text;
};

/// The knowledge base, data/*.yaml, sorted by name (generated: embedded_knowledge_base.cpp).
const std::vector<EmbeddedFile>& EmbeddedKnowledgeBase();

/// Embedded files overlaid by a folder's *.yaml (*.yml too when `yml` is set): a file of the
/// folder replaces the embedded one of the same file name, others add; sorted by file name.
/// Each entry's `name` is `prefix` + the file name; `path` is the folder's file to read, or ""
/// for an embedded one, whose `text` is set. A missing folder overrides nothing.
struct OverlaidFile {
  std::string name;
  std::string path;
  std::string text;
};
std::vector<OverlaidFile> OverlayFolder(const std::vector<EmbeddedFile>& embedded,
                                        const std::string& folder, const std::string& prefix,
                                        bool yml);

}  // namespace feedcheck
