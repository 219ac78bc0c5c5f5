"""The job simulator's model (tests/tools/job_simulator.py writes the files): the knowledge base
it draws from, the draw of a job's parameters, the physics in 10 s steps (each node's demand, its
caps, the account's and blobs' shares, the binding resource of every step) and the truth's rules
(the GPU time each idle sample covers, the verdict). docs/simulator.md describes the model."""

import math
import os
import random
import sys

import yaml

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import joblog_corpus as lib  # noqa: E402

STEP_S = 10
BUSY_THRESHOLD = lib.BUSY_THRESHOLD
# The contract's keys in precedence order (the first holds when several do).
STATES = ["access", "not_storage_node", "account_egress", "account_ingress", "account_requests",
          "blob_target", "throttled_unknown", "node_nic", "writes", "latency", "cache_rereads",
          "startup_download", "not_storage", "own_code", "unknown"]
STORAGE_STATES = set(STATES[:12]) - {"not_storage_node"}
RANK = {s: i for i, s in enumerate(STATES)}
for _s in ("account_ingress", "account_requests", "blob_target", "throttled_unknown"):
    RANK[_s] = RANK["account_egress"]  # one rank: whichever the refusals/metrics name
BLOB_REQUESTS_PER_S = 500  # one blob's target (docs/postmortem.md, "Scalability and performance
# targets for Blob storage", https://learn.microsoft.com/azure/storage/blobs/scalability-targets)
CONN_GBPS = 2.0  # one connection's transfer rate once the first byte arrived

# ------------------------------------------------------------------ knowledge base


def _rate_gbps(text):
    num, unit = text.split()
    return float(num) / (1000.0 if unit.startswith("Mbit") else 1.0)


def _size_gb(text):
    num, unit = str(text).split()
    return float(num) * {"GB": 1.0, "GiB": 2**30 / 1e9, "TB": 1000.0, "TiB": 2**40 / 1e9}[unit]


def load_kb():
    with open(os.path.join(ROOT, "data", "vm_sizes.yaml")) as f:
        sizes = [s for s in yaml.safe_load(f)["vm_sizes"]
                 if s.get("gpus", 0) > 0 and not s.get("retired")]
    with open(os.path.join(ROOT, "data", "storage_targets.yaml")) as f:
        st = yaml.safe_load(f)
    targets = {t["name"]: t for t in st["storage_targets"]}
    return {
        "sizes": [{"name": s["name"], "gpus": s["gpus"], "vcpus": s["vcpus"],
                   "nic_gbps": _rate_gbps(s["nic"]), "model": s["gpu_model"],
                   "disk_gb": _size_gb(s.get("local_disk", "0 GB"))} for s in sizes],
        "listed": st["listed_regions"]["regions"], "other": st["other_regions"]["regions"],
        "limits": {k: {"egress_gbps": _rate_gbps(targets[k]["egress"]),
                       "ingress_gbps": _rate_gbps(targets[k]["ingress"]),
                       "requests_per_s": float(targets[k]["requests_per_s"])}
                   for k in ("standard_gpv2", "standard_gpv2_other_regions")}}


def region_key(name):
    return name.lower().replace(" ", "")


def logu(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def pick(rng, weighted):
    r, acc = rng.random() * sum(w for _, w in weighted), 0.0
    for value, w in weighted:
        acc += w
        if r < acc:
            return value
    return weighted[-1][0]


# ------------------------------------------------------------------ the draw


def draw_params(rng, kb, small=False):
    """One job's parameters; `small` (the ctest's draw): at most 8 nodes, 1-2 hours, GPU samples
    every 30 or 60 s, so that 300 jobs write and read in seconds."""
    p = {}
    size = rng.choice(kb["sizes"])
    p.update(sku=size["name"], gpus=size["gpus"], vcpus=size["vcpus"], nic_gbps=size["nic_gbps"],
             gpu_model="NVIDIA " + size["model"], disk_gb=size["disk_gb"])
    p["nodes"] = pick(rng, [(1, 22), (2, 18), (3, 12), (4, 16), (8, 16), (16, 16)])
    p["duration_s"] = round(rng.uniform(1, 3) * 3600 / 60) * 60
    p["gpu_interval_s"] = rng.choice([10, 15, 30, 60])
    if small:
        p["nodes"] = min(p["nodes"], 8)
        p["duration_s"] = round(rng.uniform(1, 2) * 3600 / 60) * 60
        p["gpu_interval_s"] = rng.choice([30, 60])
    p["gpu_form"] = pick(rng, [("nvsmi", 65), ("dcgm", 20), ("metric", 15)])
    listed = rng.random() < 0.7
    p["compute_region"] = rng.choice(kb["listed"] if listed else kb["other"])
    p["same_region"] = rng.random() < 0.75
    p["account_region"] = p["compute_region"] if p["same_region"] else rng.choice(
        [r for r in kb["listed"] + kb["other"] if r != p["compute_region"]])
    p["account_kind"] = ("standard_gpv2" if p["account_region"] in kb["listed"]
                         else "standard_gpv2_other_regions")
    p.update(kb["limits"][p["account_kind"]])
    p["mode"] = "download" if rng.random() < 0.4 else "ro_mount"
    # A download copies the input to the node's local disk, and "the dataset must completely fit
    # on a compute target disk" ("Access data in a job", Azure Machine Learning documentation,
    # the download mode): a download's input is drawn within nine tenths of the size's disk.
    top_gb = 6000.0
    if p["mode"] == "download":
        top_gb = max(60.0, min(top_gb, 0.9 * size["disk_gb"]))
    p["dataset_gb"] = logu(rng, 50, top_gb)
    small = rng.random() < 0.35
    p["file_mb"] = min(logu(rng, 0.016, 1) if small else logu(rng, 1, 4000), p["dataset_gb"] * 1000)
    p["blobs"] = max(1, int(p["dataset_gb"] * 1000 / p["file_mb"]))
    p["per_gpu_mbps"] = logu(rng, 30, 1000)
    if rng.random() < 0.15:  # a data-hungry job: its GPUs want more than the node's NIC carries
        p["per_gpu_mbps"] = p["nic_gbps"] * 1000 / 8 / p["gpus"] * rng.uniform(1.2, 3)
    p["read_mb"] = rng.choice([1, 2, 4, 8])  # a ranged read of a large file
    p["hot_blobs"] = rng.randint(1, 4) if rng.random() < 0.18 else None
    p["loader_gbps"] = p["vcpus"] * logu(rng, 0.08, 2.0)
    p["inflight"] = rng.choice([16, 32, 64, 128, 256])
    p["server_ms"] = rng.uniform(4, 12)
    p["e2e_ms"] = p["server_ms"] + (rng.uniform(2, 8) if p["same_region"] else rng.uniform(40, 140))
    p["disk_gbps"] = rng.uniform(6, 40)
    p["cache_gb"] = None
    if p["mode"] == "ro_mount" and rng.random() < 0.35:
        p["cache_gb"] = logu(rng, 5, 200)
    p["thrash_gbps"] = rng.uniform(0.5, 6)
    lim = p["egress_gbps"]
    p["tenant_egress_gbps"] = rng.uniform(0, 0.9) * lim if rng.random() < 0.6 else 0.0
    p["tenant_ingress_gbps"] = rng.uniform(0, 0.8) * p["ingress_gbps"] if rng.random() < 0.4 else 0.0
    p["tenant_request_share"] = rng.uniform(0, 0.6) if rng.random() < 0.25 else 0.0
    p["tenant_burst"] = None
    if rng.random() < 0.4:
        start = rng.uniform(0.05, 0.8) * p["duration_s"]
        p["tenant_burst"] = [start, start + rng.uniform(5, 40) * 60, rng.uniform(0.95, 1.3) * lim]
    p["checkpoint"] = None
    if rng.random() < 0.45:
        p["checkpoint"] = {"every_s": rng.uniform(20, 60) * 60, "gb": logu(rng, 20, 800),
                           "write_gbps": rng.uniform(4, 20)}
    p["validation"] = None
    if rng.random() < 0.2:
        p["validation"] = {"every_s": rng.uniform(15, 40) * 60, "s": rng.uniform(1, 5) * 60}
    p["final_eval_s"] = rng.uniform(2, 8) * 60 if rng.random() < 0.15 else 0.0
    fault = pick(rng, [(None, 85), ("sas_expiry", 8), ("dns", 4), ("not_found", 3)])
    p["fault"] = fault
    p["fault_at_s"] = rng.uniform(0.2, 0.9) * p["duration_s"] if fault == "sas_expiry" else 0.0
    p["give_up_s"] = rng.uniform(3, 10) * 60 if fault != "not_found" else rng.uniform(20, 90)
    p["dead_node"] = (rng.randrange(p["nodes"]) if p["nodes"] > 1 and p["mode"] == "ro_mount"
                      and rng.random() < 0.1 else None)
    p["no_logs_node"] = rng.randrange(p["nodes"]) if rng.random() < 0.04 else None
    p["partial_gpu"] = pick(rng, [(None, 85), ("na", 8), ("hole", 7)]) \
        if p["gpu_form"] == "nvsmi" else None
    p["metrics"] = pick(rng, [("rest", 38), ("az", 37), (None, 25)])
    p["bloblogs"] = p["metrics"] is not None and rng.random() < 0.15
    p["refusal_form"] = pick(rng, [("async", 50), ("sync", 30), ("field", 20)])
    p["retry_count"] = rng.choice([None, None, 3, 7, 10, 20])
    p["start_jitter_s"] = [rng.uniform(15, 60) for _ in range(p["nodes"])]
    p["profile"] = rng.random() < 0.6  # the user gave a workload profile (--profile)
    # Requests in flight are the data runtime's threads: NUMBER_OF_CPU_CORES x 4 by default, or
    # the job's DATASET_MOUNT_READ_THREADS / RSLEX_DOWNLOADER_THREADS ("Access data in a job",
    # Azure Machine Learning documentation, the mount and download settings tables). A mount
    # reads a large file in DATASET_MOUNT_READ_BLOCK_SIZE blocks (2 MB by default); a download
    # in 4 MiB ranges (the Azure Storage SDKs' default chunk of a ranged GET; an assumption).
    # Drawn last so that the earlier draws of a seed stay as they were.
    # A mount's threads prefetch blocks inside a file, DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT (32)
    # ahead of each reader: files smaller than a block are read one request per file, as many
    # at once as the training loop's readers (its data-loader workers) ask for.
    p["threads_env"] = rng.choice([8, 16, 32, 64]) if rng.random() < 0.3 else None
    p["block_env_mb"] = rng.choice([1, 4, 8]) if rng.random() < 0.2 else None
    p["readers"] = rng.choice([2, 4, 8, 16, 32])
    if p["mode"] == "download":
        p["read_mb"] = 4 * 2**20 / 1e6
    else:
        p["read_mb"] = p["block_env_mb"] or 2
    p["inflight"] = requests_in_flight(p)
    return p


def requests_in_flight(p):
    """A download's threads; a mount's threads or its readers' prefetch, or its readers alone
    for files under one block (the rule above draw_params's last draws)."""
    threads = p["threads_env"] or p["vcpus"] * 4
    if p["mode"] == "download":
        return threads
    return p["readers"] if p["file_mb"] < p["read_mb"] else min(threads, p["readers"] * 32)


# ------------------------------------------------------------------ the physics


class Node:
    def __init__(self, i, p):
        self.i = i
        self.phase = "start"
        self.t_act = p["start_jitter_s"][i]
        self.remaining = p["dataset_gb"] * 1e9 * 8  # bits still to download
        self.shard_bits = p["dataset_gb"] * 1e9 * 8 / (1 if p["mode"] == "download" else p["nodes"])
        self.epoch, self.epoch_done = 1, 0.0
        self.ckpt_left, self.next_ckpt = 0.0, None
        self.failed_at = None
        self.download_end = None
        self.written = 0.0  # bits a download wrote to the local disk
        self.disk_full_at = None  # when a download that outgrew the disk failed
        self.train_start = None
        # per step: (idle fraction, state, storage read Gbit/s, write Gbit/s, requests/s, refused)
        self.steps = []


def bytes_per_request(p):
    return min(p["file_mb"], p["read_mb"]) * 1e6


def request_e2e_ms(p):
    """One request's end-to-end time: the path's latency and its bytes over one connection
    (Azure's SuccessE2ELatency counts the response's transfer to the client)."""
    return p["e2e_ms"] + bytes_per_request(p) * 8 / (CONN_GBPS * 1e9) * 1000


def latency_cap_gbps(p):
    return p["inflight"] * bytes_per_request(p) * 8 / (request_e2e_ms(p) / 1000) / 1e9


def cache_room_gb(p):
    """What a node's mount cache can hold: DATASET_MOUNT_CACHE_SIZE where the job sets it, else
    the node's local disk ("Unlimited: controls how much disk space mount can use"), less the
    150 MB the data runtime never uses (DATASET_RESERVED_FREE_DISK_SPACE); full, it prunes the
    least recently used files ("Access data in a job", Azure Machine Learning documentation,
    the mount settings table)."""
    if p["cache_gb"] is not None:
        return p["cache_gb"]
    return max(0.0, p["disk_gb"] - 0.15)


# A data runtime's reads and writes cost its node about one vCPU per this many Gbit/s (TLS, the
# FUSE or copy threads): an assumption of the model, not a measured figure.
RUNTIME_GBPS_PER_VCPU = 4.0


def node_cpu_percent(p, rec, cpu):
    """The node's CPU utilisation (0-100 %) in one step, as Azure ML's CpuUtilization reports it:
    its training processes (a vCPU per GPU while the GPUs work), its data loader's workers (the
    share cpu["loader_share"] of its vCPUs, busy as the rate they fed over the most they feed:
    a loader that holds the node is as busy as its workers can be), its data runtime's reads and
    writes, a validation's own loop (cpu["validation"]), and the system's 1.5 %. `cpu` is the
    job's draw (job_simulator.draw_cpu_metric)."""
    vcpus = max(1, p["vcpus"])
    kind, state = rec["kind"], rec["state"]
    if kind == "none" and state == "own_code":
        return cpu["validation"]
    busy = 1.0 - (rec["idle"] or 0.0) if kind in ("read", "local") else 0.0
    train = 100.0 * min(p["gpus"], vcpus) * busy / vcpus
    loader = 100.0 * cpu["loader_share"] * rec["consumed"] / p["loader_gbps"]
    runtime = 100.0 * (rec["read"] + rec["write"]) / RUNTIME_GBPS_PER_VCPU / vcpus
    saving = 100.0 / vcpus if kind == "write" else 0.0  # the checkpoint's serialisation
    return min(100.0, 1.5 + train + loader + runtime + saving)


def tenant_egress(p, t):
    b = p["tenant_burst"]
    return b[2] if b and b[0] <= t < b[1] else p["tenant_egress_gbps"]


def simulate(p):
    """Runs the job; returns (nodes, per-step account records, job end in s from t0)."""
    nodes = [Node(i, p) for i in range(p["nodes"])]
    demand = p["gpus"] * p["per_gpu_mbps"] * 8 / 1000  # Gbit/s the GPUs consume
    bpr_bits = bytes_per_request(p) * 8
    lat_cap = latency_cap_gbps(p)
    end_s = p["duration_s"]
    account = []
    k = 0
    job_fail_at = None
    while k * STEP_S < end_s:
        t = k * STEP_S
        denied = p["fault"] in ("dns", "not_found") or (
            p["fault"] == "sas_expiry" and t >= p["fault_at_s"])
        wants = []  # per node: (kind, idle fraction if served, caps, want Gbit/s)
        for n in nodes:
            wants.append(plan_step(n, p, t, demand, lat_cap, denied))
        # blob targets first (they cut the job's reads before the account sees them), then the
        # account's limits, shared in proportion with the other tenants when exceeded
        read_want = sum(w["want"] for w in wants if w["kind"] == "read")
        write_want = sum(w["want"] for w in wants if w["kind"] == "write")
        f_blob = 1.0
        hot = p["hot_blobs"] or (p["blobs"] if p["blobs"] <= 64 else None)
        if read_want and hot:  # the reads fall on `hot` blobs at once
            f_blob = min(1.0, hot * BLOB_REQUESTS_PER_S * bpr_bits / (read_want * 1e9))
        read_want *= f_blob
        t_eg, t_in = tenant_egress(p, t), p["tenant_ingress_gbps"]
        req_job = (read_want + write_want) * 1e9 / bpr_bits
        t_req = p["tenant_request_share"] * p["requests_per_s"] + t_eg * 1e9 / 8 / (4 * 2**20)
        f_eg = min(1.0, p["egress_gbps"] / (read_want + t_eg)) if read_want else 1.0
        f_in = min(1.0, p["ingress_gbps"] / (write_want + t_in)) if write_want else 1.0
        f_req = min(1.0, p["requests_per_s"] / (req_job + t_req)) if req_job else 1.0
        served_r = served_w = 0.0
        refused = {"egress": 0.0, "ingress": 0.0, "requests": 0.0, "blob": 0.0}
        for n, w in zip(nodes, wants):
            rec = finish_step(n, p, t, w, f_eg, f_in, f_req, f_blob, demand, bpr_bits, refused)
            if w["kind"] == "read":
                served_r += rec["read"]
            elif w["kind"] == "write":
                served_w += rec["write"]
            if rec["state"] == "access" and n.failed_at is None:
                n.failed_at = t
        account.append({"t": t, "egress": served_r + min(t_eg * f_eg, p["egress_gbps"]),
                        "ingress": served_w + min(t_in * f_in, p["ingress_gbps"]),
                        "job_requests": (served_r + served_w) * 1e9 / bpr_bits,
                        "tenant_requests": min(t_req, p["requests_per_s"]), "refused": refused,
                        "denied": denied and any(w["kind"] in ("read", "write", "fail")
                                                 for w in wants)})
        if job_fail_at is None:
            fails = [n.failed_at for n in nodes if n.failed_at is not None]
            if fails:
                job_fail_at = min(fails) + p["give_up_s"]
                end_s = min(end_s, job_fail_at + 30)
            # A download that failed on a full disk fails the job at once (no retries).
            full = [n.disk_full_at for n in nodes if n.disk_full_at is not None]
            if full:
                job_fail_at = min(full)
                end_s = min(end_s, job_fail_at + 30)
        k += 1
    return nodes, account, end_s, demand


def plan_step(n, p, t, demand, lat_cap, denied):
    """What node n does in step t: its phase, the caps on its rate other than the account's."""
    if t < n.t_act:
        return {"kind": "none", "state": None}
    if n.phase == "start":
        n.phase = "download" if p["mode"] == "download" else "train"
        if n.i == p["dead_node"]:
            n.phase = "dead"
    if n.phase == "failed":
        return {"kind": "fail", "state": "access"}
    if n.phase == "disk_full":  # no input to train on: the download's, until the job ends
        return {"kind": "none", "state": "startup_download", "idle": 1.0}
    if n.phase == "dead":
        return {"kind": "none", "state": "not_storage_node", "idle": 1.0}
    end = p["duration_s"]
    if p["final_eval_s"] and t >= end - p["final_eval_s"] and n.phase != "download":
        return {"kind": "none", "state": "own_code", "idle": 1.0}
    if n.phase == "download":
        # The GPUs wait for all of a download: one at the NIC's (or the disk's) rate is the
        # mode's wait (a mount would start at once); one that crawls is its requests' latency.
        # One the disk cannot hold fails at any pace: all of its wait is the mode's (lifting its
        # latency or a limit only fills the disk sooner; the fix is a mount or a larger disk).
        caps = {"startup_download": min(p["nic_gbps"], p["disk_gbps"]), "latency": lat_cap}
        return {"kind": "read", "caps": caps, "want": min(caps.values()), "download": True,
                "doomed": p.get("disk_full", False), "denied": denied}
    # training: checkpoint, validation, or reading
    if n.train_start is None:
        n.train_start = t
        if p["checkpoint"]:
            n.next_ckpt = t + p["checkpoint"]["every_s"]
    if n.ckpt_left > 0 or (n.next_ckpt is not None and t >= n.next_ckpt):
        if n.ckpt_left <= 0:
            n.ckpt_left = p["checkpoint"]["gb"] * 8
            n.next_ckpt += p["checkpoint"]["every_s"]
        caps = {"writes": min(p["checkpoint"]["write_gbps"], p["nic_gbps"])}
        return {"kind": "write", "caps": caps, "want": caps["writes"], "denied": denied}
    v = p["validation"]
    if v and t - n.train_start >= v["every_s"] and (t - n.train_start) % v["every_s"] < v["s"]:
        return {"kind": "none", "state": "own_code", "idle": 1.0}
    # PyTorch's DistributedSampler reshuffles every epoch: a node's next shard is a new random
    # share of the whole input, so a later epoch finds in its cache the share of the input the
    # cache holds (it prunes the least recently used files), and reads the rest from storage.
    miss = 1.0 if n.epoch == 1 else max(0.0, 1.0 - cache_room_gb(p) / p["dataset_gb"])
    caps = {"not_storage": p["loader_gbps"]}
    if p["mode"] != "download" and miss > 0:
        # The node consumes at rate R, miss x R of it from storage: a storage cap C allows
        # R = C / miss (the cached reads wait for the missed ones in the loader's batches).
        caps.update(node_nic=p["nic_gbps"] / miss, latency=lat_cap / miss)
        if n.epoch > 1:
            caps["cache_rereads"] = p["thrash_gbps"] / miss
        want = min(demand, min(caps.values()))
        return {"kind": "read", "caps": caps, "want": want * miss, "miss": miss,
                "denied": denied}
    return {"kind": "local", "caps": caps, "want": min(demand, caps["not_storage"])}


def binding(caps):
    low = min(caps.values())
    return min((s for s, v in caps.items() if v <= low * 1.0001), key=lambda s: RANK[s])


def finish_step(n, p, t, w, f_eg, f_in, f_req, f_blob, demand, bpr_bits, refused):
    kind = w["kind"]
    rec = {"read": 0.0, "write": 0.0, "state": w.get("state"), "idle": w.get("idle", 0.0),
           "refused": None, "reading": False, "kind": kind, "consumed": 0.0}
    if kind == "none":
        if w["state"] is None:
            rec["idle"] = None  # not started: no GPU samples yet
    elif kind == "fail":
        rec.update(idle=1.0, state="access", refused="access")
    elif kind in ("read", "write") and w["denied"]:
        n.phase = "failed"
        rec.update(idle=1.0, state="access", refused="access")
    elif kind in ("read", "write"):
        caps = dict(w["caps"])
        miss = w.get("miss", 1.0)  # the share of the node's reads that storage serves
        want = w["want"] / miss  # the node's whole rate (its storage want is miss x this)
        if kind == "read":  # what each limit leaves this node (the account's after the blobs')
            account = {"blob_target": f_blob, "account_egress": f_blob * f_eg,
                       "account_requests": f_blob * f_req}
        else:
            account = {"account_ingress": f_in, "account_requests": f_req}
        for key, f in account.items():
            if f < 1.0:
                caps[key] = want * f
        rate = min(want, min(caps.values()))  # no faster than the GPUs consume
        limit = min(account, key=lambda s: (account[s], RANK[s]))
        if account[limit] >= 1.0:
            limit = None
        if limit:  # the limit that binds refuses what it cuts
            refused[limit.split("_", 1)[1] if limit != "blob_target" else "blob"] += \
                (want - want * account[limit]) * miss * 1e9 / bpr_bits
        state = binding(caps)
        rec["refused"] = limit
        if kind == "read":
            rec["read"], rec["reading"] = rate * miss, rate > 0
            # One read's time: its request's end to end, or, when a storage-side cap (the NIC,
            # the account's or a blob's share, the cache's thrash) holds the rate, the time its
            # queue takes: the requests in flight over that rate (Little's law). A loader or a
            # demand that holds the rate leaves the reads their end-to-end time.
            storage = [v for k, v in caps.items() if k not in ("not_storage", "latency")]
            e2e = request_e2e_ms(p)
            rec["read_ms"] = e2e
            if storage and rate > 0 and min(storage) <= rate * 1.0001:
                rec["read_ms"] = max(e2e, p["inflight"] * bpr_bits / (rate * miss * 1e9) * 1000)
            if w.get("download"):
                n.remaining -= rate * STEP_S * 1e9
                n.written += rate * STEP_S * 1e9
                rec.update(idle=1.0, state="startup_download" if w["doomed"] else state)
                if n.remaining <= 0:
                    n.phase, n.download_end = "train", t + STEP_S
                elif n.written >= p["disk_gb"] * 1e9 * 8:  # the disk is full: the copy fails
                    n.phase, n.disk_full_at = "disk_full", t + STEP_S
            else:
                rec["idle"] = max(0.0, 1.0 - rate / demand)
                rec["state"] = state
                rec["consumed"] = rate
                advance(n, rate)
        else:
            rec["write"] = rate
            n.ckpt_left -= rate * STEP_S
            rec.update(idle=1.0, state=state)
    else:  # local reads (downloaded or cached data)
        rate = w["want"]
        rec["idle"] = max(0.0, 1.0 - rate / demand)
        rec["state"] = "not_storage"
        rec["consumed"] = rate
        advance(n, rate)
    n.steps.append(rec)
    return rec


def advance(n, rate_gbps):
    n.epoch_done += rate_gbps * 1e9 * STEP_S
    while n.epoch_done >= n.shard_bits:
        n.epoch_done -= n.shard_bits
        n.epoch += 1


# ------------------------------------------------------------------ the truth


def charge(samples):
    """samples: {gpu key: [(t, util or None, state)]}. The GPU time lost by state, with the corpus
    Ledger's rule (each readable sample covers the time to the same GPU's next one; one interval
    across a hole of more than 3.5 intervals, and for the last); returns (states, sampled, lost)."""
    states, sampled, lost = {}, 0.0, 0.0
    for rows in samples.values():
        readable = sorted((t, u, s) for t, u, s in rows if u is not None)
        gaps = [b[0] - a[0] for a, b in zip(readable, readable[1:]) if b[0] > a[0]]
        if not gaps:
            continue
        interval = min(gaps)
        for i, (t, u, s) in enumerate(readable):
            covers = readable[i + 1][0] - t if i + 1 < len(readable) else interval
            c = interval if covers > 3.5 * interval else covers
            sampled += c
            if u < BUSY_THRESHOLD:
                lost += c
                states[s] = states.get(s, 0.0) + c
    return states, sampled, lost


def verdict(states, sampled_s, failed_on_access, failed_on_disk=False):
    """The contract's verdict rule over the true states (docs/postmortem.md, "The idle ledger"):
    a job that failed on access is that; one whose download outgrew the disk, the start-up
    download. Storage is the cause when one of its states holds at
    least as much as each of the job's own states (not_storage, own_code) and storage cost a tenth
    of the sampled GPU time; a node that read nothing is named beside it, and unknown time is no
    evidence either way. Otherwise the largest other state, unknown only when it holds half of the
    time lost (and the GPUs were not busy); None when nothing was lost."""
    if failed_on_access:
        return "access"
    if failed_on_disk:  # a download that outgrew the disk: the input mode, however it read
        return "startup_download"
    if not states:
        return None
    storage = {k: v for k, v in states.items() if k in STORAGE_STATES}
    other = {k: v for k, v in states.items() if k not in STORAGE_STATES}
    own = max((v for k, v in other.items() if k in ("not_storage", "own_code")), default=0.0)
    if storage and max(storage.values()) >= own and sum(storage.values()) >= 0.1 * sampled_s:
        return max(storage, key=lambda k: (storage[k], -RANK[k]))
    lost = sum(states.values())
    busy = lost < 0.1 * sampled_s
    if not busy and other.get("unknown", 0.0) >= 0.5 * lost:
        return "unknown"
    other.pop("unknown", None)
    if other:
        return max(other, key=lambda k: (other[k], -RANK[k]))
    return None  # storage below 10% of the sampled GPU time, nothing else: no cause ("none found")


def job_rng(seed, index):
    """Job `index` of seed `seed` draws from its own generator: a job reruns alone, the same."""
    return random.Random(seed * 1000003 + index)
