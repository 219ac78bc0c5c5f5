// Stops that the job's nodes made together: a validation or a final evaluation of a
// multi-node job stops every node at about the same time.
//
// A node whose loader is slow idles much of the time, so a stop of a few minutes is not
// unlikely as one run of its own scattered waits, and OwnPhases leaves it to the input
// pipeline. But where each node's waits fall at their own random times, the chance that the
// other nodes were all stopped at that moment too is the product of their stop shares: a stop
// that most nodes made together is the job's own, however often one node waits.
//
// Nodes that wait in lockstep (data-parallel training, where every rank waits for the slowest
// at each step) share every stop, their loader's waits too: there, sharing says nothing. It is
// measured on the nodes' shortest stops (one sample: a loader's waits, seldom a phase) that
// nothing else explains (a checkpoint's write, a refusal: events every node meets at once), and
// where those coincide beyond chance, no stop is taken for being shared.
#pragma once

#include <vector>

#include "diagnosis/own_phases.h"

namespace feedcheck::diagnosis {

/// A shared stop is at least this long (and two samples).
inline constexpr double kSharedStopMinS = kShortOwnPhaseMinS;

/// One node's stops, from its input's start (the download's end).
struct NodeStops {
  std::vector<TimeSpan> runs;    // its runs of whole stops (WholeStopRuns), sorted
  std::vector<TimeSpan> phases;  // the phases found on the node alone (not retaken)
  // Beside each run: placed by evidence of its own (a refusal, the job's writes), so neither a
  // wait nor a phase: left out of the shares, the coincidences and the runs tried.
  std::vector<bool> explained;
  double sampled_s = 0;      // its sampled time from its input's start
  double input_start_s = 0;  // that start (its first GPU sample where no log says)
  double sample_s = 0;       // one GPU sample (or one bucket, when wider)
};

/// For each node, the runs (not among its phases, kSharedStopMinS and two samples or longer)
/// during whose middle so many of the other nodes were stopped too that, with each of them
/// stopped at random a share of its time (its runs outside its phases), that many or more
/// would coincide with chance at most kOwnPhaseChance over the node's runs tried (Bonferroni).
/// None when the nodes' one-sample stops coincide beyond chance (lockstep), and none for a node
/// whose phases would then fill more than kOwnPhasesMaxShare of its time. Needs two nodes.
std::vector<std::vector<TimeSpan>> SharedStops(const std::vector<NodeStops>& nodes);

}  // namespace feedcheck::diagnosis
