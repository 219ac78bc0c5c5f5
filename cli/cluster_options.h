// The cluster flags shared by `preflight` and `postmortem` (--sku, --nodes, --region,
// --account-kind, --account-egress-gbps), bound into an app::ClusterSpec.
#pragma once

#include <CLI/CLI.hpp>

#include "app/cluster_choice.h"
#include "cli/sizing_common.h"

namespace feedcheck::cli {

using ClusterFlags = app::ClusterSpec;
using app::AddClusterKnowledge;
using app::ClusterChoice;
using app::ClusterFlagFacts;
using app::ResolveCluster;

/// Adds --sku, --nodes, --region, --account-kind, --account-egress-gbps.
void AddClusterOptions(CLI::App* app, ClusterFlags* flags);

}  // namespace feedcheck::cli
