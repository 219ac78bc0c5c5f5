// commands_doc: the flag tables of the command pages (docs/commands.md and docs/commands/*.md),
// generated from the CLI11 definitions. Checks that every table is current and that every
// command with flags has one; with FEEDCHECK_UPDATE_DOCS=1 rewrites the tables instead.
// Usage: commands_doc DOCS_DIR   (ctest `docs: command flag tables match the CLI`)
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/flag_tables.h"
#include "cli/root_app.h"
#include "core/atomic_file.h"

namespace {

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first line where two texts differ, 1-based, for a message a person can follow.
int FirstDifferentLine(const std::string& a, const std::string& b) {
  int line = 1;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) return line;
    if (a[i] == '\n') ++line;
  }
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace feedcheck;
  if (argc != 2) {
    std::fprintf(stderr, "usage: commands_doc DOCS_DIR\n");
    return 2;
  }
  const fs::path docs = argv[1];
  const char* update_env = std::getenv("FEEDCHECK_UPDATE_DOCS");
  const bool update = update_env != nullptr && std::string(update_env) == "1";

  CLI::App app;
  cli::GlobalOptions globals;
  cli::CommandTable table(&globals);
  cli::BuildRootApp(app, globals, table);

  std::vector<fs::path> pages = {docs / "commands.md"};
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(docs / "commands", ec))
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  std::sort(pages.begin() + 1, pages.end());

  int status = 0;
  std::map<std::string, std::vector<std::string>> tables;  // command path -> pages
  for (const fs::path& page : pages) {
    const std::string text = Slurp(page);
    const std::string shown = "docs/" + fs::relative(page, docs).generic_string();
    cli::FlagTablePage fresh = cli::RegenerateFlagTables(app, text);
    for (const std::string& e : fresh.errors) {
      std::printf("%s: %s\n", shown.c_str(), e.c_str());
      status = 1;
    }
    for (const std::string& c : fresh.commands) tables[c].push_back(shown);
    if (fresh.text == text) continue;
    if (update) {
      std::string error;
      if (!WriteFileAtomically(page.string(), fresh.text, &error)) {
        std::printf("%s\n", error.c_str());
        status = 1;
        continue;
      }
      std::printf("%s: flag tables rewritten\n", shown.c_str());
    } else {
      std::printf("%s:%d: a flag table differs from the CLI's definitions\n", shown.c_str(),
                  FirstDifferentLine(text, fresh.text));
      status = 1;
    }
  }
  for (const CLI::App* command : cli::DocumentedCommands(app)) {
    const std::string path = cli::CommandPath(*command);
    const auto it = tables.find(path);
    if (it == tables.end()) {
      std::printf("no page has the flag table of '%s' (add a line '%s' and '%s')\n", path.c_str(),
                  cli::FlagTableMarker(path).c_str(), std::string(cli::kFlagTableEnd).c_str());
      status = 1;
    } else if (it->second.size() > 1) {
      std::printf("'%s' has %zu flag tables (one is enough)\n", path.c_str(), it->second.size());
      status = 1;
    }
  }
  if (status != 0 && !update)
    std::printf("Regenerate: FEEDCHECK_UPDATE_DOCS=1 ctest --test-dir build -L docs\n");
  if (status == 0)
    std::printf("%zu flag tables on %zu pages match the CLI\n", tables.size(), pages.size());
  return status;
}
