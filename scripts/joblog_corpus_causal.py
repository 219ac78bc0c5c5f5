"""Jobs about which cause coincided with the idle GPU time (imported by make-joblog-corpus.py).

Every rslex line here is in a form the data runtime really writes (docs/postmortem.md lists the
forms and their public sources): the asynchronous non-success response over several lines
(`[AsyncResponse::success()] non-successful response` / `Status: 503 Service Unavailable` /
pretty-printed `Headers: {...} code=503`), the synchronous one with its `Body:`, the 2026 field
form `non-successful response request_uri=... response_status_code=403`, the one-line form of a
public bug report (`Status: 404 Not Found Headers: { ... } method=HEAD request_uri=...`),
`[RetryStrategy::run()] retrying after delay: 312.5ms` retries and `ran out of retry attempts`
give-ups. An asynchronous read logs no Azure message text: which limit a 503 hit is for the
storage metrics (ResponseType, Egress and Transactions against the limits) to say.

Each label was written with its scenario before feedcheck was run on the job:

    idle-node-reads-nothing           4 nodes mount; node-3's GPUs sit at 0% all job while its
                                      rslex log reads nothing; account far below its limits
    head-404-optional-upload-timeout  2 HEAD 404s on optional files, a good download, GPUs ~85%
                                      busy for an hour, then the output upload times out
    blob-target-one-large-file        4 nodes take ranged reads of one 120 GB blob: 503s while
                                      the account is far below every limit
    egress-named-by-metrics-async     3 nodes download; the log has asynchronous 503s only, the
                                      metrics say ClientAccountBandwidthThrottlingError
    request-rate-field-form-small-files  mount of 64 KB files; 2026 field-form 503s; metrics say
                                      ClientAccountRequestThrottlingError (two causes, one share)
    egress-throttled-one-node-idle    3 nodes download against a throttled account; node-2 read
                                      nothing and idled: split attribution
    sas-403-field-form-mid-job        field-form 403s from 1 h 40 min, the mount fails with
                                      StreamAccess.Authentication; AuthorizationError in metrics
    input-404-after-optional-heads    HEAD 404s on optional files, then the input's GET 404s and
                                      the download fails: the refusals coincide with the failure
    retries-giveups-gpus-busy         retries, give-ups and a timed-out body read in a mount job
                                      whose GPUs stayed busy
    download-wait-optional-404s       GPUs idle while a 25-minute download runs, account far
                                      below its limits; two HEAD 404s are notes
    server-busy-async-no-metrics      asynchronous 503s in a mount job, no metrics: throttled,
                                      limit unknown
    idle-node-download-no-metrics     2 nodes download; node-1 read nothing and idled; no
                                      metrics
    request-burst-long-mount-field    a 3-minute field-form 503 burst in a 2-hour healthy mount
    egress-at-limit-server-busy-only  async 503s; metrics at the egress limit with ServerBusyError
    blob-target-hot-shards-sync-body  synchronous 503s with a Body, a few hot shards, account far
                                      below its limits; --region given
    cache-cap-thrash-mount            DATASET_MOUNT_CACHE_SIZE=20GB against 640 GB per epoch
    shared-account-egress-own-share   the account at its egress limit mostly from another
                                      workload; the fix estimate uses the job's own share
    blob-target-confirmed-by-bloblogs hot-shard refusals confirmed by a StorageBlobLogs export:
                                      the blob named from its Uri column
"""

import datetime as dt
import os
import random

BUSY = 10.0


def register(c):
    """Appends this module's jobs to the generator's list (c is the generator module)."""
    for fn in JOBS:
        c.JOBS.append(lambda rng, fn=fn: fn(c, rng))


JOBS = []


def job(fn):
    JOBS.append(fn)
    return fn


# ---------------------------------------------------------------- rslex lines in real forms


class Log:
    """One node's rslex log, written by the lib's hourly writer; lines as tracing's Compact
    formatter prints them (timestamp, one space, the level padded to 5)."""

    def __init__(self, c, rng, account="stmlcorpus01"):
        self.r = c.Rslex(rng, account)
        self.c = c
        self.rng = rng
        self.account = account

    def add(self, t, level, target, message):
        self.r.lines.append((t, f"{self.c.iso_rslex(t)} {level:>5} {target}: {message}"))

    def uri(self, blob=None):
        blob = blob or f"train/shard-{self.rng.randrange(99999):05d}.tar"
        return f"https://{self.account}.blob.core.windows.net/data/{blob}"

    def resolved(self, t):
        self.add(t, "INFO", "rslex_azureml::data_store::resolver",
                 '[CachedResolver::resolve()] DataStore resolved info=DataStoreInfo { id: '
                 '"workspaceblobstore", ... } datastore_type=Some(AzureBlob) '
                 f'account_name=Some("{self.account}")')

    def setting(self, t, var, value):
        self.add(t, "INFO", "rslex_http_stream::http_client",
                 f"{var} set in environment, using for http client: {value} num_retries={value}")

    def reads(self, start, end, mode, every_s):
        spans = ("copy_uri:copy_uri:copy_dataset:write_streams_to_files:collect"
                 if mode == "download" else "mount:fuse_read:read_file")
        t = start
        while t < end:
            busy = self.rng.choice(["41.7µs", "1.22ms", "3.41ms", "118µs", "12.3ms"])
            idle = self.rng.choice(["1.90µs", "187ms", "1.02s", "9.50µs", "2.31ms"])
            self.add(t, "INFO", f"{spans}: rslex::prefetching",
                     f"close time.busy={busy} time.idle={idle} parallelization_degree=4")
            t += every_s * self.rng.uniform(0.5, 1.5)

    def headers(self, code, length=212):
        rid = f"{self.rng.getrandbits(32):08x}-601e-0042-1b3c-{self.rng.getrandbits(48):012x}"
        return (f'Headers: {{\n    "content-length": "{length}",\n    "content-type": '
                f'"application/xml",\n    "server": "Windows-Azure-Blob/1.0 Microsoft-HTTPAPI/2.0",'
                f'\n    "x-ms-error-code": "{code}",\n    "x-ms-request-id": "{rid}",\n'
                f'    "x-ms-version": "2021-08-06",\n}}')

    def async_refusal(self, t, status, reason, code):
        """The asynchronous read's form: no Azure message text."""
        self.add(t, "WARN", "rslex_http_stream::http_client::response",
                 f"[AsyncResponse::success()] non-successful response\nStatus: {status} {reason}\n"
                 f"{self.headers(code)} code={status}")

    def sync_refusal(self, t, status, reason, code, message):
        """The synchronous form, with the body Azure sent (its message spans lines)."""
        rid = f"{self.rng.getrandbits(32):08x}-601e-0042-1b3c-{self.rng.getrandbits(48):012x}"
        body = (f'Body: <?xml version="1.0" encoding="utf-8"?><Error><Code>{code}</Code><Message>'
                f"{message}\nRequestId:{rid}\nTime:{self.c.iso_rslex(t)}</Message></Error>")
        self.add(t, "WARN", "rslex_http_stream::http_client::response",
                 f"[Response::success()] non-successful response\nStatus: {status} {reason}\n"
                 f"{self.headers(code)}\n{body} code={status}")

    def field_refusal(self, t, status, uri=None):
        """The 2026 one-line field form."""
        guid = (f"{self.rng.getrandbits(32):08x}-{self.rng.getrandbits(16):04x}-0042-"
                f"{self.rng.getrandbits(16):04x}-{self.rng.getrandbits(48):012x}")
        self.add(t, "WARN", "rslex_http_stream::http_client::response",
                 f"non-successful response request_uri={uri or self.uri()} "
                 f'response_status_code={status} ms_server_side_request_id=Some("{guid}")')

    def oneline_refusal(self, t, status, reason, code, method, uri):
        """The one-line form of a public bug report."""
        self.add(t, "WARN", "rslex_http_stream::http_client::response",
                 f'non-successful response Status: {status} {reason} Headers: {{ "x-ms-error-code":'
                 f' "{code}", ... }} method={method} request_uri={uri}')

    def retry(self, t):
        delay = self.rng.choice(["250ms", "312.5ms", "587.2ms", "1.1s", "2.4s"])
        self.add(t, "DEBUG", "rslex_http_stream::retry::retry",
                 f"[RetryStrategy::run()] retrying after delay: {delay}")

    def retry_error(self, t, attempt):
        self.add(t, "INFO", "rslex_http_stream::retry::retry",
                 f"[RetryStrategy::run()] Retrying due to error retry_attempt={attempt} "
                 f"delay={self.rng.choice(['250ms', '500ms', '1s'])} error=ServerBusy")

    def give_up(self, t):
        self.add(t, "WARN", "rslex_http_stream::retry::retry",
                 "[RetryStrategy::run()] ran out of retry attempts")

    def body_timeout(self, t):
        self.add(t, "WARN", "rslex_http_stream::http_client::async_body",
                 "Timed out while trying to poll data from the response body")

    def stream_error(self, t, code, text):
        self.add(t, "ERROR", "rslex::python_error_handling",
                 f"Execution has failed with: {code}, {text}")

    def throttled(self, start, end, count, form, status=503, reason="Service Unavailable",
                  code="ServerBusy", message="The server is busy."):
        """`count` refusals spread over [start, end], each followed by a retry."""
        for _ in range(count):
            t = self.rng.uniform(start, end)
            if form == "async":
                self.async_refusal(t, status, reason, code)
            elif form == "sync":
                self.sync_refusal(t, status, reason, code, message)
            else:
                self.field_refusal(t, status)
            self.retry(t + 0.0004)

    def write(self, folder):
        self.r.write(folder)


def node_dir(d, node):
    return os.path.join(d, node, "system_logs", "data_capability")


def profile(c, name, text):
    c.write(os.path.join(c.ROOT, "profiles", f"{name}.yaml"), text)
    return f"profiles/{name}.yaml"


def healthy_metrics(c, path, start, end, egress, rps, rng, extra=None, e2e=14.0, server=9.0):
    c.storage_metrics(path, "rest", 60, start, end, lambda t: egress(t),
                      lambda t: dict({"Success": rps(t)}, **(extra(t) if extra else {})),
                      e2e_ms=e2e, server_ms=server)


# ---------------------------------------------------------------- the jobs


@job
def idle_node_reads_nothing(c, rng):
    name = "idle-node-reads-nothing"
    d = c.folder(name)
    t0 = c.utc("2026-03-02 10:00:00")
    m, end = t0 + 20, t0 + 50 * 60
    ledger = c.GpuLedger()
    for n in range(4):
        node = f"node-{n}"
        c.write_data_capability(f"{node_dir(d, node)}/data-capability.log",
                                [("mount", m, m + 2.1, "Success")], rng, noise=False)
        log = Log(c, rng)
        log.resolved(m - 1)
        if n != 3:
            log.reads(m + 3, end - 30, "mount", 6)
        log.write(node_dir(d, node))
        util = ((lambda t, g: c.idle(rng)) if n == 3 else
                (lambda t, g: c.idle(rng) if t < m + 45 else c.busy(rng)))
        c.smi_csv(f"{d}/{node}/gpu/nvidia-smi.csv", 8, t0, end, 15, util, ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end,
                    lambda t: rng.uniform(2.5, 4.0), lambda t: rng.uniform(2500, 3500), rng)
    args = ["--sku", "Standard_ND96asr_v4", "--nodes", "4", "--region", "eastus", "--profile",
            profile(c, name, "# ~2 million JPEGs of ~110 KB\ndataset:\n  files: 2000000\n"
                             "  median_file: 110KB\n  bytes: 220GB\n")]
    return dict(name=name, args=args, verdict="not storage", confidence="confirmed",
                gpu_lost_gpu_s=ledger.lost_gpu_s, nodes=4,
                why="node-3's 8 GPUs sit at 0-3% for the whole job while its rslex log shows no "
                    "read at all; nodes 0-2 read through the mount and are busy after the first "
                    "45 s; the account serves 3 Gbit/s of 200 with no throttling. A node that "
                    "reads nothing cannot be storage-bound: not storage, node-3 named (the "
                    "small-files profile must not take its idle time)")


@job
def head_404_optional_upload_timeout(c, rng):
    name = "head-404-optional-upload-timeout"
    d = c.folder(name)
    t0 = c.utc("2026-03-04 07:00:00")
    dl0, dl1 = t0 + 30, t0 + 30 + 4 * 60
    up0, end = t0 + 66 * 60, t0 + 70 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log",
                            [("download", dl0, dl1, "Success"), ("upload", up0, up0 + 185,
                                                                 "Failure")], rng, noise=False)
    log = Log(c, rng)
    log.resolved(dl0 - 1)
    for i, blob in enumerate(("train/class_weights.json", "train/_SUCCESS")):
        log.oneline_refusal(dl0 + 0.4 + i, 404, "Not Found", "BlobNotFound", "HEAD", log.uri(blob))
    log.reads(dl0 + 2, dl1, "download", 5)
    for k in range(7):  # the upload's body reads stall, retried, then given up
        log.body_timeout(up0 + 20 + k * 23)
        log.retry(up0 + 20.001 + k * 23)
    log.give_up(up0 + 184)
    log.write(ddir)
    ledger = c.GpuLedger()

    def util(t, g):
        if t < dl1 + 20:
            return c.idle(rng)
        return c.idle(rng) if rng.random() < 0.13 else c.busy(rng, 80, 99)

    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 20, util, ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end,
                    lambda t: rng.uniform(20, 24) if dl0 < t < dl1 else rng.uniform(0.01, 0.05),
                    lambda t: rng.uniform(300, 500), rng,
                    extra=lambda t: {"ClientOtherError": 2 / 60 if dl0 - 60 < t < dl0 + 60 else 0})
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                 "eastus"],
                verdict="none found", confidence="confirmed", gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="two HEAD 404s on optional files at the start, a download that succeeds in "
                    "4 min, GPUs ~85% busy for an hour, then the output upload times out 62 min "
                    "after the 404s: the 404s did not end the job and storage held the GPUs back "
                    "only for the 4-minute download (under a tenth of the GPU time)")


@job
def blob_target_one_large_file(c, rng):
    name = "blob-target-one-large-file"
    d = c.folder(name)
    t0 = c.utc("2026-03-09 14:00:00")
    m, end = t0 + 15, t0 + 40 * 60
    ledger = c.GpuLedger()
    for n in range(4):
        node = f"node-{n}"
        c.write_data_capability(f"{node_dir(d, node)}/data-capability.log",
                                [("mount", m, m + 1.8, "Success")], rng, noise=False)
        log = Log(c, rng)
        log.resolved(m - 1)
        log.reads(m + 3, end - 20, "mount", 4)
        log.throttled(m + 60, end - 60, 120, "async")
        log.write(node_dir(d, node))
        c.smi_csv(f"{d}/{node}/gpu/nvidia-smi.csv", 8, t0, end, 15,
                  lambda t, g: c.idle(rng) if t < m + 60 or rng.random() < 0.45 else c.busy(rng),
                  ledger, rng)
    # 6 Gbit/s in 256 KiB ranges: ~2,900 requests/s, a fifth of them refused.
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end,
                    lambda t: rng.uniform(5.5, 6.5) if t > m else 0.01,
                    lambda t: rng.uniform(2700, 3100) if t > m else 5, rng,
                    extra=lambda t: {"ServerBusyError": rng.uniform(500, 700) if t > m + 60 else 0})
    args = ["--sku", "Standard_ND96asr_v4", "--nodes", "4", "--region", "eastus", "--profile",
            profile(c, name, "# one 120 GB training file, read in 256 KiB ranges by every rank\n"
                             "dataset:\n  files: 1\n  median_file: 120GB\n  bytes: 120GB\n")]
    return dict(name=name, args=args, verdict="blob or partition target", confidence="likely",
                gpu_lost_gpu_s=ledger.lost_gpu_s, nodes=4,
                why="32 ranks read one 120 GB blob in 256 KiB ranges; every node logs async 503 "
                    "ServerBusy (no message text) while the account's Egress peaks at 6.5 of "
                    "200 Gbit/s and Transactions at ~3,800 of 40,000/s: no account limit was "
                    "near, so the one blob's target was hit (likely: no StorageBlobLogs to show "
                    "the refused URIs); ranged reads of one file are not small files")


@job
def egress_named_by_metrics_async(c, rng):
    name = "egress-named-by-metrics-async"
    d = c.folder(name)
    t0 = c.utc("2026-03-11 02:00:00")
    dl0, dl1, end = t0 + 40, t0 + 40 + 14 * 60, t0 + 35 * 60
    ledger = c.GpuLedger()
    for n in range(3):
        node = f"node-{n}"
        c.write_data_capability(f"{node_dir(d, node)}/data-capability.log",
                                [("download", dl0, dl1 + rng.uniform(-5, 5), "Success")], rng,
                                noise=False)
        log = Log(c, rng)
        log.resolved(dl0 - 1)
        log.reads(dl0 + 2, dl1, "download", 5)
        log.throttled(dl0 + 90, dl1 - 30, 140, "async")
        log.write(node_dir(d, node))
        c.smi_csv(f"{d}/{node}/gpu/nvidia-smi.csv", 8, t0, end, 15,
                  lambda t, g: c.idle(rng) if t < dl1 + 20 else c.busy(rng), ledger, rng)
    c.storage_metrics(f"{d}/metrics/storage.json", "rest", 60, t0, end,
                      lambda t: rng.uniform(48.6, 50.0) if dl0 < t < dl1 else rng.uniform(0.1, 0.5),
                      lambda t: {"Success": 1400, "ClientAccountBandwidthThrottlingError": 18.0}
                      if dl0 + 60 < t < dl1 else {"Success": 600})
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "3", "--account-kind",
                                 "standard_gpv2_other_regions"],
                verdict="account egress", confidence="confirmed",
                gpu_lost_gpu_s=ledger.lost_gpu_s, nodes=3,
                why="each node's log has asynchronous 503 ServerBusy (which limit, it cannot say); "
                    "the metrics' ResponseType ClientAccountBandwidthThrottlingError and Egress at "
                    "the 50 Gbit/s limit name it: account egress, the GPUs waiting for the download")


@job
def request_rate_field_form_small_files(c, rng):
    name = "request-rate-field-form-small-files"
    d = c.folder(name)
    t0 = c.utc("2026-03-12 18:30:00")
    m, end = t0 + 20, t0 + 45 * 60
    ledger = c.GpuLedger()
    for n in range(2):
        node = f"node-{n}"
        c.write_data_capability(f"{node_dir(d, node)}/data-capability.log",
                                [("mount", m, m + 2.0, "Success")], rng, noise=False)
        log = Log(c, rng)
        log.resolved(m - 1)
        log.reads(m + 3, end - 30, "mount", 5)
        log.throttled(m + 60, end - 60, 260, "field")
        log.write(node_dir(d, node))
        c.smi_csv(f"{d}/{node}/gpu/nvidia-smi.csv", 4, t0, end, 10,
                  lambda t, g: c.idle(rng) if t < m + 40 or rng.random() < 0.5 else c.busy(rng, 60,
                                                                                            95),
                  ledger, rng)
    c.storage_metrics(f"{d}/metrics/storage.json", "rest", 60, t0, end,
                      lambda t: rng.uniform(1.2, 1.6),
                      lambda t: {"Success": rng.uniform(39000, 39900),
                                 "ClientAccountRequestThrottlingError": rng.uniform(80, 160)})
    args = ["--sku", "Standard_NC24ads_A100_v4", "--nodes", "2", "--region", "eastus",
            "--profile", profile(c, name, "# 3.5 million 64 KB images\ndataset:\n  files: 3500000\n"
                                          "  median_file: 64KB\n  bytes: 224GB\n")]
    return dict(name=name, args=args, verdict="request rate", confidence="confirmed",
                gpu_lost_gpu_s=ledger.lost_gpu_s, nodes=2,
                why="2026 field-form 503s (response_status_code=503) on both nodes and the "
                    "metrics' ClientAccountRequestThrottlingError at ~40,000 requests/s, the "
                    "account's limit; the 64 KB files are why so many requests, but the idle "
                    "time is the refused requests': request rate, small files sharing its time")


@job
def egress_throttled_one_node_idle(c, rng):
    name = "egress-throttled-one-node-idle"
    d = c.folder(name)
    t0 = c.utc("2026-03-16 05:00:00")
    dl0, dl1, end = t0 + 30, t0 + 30 + 16 * 60, t0 + 40 * 60
    ledger = c.GpuLedger()
    for n in range(3):
        node = f"node-{n}"
        log = Log(c, rng)
        log.resolved(dl0 - 1)
        if n == 2:  # its rank hung before asking for its input
            c.write_data_capability(f"{node_dir(d, node)}/data-capability.log",
                                    [("mount", dl0, dl0 + 1.5, "Success")], rng, noise=False)
            util = lambda t, g: c.idle(rng)  # noqa: E731
        else:
            c.write_data_capability(f"{node_dir(d, node)}/data-capability.log",
                                    [("download", dl0, dl1, "Success")], rng, noise=False)
            log.reads(dl0 + 2, dl1, "download", 5)
            log.throttled(dl0 + 60, dl1 - 30, 90, "async")
            util = lambda t, g: c.idle(rng) if t < dl1 + 20 else c.busy(rng)  # noqa: E731
        log.write(node_dir(d, node))
        c.smi_csv(f"{d}/{node}/gpu/nvidia-smi.csv", 8, t0, end, 15, util, ledger, rng)
    c.storage_metrics(f"{d}/metrics/storage.json", "rest", 60, t0, end,
                      lambda t: rng.uniform(48.8, 50.0) if dl0 < t < dl1 else rng.uniform(0.1, 0.4),
                      lambda t: {"Success": 1300, "ClientAccountBandwidthThrottlingError": 15.0}
                      if dl0 + 60 < t < dl1 else {"Success": 500})
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "3", "--account-kind",
                                 "standard_gpv2_other_regions"],
                verdict="account egress", confidence="confirmed",
                gpu_lost_gpu_s=ledger.lost_gpu_s, nodes=3,
                why="nodes 0-1 download against an account at its 50 Gbit/s egress limit "
                    "(ClientAccountBandwidthThrottlingError, async 503s in their logs) and wait "
                    "16 min; node-2's GPUs idle all job while its log reads nothing: its idle "
                    "time is not storage's and is named, the rest is account egress")


@job
def sas_403_field_form_mid_job(c, rng):
    name = "sas-403-field-form-mid-job"
    d = c.folder(name)
    t0 = c.utc("2026-03-18 20:00:00")
    m, fail, end = t0 + 25, t0 + 100 * 60, t0 + 104 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("mount", m, m + 2.0, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(m - 1)
    log.reads(m + 3, fail - 200, "mount", 8)
    for k in range(40):
        log.field_refusal(fail - 200 + k * 5, 403)
    log.stream_error(fail, "ScriptExecution.StreamAccess.Authentication",
                     "Authentication failed when trying to access the stream.")
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 20,
              lambda t, g: c.idle(rng) if t < m + 40 or t > fail - 190 else c.busy(rng),
              ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end, lambda t: rng.uniform(3, 5),
                    lambda t: rng.uniform(900, 1200), rng,
                    extra=lambda t: {"AuthorizationError": 8 / 60 if t > fail - 260 else 0})
    return dict(name=name, args=["--sku", "Standard_NC96ads_A100_v4", "--nodes", "1"],
                verdict="storage access failed", confidence="confirmed",
                gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="after 1 h 37 min of busy reads, field-form 403s (response_status_code=403) "
                    "and StreamAccess.Authentication end the mount; the metrics' AuthorizationError "
                    "at the same minutes agrees: the SAS expired mid-job")


@job
def input_404_after_optional_heads(c, rng):
    name = "input-404-after-optional-heads"
    d = c.folder(name)
    t0 = c.utc("2026-03-20 11:00:00")
    dl0, fail, end = t0 + 30, t0 + 30 + 95, t0 + 8 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("download", dl0, fail, "Failure")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(dl0 - 1)
    for i, blob in enumerate(("train/README.md", "train/.gitattributes")):
        log.oneline_refusal(dl0 + 0.3 + i, 404, "Not Found", "BlobNotFound", "HEAD", log.uri(blob))
    for k in range(8):
        log.oneline_refusal(fail - 80 + k * 10, 404, "Not Found", "BlobNotFound", "GET",
                            log.uri("trian/data.parquet"))
        log.retry(fail - 79.9 + k * 10)
    log.give_up(fail - 1)
    log.stream_error(fail, "ScriptExecution.StreamAccess.NotFound",
                     "The requested stream was not found.")
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 15, lambda t, g: c.idle(rng), ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end, lambda t: 0.01,
                    lambda t: 2.0, rng, extra=lambda t: {"ClientOtherError": 10 / 60})
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                 "eastus"],
                verdict="storage access failed", confidence="confirmed",
                gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="GETs of the mistyped input path 404 (BlobNotFound) in the 80 s before the "
                    "download fails with StreamAccess.NotFound, and the metrics show "
                    "ClientOtherError: the refusals coincide with the failure; the two HEAD 404s "
                    "on optional files are noise")


@job
def retries_giveups_gpus_busy(c, rng):
    name = "retries-giveups-gpus-busy"
    d = c.folder(name)
    t0 = c.utc("2026-03-23 09:00:00")
    m, end = t0 + 20, t0 + 50 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("mount", m, m + 2.0, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(m - 1)
    log.reads(m + 3, end - 30, "mount", 5)
    for k in range(60):
        t = rng.uniform(m + 60, end - 60)
        log.retry_error(t, rng.randint(1, 3))
        log.retry(t + 0.001)
    for k in range(3):
        t = rng.uniform(m + 60, end - 60)
        log.body_timeout(t)
        log.give_up(t + 30)
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 15,
              lambda t, g: c.idle(rng) if t < m + 40 or rng.random() < 0.04 else c.busy(rng),
              ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end, lambda t: rng.uniform(4, 6),
                    lambda t: rng.uniform(1500, 2000), rng)
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                 "eastus"],
                verdict="none found", confidence="confirmed", gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="60 retries, 3 timed-out body reads and 3 give-ups over 50 min, but the GPUs "
                    "stay ~96% busy and the account is far below its limits: the retries cost no "
                    "GPU time")


@job
def download_wait_optional_404s(c, rng):
    name = "download-wait-optional-404s"
    d = c.folder(name)
    t0 = c.utc("2026-03-25 16:00:00")
    dl0, dl1, end = t0 + 30, t0 + 30 + 25 * 60, t0 + 70 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("download", dl0, dl1, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(dl0 - 1)
    for i, blob in enumerate(("train/class_names.txt", "train/_SUCCESS")):
        log.oneline_refusal(dl0 + 0.3 + i, 404, "Not Found", "BlobNotFound", "HEAD", log.uri(blob))
    log.reads(dl0 + 2, dl1, "download", 6)
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 15,
              lambda t, g: c.idle(rng) if t < dl1 + 20 else c.busy(rng), ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end,
                    lambda t: rng.uniform(18, 22) if dl0 < t < dl1 else 0.02,
                    lambda t: rng.uniform(600, 800), rng)
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                 "eastus"],
                verdict="access mode", confidence="confirmed", gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="the GPUs idle for the whole 25-minute download and are busy after; the "
                    "account served 20 of 200 Gbit/s with no throttling; the two HEAD 404s on "
                    "optional files ended nothing: the wait is the download mode's")


@job
def server_busy_async_no_metrics(c, rng):
    name = "server-busy-async-no-metrics"
    d = c.folder(name)
    t0 = c.utc("2026-03-27 13:00:00")
    m, end = t0 + 20, t0 + 40 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("mount", m, m + 2.0, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(m - 1)
    log.reads(m + 3, end - 30, "mount", 5)
    log.throttled(m + 60, end - 60, 300, "async")
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 15,
              lambda t, g: c.idle(rng) if t < m + 60 or rng.random() < 0.4 else c.busy(rng),
              ledger, rng)
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1"],
                verdict="throttled, limit unknown", confidence="inconclusive",
                gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="300 asynchronous 503 ServerBusy over the mount with the GPUs 40% idle, and "
                    "no metrics: an asynchronous read logs no Azure message, so which limit was "
                    "hit cannot be said; the account's metrics would settle it")


@job
def idle_node_download_no_metrics(c, rng):
    name = "idle-node-download-no-metrics"
    d = c.folder(name)
    t0 = c.utc("2026-03-30 08:00:00")
    dl0, dl1, end = t0 + 30, t0 + 30 + 90, t0 + 45 * 60
    ledger = c.GpuLedger()
    for n in range(2):
        node = f"node-{n}"
        log = Log(c, rng)
        log.resolved(dl0 - 1)
        if n == 1:
            c.write_data_capability(f"{node_dir(d, node)}/data-capability.log",
                                    [("mount", dl0, dl0 + 1.2, "Success")], rng, noise=False)
            util = lambda t, g: c.idle(rng)  # noqa: E731
        else:
            c.write_data_capability(f"{node_dir(d, node)}/data-capability.log",
                                    [("download", dl0, dl1, "Success")], rng, noise=False)
            log.reads(dl0 + 2, dl1, "download", 3)
            util = lambda t, g: c.idle(rng) if t < dl1 + 15 else c.busy(rng)  # noqa: E731
        log.write(node_dir(d, node))
        c.smi_csv(f"{d}/{node}/gpu/nvidia-smi.csv", 4, t0, end, 10, util, ledger, rng)
    return dict(name=name, args=["--sku", "Standard_NC96ads_A100_v4", "--nodes", "2"],
                verdict="not storage", confidence="confirmed", gpu_lost_gpu_s=ledger.lost_gpu_s,
                nodes=2,
                why="node-0 downloads in 90 s and its GPUs are busy after; node-1's GPUs idle for "
                    "45 min while its log reads nothing: not storage, node-1 named")


@job
def request_burst_long_mount_field(c, rng):
    name = "request-burst-long-mount-field"
    d = c.folder(name)
    t0 = c.utc("2026-04-01 00:00:00")
    m, b0, b1, end = t0 + 20, t0 + 61 * 60, t0 + 64 * 60, t0 + 120 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("mount", m, m + 2.0, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(m - 1)
    log.reads(m + 3, end - 30, "mount", 10)
    log.throttled(b0, b1, 150, "field")
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 30,
              lambda t, g: c.idle(rng) if t < m + 60 or b0 <= t < b1 else c.busy(rng),
              ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end, lambda t: rng.uniform(3, 5),
                    lambda t: rng.uniform(38500, 39500) if b0 <= t < b1 else rng.uniform(4000, 6000),
                    rng, extra=lambda t: {"ClientAccountRequestThrottlingError": 300.0}
                    if b0 <= t < b1 else {})
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                 "eastus"],
                verdict="none found", confidence="confirmed", gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="a 3-minute burst of field-form 503s (request throttling in the metrics at "
                    "those minutes) in a 2-hour mount job whose GPUs are busy otherwise: the "
                    "burst cost under a tenth of the GPU time")


@job
def egress_at_limit_server_busy_only(c, rng):
    name = "egress-at-limit-server-busy-only"
    d = c.folder(name)
    t0 = c.utc("2026-04-03 03:00:00")
    dl0, dl1, end = t0 + 30, t0 + 30 + 12 * 60, t0 + 30 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("download", dl0, dl1, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(dl0 - 1)
    log.reads(dl0 + 2, dl1, "download", 4)
    log.throttled(dl0 + 60, dl1 - 30, 200, "async")
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 15,
              lambda t, g: c.idle(rng) if t < dl1 + 20 else c.busy(rng), ledger, rng)
    c.storage_metrics(f"{d}/metrics/storage.json", "rest", 60, t0, end,
                      lambda t: rng.uniform(196, 200) if dl0 < t < dl1 else rng.uniform(0.1, 1),
                      lambda t: {"Success": 5000, "ServerBusyError": 25.0}
                      if dl0 + 60 < t < dl1 else {"Success": 800})
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1"],
                verdict="account egress", confidence="confirmed", gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="async 503s in the log and ServerBusyError in the metrics, with the account's "
                    "Egress at its 200 Gbit/s limit (eastus, from the metrics) at the throttled "
                    "minutes: the egress figure names the limit")


@job
def blob_target_hot_shards_sync_body(c, rng):
    name = "blob-target-hot-shards-sync-body"
    d = c.folder(name)
    t0 = c.utc("2026-04-06 19:00:00")
    m, end = t0 + 20, t0 + 35 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("mount", m, m + 2.0, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(m - 1)
    log.reads(m + 3, end - 30, "mount", 4)
    log.throttled(m + 60, end - 60, 220, "sync", message="The server is busy.")
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 15,
              lambda t, g: c.idle(rng) if t < m + 60 or rng.random() < 0.5 else c.busy(rng),
              ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end, lambda t: rng.uniform(8, 10),
                    lambda t: rng.uniform(1800, 2200), rng,
                    extra=lambda t: {"ServerBusyError": rng.uniform(200, 300) if t > m + 60 else 0})
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                 "eastus"],
                verdict="blob or partition target", confidence="likely",
                gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="synchronous 503 ServerBusy with Azure's own body ('The server is busy.'), "
                    "ServerBusyError in the metrics, while the account's Egress stays at ~10 of "
                    "200 Gbit/s and Transactions at ~2,500 of 40,000/s: a few hot shards hit "
                    "their blob target; --region was given, so it is not asked for again")


@job
def cache_cap_thrash_mount(c, rng):
    name = "cache-cap-thrash-mount"
    d = c.folder(name)
    t0 = c.utc("2026-04-08 06:00:00")
    m, end = t0 + 20, t0 + 80 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("mount", m, m + 2.0, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(m - 1)
    log.add(m - 0.5, "INFO", "rslex_fuse::settings",
            "DATASET_MOUNT_CACHE_SIZE set in environment, using for the mount's disk cache: 20GB "
            "cache_size=20GB")
    log.reads(m + 3, end - 30, "mount", 4)
    log.write(ddir)
    ledger = c.GpuLedger()
    # Four epochs of 20 min, each read from storage again: the GPUs wait ~45% of every epoch.
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 15,
              lambda t, g: c.idle(rng) if t < m + 40 or rng.random() < 0.45 else c.busy(rng),
              ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end,
                    lambda t: rng.uniform(6.5, 7.5) if t > m else 0.01,
                    lambda t: rng.uniform(380, 450), rng)
    args = ["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region", "eastus", "--profile",
            profile(c, name, "# 640 GB in 320 shards of 2 GB, 4 epochs\ndataset:\n  files: 320\n"
                             "  median_file: 2GB\n  bytes: 640GB\nworkload:\n  epochs: 4\n")]
    return dict(name=name, args=args, verdict="cache disk", confidence="confirmed",
                gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="DATASET_MOUNT_CACHE_SIZE=20GB against 640 GB read per epoch, 4 epochs: the "
                    "account serves ~7 Gbit/s in every epoch (never a cached minute) with no "
                    "throttling, far below its limits, and the GPUs wait ~45% of the mount: "
                    "the cache cap thrashes; the advice lifts it (negative size), never keeps it; "
                    "2 GB shards are not small files")


@job
def shared_account_egress_own_share(c, rng):
    name = "shared-account-egress-own-share"
    d = c.folder(name)
    t0 = c.utc("2026-04-10 09:00:00")
    dl0, dl1, end = t0 + 30, t0 + 30 + 1294, t0 + 50 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("download", dl0, dl1, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(dl0 - 1)
    log.reads(dl0 + 2, dl1, "download", 5)
    log.throttled(dl0 + 60, dl1 - 30, 160, "async")
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 15,
              lambda t, g: c.idle(rng) if t < dl1 + 20 else c.busy(rng), ledger, rng)
    # The account total: this job's ~1.9 Gbit/s plus another workload's ~47.
    c.storage_metrics(f"{d}/metrics/storage.json", "rest", 60, t0 - 600, end,
                      lambda t: rng.uniform(48.8, 50.0),
                      lambda t: {"Success": 2600, "ClientAccountBandwidthThrottlingError": 14.0})
    args = ["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--account-kind",
            "standard_gpv2_other_regions", "--profile",
            profile(c, name, "# 300 GB of training shards\ndataset:\n  files: 1200\n"
                             "  median_file: 250MB\n  bytes: 300GB\n")]
    return dict(name=name, args=args, verdict="account egress", confidence="confirmed",
                gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="the account sits at its 50 Gbit/s egress limit with "
                    "ClientAccountBandwidthThrottlingError from 10 minutes before the job to its "
                    "end (another workload), while the job's own 300 GB take 21 min 34 s "
                    "(~1.9 Gbit/s): account egress, and the fix estimate must use the job's own "
                    "share (an account of its own buys a faster download), not the total")


def storage_blob_logs_csv(c, path, rows):
    """A Log Analytics export of StorageBlobLogs (the portal's CSV: PascalCase columns, the time
    in the US locale); rows are (epoch_s, status, status_text, uri, duration_ms). The service's
    own share of a request's time (ServerLatencyMs) is most of DurationMs, never more."""
    def us_time(t):
        d = dt.datetime.fromtimestamp(t, dt.timezone.utc)
        hour = d.hour % 12 or 12
        return (f'"{d.month}/{d.day}/{d.year}, {hour}:{d.minute:02d}:{d.second:02d}.'
                f'{d.microsecond // 1000:03d} {"PM" if d.hour >= 12 else "AM"}"')
    lines = ["TimeGenerated [UTC],AccountName,OperationName,StatusCode,StatusText,DurationMs,"
             "ServerLatencyMs,CallerIpAddress,Uri,Protocol,AuthenticationType"]
    for t, status, text, uri, duration in sorted(rows):
        server = duration * (0.6 + 0.3 * ((t * 1000) % 1))
        lines.append(f"{us_time(t)},stmlcorpus01,GetBlob,{status},{text},{duration:.0f},"
                     f"{server:.0f},10.0.4.7:{49152 + int(t * 7) % 16000},{uri},HTTPS,OAuth")
    c.write(path, "\n".join(lines) + "\n")


@job
def blob_target_confirmed_by_bloblogs(c, _rng):
    # Its own seed: the job's data stays the same wherever it sits in the list.
    rng = random.Random("blob-target-confirmed-by-bloblogs")
    name = "blob-target-confirmed-by-bloblogs"
    d = c.folder(name)
    t0 = c.utc("2026-05-18 08:00:00")
    m, end = t0 + 25, t0 + 40 * 60
    ddir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{ddir}/data-capability.log", [("mount", m, m + 2.2, "Success")],
                            rng, noise=False)
    log = Log(c, rng)
    log.resolved(m - 1)
    log.reads(m + 3, end - 30, "mount", 4)
    log.throttled(m + 90, end - 90, 240, "sync", message="The server is busy.")
    log.write(ddir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0, end, 15,
              lambda t, g: c.idle(rng) if t < m + 90 or rng.random() < 0.5 else c.busy(rng),
              ledger, rng)
    healthy_metrics(c, f"{d}/metrics/storage.json", t0, end, lambda t: rng.uniform(9, 11),
                    lambda t: rng.uniform(2300, 2700), rng,
                    extra=lambda t: {"ServerBusyError": rng.uniform(150, 250) if t > m + 90 else 0})
    # The account's refused reads, exported for the job's window: two thirds on one shard that
    # every rank opens first (its bursts pass a blob's 500 requests/s), the rest spread thin.
    base = "https://stmlcorpus01.blob.core.windows.net/data/train"
    rows = []
    for burst in range(12):
        second = m + 120 + burst * 170
        for _ in range(rng.randrange(60, 110)):
            rows.append((second + rng.random(), 503, "ThrottlingError",
                         f"{base}/shard-00017.tar", rng.uniform(2, 6)))
    for _ in range(420):
        rows.append((rng.uniform(m + 90, end - 90), 503, "ThrottlingError",
                     f"{base}/shard-{rng.randrange(18, 2048):05d}.tar", rng.uniform(2, 6)))
    for _ in range(900):
        rows.append((rng.uniform(m, end - 60), 200, "Success",
                     f"{base}/shard-{rng.randrange(2048):05d}.tar", rng.uniform(30, 90)))
    storage_blob_logs_csv(c, f"{d}/metrics/storagebloblogs-refused.csv", rows)
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                 "eastus"],
                verdict="blob or partition target", confidence="confirmed",
                gpu_lost_gpu_s=ledger.lost_gpu_s,
                why="synchronous 503 ServerBusy in the log and ServerBusyError in the metrics "
                    "with the account at ~10 of 200 Gbit/s and ~2,500 of 40,000 requests/s; the "
                    "StorageBlobLogs export of the window puts two thirds of the refused reads "
                    "on one shard, data/train/shard-00017.tar, which every rank opens first: a "
                    "blob's target, named and confirmed by the request log")
