// How `feedcheck-mpi probe smallfiles` shows the merged result on rank 0: the per-node table,
// slowest and fastest node, the cluster fit and the aggregate request rate (text), and the
// same as the "cluster" object of --json.
#pragma once

#include <nlohmann/json.hpp>

#include "mpi/smallfile_merge.h"

namespace feedcheck::cli {

void PrintSmallFilesText(const ClusterSmallFiles& c, int ranks);
nlohmann::json SmallFilesClusterJson(const ClusterSmallFiles& c);

}  // namespace feedcheck::cli
