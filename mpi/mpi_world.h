// The few MPI operations a multi-node probe needs, behind a small class so MPI headers stay in
// this module (the normal feedcheck binary has no MPI dependency).
#pragma once

#include <string>
#include <vector>

namespace feedcheck {

class MpiWorld {
 public:
  /// MPI_Init; MPI_Finalize in the destructor.
  MpiWorld(int* argc, char*** argv);
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  void Barrier() const;
  /// Rank 0's value, on every rank.
  double Broadcast(double value) const;
  /// The largest value over all ranks, on every rank (used to agree on failing together).
  int AllMax(int value) const;
  /// Every rank's text, in rank order, on rank 0 (empty elsewhere).
  std::vector<std::string> Gather(const std::string& text) const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

/// This host's name (for facts' provenance and the per-node table).
std::string HostName();

/// Moves the calling thread into the network namespace /run/netns/NAME (as `ip netns` names
/// them), so sockets opened afterwards by it and threads it starts live there. MPI's own
/// connections, made before, stay where they were. False with a message on failure.
bool EnterNetworkNamespace(const std::string& name, std::string* error);

}  // namespace feedcheck
