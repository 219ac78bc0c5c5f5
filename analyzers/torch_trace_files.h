// The profiler traces of a job, read beside its logs: each file through the one handle its sniff
// opened (analyzers/input_file.h), its figures per rank and step (analyzers/torch_steps.h) put
// into the evidence; and what the data runtime's reads took (its rslex read spans), the evidence
// beside a trace that says whether storage was slow.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "analyzers/input_file.h"
#include "analyzers/line_analyzer.h"
#include "analyzers/rslex_log.h"
#include "analyzers/torch_steps.h"
#include "core/evidence.h"

namespace feedcheck::analyzers {

/// Reads every trace of `paths` (opened through `open`), in path order: the diagnostics, facts,
/// series and timeline into `out`, what was read into `stats` (events as its lines, uncompressed
/// bytes); returns each rank's figures (a trace refused before its first step still gives its
/// rank, with no steps).
std::vector<RankFigures> ReadTraceFiles(const std::vector<std::string>& paths,
                                        const std::function<InputFile(const std::string&)>& open,
                                        const std::map<std::string, std::string>& node_of,
                                        Evidence* out, SourceStats* stats);

/// runtime.reads and runtime.read_ms_mean from the rslex spans whose name says they read
/// (read_file, fuse_read, ...): how long one read of the data runtime took, on average.
void AddStorageReadFacts(
    const std::map<std::string, RslexLogAnalyzer::SpanTotals, std::less<>>& spans,
    const std::string& source_file, Evidence* out);

}  // namespace feedcheck::analyzers
