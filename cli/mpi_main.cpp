// feedcheck-mpi: the probes under MPI
// (`mpirun -np N feedcheck-mpi probe throughput|latency|smallfiles URL`).
#include "cli/cmd_probe_mpi.h"
#include "mpi/mpi_world.h"

int main(int argc, char** argv) {
  feedcheck::MpiWorld world(&argc, &argv);
  return feedcheck::cli::RunMpiProbeCommand(world, argc, argv);
}
