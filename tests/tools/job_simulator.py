#!/usr/bin/env python3
"""A discrete-time job simulator: draws Azure ML training jobs, runs their physics in 10 s steps and
writes each job's folder in the real log forms, with the true idle-ledger state of every idle GPU
sample (docs/simulator.md; the states and their precedence: the idle-ledger contract of
docs/postmortem.md).

    job_simulator.py draw --seed S --count N OUT_DIR    # N drawn jobs, OUT_DIR/job-NNNN/
    job_simulator.py one --seed S --index I OUT_DIR     # job I of that draw again, alone
    (--small: the ctest's draw: at most 8 nodes, 1-2 hours, GPU samples every 30 or 60 s)

Each job folder OUT_DIR/job-NNNN/ holds the job's files (job.yml, system_logs/data_capability/ with
data-capability.log and hourly rslex.log.* files, gpu/ samples, metrics/*.json; one node-N/ folder
per node when it has several; in a share of the jobs, --trace-share (0.2), PyTorch profiler
traces in [node-N/]outputs/profiler/, tests/tools/sim_traces.py); its truth is
OUT_DIR/truth/job-NNNN.json (outside the job, which feedcheck reads whole): {"cause_state", "states": {key: gpu_s}, "lost_gpu_s", "sampled_gpu_s",
"args" (the flags to run `feedcheck postmortem` with, from OUT_DIR: a drawn profile is
OUT_DIR/profiles/job-NNNN.yaml), "params" (the draw)}. OUT_DIR/draw.json lists the jobs. Job i of seed S draws from random.Random(S * 1000003 + i): the same seed writes the
same bytes.

The model, per node and 10 s step: the GPUs want `demand` (GPUs x the workload's MB/s per GPU);
storage supplies min(NIC, latency-bound rate = requests in flight x bytes per request / time per
request, data-loader CPU, the mount cache's thrash rate in later epochs when its room (its cap,
else the node's local disk) is below the input, the local disk's write rate during a download, this node's share of the account's egress and
request limits (shared with the other nodes and other tenants) and of the blob targets, 500
requests/s per blob). The GPUs idle a fraction 1 - supply/demand of the time (all of it while
downloading, validating, checkpointing or failed); each GPU sample is idle with that probability. The
resource that binds the supply is the idle time's state (ties: the contract's precedence); refusals
(503), their metrics and the throttling ResponseTypes are written only when a limit is exceeded.

The draw (every parameter independently, so causes mix; rough frequencies over 3,000 jobs in
docs/simulator.md):
  nodes 1 (30%), 2 (20%), 3, 4 (25%), 8, 16 (25%); VM size: any current GPU size of
  data/vm_sizes.yaml (NIC 8-80 Gbit/s); 1-3 hours; GPU samples every 10, 15, 30 or 60 s as
  nvidia-smi CSV (65%), DCGM text (20%) or Azure ML's GpuUtilization (15%); compute region
  listed (70%) or not (data/storage_targets.yaml: 200/60 Gbit/s, 40,000 req/s vs 50/25, 20,000),
  the account in the same region (75%, e2e 2-8 ms over the server's 4-12) or another (40-140 ms);
  input mode download (40%) or ro_mount (60%); dataset 50 GB-6 TB log-uniform (a download's
  within 90% of its VM size's local disk) in files of 16 KB-1 MB (30%) or 1 MB-4 GB, log-uniform,
  read in 1-8 MiB ranges; 30-1000 MB/s per GPU; a data loader of 0.08-2 Gbit/s per vCPU; reads
  falling on 1-4 hot blobs (12%);
  16-256 requests in flight; a mount cache cap of 5-200 GB (35% of mounts; else the local disk is
  its room); a streamed corpus of 20-400 TB read once (10% of mounts, half of them wanting more
  than the NIC carries, from its own generator); other tenants on the
  account (50%, 0-90% of its egress, a burst to 95-130% in 30%); checkpoints through an rw_mount
  output (40%, every 20-60 min, 20-800 GB per node); the job's own validation (25%) and final
  evaluation (20%); faults: SAS expiry mid-job (8%), name resolution failing from the start (4%),
  input not found (3%), a download outgrowing the node's disk (5% of downloads without another
  fault, from its own generator), a dead node (10% of multi-node mounts), a node without logs
  (4%), partial GPU samples (15%); metrics saved (80%, REST or az form); refusals logged asynchronously (50%),
  synchronously with Azure's message (30%) or in the field form (20%); Azure ML's CpuUtilization
  per node (with GpuUtilization, else 30%, from its own generator; the loader's workers on all
  the vCPUs in 55%, on a quarter to nine tenths else).
"""

import json
import math
import os
import random
import shutil
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sim_traces  # noqa: E402
from sim_model import (  # noqa: E402  (re-exported: the unit tests use them from here)
    BUSY_THRESHOLD, RANK, STATES, STEP_S, STORAGE_STATES, bytes_per_request, cache_room_gb, charge,
    draw_params, node_cpu_percent,
    job_rng, latency_cap_gbps, lib, load_kb, logu, pick, region_key, request_e2e_ms,
    requests_in_flight, simulate, verdict)


# ------------------------------------------------------------------ the job's files

ACCOUNT_THROTTLES = ("account_egress", "account_ingress", "account_requests", "blob_target")
THROTTLE_MESSAGE = {"account_egress": "Egress is over the account limit.",
                    "account_ingress": "Ingress is over the account limit.",
                    "account_requests": "Operations per second is over the account limit.",
                    "blob_target": "The server is busy."}
AUTH_MESSAGE = ("Server failed to authenticate the request. Make sure the value of Authorization "
                "header is formed correctly including the signature.")
DNS_ERROR = ('HttpClientError(ConnectError("dns error", Custom { kind: Uncategorized, error: '
             '"failed to lookup address information: Name or service not known" }))')


def duration_ms(text):
    """rslex's span times ("41.7µs", "3.41ms", "1.02s") in milliseconds."""
    for unit, scale in (("µs", 1e-3), ("ms", 1.0), ("ns", 1e-6), ("s", 1e3)):
        if text.endswith(unit):
            return float(text[:-len(unit)]) * scale
    raise ValueError(text)


def duration_text(ms):
    """Milliseconds as rslex writes a span's time: three digits, in µs, ms or s."""
    value, unit = (ms / 1e3, "s") if ms >= 999.5 else (ms, "ms") if ms >= 0.9995 else (ms * 1e3, "µs")
    return f"{value:#.3g}".rstrip(".") + unit


class Writer:
    def __init__(self, name, root, p, rng, span_rng=None):
        self.name, self.p, self.rng, self.span_rng = name, p, rng, span_rng
        self.d = os.path.join(root, name)
        self.t0 = lib.utc("2026-%02d-%02d %02d:%02d:00" % (
            rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randrange(60)))
        self.account = "st" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)) \
            + f"{rng.randrange(100):02d}"

    def node_dir(self, i):
        return self.d if self.p["nodes"] == 1 else os.path.join(self.d, f"node-{i}")

    def write(self, nodes, account, end_s):
        p = self.p
        self.end_s = end_s
        env = {}
        if p["retry_count"]:
            env["AZUREML_DATASET_HTTP_RETRY_COUNT"] = str(p["retry_count"])
        if p["cache_gb"] is not None:
            env["DATASET_MOUNT_CACHE_SIZE"] = f"{p['cache_gb']:.0f}GB"
        if p["threads_env"]:
            key = "RSLEX_DOWNLOADER_THREADS" if p["mode"] == "download" else \
                "DATASET_MOUNT_READ_THREADS"
            env[key] = str(p["threads_env"])
        if p["block_env_mb"] and p["mode"] != "download":
            env["DATASET_MOUNT_READ_BLOCK_SIZE"] = f"{p['block_env_mb']}MB"
        lib.job_yml(os.path.join(self.d, "job.yml"), self.name, p["mode"], env, p["nodes"],
                    p["gpus"])
        for n in nodes:
            if n.i != p["no_logs_node"]:
                self.node_logs(n)
        samples = self.gpu_files(nodes)
        if p["metrics"]:
            self.metrics(account)
        if p["bloblogs"]:
            self.blob_logs(nodes)
        if p.get("cpu_metric"):
            self.cpu_metric(nodes)
        return samples

    # ---- data runtime logs

    def node_logs(self, n):
        p, rng, t0 = self.p, self.rng, self.t0
        logs = os.path.join(self.node_dir(n.i), "system_logs", "data_capability")
        log = lib.Rslex(rng, self.account)
        act = "download" if p["mode"] == "download" else "mount"
        start = t0 + n.t_act
        log.resolved(start - 0.8)
        if p["retry_count"]:
            log.retry_count(start - 0.5, str(p["retry_count"]))
        span_mode = "download" if p["mode"] == "download" else "mount"
        attempt = 0
        for k, rec in enumerate(n.steps):
            ts = t0 + k * STEP_S
            if ts >= t0 + self.end_s:
                break
            if rec["reading"] and k % 3 == 0:
                log.spans(ts + rng.uniform(0, STEP_S), ts + STEP_S, span_mode, 100,
                          self.read_times(rec))
            r = rec["refused"]
            if r in THROTTLE_MESSAGE:
                form = p["refusal_form"] if rec["kind"] == "read" else "async"
                log.throttled(ts, ts + STEP_S, 1, form, 503, "ServerBusy", THROTTLE_MESSAGE[r])
            elif r == "access":
                attempt += 1
                self.access_line(log, ts + rng.uniform(0, STEP_S), attempt)
        acts = []
        errors = ""
        fail_t = None
        if n.failed_at is not None:
            fail_t = max(t0 + n.failed_at + 1,
                         min(t0 + n.failed_at + p["give_up_s"], t0 + self.end_s - 1))
            log.give_up(fail_t - 0.5)
            code, text = {"sas_expiry": ("ScriptExecution.StreamAccess.Authentication",
                                         "Authentication failed when trying to access the stream."),
                          "not_found": ("ScriptExecution.StreamAccess.NotFound",
                                        "The requested stream was not found. Please make sure the "
                                        "request uri is correct."),
                          "dns": ("ScriptExecution.StreamAccess.Unexpected",
                                  "Failed to connect to the storage account: name resolution "
                                  "failed.")}[p["fault"]]
            log.stream_error(fail_t - 0.2, code, text)
            errors = f"ERROR {lib.py_log(fail_t)} data_capability.py:318 [28] - Error Code: {code}\n"
            if p["mode"] != "download" and p["fault"] in ("dns", "not_found"):
                errors = (f"WARN {lib.py_log(fail_t - 0.1)} data_capability.py:271 [28] - Failed "
                          f"to mount URI azureml://datastores/workspaceblobstore/paths/datasets/"
                          f"{self.name}/ due to exception of type ExecutionError\n" + errors)
        unfinished = ""
        if p["mode"] == "download":
            if n.download_end is not None:
                acts.append((act, start, t0 + n.download_end, "Success"))
            elif fail_t is not None:
                acts.append((act, start, fail_t, "Failure"))
            elif n.disk_full_at is not None:  # the copy filled the disk (ENOSPC, as Rust says it)
                full_t = t0 + n.disk_full_at
                log.add(full_t - 0.5, "ERROR", "rslex::python_error_handling",
                        "Execution has failed with: copying the input to /mnt/azureml/cr/j/"
                        f"{self.name}/cap/data-capability/wd/INPUT_training_data: No space left "
                        "on device (os error 28)")
                acts.append((act, start, full_t, "Failure"))
            else:  # the job was cancelled while it still downloaded: the activity never completed
                unfinished = f"INFO {lib.py_log(start)} {lib.SDK_LOGGER} ActivityStarted, {act}\n"
        elif p["fault"] in ("dns", "not_found") and fail_t is not None:
            acts.append((act, start, fail_t, "Failure"))
        else:
            acts.append((act, start, start + rng.uniform(1.5, 3), "Success"))
        lib.write(os.path.join(logs, "data-capability.log"),
                  unfinished + lib.data_capability(acts, rng) + errors)
        log.write(logs)

    def read_times(self, rec):
        """In a job with traces, a span close's time is the read's in the model (its request's end
        to end, or its queue's when a storage-side cap holds the node: sim_model.finish_step),
        within -20%/+25%, from the traces' generator: what the trace's wait is judged beside.
        Without traces, None: the drawn set of times, as the draws before traces wrote."""
        if self.span_rng is None:
            return None

        def times(busy, _idle):
            total_ms = rec["read_ms"] * self.span_rng.uniform(0.8, 1.25)
            return busy, duration_text(max(0.001, total_ms - duration_ms(busy)))
        return times

    def access_line(self, log, t, attempt):
        p, rng = self.p, self.rng
        uri = log.uri(f"datasets/{self.name}/part-{rng.randrange(p['blobs']):05d}")
        if p["fault"] == "dns":
            log.add(t, "INFO", "rslex_http_stream::http_client::async_body",
                    f"[RetryStrategy::run()] Retrying due to error retry_attempt={attempt} "
                    f"delay={rng.choice(['250ms', '500ms', '1s'])} error={DNS_ERROR}")
        elif p["fault"] == "not_found":
            log.one_line(t, 404, "BlobNotFound", "HEAD", uri)
        elif p["refusal_form"] == "field":
            log.field(t, 403, uri)
        elif p["refusal_form"] == "sync":
            log.response(t, 403, "AuthenticationFailed", log._rid(), AUTH_MESSAGE)
        else:
            log.one_line(t, 403, "AuthenticationFailed", "GET", uri)

    # ---- GPU samples

    def util_fn(self, n, record):
        rng, t0 = self.rng, self.t0
        draws = {}

        def util(t, g):
            ts = round(t - t0, 3)
            rec = n.steps[min(int(ts // STEP_S), len(n.steps) - 1)]
            if ts not in draws:
                draws[ts] = rng.random() < (rec["idle"] or 0.0)
            idle = draws[ts]
            u = rng.uniform(0, 3) if idle else rng.uniform(60, 98)
            state = rec["state"]
            if n.i == self.p["no_logs_node"] and not (
                    (self.p["metrics"] and state in ACCOUNT_THROTTLES + ("writes",))
                    or (state == "access" and self.access_recorded())):
                # nothing places it (the account's metrics place a throttle, and its Ingress a
                # checkpoint's writes, which no node's log shows; the job's faults are every
                # node's, so another node's record places its access failure)
                state = "unknown"
            record[(n.i, ts, g)] = (u, state)
            return u
        return util

    def access_recorded(self):
        """The job's access failure is on record: in another node's logs (a fault here is
        every node's: one credential, one name, one input), or in the account's metrics where
        the requests reached it (403s and 404s; a name that never resolved sends none)."""
        p = self.p
        return p["nodes"] > 1 or bool(p["metrics"] and p["fault"] != "dns")

    def first_sample(self, n, interval):
        return math.ceil((n.t_act + 1) / interval) * interval

    def gpu_files(self, nodes):
        p, t0 = self.p, self.t0
        gpus, iv = p["gpus"], p["gpu_interval_s"]
        samples = {}
        record = {}
        if p["gpu_form"] == "metric":
            iv = 60
            start = max(self.first_sample(n, iv) for n in nodes)
            end = math.floor(self.end_s / iv) * iv
            fns = {f"node-{n.i}": self.util_fn(n, record) for n in nodes}
            ledger = lib.Ledger()
            lib.gpu_metric(os.path.join(self.d, "metrics", "gpu.json"), p["metrics"] or "rest", iv,
                           list(fns), gpus, t0 + start, t0 + end,
                           lambda node, t, g: fns[node](t, g), ledger, workspace="ws-sim")
            states, sampled, lost = {}, 0.0, 0.0
            for n in nodes:
                for g in range(gpus):
                    t = start
                    while t < end:
                        vals = [record[(n.i, round(float(t + k * 10), 3), g)] for k in range(iv // 10)]
                        mean = sum(v[0] for v in vals) / len(vals)
                        sampled += iv
                        if mean < BUSY_THRESHOLD:
                            idle_states = [v[1] for v in vals if v[0] < BUSY_THRESHOLD]
                            # sorted: a tie of one rank (egress, throttled_unknown) is not left
                            # to the string hash's order, which PYTHONHASHSEED changes per run
                            s = max(sorted(set(idle_states)),
                                    key=lambda x: (idle_states.count(x), -RANK[x]))
                            lost += iv
                            states[s] = states.get(s, 0.0) + iv
                        t += iv
            return {"states": states, "sampled": sampled, "lost": lost,
                    "ledger_lost": ledger.lost_gpu_s()}
        ledger_lost = 0.0
        for n in nodes:
            start = self.first_sample(n, iv)
            end = self.end_s
            util = self.util_fn(n, record)
            gdir = os.path.join(self.node_dir(n.i), "gpu")
            ledger = lib.Ledger()
            if p["gpu_form"] == "dcgm":
                lib.dcgm_text(os.path.join(gdir, "dcgm.txt"), f"node-{n.i}", gpus, t0 + start,
                              t0 + end, iv, util, ledger, model=p["gpu_model"], samples=True)
                for (ni, ts, g), (u, s) in record.items():
                    if ni == n.i:
                        samples.setdefault((n.i, g), []).append((ts, u, s))
            else:
                na_every = gpus * 7 + 3 if p["partial_gpu"] == "na" else 0
                hole = None
                if p["partial_gpu"] == "hole":
                    h0 = start + (end - start) * 0.4
                    hole = (t0 + h0, t0 + h0 + max(10 * iv, 600))
                rows = lib.smi_rows(ledger, gpus, t0 + start, t0 + end, iv, util, f"{n.i}",
                                    na_every, hole)
                text = lib.smi_text(rows, self.rng, model=p["gpu_model"])
                name = "nvidia-smi.csv"
                if p.get("smi_form") == "csv_noheader":  # --format=csv,noheader
                    text = text.split("\n", 1)[1]
                elif p.get("smi_form") == "dmon":  # nvidia-smi dmon -s u -o DT
                    text, name = lib.smi_dmon_text(rows), "nvidia-smi-dmon.log"
                lib.write(os.path.join(gdir, name), text)
                for t, g, u in rows:
                    base = round(t - g * 0.004 - t0, 3)
                    samples.setdefault((n.i, g), []).append((t - t0, u, record[(n.i, base, g)][1]))
            ledger_lost += ledger.lost_gpu_s()
        states, sampled, lost = charge(samples)
        return {"states": states, "sampled": sampled, "lost": lost, "ledger_lost": ledger_lost}

    # ---- the nodes' CPU

    def cpu_metric(self, nodes):
        """Azure ML's CpuUtilization per NodeId at one-minute grain, as `feedcheck fetch` saves
        it: each point the mean of the node's steps in its minute (sim_model.node_cpu_percent),
        within +-2 points of noise from the metric's own generator."""
        p, t0, cpu = self.p, self.t0, self.p["cpu_metric"]
        noise = random.Random(cpu["noise_seed"])
        per_minute = 60 // STEP_S
        series = []
        for n in nodes:
            points = []
            for m in range(int(self.end_s // 60)):
                steps = n.steps[m * per_minute:(m + 1) * per_minute]
                if not steps:
                    break
                mean = sum(node_cpu_percent(p, rec, cpu) for rec in steps) / len(steps)
                value = min(100.0, max(0.0, mean + noise.gauss(0, 2)))
                points.append((t0 + m * 60, {"average": round(value, 2)}))
            series.append(({"NodeId": f"node-{n.i}"}, points))
        if not any(pts for _, pts in series):
            return
        form = p["metrics"] or "rest"
        lib.write_doc(os.path.join(self.d, "metrics", "workspace-cpu.json"),
                      lib.monitor_doc(form, t0, t0 + self.end_s, 60,
                                      "Microsoft.MachineLearningServices/workspaces/ws-sim",
                                      [("CpuUtilization", "Percent", series)]), form)

    # ---- the account's request log

    def blob_uri(self):
        p, rng = self.p, self.rng
        blob = rng.randrange(p["hot_blobs"] or p["blobs"])
        return (f"https://{self.account}.blob.core.windows.net/data/datasets/{self.name}/"
                f"part-{blob:05d}")

    def blob_logs(self, nodes):
        """A Log Analytics export of StorageBlobLogs for the job's window and its input's path
        (the corpus's columns and ResponseBodySize): a sample of the reads served, and each
        refused read the nodes' logs show."""
        p, rng, t0 = self.p, self.rng, self.t0
        texts = {"account_egress": "ClientAccountBandwidthThrottlingError",
                 "account_requests": "ClientAccountRequestThrottlingError",
                 "blob_target": "ThrottlingError"}
        rows = []
        for n in nodes:
            for k, rec in enumerate(n.steps):
                ts = t0 + k * STEP_S + rng.uniform(0, STEP_S)
                if k * STEP_S >= self.end_s:
                    break
                if rec["refused"] in texts:
                    # A refusal's body is its error message (a few hundred bytes of XML).
                    rows.append((ts, 503, texts[rec["refused"]], self.blob_uri(),
                                 rng.uniform(2, 6), 200 + len(texts[rec["refused"]])))
                elif rec["reading"] and k % 6 == 0:
                    # A read moves a whole small file, or one block of a large one.
                    rows.append((ts, 200, "Success", self.blob_uri(),
                                 p["e2e_ms"] * rng.uniform(1, 3), round(bytes_per_request(p))))
        lines = ["TimeGenerated [UTC],AccountName,OperationName,StatusCode,StatusText,DurationMs,"
                 "ServerLatencyMs,CallerIpAddress,Uri,Protocol,AuthenticationType,"
                 "ResponseBodySize"]
        for t, status, text, uri, duration, body in sorted(rows):
            server = min(duration, p["server_ms"] * rng.uniform(0.8, 1.2))
            lines.append(f"{lib.us_time(t)},{self.account},GetBlob,{status},{text},{duration:.0f},"
                         f"{server:.0f},10.0.4.{7 + rng.randrange(16)}:{rng.randrange(49152, 65535)},"
                         f"{uri},HTTPS,OAuth,{body}")
        lib.write(os.path.join(self.d, "metrics", "storagebloblogs.csv"), "\n".join(lines) + "\n")

    # ---- account metrics

    def metrics(self, account):
        p, rng, t0 = self.p, self.rng, self.t0
        minutes = {}
        for rec in account:
            m = int(rec["t"] // 60)
            b = minutes.setdefault(m, {"egress": 0.0, "ingress": 0.0, "Success": 0.0,
                                       "ClientAccountBandwidthThrottlingError": 0.0,
                                       "ClientAccountRequestThrottlingError": 0.0,
                                       "ServerBusyError": 0.0, "AuthenticationError": 0.0,
                                       "ClientOtherError": 0.0})
            b["egress"] += rec["egress"] * 1e9 / 8 * STEP_S
            b["ingress"] += rec["ingress"] * 1e9 / 8 * STEP_S
            b["Success"] += (rec["job_requests"] + rec["tenant_requests"]) * STEP_S
            r = rec["refused"]
            b["ClientAccountBandwidthThrottlingError"] += (r["egress"] + r["ingress"]) * STEP_S
            b["ClientAccountRequestThrottlingError"] += r["requests"] * STEP_S
            b["ServerBusyError"] += r["blob"] * STEP_S
            if rec["denied"]:
                key = "ClientOtherError" if p["fault"] == "not_found" else "AuthenticationError"
                b[key] += 0.0 if p["fault"] == "dns" else self.p["nodes"] * 0.2 * STEP_S
        last = max(minutes)
        mins = sorted(minutes)

        def series(key, unit_total=True, keep_zero=False):
            out = {}
            for m in mins:
                v = minutes[m][key]
                if v > 0 or keep_zero:
                    out[t0 + m * 60] = {"total": round(v, 1)}
            return out
        srv = {t0 + m * 60: {"average": round(p["server_ms"] * rng.uniform(0.9, 1.1), 2)}
               for m in mins}
        e2e = {t0 + m * 60: {"average": round(request_e2e_ms(p) * rng.uniform(0.9, 1.1), 2)}
               for m in mins}
        tx = [({"ResponseType": rt}, series(rt, keep_zero=(rt == "Success")))
              for rt in ("Success", "ClientAccountBandwidthThrottlingError",
                         "ClientAccountRequestThrottlingError", "ServerBusyError",
                         "AuthenticationError", "ClientOtherError")]
        tx = [(dims, pts) for dims, pts in tx if pts]

        def fn(pts):
            return lambda t: pts.get(t)
        metrics = [("Egress", "Bytes", [({}, fn(series("egress", keep_zero=True)))]),
                   ("Ingress", "Bytes", [({}, fn(series("ingress", keep_zero=True)))]),
                   ("Transactions", "Count", [(dims, fn(pts)) for dims, pts in tx]),
                   ("SuccessE2ELatency", "MilliSeconds", [({}, fn(e2e))]),
                   ("SuccessServerLatency", "MilliSeconds", [({}, fn(srv))])]
        path = os.path.join(self.d, "metrics", "storage.json")
        lib.account_metrics(path, p["metrics"], 60, t0 + mins[0] * 60, t0 + (last + 1) * 60,
                            metrics, account=self.account, region=region_key(p["account_region"]))
        if p.get("metrics_utf16"):  # saved by Windows PowerShell 5.1's `>`: UTF-16LE, a BOM
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path, "w", encoding="utf-16", newline="") as f:
                f.write(text)


# ------------------------------------------------------------------ one job, a draw


def size_text(n_bytes):
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.3g}{unit}"
    return f"{max(1, round(n_bytes / 1e3))}KB"


def write_profile(out_dir, name, p, nodes):
    """The workload profile a user would give (examples/*.yaml): the input's size and files, the
    input mode, the epochs the job ran, the readers, how often it saves a checkpoint (when it
    does), the compute region. Returns its path from OUT_DIR."""
    epochs = max(1, max(n.epoch for n in nodes) if p["mode"] != "download" else 1)
    text = (f"# {name}: drawn by tests/tools/job_simulator.py\n"
            f"compute_region: {region_key(p['compute_region'])}\n"
            "dataset:\n"
            f"  bytes: {size_text(p['dataset_gb'] * 1e9)}\n"
            f"  files: {p['blobs']}\n"
            f"  median_file: {size_text(p['file_mb'] * 1e6)}\n"
            "workload:\n"
            f"  mode: {p['mode']}\n"
            f"  epochs: {epochs}\n"
            f"  readers: {p['readers']}\n")
    if p["checkpoint"]:  # its cadence, as a user knows it: to the minute
        text += f"  checkpoint_every: {max(1, round(p['checkpoint']['every_s'] / 60))}min\n"
    rel = os.path.join("profiles", f"{name}.yaml")
    lib.write(os.path.join(out_dir, rel), text)
    return rel


TRACE_SHARE = 0.2  # the share of jobs whose training loop ran under torch.profiler


def draw_file_forms(p, seed, index):
    """The forms the job's files are saved in, from their own generator (every other draw of
    the seed, and the truth, stay as they were): nvidia-smi's CSV, the same without its header
    (with its name and memory columns), or its dmon log; the account's metrics as Windows
    PowerShell 5.1 saves them (UTF-16)."""
    forms = random.Random(f"file-forms-{seed}-{index}")
    p["smi_form"] = (pick(forms, [("csv", 70), ("csv_noheader", 15), ("dmon", 15)])
                     if p["gpu_form"] == "nvsmi" else None)
    p["metrics_utf16"] = bool(p["metrics"]) and forms.random() < 0.1
    return p


def draw_disk_overflow(p, seed, index):
    """A download whose input outgrows the node's local disk (5% of downloads with no other
    fault), from its own generator: the input is drawn 1.15-2.5 times the disk, the copy fails
    when the disk is full ("No space left on device") and the job with it. Every other job of
    the seed stays as it was."""
    overflow = random.Random(f"disk-overflow-{seed}-{index}")
    p["disk_full"] = (p["mode"] == "download" and p["fault"] is None and p["disk_gb"] > 0
                      and overflow.random() < 0.05)
    if p["disk_full"]:
        p["dataset_gb"] = p["disk_gb"] * overflow.uniform(1.15, 2.5)
        p["blobs"] = max(1, int(p["dataset_gb"] * 1000 / p["file_mb"]))
    return p


def draw_streamed_corpus(p, seed, index):
    """A corpus streamed through a mount (10% of mounts), from its own generator: a
    pretraining corpus in shards of 100 MB-4 GB (tar or Parquet), 1.5-4 times what the nodes
    could read in the run at their NICs' rate, so every read is a first read (no cache serves
    it; the profile says one epoch) at whatever holds the node for the whole run: its loader,
    its requests' latency, the account, or its NIC (half of them want more than it carries: a
    video or multimodal pipeline). The file size sets the requests in flight again (the draw's
    rule: a file under one block is one request per reader)."""
    g = random.Random(f"streamed-{seed}-{index}")
    p["streamed"] = p["mode"] == "ro_mount" and g.random() < 0.1
    if p["streamed"]:
        at_nics_gb = p["nodes"] * p["nic_gbps"] / 8 * p["duration_s"]
        p["dataset_gb"] = at_nics_gb * g.uniform(1.5, 4)
        p["file_mb"] = logu(g, 100, 4000)
        p["blobs"] = max(1, int(p["dataset_gb"] * 1000 / p["file_mb"]))
        p["inflight"] = requests_in_flight(p)
        if g.random() < 0.5:
            p["per_gpu_mbps"] = p["nic_gbps"] * 1000 / 8 / p["gpus"] * g.uniform(1.2, 3)
    return p


def draw_cpu_metric(p, seed, index):
    """Azure ML's CpuUtilization saved beside the job (metrics/workspace-cpu.json, as `feedcheck
    fetch` saves it), from its own generator: always with the GPUs' own metric (GpuUtilization
    comes from the same workspace), else in 30% of jobs. The data loader's workers use all of
    the node's vCPUs (num_workers at least its vCPUs; 55%) or a quarter to nine tenths of them
    (fewer workers: a loader that holds the node leaves the rest of its CPU idle), and a
    validation's own loop keeps 10-60% of it busy."""
    g = random.Random(f"cpu-metric-{seed}-{index}")
    saved = p["gpu_form"] == "metric" or g.random() < 0.3
    share = 1.0 if g.random() < 0.55 else g.uniform(0.25, 0.9)
    p["cpu_metric"] = ({"loader_share": share, "validation": g.uniform(10, 60),
                        "noise_seed": g.getrandbits(32)} if saved else None)
    return p


def draw_job(seed, index, kb, small=False):
    """A job's parameters as make_job draws them: the base draw, then those from generators of
    their own. Returns them and the job's generator, whose later draws write its files."""
    rng = job_rng(seed, index)
    p = draw_params(rng, kb, small)
    draw_file_forms(p, seed, index)
    draw_disk_overflow(p, seed, index)
    draw_streamed_corpus(p, seed, index)
    draw_cpu_metric(p, seed, index)
    return p, rng


def make_job(seed, index, out_dir, kb=None, small=False, trace_share=TRACE_SHARE):
    kb = kb or load_kb()
    p, rng = draw_job(seed, index, kb, small)
    name = f"job-{index:04d}"
    w = Writer(name, out_dir, p, rng)
    shutil.rmtree(w.d, ignore_errors=True)
    nodes, account, end_s, demand = simulate(p)
    # Profiler traces from their own generator: the truth, and every file but the traces and the
    # span closes' times (the reads the trace's wait is judged beside), stay the same bytes.
    traces = sim_traces.draw(p, nodes, end_s, seed, index, trace_share)
    if traces:
        w.span_rng = sim_traces.span_rng(seed, index)
    g = w.write(nodes, account, end_s)
    if traces:
        traces["files"] = sim_traces.write(traces, w.d, p, w.node_dir, w.t0, p["gpu_model"])
    # the job ended on an access failure (its runtime gave up): access, whatever the shares;
    # where a record of it was left (a node's logs, or the account's metrics where the requests
    # reached it: a lone node without logs leaves nothing to tell it by, as its states say)
    failed_on_access = any(n.failed_at is not None and
                           (n.i != p["no_logs_node"] or w.access_recorded()) for n in nodes)
    # a download that outgrew the disk failed the job, where a node's log says so
    failed_on_disk = any(n.disk_full_at is not None and n.i != p["no_logs_node"] for n in nodes)
    states = {k: round(v, 1) for k, v in sorted(g["states"].items(), key=lambda kv: RANK[kv[0]])}
    if not p["metrics"]:  # the refusals then name no limit unless Azure's message does
        for k in ("account_egress", "account_requests", "account_ingress", "blob_target"):
            named = p["refusal_form"] == "sync" and k in ("account_egress", "account_requests")
            if k in states and not named:
                states["throttled_unknown"] = round(states.get("throttled_unknown", 0)
                                                    + states.pop(k), 1)
    truth = {"name": name, "seed": seed, "index": index, "small": small,
             "cause_state": verdict(states, g["sampled"], failed_on_access, failed_on_disk),
             "states": states, "lost_gpu_s": round(g["lost"], 1),
             "ledger_lost_gpu_s": round(g["ledger_lost"], 1),
             "sampled_gpu_s": round(g["sampled"], 1), "failed_on_access": failed_on_access,
             "args": ["--sku", p["sku"], "--nodes", str(p["nodes"]), "--region",
                      region_key(p["account_region"])],
             "params": dict(p, demand_gbps=round(demand, 3), duration_run_s=end_s,
                            latency_cap_gbps=round(latency_cap_gbps(p), 3), account=w.account,
                            t0=lib.iso_z(w.t0))}
    if traces:  # only in the jobs with traces: the others' truth is as before traces were drawn
        truth["params"]["traces"] = {k: v for k, v in traces.items() if k not in ("seed", "index")}
    if p["profile"]:
        truth["args"] += ["--profile", write_profile(out_dir, name, p, nodes)]
    os.makedirs(os.path.join(out_dir, "truth"), exist_ok=True)
    with open(os.path.join(out_dir, "truth", f"{name}.json"), "w") as f:
        json.dump(truth, f, indent=1, default=str)
        f.write("\n")
    return truth


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw", help="draw COUNT jobs into OUT_DIR")
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--count", type=int, required=True)
    d.add_argument("--small", action="store_true", help="the ctest's draw (see draw_params)")
    d.add_argument("out_dir")
    o = sub.add_parser("one", help="write job INDEX of the draw with SEED again")
    o.add_argument("--seed", type=int, required=True)
    o.add_argument("--index", type=int, required=True)
    o.add_argument("--small", action="store_true")
    o.add_argument("out_dir")
    for sp in (d, o):
        sp.add_argument("--trace-share", type=float, default=TRACE_SHARE,
                        help="the share of jobs with PyTorch profiler traces (default %(default)s)")
    a = ap.parse_args(argv[1:])
    os.makedirs(a.out_dir, exist_ok=True)
    kb = load_kb()
    if a.cmd == "one":
        t = make_job(a.seed, a.index, a.out_dir, kb, a.small, a.trace_share)
        print(json.dumps({k: t[k] for k in ("name", "cause_state", "states", "lost_gpu_s",
                                            "args")}, indent=1))
        return 0
    jobs = []
    traced = 0
    for i in range(a.count):
        t = make_job(a.seed, i, a.out_dir, kb, a.small, a.trace_share)
        jobs.append({k: t[k] for k in ("name", "cause_state", "lost_gpu_s", "args")})
        traced += "traces" in t["params"]
    with open(os.path.join(a.out_dir, "draw.json"), "w") as f:
        json.dump({"generator": "tests/tools/job_simulator.py", "seed": a.seed, "small": a.small,
                   "count": a.count, "trace_share": a.trace_share, "jobs": jobs}, f, indent=1)
        f.write("\n")
    causes = {}
    for j in jobs:
        causes[j["cause_state"]] = causes.get(j["cause_state"], 0) + 1
    print(f"wrote {a.count} jobs to {a.out_dir} ({traced} with profiler traces); causes: " +
          ", ".join(f"{k} {v}" for k, v in sorted(causes.items(), key=lambda kv: -kv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
