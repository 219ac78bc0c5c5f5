// What a rule's finding points at (its bottleneck class) and what it rests on (its basis):
// carried from the rule YAML (`class:`, `basis:`) to the Finding, so a post-mortem can name a
// cause without a table of rule ids, and can tell an observation from arithmetic on paper.
#pragma once

#include <optional>
#include <string_view>

namespace feedcheck {

/// The bottleneck classes a finding can point at, in the order in which one caps the next: a
/// job that storage refused (403, 404, ...) gets no data at all, however fast; an account at its
/// egress or request limit throttles every client however well tuned, and one at its ingress
/// limit holds every rank that writes a checkpoint through it; a cache
/// on a slow disk caps the client however many threads it runs; threads and request overhead
/// set how fast data arrives; and the access mode only decides whether the GPUs wait for all
/// of it (download) or for what they read (mount), so it comes last.
enum class Bottleneck {
  kAccessFailure,
  kAccountEgress,
  kRequestRate,
  kAccountIngress,
  kCacheDisk,
  kClientThreads,
  kSmallFiles,
  kAccessMode,
  kNone,
};

/// What a finding rests on: `observed` (logs, metrics, GPU samples, probes of this job or its
/// storage) or `capacity` (computed from sizes and limits, true of any job of this shape).
enum class FindingBasis { kObserved, kCapacity };

/// YAML name: access_failure, account_egress, request_rate, account_ingress, cache_disk,
/// access_mode, small_files, client_threads, none.
std::string_view BottleneckId(Bottleneck b);
/// What a report calls it: "account egress", "request rate", "client threads/CPU", ...
std::string_view BottleneckName(Bottleneck b);
/// Accepts the YAML id or the display name, any case.
std::optional<Bottleneck> BottleneckFromName(std::string_view name);
/// Lower ranks cap higher ones (see the enum's order).
int BottleneckRank(Bottleneck b);
/// True for the read limits of the storage account, which every node shares (the ingress
/// limit is the account's too, but it holds writes: more readers or an earlier start do not
/// make it worse, and more accounts for the input do not lift it).
bool IsAccountLimit(Bottleneck b);

std::string_view FindingBasisName(FindingBasis b);
std::optional<FindingBasis> FindingBasisFromName(std::string_view name);

}  // namespace feedcheck
