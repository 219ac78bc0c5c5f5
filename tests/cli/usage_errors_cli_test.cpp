// Every usage error to the standard of the did-you-mean ones: the command, the bad value, the
// nearest valid one and an example. A property over the whole command line (every enumerated
// flag of every command, found from the CLI definitions), then the cases the issue met.
#include <catch2/catch.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/root_app.h"
#include "cli/usage_errors.h"
#include "tests/cli/run_feedcheck.h"

using namespace feedcheck::cli;

namespace {

std::vector<std::string> WordsOfLine(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

struct EnumeratedFlag {
  std::string path;  ///< "advise", "probe throughput"
  std::string flag;  ///< "--env-format"
  std::vector<std::string> choices;
  std::vector<std::string> positionals;  ///< a word for each required positional
};

// Every flag whose value is one of a set (CLI11 shows the set in the type: "TEXT:{a,b}"), on
// every command that runs (the leaves), the global ones under each.
std::vector<EnumeratedFlag> EnumeratedFlags() {
  CLI::App root;
  GlobalOptions globals;
  CommandTable table(&globals);
  BuildRootApp(root, globals, table);
  static const std::regex kSet(R"(\{([^}]*)\})");
  std::vector<EnumeratedFlag> out;
  std::vector<std::pair<std::string, const CLI::App*>> pending;
  for (const CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; }))
    pending.emplace_back(sub->get_name(), sub);
  while (!pending.empty()) {
    auto [path, app] = pending.back();
    pending.pop_back();
    auto subs = app->get_subcommands([](const CLI::App*) { return true; });
    for (const CLI::App* sub : subs) pending.emplace_back(path + " " + sub->get_name(), sub);
    if (!subs.empty()) continue;
    // Every argument and required flag gets a word, so the flag's value is what is refused
    // (CLI11 checks a command's own arguments before the global flags' values).
    std::vector<std::string> positionals;
    for (const CLI::Option* opt : app->get_options()) {
      if (opt->get_positional()) {
        positionals.push_back(std::string(FEEDCHECK_SOURCE_DIR) + "/README.md");  // a file
      } else if (opt->get_required() && !opt->get_lnames().empty()) {
        positionals.push_back("--" + opt->get_lnames().front());
        positionals.push_back("x");
      }
    }
    for (const CLI::App* owner : {app, static_cast<const CLI::App*>(&root)}) {
      for (const CLI::Option* opt : owner->get_options()) {
        std::smatch m;
        const std::string type = opt->get_type_name();
        if (opt->get_lnames().empty() || !std::regex_search(type, m, kSet)) continue;
        EnumeratedFlag f{path, "--" + opt->get_lnames().front(), {}, positionals};
        std::istringstream in(m[1].str());
        for (std::string c; std::getline(in, c, ',');) f.choices.push_back(c);
        out.push_back(std::move(f));
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a bad value of every enumerated flag gets the nearest value and an example",
          "[cli][usage]") {
  const std::vector<EnumeratedFlag> flags = EnumeratedFlags();
  // The property covers what the issue met and more: --env-format, --format, --fail-on, --auth.
  size_t commands_with_format = 0;
  for (const auto& f : flags) commands_with_format += f.flag == "--format" ? 1 : 0;
  CHECK(commands_with_format >= 10);
  REQUIRE(flags.size() >= 30);
  for (const auto& f : flags) {
    for (const auto& choice : f.choices) {
      // One letter more than a valid value: that value is the nearest.
      const std::string bad = choice + "x";
      std::vector<std::string> args = WordsOfLine(f.path);
      args.insert(args.end(), f.positionals.begin(), f.positionals.end());
      args.push_back(f.flag);
      args.push_back(bad);
      RunResult r = RunFeedcheck(args);
      INFO("feedcheck " << f.path << " " << f.flag << " " << bad << "\n" << r.err);
      CHECK(r.exit_code == 2);
      CHECK(Has(r.err, "feedcheck " + f.path + ": "));                    // the command
      CHECK(Has(r.err, "'" + bad + "'"));                                 // the bad value
      CHECK(Has(r.err, "Did you mean '" + f.flag + " " + choice + "'"));  // the nearest
      // An example of this command, with the nearest value in it.
      std::smatch example;
      REQUIRE(std::regex_search(r.err, example, std::regex("Example: (feedcheck [^\n]*)")));
      CHECK(Has(example[1].str(), "feedcheck " + f.path));
      CHECK(Has(example[1].str() + " ", " " + f.flag + " " + choice + " "));
    }
  }
}

TEST_CASE("a value split by a space names the flag and the value it meant", "[cli][usage]") {
  RunResult r = RunFeedcheck({"plan", "--bytes", "1", "TB", "--sku", "Standard_ND96asr_v4"});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(Has(r.err, "feedcheck plan: unexpected argument 'TB' after '--bytes 1'"));
  CHECK(Has(r.err, "Did you mean '--bytes 1TB'"));
  CHECK(Has(r.err, "Example: feedcheck plan --bytes 1TB "));
  CHECK_FALSE(Has(r.err, "values not shown"));
  // A long word that could be a secret is never repeated.
  const std::string secret = "sv=2024-01-01&sig=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdef";
  r = RunFeedcheck({"plan", "--bytes", "1TB", secret});
  CHECK(r.exit_code == 2);
  CHECK_FALSE(Has(r.err, "AbCdEfGh"));
  CHECK(Has(r.err, "feedcheck plan: unexpected argument (value not shown)"));
  CHECK(Has(r.err, "Example: feedcheck plan "));
}

TEST_CASE("a missing argument says what it is, with an example", "[cli][usage]") {
  RunResult r = RunFeedcheck({"probe", "throughput"});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(Has(r.err, "feedcheck probe throughput: the target is required: "));
  CHECK(Has(r.err, "Example: feedcheck probe throughput https://"));
  r = RunFeedcheck({"fetch", "--jobs-since", "7d"});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(Has(r.err, "feedcheck fetch: --dir is required"));
  CHECK(Has(r.err, "Example: feedcheck fetch "));
}

TEST_CASE("a number out of range gets the nearest bound", "[cli][usage]") {
  RunResult r = RunFeedcheck({"postmortem", "tests/data/joblogs/job-demo", "--workers", "0"});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(Has(r.err, "feedcheck postmortem: --workers '0' is out of range (1 to 256)"));
  CHECK(Has(r.err, "Did you mean '--workers 1'"));
  CHECK(Has(r.err, "Example: feedcheck postmortem tests/data/joblogs/job-demo --workers 1"));
  r = RunFeedcheck({"postmortem", "tests/data/joblogs/job-demo", "--workers", "999"});
  CHECK(Has(r.err, "Did you mean '--workers 256'"));
}

TEST_CASE("feedcheck help COMMAND is COMMAND --help", "[cli][usage]") {
  for (const std::vector<std::string>& path :
       std::vector<std::vector<std::string>>{{"egress"}, {"probe", "throughput"}, {"fetch"}}) {
    std::vector<std::string> help{"help"};
    help.insert(help.end(), path.begin(), path.end());
    std::vector<std::string> dashed = path;
    dashed.push_back("--help");
    RunResult a = RunFeedcheck(help), b = RunFeedcheck(dashed);
    INFO(path.front());
    CHECK(a.exit_code == 0);
    CHECK(a.out == b.out);
    CHECK(Has(a.out, "Examples:\n  feedcheck " + path.front()));
  }
  RunResult all = RunFeedcheck({"help"});
  CHECK(all.exit_code == 0);
  CHECK(Has(all.out, "postmortem"));
  RunResult near = RunFeedcheck({"help", "egres"});
  CHECK(near.exit_code == 2);
  CHECK(Has(near.err, "Did you mean 'egress'?"));
}

TEST_CASE("fetch's folder flag: --dir, and -o still names it", "[cli][usage]") {
  RunResult help = RunFeedcheck({"fetch", "--help"});
  INFO(help.out);
  CHECK(Has(help.out, "--dir"));
  CHECK(Has(help.out, "not a report file"));
  CHECK(Has(help.out, "Examples:\n  feedcheck fetch "));
  // -o and --output are the folder too: the same usage error, about the job, not the flag.
  for (const char* flag : {"-o", "--output", "--dir"}) {
    RunResult r = RunFeedcheck({"fetch", flag, "somewhere"});
    INFO(flag << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(Has(r.err, "give JOB_NAME, or --jobs-since DURATION"));
  }
}

TEST_CASE("an example is one of the command's own, with the value asked for", "[cli][usage]") {
  CHECK(ExampleWith("advise", "--env-format", "yaml") ==
        "feedcheck advise --profile examples/small-files-multi-epoch.yaml --env-format yaml");
  CHECK(ExampleWith("egress", "--json-nope", "") ==
        "feedcheck egress --sku Standard_ND96asr_v4 --region eastus --nodes 12");
  CHECK(ExampleWith("version", "", "") == "feedcheck version --help");
  CHECK(HelpCommandArgs({"help", "probe", "nic"}) ==
        std::vector<std::string>{"probe", "nic", "--help"});
  CHECK(HelpCommandArgs({"egress", "help"}) == std::vector<std::string>{"egress", "help"});
}
