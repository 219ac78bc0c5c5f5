#include "cli/usage_help.h"

#include <fmt/format.h>

#include "cli/help_examples.h"
#include "cli/usage_errors.h"
#include "core/edit_distance.h"

namespace feedcheck::cli {
namespace {

bool IsFlagToken(const std::string& token) { return token.size() > 1 && token[0] == '-'; }

std::string FlagName(const std::string& token) {
  std::string name = token.substr(0, token.find('='));
  return name;
}

// The option `token` names on `app` or, for the global ones, on the root.
const CLI::Option* FindOption(const CLI::App& app, const CLI::App& root, const std::string& name) {
  for (const CLI::App* a : {&app, &root}) {
    for (const CLI::Option* opt : a->get_options()) {
      if (opt->check_name(name)) return opt;
    }
  }
  return nullptr;
}

std::vector<const CLI::App*> Subcommands(const CLI::App& app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    out.push_back(sub);
  return out;
}

std::string CommandLine(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* p = app.get_parent(); p != nullptr; p = p->get_parent())
    path = p->get_name() + " " + path;
  return path;
}

std::string ListOf(const CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : Subcommands(app)) {
    if (!names.empty()) names += ", ";
    names += sub->get_name();
  }
  return names;
}

// The deepest subcommand the arguments name, following the same walk as CommandPathProblem.
const CLI::App* DeepestCommand(const CLI::App& root, const std::vector<std::string>& args) {
  const CLI::App* current = &root;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "--") break;
    if (IsFlagToken(token)) {
      const CLI::Option* opt = FindOption(*current, root, FlagName(token));
      if (opt != nullptr && opt->get_items_expected_max() > 0 &&
          token.find('=') == std::string::npos)
        ++i;  // its value
      continue;
    }
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : Subcommands(*current))
      if (sub->check_name(token)) next = sub;
    if (next == nullptr) break;
    current = next;
  }
  return current;
}

// Spellings too far for an edit distance ("thruput" for "throughput") still share their start:
// the one candidate with the same first three letters (past a "--").
std::vector<std::string> SamePrefix(const std::string& word,
                                    const std::vector<std::string>& names) {
  size_t skip = word.rfind("--", 0) == 0 ? 2 : 0;
  if (word.size() < skip + 3) return {};
  std::vector<std::string> out;
  for (const std::string& n : names) {
    if (n.size() >= skip + 3 && n.compare(0, skip + 3, word, 0, skip + 3) == 0) out.push_back(n);
  }
  if (out.size() != 1) out.clear();
  return out;
}

}  // namespace

const CLI::App* ChosenCommand(const CLI::App& root, const std::vector<std::string>& args) {
  return DeepestCommand(root, args);
}

std::string CommandLineOf(const CLI::App& app) { return CommandLine(app); }

std::optional<std::string> CommandPathProblem(const CLI::App& root,
                                              const std::vector<std::string>& args) {
  const CLI::App* current = &root;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "--help" || token == "-h" || token == "--version") return std::nullopt;
    if (token == "--") break;
    if (IsFlagToken(token)) {
      const CLI::Option* opt = FindOption(*current, root, FlagName(token));
      if (opt != nullptr && opt->get_items_expected_max() > 0 &&
          token.find('=') == std::string::npos)
        ++i;
      continue;
    }
    std::vector<const CLI::App*> subs = Subcommands(*current);
    if (subs.empty()) return std::nullopt;  // a leaf command's own argument
    const CLI::App* next = nullptr;
    std::vector<std::string> names;
    for (const CLI::App* sub : subs) {
      if (sub->check_name(token)) next = sub;
      names.push_back(sub->get_name());
    }
    if (next != nullptr) {
      current = next;
      continue;
    }
    if (current->get_require_subcommand_min() == 0) return std::nullopt;
    std::string message = fmt::format("{}: '{}' is not a command.", CommandLine(*current), token);
    std::vector<std::string> near = Suggest(token, names);
    if (near.empty()) near = SamePrefix(token, names);
    if (!near.empty()) {
      message += " Did you mean";
      for (size_t k = 0; k < near.size(); ++k)
        message +=
            fmt::format("{} '{}'", k == 0 ? "" : (k + 1 == near.size() ? " or" : ","), near[k]);
      message += "?";
    }
    message += fmt::format("\nCommands: {}.\nRun '{} --help' for what each does.\n",
                           ListOf(*current), CommandLine(*current));
    return message;
  }
  if (current->get_require_subcommand_min() > 0) {
    if (current == &root) return root.help();
    return fmt::format("{}: which one? {}.\nRun '{} --help' for what each does.\n",
                       CommandLine(*current), ListOf(*current), CommandLine(*current));
  }
  return std::nullopt;
}

std::string UnknownFlagsMessage(const CLI::App& root, const std::vector<std::string>& args) {
  const CLI::App* chosen = DeepestCommand(root, args);
  std::vector<std::string> known;
  for (const CLI::App* a : {chosen, &root}) {
    for (const CLI::Option* opt : a->get_options()) {
      for (const std::string& n : opt->get_lnames()) known.push_back("--" + n);
    }
  }
  std::string message;
  for (const std::string& token : args) {
    if (!IsFlagToken(token) || token == "--") continue;
    std::string name = FlagName(token);
    if (FindOption(*chosen, root, name) != nullptr) continue;
    message += fmt::format("{}: unknown flag '{}'.", CommandLine(*chosen), name);
    std::vector<std::string> near = Suggest(name, known, 1);
    if (near.empty()) near = SamePrefix(name, known);
    if (near.size() == 1) message += fmt::format(" Did you mean '{}'?", near[0]);
    message += "\n";
  }
  if (message.empty()) return message;
  std::string path = CommandLine(*chosen);
  path = path.size() > root.get_name().size() ? path.substr(root.get_name().size() + 1) : "";
  return message + fmt::format("Example: {}\nRun '{} --help' for its flags.\n",
                               ExampleWith(path, "", ""), CommandLine(*chosen));
}

void AddGlobalFlagsToHelp(CLI::App& root) {
  const std::string footer =
      "\nFlags for every command (before or after its name):\n"
      "  --json             machine-readable output (JSON with schema_version)\n"
      "  --fail-on LEVEL    exit 1 when a finding is at or above info|warning|critical "
      "(default critical), never\n"
      "  --no-color         no colour (NO_COLOR works too)\n"
      "  -v, --verbose      list every rule not evaluated and the facts it lacked\n"
      "  --kb FILE          your own knowledge-base rows (VM sizes, storage limits)\n"
      "  --rules DIR        your own rules, added to the built-in ones\n"
      "Sizes: KB/MB/GB/TB are powers of 1000, KiB/MiB/GiB/TiB of 1024 (any case); durations: "
      "90, 90s, 2m, 1h30m, 500ms.\n"
      "Exit codes: 0 ok, 1 findings at --fail-on, 2 usage, 3 input or target error, 4 probe "
      "failed.\n";
  std::vector<CLI::App*> pending = root.get_subcommands([](CLI::App*) { return true; });
  while (!pending.empty()) {
    CLI::App* app = pending.back();
    pending.pop_back();
    // The command's path under the root ("probe throughput"), for its examples, which end it.
    std::string path;
    for (const CLI::App* a = app; a != nullptr && a->get_parent() != nullptr; a = a->get_parent())
      path = a->get_name() + (path.empty() ? "" : " " + path);
    std::string examples;
    for (const auto& e : HelpExamples(path)) examples += "  " + e + "\n";
    app->footer(examples.empty() ? footer : footer + "Examples:\n" + examples);
    for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; }))
      pending.push_back(sub);
  }
}

}  // namespace feedcheck::cli
