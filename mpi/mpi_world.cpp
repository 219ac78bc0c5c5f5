#include "mpi/mpi_world.h"

#include <fcntl.h>
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace feedcheck {

MpiWorld::MpiWorld(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiWorld::~MpiWorld() { MPI_Finalize(); }

void MpiWorld::Barrier() const { MPI_Barrier(MPI_COMM_WORLD); }

double MpiWorld::Broadcast(double value) const {
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return value;
}

int MpiWorld::AllMax(int value) const {
  int out = value;
  MPI_Allreduce(&value, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

std::vector<std::string> MpiWorld::Gather(const std::string& text) const {
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(root() ? static_cast<size_t>(size_) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(lengths.size());
  int total = 0;
  for (size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = total;
    total += lengths[i];
  }
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (size_t i = 0; i < lengths.size(); ++i)
    out.push_back(all.substr(static_cast<size_t>(offsets[i]), static_cast<size_t>(lengths[i])));
  return out;
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

bool EnterNetworkNamespace(const std::string& name, std::string* error) {
  if (name.empty() || name.find('/') != std::string::npos) {
    *error = "network namespace '" + name + "': not a namespace name";
    return false;
  }
  std::string path = "/run/netns/" + name;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  int rc = setns(fd, CLONE_NEWNET);
  int saved = errno;
  close(fd);
  if (rc != 0) {
    *error = "setns " + path + ": " + std::strerror(saved);
    return false;
  }
  return true;
}

}  // namespace feedcheck
