// `facts list`: the fact vocabulary rules and reports use, from the registry: every key with its
// unit, usual origin and meaning (docs/facts.md is generated from the same registry).
#pragma once

#include <string>

#include "app/outcome.h"

namespace feedcheck::app {

struct FactsListRequest {
  std::string prefix;  ///< only keys starting with it ("probe.throughput"); "" for all
};

/// The Report ("Fact vocabulary") has the "Fact keys" table (key, unit, origin, description) and in
/// `result` the number of keys listed and of families among them (keys ending in ".<name>").
/// A prefix no key starts with: kUsage, with the nearest prefixes named.
Outcome RunFactsList(const FactsListRequest& request);

}  // namespace feedcheck::app
