// The cluster flags shared by `preflight` and `postmortem` (--sku, --nodes, --region,
// --account-kind, --account-egress-gbps), bound into an app::ClusterSpec.
#pragma once

#include <CLI/CLI.hpp>

#include "app/cluster_choice.h"

namespace feedcheck::cli {

/// Adds --sku, --nodes, --region, --account-kind, --account-egress-gbps.
void AddClusterOptions(CLI::App* app, app::ClusterSpec* flags);

}  // namespace feedcheck::cli
