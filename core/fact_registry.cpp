#include "core/fact_registry.h"

#include "core/edit_distance.h"

namespace feedcheck {
namespace {

using O = FactOrigin;
using U = Unit;

// Keys are stable once released: add, never rename. Families end in ".<name>".
// Sections: declared & knowledge base, derived (calculators), measured (probes),
// observed (analyzers).
// One line per fact where it fits, so a key reads with its unit and origin: the table is kept
// out of clang-format's reach.
// clang-format off
std::vector<FactSpec> BuiltinSpecs() {
  return {
      // --- node (declared or knowledge base) ---
      {"node.sku", U::kText, O::kDeclared, "VM size of the compute nodes, e.g. Standard_ND96asr_v4"},
      {"node.count", U::kCount, O::kDeclared, "number of compute nodes reading the data"},
      {"node.vcpus", U::kCount, O::kKnowledge, "vCPUs per node"},
      {"node.gpus", U::kCount, O::kKnowledge, "GPUs per node"},
      {"node.retired_on", U::kText, O::kKnowledge,
       "date the VM size was retired (knowledge base); absent for sizes still offered"},
      {"node.gpu_model", U::kText, O::kKnowledge, "GPU model, e.g. A100 40GB"},
      {"node.ram_bytes", U::kBytes, O::kKnowledge, "memory per node"},
      {"node.nic_gbps", U::kGbps, O::kKnowledge, "expected network bandwidth per node"},
      {"node.local_disk_bytes", U::kBytes, O::kKnowledge, "local temp/NVMe disk per node"},
      // --- storage account ---
      {"account.kind", U::kText, O::kKnowledge,
       "storage target profile: standard_gpv2, standard_gpv2_legacy_120, premium_block_blob, "
       "azure_files_premium, netapp_files"},
      {"account.region", U::kText, O::kDeclared, "Azure region of the storage account"},
      {"account.egress_gbps", U::kGbps, O::kKnowledge, "account egress limit"},
      {"account.ingress_gbps", U::kGbps, O::kKnowledge, "account ingress limit"},
      {"account.requests_per_s", U::kPerSecond, O::kKnowledge, "account request-rate limit"},
      {"account.same_region", U::kBool, O::kDeclared, "storage and compute are in one region"},
      // --- dataset ---
      {"dataset.bytes", U::kBytes, O::kDeclared, "total size of the data read"},
      {"dataset.files", U::kCount, O::kDeclared, "number of files (blobs)"},
      {"dataset.median_file_bytes", U::kBytes, O::kDeclared, "median file size"},
      {"dataset.mean_file_bytes", U::kBytes, O::kDeclared, "mean file size"},
      {"dataset.dirs", U::kCount, O::kDeclared, "number of directories (virtual, '/'-delimited)"},
      {"dataset.files_per_dir", U::kCount, O::kDeclared, "files per directory (dirs x files layout)"},
      {"dataset.small_file_fraction", U::kFraction, O::kMeasured,
       "fraction of files under 4 MiB (from a listing)"},
      {"dataset.max_file_bytes", U::kBytes, O::kMeasured, "largest file (from a listing)"},
      // --- workload (profile) ---
      {"workload.epochs", U::kCount, O::kDeclared, "passes over the data"},
      {"workload.access", U::kText, O::kDeclared, "sequential | random | shuffled_files | columnar"},
      {"workload.readers", U::kCount, O::kDeclared, "reader threads/processes per node"},
      {"workload.checkpoint_every_s", U::kSeconds, O::kDeclared, "how often the job saves a checkpoint through storage while it trains"},
      {"workload.gpu_demand_gbps", U::kGbps, O::kDeclared, "input rate the GPUs of one node consume"},
      {"workload.gpu_demand_per_gpu_gbps", U::kGbps, O::kDeclared,
       "input rate one GPU consumes (preset or given)"},
      {"workload.mode", U::kText, O::kDeclared, "declared input mode: download | ro_mount | direct"},
      {"workload.delayed_start_ok", U::kBool, O::kDeclared, "a wait for the download before training is acceptable"},
      {"workload.reads_whole_dataset", U::kBool, O::kDeclared, "each node reads most or all of the data"},
      {"workload.file_reads_concurrent", U::kBool, O::kDeclared, "files are read from several threads at once"},
      {"workload.gpu_preset", U::kText, O::kDeclared,
       "GPU input-rate preset: unet3d (3.2 GB/s per GPU), cosmoflow (0.8), resnet50 (0.2)"},
      {"workload.distribution", U::kText, O::kDeclared,
       "the job's distribution type: pytorch | mpi | tensorflow | none"},
      {"workload.processes_per_node", U::kCount, O::kDeclared,
       "processes per node (the job's distribution.process_count_per_instance)"},
      // --- derived: sizing calculators (egress, plan) ---
      {"egress.full_rate_nodes", U::kCount, O::kDerived, "most nodes that run at full NIC rate from one account"},
      {"egress.degrade_from_nodes", U::kCount, O::kDerived, "node count from which per-node throughput falls"},
      {"egress.per_node_gbps", U::kGbps, O::kDerived, "per-node throughput at node.count"},
      {"egress.aggregate_gbps", U::kGbps, O::kDerived, "aggregate throughput at node.count"},
      {"egress.nics_gbps", U::kGbps, O::kDerived,
       "node.count x node.nic_gbps: what the nodes' NICs take in together, the account aside"},
      {"egress.accounts_needed", U::kCount, O::kDerived, "accounts to replicate across for node.count at full rate"},
      {"supply.per_node_gbps", U::kGbps, O::kDerived,
       "per-node input rate at node.count: min(measured or NIC rate, account egress / nodes)"},
      {"supply.aggregate_gbps", U::kGbps, O::kDerived, "what node.count nodes pull from the account together"},
      {"supply.full_rate_nodes", U::kCount, O::kDerived,
       "most nodes that all get the measured (else NIC) rate from one account"},
      {"preflight.elapsed_s", U::kSeconds, O::kMeasured, "wall-clock time the pre-flight probes took"},
      {"preflight.budget_s", U::kSeconds, O::kDeclared, "time budget stated for the pre-flight probes"},
      {"preflight.requests", U::kCount, O::kMeasured, "requests the pre-flight probes sent, retries included"},
      {"preflight.bytes", U::kBytes, O::kMeasured, "response bytes the pre-flight probes read"},
      {"preflight.probes_failed", U::kCount, O::kMeasured, "pre-flight storage or disk probes that measured nothing"},
      {"preflight.probes_failed_list", U::kText, O::kMeasured, "those probes, each with why (redacted)"},
      {"preflight.reads_failed", U::kBool, O::kMeasured, "the throughput probe ran and read no data"},
      {"plan.get_requests", U::kCount, O::kDerived, "GET requests to read the data once"},
      {"plan.list_requests_walk", U::kCount, O::kDerived, "List requests for a directory-by-directory walk"},
      {"plan.list_requests_flat", U::kCount, O::kDerived, "List requests for one flat prefix listing"},
      {"plan.load_s_nic", U::kSeconds, O::kDerived, "best-case time to load the data at the NIC rate"},
      {"plan.load_s_share", U::kSeconds, O::kDerived, "best-case load time at the node's share of account egress"},
      {"plan.epoch_s_min", U::kSeconds, O::kDerived, "lower bound of one epoch at node.count"},
      {"plan.fits_on_disk", U::kBool, O::kDerived, "the data fits on the local disk (download mode possible)"},
      {"plan.request_overhead_s", U::kSeconds, O::kDerived, "total per-request overhead for one pass at the assumed latency"},
      {"plan.request_latency_ms", U::kMilliseconds, O::kDerived, "per-request latency the overhead assumes (given or default)"},
      {"plan.requests_per_file", U::kCount, O::kDerived, "GET requests per file: 1 below one block, else ceil(size / block)"},
      {"plan.small_files", U::kBool, O::kDerived, "median (or mean) file is under 4 MiB: request overhead dominates"},
      // --- measured: what the probed target was ---
      {"target.loopback", U::kBool, O::kMeasured, "the probed target was on this machine (127.0.0.0/8, ::1, localhost): its figures describe this host, not an Azure storage account"},
      {"target.emulator", U::kBool, O::kMeasured, "the probed target was a storage emulator (Azurite: a path-style emulator URL or the devstoreaccount1 account)"},
      // --- measured: throughput ---
      {"probe.throughput.gbps", U::kGbps, O::kMeasured, "best download throughput of one node"},
      {"probe.throughput.best_concurrency", U::kCount, O::kMeasured, "connections at the knee of the sweep"},
      {"probe.throughput.knee_gbps", U::kGbps, O::kMeasured, "throughput at the knee of the sweep (the fewest connections not measurably slower than the best)"},
      {"probe.throughput.knee_noise_gbps", U::kGbps, O::kMeasured, "half-width of the knee step's noise band: two standard errors of its 250 ms interval rates"},
      {"probe.throughput.request_cycle_ms", U::kMilliseconds, O::kMeasured, "one connection's request cycle (round trip + one block's transfer) from which each step paced its requests' starts, so its connections do not run in lockstep"},
      {"probe.throughput.runs_set_aside", U::kCount, O::kMeasured, "runs of a sweep step set aside: slower than a fresh run of the same connection count beyond both noise bands (a state that did not last, e.g. a server's congestion control pacing below the path), so the step keeps the faster run"},
      {"probe.throughput.nic_fraction", U::kFraction, O::kMeasured, "throughput / node NIC bandwidth"},
      {"probe.throughput.cpu_s_per_gb", U::kCpuSecondsPerGB, O::kMeasured, "probe CPU cost per GB moved"},
      {"probe.throughput.block_bytes", U::kBytes, O::kMeasured, "ranged GET size used"},
      {"probe.throughput.bytes", U::kBytes, O::kMeasured, "bytes counted in the measurement windows (warm-up excluded)"},
      {"probe.throughput.objects", U::kCount, O::kMeasured, "objects read from"},
      // --- measured: latency ---
      {"probe.latency.ttfb_p50_ms", U::kMilliseconds, O::kMeasured, "time to first byte, median (reused connection)"},
      {"probe.latency.ttfb_p90_ms", U::kMilliseconds, O::kMeasured, "time to first byte, 90th percentile"},
      {"probe.latency.ttfb_p99_ms", U::kMilliseconds, O::kMeasured, "time to first byte, 99th percentile"},
      {"probe.latency.ttfb_p999_ms", U::kMilliseconds, O::kMeasured, "time to first byte, 99.9th percentile"},
      {"probe.latency.ttfb_max_ms", U::kMilliseconds, O::kMeasured, "time to first byte, maximum"},
      {"probe.latency.total_p50_ms", U::kMilliseconds, O::kMeasured, "whole small GET, median"},
      {"probe.latency.head_p50_ms", U::kMilliseconds, O::kMeasured, "HEAD (Get Blob Properties), median"},
      {"probe.latency.new_conn_ttfb_p50_ms", U::kMilliseconds, O::kMeasured, "time to first byte on a new connection, median"},
      {"probe.latency.connect_ms", U::kMilliseconds, O::kMeasured, "TCP connect time, median"},
      {"probe.latency.tls_ms", U::kMilliseconds, O::kMeasured, "TLS handshake time, median (absent over plain http: no handshake)"},
      {"probe.latency.requests", U::kCount, O::kMeasured, "requests measured"},
      {"probe.latency.total_p99_ms", U::kMilliseconds, O::kMeasured, "whole small GET, 99th percentile"},
      {"probe.latency.head_p99_ms", U::kMilliseconds, O::kMeasured, "HEAD (Get Blob Properties), 99th percentile"},
      {"probe.latency.new_conn_total_p50_ms", U::kMilliseconds, O::kMeasured, "whole small GET on a new connection, median"},
      {"probe.latency.range_bytes", U::kBytes, O::kMeasured, "size of the ranged GETs"},
      {"probe.latency.concurrency", U::kCount, O::kMeasured, "connections with a request in flight each"},
      {"probe.latency.requests_per_s", U::kPerSecond, O::kMeasured, "measured ranged GETs per second at that concurrency"},
      {"probe.latency.cpu_us_per_request", U::kMicroseconds, O::kMeasured, "CPU (user + system) the probe spent per measured GET"},
      {"probe.latency.http_engine", U::kText, O::kMeasured, "what carried the measured GETs: raw (feedcheck's HTTP/1.1 on libcurl's connections) or libcurl (whole libcurl transfers, e.g. through a proxy), raw+libcurl when both ran"},
      // --- measured: listing ---
      {"probe.list.entries_per_s", U::kPerSecond, O::kMeasured, "entries listed per second"},
      {"probe.list.page_p50_ms", U::kMilliseconds, O::kMeasured, "List page latency, median"},
      {"probe.list.page_p99_ms", U::kMilliseconds, O::kMeasured, "List page latency, 99th percentile"},
      {"probe.list.first_entry_ms", U::kMilliseconds, O::kMeasured, "time to the first entry"},
      {"probe.list.pages", U::kCount, O::kMeasured, "pages (requests) listed"},
      {"probe.list.entries", U::kCount, O::kMeasured, "entries listed"},
      {"probe.list.complete", U::kBool, O::kMeasured, "the listing reached its end within --max-pages"},
      {"probe.list.stat_per_entry_ms", U::kMilliseconds, O::kMeasured, "stat cost per entry on a mounted path"},
      {"probe.list.requests", U::kCount, O::kMeasured, "List requests sent (failed ones included)"},
      {"probe.list.prefixes", U::kCount, O::kMeasured, "BlobPrefix entries of a delimiter listing"},
      {"probe.list.full_ms", U::kMilliseconds, O::kMeasured, "time to walk a whole local/mounted tree (readdir)"},
      // --- measured: small files ---
      {"probe.smallfile.overhead_ms", U::kMilliseconds, O::kMeasured, "fitted per-request overhead, whatever the concurrency"},
      {"probe.smallfile.bandwidth_gbps", U::kGbps, O::kMeasured, "fitted aggregate bandwidth of the path, all requests in flight together"},
      {"probe.smallfile.breakeven_bytes", U::kBytes, O::kMeasured, "size at which overhead equals transfer time with probe.smallfile.concurrency requests sharing the path"},
      {"probe.smallfile.breakeven_bytes_one_stream", U::kBytes, O::kMeasured, "size at which overhead equals transfer time for one request at a time (overhead x bandwidth)"},
      {"probe.smallfile.concurrency", U::kCount, O::kMeasured, "parallel reads used by the small-file probe"},
      {"probe.smallfile.fit_r2", U::kFraction, O::kMeasured, "goodness of the overhead + size/bandwidth fit (1 = perfect)"},
      // --- measured: cache disk ---
      {"probe.disk.read_gbps", U::kGbps, O::kMeasured, "sequential read of the cache path"},
      {"probe.disk.write_gbps", U::kGbps, O::kMeasured, "sequential write of the cache path"},
      {"probe.disk.random_read_iops", U::kPerSecond, O::kMeasured, "4 KiB random-read IOPS"},
      {"probe.disk.device", U::kText, O::kMeasured, "device behind the path"},
      {"probe.disk.kind", U::kText, O::kMeasured, "nvme | os_disk | virtio | tmpfs | network | other"},
      {"probe.disk.free_bytes", U::kBytes, O::kMeasured, "free space on the cache path"},
      {"probe.disk.fstype", U::kText, O::kMeasured, "filesystem type of the cache path (ext4, xfs, tmpfs, nfs4, fuse.blobfuse2)"},
      {"probe.disk.mount_point", U::kText, O::kMeasured, "mount point holding the cache path"},
      {"probe.disk.direct_io", U::kBool, O::kMeasured, "the timings bypassed the page cache (O_DIRECT)"},
      // --- measured: NIC ---
      {"probe.nic.link_gbps", U::kGbps, O::kMeasured, "link speed of the interface that routes to the target"},
      {"probe.nic.interface", U::kText, O::kMeasured, "interface name"},
      {"probe.nic.driver", U::kText, O::kMeasured, "driver of the interface"},
      {"probe.nic.mtu", U::kCount, O::kMeasured, "MTU"},
      {"probe.nic.accelerated", U::kBool, O::kMeasured, "an accelerated-networking VF is present"},
      {"probe.nic.vf_interface", U::kText, O::kMeasured, "accelerated-networking VF enslaved to the interface"},
      {"probe.nic.vf_driver", U::kText, O::kMeasured, "driver of the VF (mlx4_core, mlx5_core)"},
      {"probe.nic.expected_gbps", U::kGbps, O::kKnowledge, "bandwidth the VM size should get (knowledge base or --nic-gbps)"},
      // --- measured: errors ---
      {"probe.errors.total", U::kCount, O::kMeasured, "failed requests"},
      {"probe.errors.throttled_egress", U::kCount, O::kMeasured, "503 ServerBusy for egress over the account limit"},
      {"probe.errors.throttled_requests", U::kCount, O::kMeasured, "503 ServerBusy for operations per second over the limit"},
      {"probe.errors.timeouts", U::kCount, O::kMeasured, "requests that timed out"},
      {"probe.errors.retries", U::kCount, O::kMeasured, "retries made"},
      {"probe.errors.http.<status>", U::kCount, O::kMeasured, "failed requests by HTTP status"},
      {"probe.errors.code.<code>", U::kCount, O::kMeasured, "failed requests by x-ms-error-code"},
      {"probe.errors.server_busy", U::kCount, O::kMeasured, "503/429/500 busy answers other than account throttling"},
      // --- measured: cluster (MPI) ---
      {"probe.cluster.nodes", U::kCount, O::kMeasured, "ranks that measured together"},
      {"probe.cluster.aggregate_gbps", U::kGbps, O::kMeasured, "aggregate throughput of all ranks over the common window"},
      {"probe.cluster.knee_nodes", U::kCount, O::kMeasured, "node count where the aggregate stops growing (ramp)"},
      {"probe.cluster.slowest_node_gbps", U::kGbps, O::kMeasured, "throughput of the slowest node"},
      {"probe.cluster.fastest_node_gbps", U::kGbps, O::kMeasured, "throughput of the fastest node"},
      {"probe.cluster.window_s", U::kSeconds, O::kMeasured, "length of the window every rank measured in"},
      {"probe.cluster.errors", U::kCount, O::kMeasured, "failed requests over all ranks"},
      {"probe.cluster.throttled", U::kCount, O::kMeasured, "throttled requests (egress + request rate) over all ranks"},
      {"probe.cluster.ttfb_p50_ms", U::kMilliseconds, O::kMeasured, "time to first byte, median of all ranks' samples together"},
      {"probe.cluster.ttfb_p90_ms", U::kMilliseconds, O::kMeasured, "time to first byte, 90th percentile of all ranks' samples"},
      {"probe.cluster.ttfb_p99_ms", U::kMilliseconds, O::kMeasured, "time to first byte, 99th percentile of all ranks' samples"},
      {"probe.cluster.ttfb_p999_ms", U::kMilliseconds, O::kMeasured, "time to first byte, 99.9th percentile of all ranks' samples"},
      {"probe.cluster.slowest_node_ttfb_p50_ms", U::kMilliseconds, O::kMeasured, "median time to first byte of the slowest node"},
      {"probe.cluster.knee_gbps", U::kGbps, O::kMeasured, "aggregate throughput at the knee of the ramp"},
      {"probe.cluster.predicted_knee_nodes", U::kCount, O::kDerived, "knee the knowledge base predicts: account egress / node NIC"},
      {"probe.cluster.predicted_plateau_gbps", U::kGbps, O::kDerived, "aggregate the knowledge base predicts past the knee"},
      {"probe.cluster.node_gbps.<rank>", U::kGbps, O::kMeasured, "throughput of one rank over its own window"},
      {"probe.cluster.node_ttfb_p50_ms.<rank>", U::kMilliseconds, O::kMeasured, "median time to first byte of one rank"},
      {"probe.cluster.node_ttfb_p99_ms.<rank>", U::kMilliseconds, O::kMeasured, "99th percentile time to first byte of one rank"},
      {"probe.cluster.node_errors.<rank>", U::kCount, O::kMeasured, "failed requests of one rank"},
      {"probe.cluster.node_throttled.<rank>", U::kCount, O::kMeasured, "throttled requests of one rank"},
      {"probe.cluster.smallfile_overhead_ms", U::kMilliseconds, O::kMeasured, "per-request overhead, one fit over every node's small-file points together"},
      {"probe.cluster.smallfile_bandwidth_gbps", U::kGbps, O::kMeasured, "asymptotic per-request bandwidth, one fit over every node's points"},
      {"probe.cluster.smallfile_breakeven_bytes", U::kBytes, O::kMeasured, "size at which overhead equals transfer time, cluster fit"},
      {"probe.cluster.smallfile_fit_r2", U::kFraction, O::kMeasured, "goodness of the cluster small-file fit (1 = perfect)"},
      {"probe.cluster.requests", U::kCount, O::kMeasured, "requests sent by all ranks together"},
      {"probe.cluster.requests_per_s", U::kPerSecond, O::kMeasured, "requests of all ranks over the span from the common start to the last rank's end"},
      {"probe.cluster.slowest_node_smallfile_overhead_ms", U::kMilliseconds, O::kMeasured, "per-request overhead of the node with the highest"},
      {"probe.cluster.fastest_node_smallfile_overhead_ms", U::kMilliseconds, O::kMeasured, "per-request overhead of the node with the lowest"},
      {"probe.cluster.node_smallfile_overhead_ms.<rank>", U::kMilliseconds, O::kMeasured, "fitted per-request overhead of one rank"},
      {"probe.cluster.node_smallfile_bandwidth_gbps.<rank>", U::kGbps, O::kMeasured, "fitted per-request bandwidth of one rank"},
      {"probe.cluster.node_smallfile_breakeven_bytes.<rank>", U::kBytes, O::kMeasured, "break-even object size of one rank"},
      {"probe.cluster.node_requests_per_s.<rank>", U::kPerSecond, O::kMeasured, "requests per second of one rank"},
      // --- observed: data runtime logs ---
      {"runtime.mode", U::kText, O::kObserved, "input mode the runtime used: download | mount"},
      {"runtime.download_s", U::kSeconds, O::kObserved, "duration of the download activity"},
      {"runtime.activity_failures", U::kCount, O::kObserved, "activities that ended in Failure"},
      {"runtime.mount_failures", U::kCount, O::kObserved, "failed mounts"},
      {"runtime.parallelization_degree", U::kCount, O::kObserved, "parallelization_degree the runtime used"},
      {"runtime.http_errors.<status>", U::kCount, O::kObserved, "non-successful responses by HTTP status"},
      {"runtime.error_codes.<code>", U::kCount, O::kObserved, "non-successful responses by x-ms-error-code"},
      {"runtime.retries", U::kCount, O::kObserved, "retries the runtime logged (retrying after delay, Retrying due to timeout/error)"},
      {"runtime.retry_give_ups", U::kCount, O::kObserved, "requests the runtime gave up on (ran out of retry attempts / backoff_delays)"},
      {"runtime.timeouts", U::kCount, O::kObserved, "lines reporting a body read that timed out (Retrying due to timeout, Timed out while trying to poll data from the response body)"},
      {"runtime.throttled.<limit>", U::kCount, O::kObserved, "refused requests in this job's rslex logs by what Azure said: egress, ingress, requests (only from a logged body's message), server_busy (503 with the limit unknown), timeout; per node, never added to account-wide metrics"},
      {"runtime.setting.<ENV_VAR>", U::kText, O::kObserved, "a setting the runtime reports (or the job sets)"},
      {"runtime.writing_outputs", U::kCount, O::kDeclared, "outputs the job's definition writes through storage while it runs (rw_mount, or upload at the end)"},
      {"runtime.rw_mount_outputs", U::kCount, O::kDeclared, "outputs the job's definition writes through a mount while it runs (rw_mount, the default): a save there waits on storage"},
      {"runtime.mount_cache_bytes", U::kBytes, O::kDerived, "the mount's disk-cache cap, from an explicit positive DATASET_MOUNT_CACHE_SIZE"},
      {"runtime.mount_cache_room_bytes", U::kBytes, O::kDerived, "what the mount's disk cache can hold with no positive DATASET_MOUNT_CACHE_SIZE: the node's local disk, less a negative value's free space and the 150 MB the data runtime never uses"},
      {"runtime.read_threads", U::kCount, O::kDerived, "requests a node keeps in flight: RSLEX_DOWNLOADER_THREADS or DATASET_MOUNT_READ_THREADS, else NUMBER_OF_CPU_CORES x 4 (the runtime's default)"},
      {"runtime.request_bytes", U::kBytes, O::kDerived, "what one read request moves: the job's file size (else the account's bytes per request) up to the read block (DATASET_MOUNT_READ_BLOCK_SIZE, 2 MB; a download's 4 MiB range, assumed)"},
      {"runtime.latency_cap_gbps", U::kGbps, O::kDerived, "the read rate per node its requests' latency allows (Little's law): read threads x request bytes / SuccessE2ELatency"},
      {"runtime.non_success_responses", U::kCount, O::kObserved, "non-successful HTTP responses rslex logged"},
      {"runtime.log_errors", U::kCount, O::kObserved, "ERROR lines in rslex.log"},
      {"runtime.accounts", U::kText, O::kObserved, "the storage accounts the rslex logs name (account_name, request URIs), comma-separated"},
      {"runtime.stream_error", U::kText, O::kObserved, "first ScriptExecution.StreamAccess.* error code"},
      {"runtime.read_gap_fence_s", U::kSeconds, O::kDerived, "Tukey's far fence of the gaps between a node's rslex span closes (also over its gaps of 10 s or more, when eight): its silences beyond it are the `read silences` lane"},
      {"runtime.span_busy_s.<span>", U::kSeconds, O::kObserved, "busy time summed over a rslex span's closes"},
      {"runtime.reads", U::kCount, O::kObserved, "reads the data runtime timed: closes of its rslex spans that read (read_file, fuse_read, ...)"},
      {"runtime.read_ms_mean", U::kMilliseconds, O::kObserved, "time one such read took (its span's busy + idle time), mean"},
      // --- observed: storage metrics ---
      {"metrics.e2e_latency_ms", U::kMilliseconds, O::kObserved, "SuccessE2ELatency, mean"},
      {"metrics.server_latency_ms", U::kMilliseconds, O::kObserved, "SuccessServerLatency, mean"},
      {"metrics.bytes_per_request", U::kBytes, O::kObserved, "account egress / successful transactions: what one request moved on average"},
      {"metrics.account", U::kText, O::kObserved, "the storage account the metrics describe, from the response's resource id"},
      {"metrics.region", U::kText, O::kObserved, "the storage account's region, from the metrics response (resourceregion)"},
      {"metrics.egress_gbps_peak", U::kGbps, O::kObserved, "peak account egress"},
      {"metrics.egress_gbps_mean", U::kGbps, O::kObserved, "mean account egress"},
      {"metrics.ingress_gbps_peak", U::kGbps, O::kObserved, "peak account ingress"},
      {"metrics.requests_per_s_peak", U::kPerSecond, O::kObserved, "peak transactions per second"},
      {"metrics.availability_min_percent", U::kPercent, O::kObserved, "lowest Availability"},
      {"metrics.throttled.<response_type>", U::kCount, O::kObserved, "transactions by throttling response type"},
      {"metrics.bloblog.duration_p50_ms", U::kMilliseconds, O::kObserved, "StorageBlobLogs DurationMs, median"},
      {"metrics.bloblog.server_latency_p50_ms", U::kMilliseconds, O::kObserved, "StorageBlobLogs ServerLatencyMs, median"},
      {"metrics.transactions.<response_type>", U::kCount, O::kObserved, "transactions by ResponseType"},
      {"metrics.throttled_total", U::kCount, O::kObserved, "transactions with a throttling or server-timeout ResponseType"},
      {"metrics.egress_gbps_during_download", U::kGbps, O::kDerived, "mean account egress while the runtime downloaded"},
      {"metrics.throttled_per_s_during_download", U::kPerSecond, O::kDerived, "throttled transactions per second while the runtime downloaded"},
      {"metrics.bloblog.requests", U::kCount, O::kObserved, "StorageBlobLogs records read"},
      {"metrics.bloblog.throttled", U::kCount, O::kObserved, "StorageBlobLogs records with 503 or a ThrottlingError status"},
      {"metrics.bloblog.duration_p99_ms", U::kMilliseconds, O::kObserved, "StorageBlobLogs DurationMs, 99th percentile"},
      {"metrics.bloblog.server_latency_p99_ms", U::kMilliseconds, O::kObserved, "StorageBlobLogs ServerLatencyMs, 99th percentile"},
      {"metrics.bloblog.network_p50_ms", U::kMilliseconds, O::kObserved, "StorageBlobLogs DurationMs - ServerLatencyMs per request, median (network + client)"},
      {"metrics.bloblog.status.<code>", U::kCount, O::kObserved, "StorageBlobLogs records by StatusCode"},
      {"metrics.bloblog.hot_blob", U::kText, O::kObserved, "container/blob with the most refused requests in StorageBlobLogs (the Uri without its query)"},
      {"metrics.bloblog.hot_blob_throttled_share", U::kFraction, O::kObserved, "that blob's share of the refused requests that named a blob"},
      {"metrics.bloblog.hot_blob_requests_per_s_peak", U::kPerSecond, O::kObserved, "most requests that blob met in one second (one blob serves up to 500/s)"},
      {"metrics.bloblog.duration_p50_ms.<operation>", U::kMilliseconds, O::kObserved, "DurationMs median of one operation"},
      {"metrics.bloblog.server_latency_p50_ms.<operation>", U::kMilliseconds, O::kObserved, "ServerLatencyMs median of one operation"},
      {"metrics.bloblog.response_bytes_p50.<operation>", U::kBytes, O::kObserved, "ResponseBodySize median of one operation's successful requests"},
      {"metrics.bloblog.read_bytes_p50", U::kBytes, O::kObserved, "GetBlob ResponseBodySize median: the reads' own size, per request"},
      // --- observed: GPU ---
      {"gpu.count", U::kCount, O::kObserved, "GPUs sampled"},
      {"gpu.util_mean", U::kPercent, O::kObserved, "mean GPU utilisation"},
      {"gpu.util_p50", U::kPercent, O::kObserved, "median GPU utilisation"},
      {"gpu.starved_fraction", U::kFraction, O::kObserved, "fraction of samples under the busy threshold"},
      {"gpu.first_busy_s", U::kSeconds, O::kObserved, "time until the first busy sample"},
      {"gpu.util_during_download", U::kPercent, O::kObserved, "mean GPU utilisation while data was downloading"},
      {"gpu.util_after_download", U::kPercent, O::kDerived, "mean GPU utilisation after the last download ended"},
      {"gpu.samples", U::kCount, O::kObserved, "GPU utilisation samples read (all GPUs)"},
      {"gpu.util_p10", U::kPercent, O::kObserved, "GPU utilisation, 10th percentile"},
      {"gpu.util_p90", U::kPercent, O::kObserved, "GPU utilisation, 90th percentile"},
      {"gpu.busy_threshold_percent", U::kPercent, O::kDeclared, "utilisation under which a sample counts as starved"},
      {"gpu.starved_s", U::kSeconds, O::kObserved, "time the mean over GPUs was under the busy threshold"},
      {"gpu.util_mean.<gpu>", U::kPercent, O::kObserved, "mean utilisation of one GPU ([node_]gpu<N>)"},
      {"gpu.lost_gpu_s", U::kSeconds, O::kObserved, "GPU time lost: starved samples x their interval, summed over GPUs (GPU-seconds)"},
      {"gpu.sampled_gpu_s", U::kSeconds, O::kObserved, "GPU time covered by samples, summed over GPUs (GPU-seconds)"},
      {"gpu.idle_fraction", U::kFraction, O::kObserved, "GPU time lost / GPU time sampled"},
      {"gpu.idle_s", U::kSeconds, O::kObserved, "GPU time lost per GPU (wall clock the GPUs stood idle)"},
      {"gpu.span_s", U::kSeconds, O::kObserved, "wall clock from the first GPU sample to the end of the last"},
      {"gpu.sample_interval_s", U::kSeconds, O::kObserved, "GPU sampling interval (median over GPUs)"},
      {"gpu.unsampled_s", U::kSeconds, O::kObserved, "holes in the GPU sampling per GPU (counted neither busy nor idle)"},
      {"gpu.node_lost_gpu_s.<node>", U::kSeconds, O::kObserved, "GPU time lost on one node (GPU-seconds)"},
      {"gpu.node_gpus.<node>", U::kCount, O::kObserved, "GPUs sampled on one node"},
      {"gpu.node_util_mean.<node>", U::kPercent, O::kObserved, "mean GPU utilisation of one node"},
      {"gpu.lost_download_gpu_s", U::kSeconds, O::kDerived, "GPU time lost while a download ran (GPU-seconds)"},
      {"gpu.lost_mount_gpu_s", U::kSeconds, O::kDerived, "GPU time lost while a mount served the reads (GPU-seconds)"},
      {"gpu.lost_cached_gpu_s", U::kSeconds, O::kDerived, "GPU time lost during a mount while the account served next to nothing and refused nothing: reads from the mount's cache (GPU-seconds)"},
      {"gpu.lost_throttled_gpu_s", U::kSeconds, O::kDerived, "of the GPU time lost during a mount, what fell while storage refused requests (GPU-seconds)"},
      {"gpu.lost_after_data_gpu_s", U::kSeconds, O::kDerived, "GPU time lost after the data phase: the job's own code (GPU-seconds)"},
      {"gpu.lost_unknown_gpu_s", U::kSeconds, O::kDerived, "GPU time lost outside any known data-runtime phase (GPU-seconds)"},
      {"gpu.idle_download_s", U::kSeconds, O::kDerived, "wall clock the GPUs stood idle waiting for the download"},
      // --- observed: the nodes' CPU (Azure ML's workspace metric CpuUtilization) ---
      {"cpu.samples", U::kCount, O::kObserved, "points of Azure ML's CpuUtilization metric read (all nodes)"},
      {"cpu.util_mean", U::kPercent, O::kObserved, "mean CPU utilisation of the nodes (Azure ML's CpuUtilization)"},
      {"cpu.node_util_mean.<node>", U::kPercent, O::kObserved, "mean CPU utilisation of one node (its NodeId / InstanceId, or its folder)"},
      // --- observed: the training loop's own clock (PyTorch profiler traces) ---
      {"trace.ranks", U::kCount, O::kObserved, "PyTorch profiler traces read (one per rank)"},
      {"trace.steps", U::kCount, O::kObserved, "ProfilerStep#N spans the traces cover, all ranks"},
      {"trace.step_s", U::kSeconds, O::kObserved, "mean step time (ProfilerStep#N), all ranks"},
      {"trace.loader_wait_fraction", U::kFraction, O::kObserved, "share of step time the loop waited in the DataLoader's __next__, all ranks"},
      {"trace.gpu_idle_fraction", U::kFraction, O::kObserved, "share of step time the GPU ran no kernel, copy or set (GPU traces)"},
      {"trace.gpu_idle_in_wait_fraction", U::kFraction, O::kObserved, "of the GPU's idle time inside the steps, the share that fell while the loop waited for data"},
      {"trace.rank_steps.<rank>", U::kCount, O::kObserved, "steps one rank's trace covers"},
      {"trace.steps_covered.<rank>", U::kText, O::kObserved, "which steps one rank's trace covers: #first-#last (count)"},
      {"trace.clock.<rank>", U::kText, O::kObserved, "how one rank's trace was put on the wall clock"},
      {"trace.node.<rank>", U::kText, O::kObserved, "the node one rank ran on (the job folder's, or the legacy worker name's host)"},
      {"trace.step_s.<rank>", U::kSeconds, O::kObserved, "mean step time of one rank"},
      {"trace.loader_wait_fraction.<rank>", U::kFraction, O::kObserved, "share of one rank's step time waiting in the DataLoader's __next__"},
      {"trace.gpu_idle_fraction.<rank>", U::kFraction, O::kObserved, "share of one rank's step time its GPU was idle"},
      {"trace.node_loader_wait_fraction.<node>", U::kFraction, O::kObserved, "share of step time the ranks of one node waited for data (their steps together)"},
      {"trace.gpu_idle_in_wait_fraction.<rank>", U::kFraction, O::kObserved, "of one rank's GPU idle time, the share while it waited for data"},
  };
}
// clang-format on

bool IsFamily(std::string_view spec_key) { return spec_key.find(".<") != std::string_view::npos; }

}  // namespace

const FactRegistry& FactRegistry::Builtin() {
  static const FactRegistry registry(BuiltinSpecs());
  return registry;
}

const FactSpec* FactRegistry::Find(std::string_view key) const {
  for (const auto& spec : specs_) {
    if (!IsFamily(spec.key)) {
      if (spec.key == key) return &spec;
      continue;
    }
    std::string_view prefix = spec.key.substr(0, spec.key.find(".<") + 1);
    if (key.size() > prefix.size() && key.substr(0, prefix.size()) == prefix &&
        key.find('.', prefix.size()) == std::string_view::npos)
      return &spec;
  }
  return nullptr;
}

std::vector<std::string> FactRegistry::Suggest(std::string_view key) const {
  std::vector<std::string> keys;
  keys.reserve(specs_.size());
  for (const auto& spec : specs_) keys.emplace_back(spec.key);
  return feedcheck::Suggest(key, keys);
}

}  // namespace feedcheck
