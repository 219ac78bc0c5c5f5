// feedcheck-mpi: the probes under MPI
// (`mpirun -np N feedcheck-mpi probe throughput|latency|smallfiles URL`).
#include <exception>

#include "cli/cmd_probe_mpi.h"
#include "core/exit_cleanup.h"
#include "mpi/mpi_world.h"

int main(int argc, char** argv) {
  // As for feedcheck: temporary files and children go with the process; a closed stdout ends
  // the command quietly, its cleanup done (core/exit_cleanup).
  feedcheck::InstallExitCleanupHandlers();
  feedcheck::IgnoreSigpipe();
  feedcheck::MpiWorld world(&argc, &argv);
  try {
    return feedcheck::cli::RunMpiProbeCommand(world, argc, argv);
  } catch (const std::exception& e) {
    if (!feedcheck::IsClosedOutputError(e)) throw;
    feedcheck::RunExitCleanup();
    return feedcheck::kClosedOutputExitCode;
  }
}
