// `feedcheck-mpi probe throughput | latency | smallfiles TARGET`: the single-node probes run on
// every MPI rank at once; rank 0 merges and prints. Built only when MPI is found.
#pragma once

namespace feedcheck {
class MpiWorld;
}

namespace feedcheck::cli {

/// Parses argv (identically on every rank), runs the probe on all ranks and returns the exit
/// status. Only rank 0 prints results; usage errors are printed by rank 0 only.
int RunMpiProbeCommand(MpiWorld& world, int argc, char** argv);

}  // namespace feedcheck::cli
