// Every numeric flag of every command refuses what is not a finite number (nan, inf, -inf,
// 1e999) with a usage error naming the flag: a property over the whole command line as
// BuildRootApp makes it, so a flag added tomorrow is covered too.
#include "cli/finite_flags.h"

#include <catch2/catch.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/flag_tables.h"
#include "cli/root_app.h"
#include "tests/cli/run_feedcheck.h"

using namespace feedcheck::cli;

namespace {

struct NumericFlag {
  std::vector<std::string> command;  ///< "probe", "latency"
  std::string flag;                  ///< "--requests"
  std::string type;                  ///< "FLOAT", "INT", "UINT"
};

std::vector<std::string> WordsOfFile(const std::string& path) {
  std::istringstream in(path);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  if (!out.empty()) out.erase(out.begin());  // "feedcheck"
  return out;
}

std::vector<NumericFlag> NumericFlags() {
  CLI::App root;
  GlobalOptions globals;
  CommandTable table(&globals);
  BuildRootApp(root, globals, table);
  static const std::set<std::string> kNumeric = {"FLOAT", "INT", "UINT", "NUMBER"};
  std::vector<NumericFlag> out;
  for (const CLI::App* command : DocumentedCommands(root))
    for (const CLI::Option* option : command->get_options()) {
      if (option->get_items_expected_min() == 0 || option->get_lnames().empty()) continue;
      // "FLOAT:FLOAT in [0 - 100]": the type, then its checks' descriptions.
      const std::string full = option->get_type_name();
      const std::string type = full.substr(0, full.find(':'));
      if (kNumeric.count(type) == 0) continue;
      out.push_back({WordsOfFile(CommandPath(*command)), "--" + option->get_lnames()[0], type});
    }
  return out;
}

}  // namespace

TEST_CASE("every numeric flag of every command refuses nan, inf and 1e999, naming the flag",
          "[cli][finite]") {
  const std::vector<NumericFlag> flags = NumericFlags();
  // Not vacuous: the floating-point flags the issue named are among them.
  size_t floats = 0;
  for (const auto& f : flags) floats += f.type == "FLOAT";
  CHECK(flags.size() >= 20);
  CHECK(floats >= 4);
  for (const NumericFlag& f : flags) {
    for (const char* value : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999", "-1e999"}) {
      CLI::App root;
      GlobalOptions globals;
      CommandTable table(&globals);
      BuildRootApp(root, globals, table);
      std::vector<std::string> args = f.command;
      args.push_back(f.flag);
      args.push_back(value);
      std::string what;
      try {
        std::vector<std::string> reversed(args.rbegin(), args.rend());
        root.parse(reversed);
      } catch (const CLI::ParseError& e) {
        what = e.what();
      }
      INFO("feedcheck " << args[0] << " ... " << f.flag << " " << value << " (" << f.type
                        << "): " << what);
      CHECK_FALSE(what.empty());
      CHECK(what.find(f.flag) != std::string::npos);
    }
  }
}

TEST_CASE("the flags the issue named exit 2 with the flag named, through the binary",
          "[cli][finite]") {
  auto c = GENERATE(table<std::vector<std::string>, std::string>({
      {{"analyze", "x.log", "--gpu-busy-threshold", "nan"}, "--gpu-busy-threshold"},
      {{"postmortem", "job", "--gpu-busy-threshold", "nan"}, "--gpu-busy-threshold"},
      {{"fetch", "job", "-w", "w", "-g", "g", "-o", "out", "--az-timeout", "nan"}, "--az-timeout"},
      {{"fetch", "job", "-w", "w", "-g", "g", "-o", "out", "--az-timeout", "inf"}, "--az-timeout"},
      {{"postmortem", "job", "--gpu-hour-price", "1e999"}, "--gpu-hour-price"},
  }));
  const RunResult r = RunFeedcheck(std::get<0>(c));
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(std::get<1>(c)) != std::string::npos);
}
