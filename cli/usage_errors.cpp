#include "cli/usage_errors.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "cli/help_examples.h"
#include "cli/usage_help.h"
#include "core/edit_distance.h"
#include "core/whole_number.h"

namespace feedcheck::cli {
namespace {

bool IsFlag(const std::string& token) { return token.size() > 1 && token[0] == '-'; }

std::vector<std::string> Words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// A value the message may repeat: short, and made of the characters of sizes, names and paths.
// Anything else (a token, a key, a SAS) is not printed: it may have been a secret given to the
// wrong place.
bool Showable(const std::string& value) {
  if (value.empty() || value.size() > 48) return false;
  if (value.find("sig=") != std::string::npos) return false;
  for (char c : value) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) != 0 ||
                    std::string_view("._-/%:+ ").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

std::string Shown(const std::string& value) {
  return Showable(value) ? fmt::format("'{}'", value) : "(value not shown)";
}

// The choice nearest to `word`: the smallest edit distance, then the same first letter.
std::string Nearest(const std::string& word, const std::vector<std::string>& choices) {
  std::string best;
  int best_distance = 0;
  for (const auto& c : choices) {
    int d = EditDistance(word, c);
    if (!word.empty() && !c.empty() && std::tolower(word[0]) != std::tolower(c[0])) ++d;
    if (best.empty() || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::vector<std::string> SplitChoices(const std::string& set) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(set);
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

std::string PathOf(const CLI::App& root, const CLI::App& chosen) {
  std::string line = CommandLineOf(chosen);
  return line.size() > root.get_name().size() ? line.substr(root.get_name().size() + 1) : "";
}

std::string Prefix(const CLI::App& root, const CLI::App& chosen) {
  return CommandLineOf(chosen) == root.get_name() ? root.get_name() : CommandLineOf(chosen);
}

std::string Footer(const std::string& path, const std::string& flag, const std::string& value,
                   const std::string& command_line) {
  return fmt::format("Example: {}\nRun '{} --help' for its flags.\n",
                     ExampleWith(path, flag, value), command_line);
}

std::string FormatNumber(double v) {
  // A whole number prints without a fraction; one past long long's range (a flag's bound such
  // as DBL_MAX) prints as %g: the cast would be undefined.
  if (std::fabs(v - std::round(v)) < 1e-9)
    if (auto whole = WholeNumber<long long>(v)) return fmt::format("{}", *whole);
  return fmt::format("{:g}", v);
}

// "--nodes: Value 0 not in range 1 to 100000" (numbers as std::to_string writes them).
std::string RangeMessage(const std::smatch& m, const std::string& prefix, const std::string& path,
                         const std::string& command_line) {
  const std::string flag = m[1], value = m[2];
  char* end = nullptr;
  const double low = std::strtod(m[3].str().c_str(), &end);
  const double high = std::strtod(m[4].str().c_str(), &end);
  const double given = std::strtod(value.c_str(), &end);
  const std::string nearest = FormatNumber(given < low ? low : high);
  return fmt::format("{}: {} {} is out of range ({} to {}). Did you mean '{} {}'?\n", prefix, flag,
                     Shown(value), FormatNumber(low), FormatNumber(high), flag, nearest) +
         Footer(path, flag, nearest, command_line);
}

std::string ExtrasMessage(const CLI::App& root, const std::vector<std::string>& args,
                          const CLI::App& chosen) {
  const std::string prefix = Prefix(root, chosen);
  const std::string path = PathOf(root, chosen);
  std::string message;
  std::vector<std::string> extras = root.remaining(true);
  std::string example_flag, example_value;
  for (const std::string& extra : extras) {
    // Where the extra word stands: right after a flag's value ("--bytes 1 TB") it is most
    // likely the rest of that value, split by a space.
    std::string flag, value;
    for (size_t i = 2; i < args.size(); ++i) {
      if (args[i] == extra && IsFlag(args[i - 2]) && !IsFlag(args[i - 1])) {
        flag = args[i - 2];
        value = args[i - 1];
        break;
      }
    }
    if (!flag.empty() && Showable(extra) && Showable(value)) {
      message += fmt::format(
          "{}: unexpected argument '{}' after '{} {}'. Did you mean '{} {}{}' (a value is one "
          "word: no space between a number and its unit)?\n",
          prefix, extra, flag, value, flag, value, extra);
      example_flag = flag;
      example_value = value + extra;
    } else {
      message +=
          fmt::format("{}: unexpected argument {}{}: {} takes no more arguments there.\n", prefix,
                      Shown(extra), flag.empty() ? "" : fmt::format(" after '{}'", flag), prefix);
    }
  }
  if (message.empty())
    message = fmt::format("{}: unexpected arguments (values not shown).\n", prefix);
  return message + Footer(path, example_flag, example_value, CommandLineOf(chosen));
}

}  // namespace

std::string ExampleWith(const std::string& command_path, const std::string& flag,
                        const std::string& value) {
  const std::vector<std::string>* examples = &HelpExamples(command_path);
  if (examples->empty()) {
    // A subcommand without its own examples: its parent's that name it.
    const size_t space = command_path.rfind(' ');
    if (space != std::string::npos) examples = &HelpExamples(command_path.substr(0, space));
  }
  const std::string command = "feedcheck" + (command_path.empty() ? "" : " " + command_path);
  if (examples->empty())
    return flag.empty() || value.empty() ? command + " --help"
                                         : fmt::format("{} {} {}", command, flag, value);
  std::vector<std::string> words = Words(examples->front());
  for (const auto& e : *examples) {
    if (!flag.empty() && e.find(" " + flag + " ") != std::string::npos) {
      words = Words(e);
      break;
    }
  }
  if (flag.empty() || value.empty()) return Join(words);
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == flag) {
      words[i + 1] = value;
      return Join(words);
    }
  }
  words.push_back(flag);
  words.push_back(value);
  return Join(words);
}

std::string ChosenCommandPath(const CLI::App& root, const std::vector<std::string>& args) {
  return PathOf(root, *ChosenCommand(root, args));
}

std::vector<std::string> HelpCommandArgs(const std::vector<std::string>& args) {
  if (args.empty() || args.front() != "help") return args;
  std::vector<std::string> out(args.begin() + 1, args.end());
  out.push_back("--help");
  return out;
}

std::string UsageErrorMessage(const CLI::App& root, const std::vector<std::string>& args,
                              const CLI::ParseError& error) {
  const CLI::App& chosen = *ChosenCommand(root, args);
  const std::string prefix = Prefix(root, chosen);
  const std::string path = PathOf(root, chosen);
  const std::string command_line = CommandLineOf(chosen);
  const std::string what = error.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    std::string unknown = UnknownFlagsMessage(root, args);
    return unknown.empty() ? ExtrasMessage(root, args, chosen) : unknown;
  }
  std::smatch m;
  static const std::regex kNotIn(R"(^(\S+): (.*) not in \{(.*)\}$)");
  if (std::regex_match(what, m, kNotIn)) {
    const std::string flag = m[1], value = m[2];
    const std::vector<std::string> choices = SplitChoices(m[3]);
    const std::string nearest = Nearest(value, choices);
    return fmt::format("{}: {} {} is not one of {}. Did you mean '{} {}'?\n", prefix, flag,
                       Shown(value), Join(choices), flag, nearest) +
           Footer(path, flag, nearest, command_line);
  }
  static const std::regex kRange(R"(^(\S+): Value (\S+) not in range (\S+) to (\S+)$)");
  if (std::regex_match(what, m, kRange)) return RangeMessage(m, prefix, path, command_line);
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    // "target is required": the positional or flag, with what it is.
    static const std::regex kRequired(R"(^(\S+) is required$)");
    if (std::regex_match(what, m, kRequired)) {
      const std::string name = m[1];
      const CLI::Option* opt = chosen.get_option_no_throw(name);
      const std::string described =
          opt != nullptr && !opt->get_description().empty() ? ": " + opt->get_description() : "";
      return fmt::format("{}: {} is required{}.\n", prefix, IsFlag(name) ? name : "the " + name,
                         described) +
             Footer(path, "", "", command_line);
    }
  }
  // Any other check (a file that does not exist, a value that does not convert, flags that go
  // together): CLI11's words, after the command, and an example.
  return fmt::format("{}: {}\n", prefix, what) + Footer(path, "", "", command_line);
}

}  // namespace feedcheck::cli
