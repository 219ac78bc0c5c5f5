// The real `feedcheck probe ... --json` run inside the client namespace that with_link.sh made,
// for the accuracy tests over emulated links.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "tests/support/subprocess.h"

namespace feedcheck::testing {

/// Runs `feedcheck probe ARGS --json` in NETNS_CLIENT; requires exit 0 and JSON on stdout.
inline nlohmann::json RunProbeInClient(const std::string& args) {
  REQUIRE(EnvOr("NETNS_CLIENT", "") != "");
  std::string feedcheck = EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck");
  std::string command = "ip netns exec " + ShellQuote(EnvOr("NETNS_CLIENT", "")) + " " +
                        ShellQuote(feedcheck) + " probe " + args + " --json";
  CommandResult r = RunCommand(command);
  INFO(command << "\nexit " << r.exit_code << "\nstderr: " << r.err << "\nstdout: " << r.out);
  REQUIRE(r.exit_code == 0);
  auto json = ParseJson(r.out);
  REQUIRE(json.has_value());
  return *json;
}

}  // namespace feedcheck::testing
