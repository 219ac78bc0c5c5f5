#include "cli/flag_tables.h"

#include <fmt/format.h>

#include <algorithm>

namespace feedcheck::cli {
namespace {

constexpr std::string_view kMarkerOpen = "<!-- flags: ";
constexpr std::string_view kMarkerNote =
    " (generated from the CLI definitions; FEEDCHECK_UPDATE_DOCS=1 ctest -L docs rewrites) -->";

// A table cell: one line, '|' escaped, '<' kept from starting HTML.
std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '<')
      out += "&lt;";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

bool Documented(const CLI::Option* opt, const CLI::App& app) {
  return opt != app.get_help_ptr() && opt != app.get_help_all_ptr() && !opt->get_group().empty();
}

std::string Names(const CLI::Option& opt) {
  if (opt.get_positional()) return fmt::format("`{}`", opt.get_name(true, false));
  std::vector<std::string> names;
  for (const std::string& s : opt.get_snames()) names.push_back(fmt::format("`-{}`", s));
  for (const std::string& l : opt.get_lnames()) names.push_back(fmt::format("`--{}`", l));
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const CLI::App* FindCommand(const CLI::App& root, std::string_view path) {
  std::vector<std::string> words;
  size_t start = 0;
  while (start < path.size()) {
    size_t end = path.find(' ', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start) words.emplace_back(path.substr(start, end - start));
    start = end + 1;
  }
  if (words.empty() || words[0] != root.get_name()) return nullptr;
  const CLI::App* app = &root;
  for (size_t i = 1; i < words.size(); ++i) {
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == words[i]) next = sub;
    if (next == nullptr) return nullptr;
    app = next;
  }
  return app;
}

}  // namespace

std::string CommandPath(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* p = app.get_parent(); p != nullptr; p = p->get_parent())
    path = p->get_name() + " " + path;
  return path;
}

std::vector<const CLI::App*> DocumentedCommands(const CLI::App& root) {
  std::vector<const CLI::App*> out;
  auto options = root.get_options([&root](const CLI::Option* o) { return Documented(o, root); });
  if (!options.empty()) out.push_back(&root);
  for (const CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; })) {
    auto below = DocumentedCommands(*sub);
    out.insert(out.end(), below.begin(), below.end());
  }
  return out;
}

std::string FlagTableMarkdown(const CLI::App& app) {
  std::string out = "| Flag | Value | Default | Meaning |\n|---|---|---|---|\n";
  for (const CLI::Option* opt :
       app.get_options([&app](const CLI::Option* o) { return Documented(o, app); })) {
    const bool takes_value = opt->get_type_size_max() > 0 || opt->get_positional();
    std::string value = takes_value ? opt->get_type_name() : "";
    if (takes_value && opt->get_expected_max() > 1) value += " ...";
    std::string fallback = opt->get_required() ? "required" : opt->get_default_str();
    out += fmt::format(
        "| {} | {} | {} | {} |\n", Names(*opt), value.empty() ? "" : "`" + Cell(value) + "`",
        fallback.empty() ? "" : "`" + Cell(fallback) + "`", Cell(opt->get_description()));
  }
  return out;
}

std::string FlagTableMarker(std::string_view command_path) {
  return fmt::format("{}{}{}", kMarkerOpen, command_path, kMarkerNote);
}

FlagTablePage RegenerateFlagTables(const CLI::App& root, std::string_view page) {
  FlagTablePage result;
  size_t at = 0;
  auto line_of = [&page](size_t pos) {
    return 1 + std::count(page.begin(), page.begin() + static_cast<long>(pos), '\n');
  };
  while (true) {
    const size_t open = page.find(kMarkerOpen, at);
    if (open == std::string_view::npos) break;
    const size_t open_end = page.find("-->", open);
    const size_t close = page.find(kFlagTableEnd, open);
    if (open_end == std::string_view::npos || close == std::string_view::npos) {
      result.errors.push_back(
          fmt::format("line {}: a flags marker without '{}'", line_of(open), kFlagTableEnd));
      break;
    }
    std::string_view inside =
        page.substr(open + kMarkerOpen.size(), open_end - open - kMarkerOpen.size());
    std::string path(inside.substr(0, inside.find(" (")));
    while (!path.empty() && path.back() == ' ') path.pop_back();
    result.text.append(page.substr(at, open - at));
    const CLI::App* app = FindCommand(root, path);
    if (app == nullptr) {
      result.errors.push_back(fmt::format("line {}: no command '{}'", line_of(open), path));
      result.text.append(page.substr(open, close - open));
    } else {
      result.commands.push_back(path);
      result.text += FlagTableMarker(path) + "\n\n" + FlagTableMarkdown(*app) + "\n";
    }
    result.text.append(kFlagTableEnd);
    at = close + kFlagTableEnd.size();
  }
  result.text.append(page.substr(at));
  return result;
}

}  // namespace feedcheck::cli
