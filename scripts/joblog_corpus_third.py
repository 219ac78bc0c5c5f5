"""Jobs of a third pass (imported by make-joblog-corpus.py): kinds the first 28 lacked, each
labelled from its scenario before feedcheck ran on it.

    server-busy-burst-long-mount       a 6-minute burst of bare 503 ServerBusy in a
                                       2.5-hour mount job whose other idle time is validation
    download-40min-rotated-capability  40 minutes of download with idle GPUs, then healthy
                                       training; data-capability.log rotated mid-download
    dataloader-few-workers-storage-idle GPUs starved by 2 dataloader workers decoding on the
                                       CPU while the account serves 1 Gbit/s at low latency
    throttled-other-account-metrics    the metrics saved are of another account (throttled at
                                       its limit) than the one the job read
    request-throttled-gpu-stall-cut-lines  request-rate throttling; nvidia-smi stalls 9 minutes
                                       and prints [Unknown Error]; every log's last line cut;
                                       metrics in REST and az forms mixed
    nvidia-smi-ist-long-job            a 10.5-hour job whose nvidia-smi writes IST (UTC+05:30):
                                       longer than the offset, the samples overlap the logs
                                       read as UTC, so only --gpu-utc-offset lines them up
    two-inputs-labels-download-images-mount  a labels file downloaded, 2.4 million small images
                                       mounted: two input modes in one job

The GPU time lost is counted here from the samples written, by the documented rule (a sample
covers the time until the same GPU's next readable sample; across a hole of more than 3.5
intervals, and for the last sample, one interval), not by feedcheck.
"""

import json
import os

from joblog_corpus_unseen import Samples, rate_total, smi_rows


def register(c):
    """Appends this module's jobs to the generator's list (c is the generator module)."""
    # The order fixes each job's seed: append, never reorder.
    for fn in (server_busy_burst_long_mount, download_40min_rotated_capability,
               dataloader_few_workers_storage_idle, throttled_other_account_metrics,
               request_throttled_gpu_stall_cut_lines, nvidia_smi_ist_long_job,
               two_inputs_labels_download_images_mount):
        c.JOBS.append(lambda rng, fn=fn: fn(c, rng))


def account_metrics(c, path, form, interval_s, start, end, account, metrics, region="eastus"):
    """An Azure Monitor response for one storage account's blob service; metrics as in
    joblog_corpus_unseen.monitor: [(name, unit, [(dims, fn(t) -> {aggregation: value}|None)])]."""
    built = []
    for name, unit, series in metrics:
        out = []
        for dims, fn in series:
            pts, t = [], start
            while t < end:
                v = fn(t)
                if v is not None:
                    pts.append((t, v))
                t += interval_s
            out.append((dims, pts))
        built.append((name, unit, out))
    ns = f"Microsoft.Storage/storageAccounts/{account}/blobServices/default"
    doc = json.loads(c.monitor_doc(form, start, end, interval_s, ns, built))
    doc["resourceregion"] = region
    doc["namespace"] = "Microsoft.Storage/storageAccounts/blobServices"
    for m in doc["value"]:  # the resource id the metric belongs to names the account
        m["id"] = (f"/subscriptions/5f3c2a91-7d1e-4b6a-9c0e-2b8d4e6f1a37/resourceGroups/rg-ml-data/"
                   f"providers/Microsoft.Storage/storageAccounts/{account}/blobServices/default/"
                   f"providers/Microsoft.Insights/metrics/{m['name']['value']}")
    c.write(path, json.dumps(doc, indent=1, sort_keys=(form == "az")))


def resolver_line(r, t, datastore, account):
    r.add(t, "INFO", "rslex_azureml::data_store::resolver",
          f'[CachedResolver::resolve()] DataStore resolved info=DataStoreInfo {{ id: "{datastore}", '
          f'... }} datastore_type=Some(AzureBlob) account_name=Some("{account}")')


def smi_text(c, rng, rows, model, header=True):
    text = "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n" if header else ""
    for t, g, u in rows:
        cell = "[N/A]" if u is None else f"{u:.0f} %"
        text += f"{c.smi_time(t)}, {g}, {model}, {cell}, {rng.randint(30000, 39000)} MiB\n"
    return text


# ---------------------------------------------------------------------------------- the jobs


def server_busy_burst_long_mount(c, rng):
    """One ND96 node mounts its shards for 2.5 hours. 62 minutes in, the account answers 503
    503 ServerBusy (no limit named) for 6 minutes and the GPUs wait; the rest
    of the idle time is the job's own validation pass, 4 minutes every 25, while storage serves
    every request. No storage metrics were saved."""
    name = "server-busy-burst-long-mount"
    d = c.folder(name)
    t0 = c.utc("2026-01-20 08:00:00")
    m_start, end = t0 + 28, t0 + 150 * 60
    burst = (t0 + 62 * 60, t0 + 68 * 60)
    logdir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{logdir}/data-capability.log",
                            [("mount", m_start, m_start + 2.6, "Success")], rng)
    r = c.Rslex(rng, account="stllmshards04")
    resolver_line(r, m_start + 0.4, "llm_shards", "stllmshards04")
    r.spans(m_start + 3, end, "mount", 20)
    r.refusals(burst[0] + 3, burst[1] - 3, 126, 503, "The server is busy.", "ServerBusy")
    r.write(logdir)
    samples = Samples()

    def util(t, g):
        if t < m_start + 45 or burst[0] <= t < burst[1] + 30:
            return c.idle(rng)
        since = t - m_start
        if since > 600 and since % 1500 < 240:  # validation: 4 minutes every 25
            return c.idle(rng)
        return c.busy(rng)

    rows = smi_rows(samples, 8, t0 + 6, end, 15, util)
    c.write(f"{d}/gpu/nvidia-smi.csv", smi_text(c, rng, rows, "NVIDIA A100-SXM4-40GB"))
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1"],
                verdict="none found", confidence="confirmed",
                gpu_lost_gpu_s=samples.lost_gpu_s(),
                why="126 x 503 Service Unavailable (ServerBusy) in one 6-minute burst cost ~52 GPU-minutes, "
                    "4% of the job; the rest of the idle time is the job's validation every 25 "
                    "minutes while storage served every request: the burst must be charged its "
                    "own minutes, not all the idle time of the mount")


def download_40min_rotated_capability(c, rng):
    """One ND96 node downloads 5 TB of shards (default threads, no throttling, ~17 Gbit/s of its
    24 Gbit/s NIC) for 40 minutes with the GPUs idle, then trains for 2 hours at 90-98%. The
    runtime's log rotated while the download ran: data-capability.log.1 holds the session's
    start and ActivityStarted, data-capability.log the rest."""
    name = "download-40min-rotated-capability"
    d = c.folder(name)
    t0 = c.utc("2026-02-11 07:02:00")
    dl_start = t0 + 14.5
    dl_end = dl_start + 40 * 60 + 12
    end = t0 + 165 * 60
    logdir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{logdir}/whole.log", [("download", dl_start, dl_end, "Success")],
                            rng)
    with open(f"{logdir}/whole.log") as f:
        lines = f.read().splitlines(keepends=True)
    os.remove(f"{logdir}/whole.log")
    cut = next(i for i, l in enumerate(lines) if "ActivityCompleted" in l)
    c.write(f"{logdir}/data-capability.log.1", "".join(lines[:cut]))
    c.write(f"{logdir}/data-capability.log", "".join(lines[cut:]))
    r = c.Rslex(rng, account="stcrawlshards01")
    resolver_line(r, dl_start + 0.3, "crawl_shards", "stcrawlshards01")
    r.spans(dl_start + 1, dl_end, "download", 6)
    r.write(logdir)
    ledger = c.GpuLedger()
    c.smi_csv(f"{d}/gpu/nvidia-smi.csv", 8, t0 + 4, end, 20,
              lambda t, g: c.idle(rng) if t < dl_end + 40 else c.busy(rng, 90, 98), ledger, rng,
              units=False, header=False)
    downloading = lambda t: dl_start - 30 < t < dl_end
    account_metrics(c, f"{d}/metrics/stcrawlshards01.json", "rest", 60, t0, end,
                    "stcrawlshards01", [
                        ("Egress", "Bytes", [({}, lambda t: rate_total(
                            rng.uniform(16, 17.5) if downloading(t) else rng.uniform(0.0, 0.05),
                            60))]),
                        ("Transactions", "Count", [({"ResponseType": "Success"}, lambda t: {
                            "total": round((520 if downloading(t) else 3) * 60 *
                                           rng.uniform(0.95, 1.05))})]),
                        ("SuccessE2ELatency", "MilliSeconds", [({}, lambda t: {"average": 64.0})]),
                        ("SuccessServerLatency", "MilliSeconds",
                         [({}, lambda t: {"average": 51.0})]),
                    ])
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                 "eastus"],
                verdict="access mode", confidence="confirmed", gpu_lost_gpu_s=ledger.lost_gpu_s,
                absent_diagnostics=["A205"],
                why="the download ran 40 minutes at ~17 Gbit/s with no throttling while 8 GPUs "
                    "sat idle, then training ran healthy: the lost time is the download, the fix "
                    "a mount; data-capability.log rotated mid-download (.log.1 holds its start), "
                    "which must not read as an unfinished download")


def dataloader_few_workers_storage_idle(c, rng):
    """One NC96ads node (4 x A100 80GB PCIe) trains on WebDataset tar shards through a mount.
    The DataLoader runs num_workers=2 decoding and augmenting JPEGs on the CPU: the GPUs wait
    for batches more than half the time. The account serves ~1.1 Gbit/s of its 200 in 4 MiB
    range reads, E2E 38 ms against 33 ms in the service, no throttling: storage is idle and
    fast. nvidia-smi samples every 2 s (utilization.gpu covers at most the last second, so a
    waiting GPU reads 0)."""
    name = "dataloader-few-workers-storage-idle"
    d = c.folder(name)
    t0 = c.utc("2026-03-17 13:40:00")
    m_start, end = t0 + 31, t0 + 46 * 60
    logdir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{logdir}/data-capability.log",
                            [("mount", m_start, m_start + 2.2, "Success")], rng)
    r = c.Rslex(rng, account="stvisionwds02")
    resolver_line(r, m_start + 0.3, "vision_wds", "stvisionwds02")
    r.spans(m_start + 3, end, "mount", 4)
    r.write(logdir)
    samples = Samples()
    rows = smi_rows(samples, 4, t0 + 5, end, 2,
                    lambda t, g: c.idle(rng) if t < m_start + 40 or rng.random() < 0.55
                    else c.busy(rng, 88, 100))
    text = "timestamp, index, utilization.gpu [%]\n" + "".join(
        f"{c.smi_time(t)}, {g}, {u:.0f}\n" for t, g, u in rows)
    c.write(f"{d}/gpu/gpu-util.csv", text)
    account_metrics(c, f"{d}/metrics/stvisionwds02-az.json", "az", 60, t0, end, "stvisionwds02", [
        ("Egress", "Bytes", [({}, lambda t: rate_total(
            rng.uniform(1.0, 1.2) if t >= m_start else 0.0, 60))]),
        ("Transactions", "Count", [({"ResponseType": "Success"}, lambda t: {
            "total": round(rng.uniform(32, 36) * 60) if t >= m_start else 4})]),
        ("SuccessE2ELatency", "MilliSeconds", [({}, lambda t: {"average": round(
            rng.uniform(36, 40), 1)})]),
        ("SuccessServerLatency", "MilliSeconds", [({}, lambda t: {"average": round(
            rng.uniform(31, 35), 1)})]),
    ])
    return dict(name=name, args=["--sku", "Standard_NC96ads_A100_v4", "--nodes", "1",
                                 "--region", "eastus"],
                verdict="none found", confidence="confirmed",
                gpu_lost_gpu_s=samples.lost_gpu_s(),
                why="the GPUs wait on the DataLoader's 2 CPU workers more than half the time, "
                    "but the account serves 1.1 Gbit/s of its 200 in 4 MiB reads at 38 ms end "
                    "to end (33 ms in the service), with no throttling and default mount "
                    "settings: storage was idle and fast, the job's input pipeline was not")


def throttled_other_account_metrics(c, rng):
    """2 ND96 nodes download 3 TB from stimagenet01 (no throttling, ~21 Gbit/s for the two)
    while their 16 GPUs wait 19 minutes, then train. The metrics saved with the job are of another
    account in the subscription, stlogsarchive02, which a log-archiving pipeline held at its
    egress limit with ClientAccountBandwidthThrottlingError all along: not this job's storage."""
    name = "throttled-other-account-metrics"
    d = c.folder(name)
    t0 = c.utc("2025-12-04 22:10:00")
    dl_start, dl_end, end = t0 + 38, t0 + 38 + 19 * 60 + 20, t0 + 75 * 60
    samples = Samples()
    for n in range(2):
        node = f"tvmps_7c31e0{n:02d}b4_d"
        base = f"{d}/system_logs/data_capability/{node}"
        c.write_data_capability(f"{base}/data-capability.log",
                                [("download", dl_start + n * 1.7, dl_end - n * 9, "Success")], rng)
        r = c.Rslex(rng, account="stimagenet01")
        resolver_line(r, dl_start + 0.4, "imagenet_train", "stimagenet01")
        r.spans(dl_start + 1, dl_end, "download", 3)
        r.write(base)
        rows = smi_rows(samples, 8, t0 + 3, end, 30,
                        lambda t, g: c.idle(rng) if t < dl_end + 25 else c.busy(rng), node=str(n))
        c.write(f"{d}/gpu/nvidia-smi-node-{n}.csv",
                smi_text(c, rng, rows, "NVIDIA A100-SXM4-40GB"))
    account_metrics(c, f"{d}/metrics/storage-metrics.json", "rest", 60, t0, end,
                    "stlogsarchive02", [
                        ("Egress", "Bytes", [({}, lambda t: rate_total(
                            rng.uniform(196, 200), 60))]),
                        ("Transactions", "Count", [
                            ({"ResponseType": "Success"},
                             lambda t: {"total": round(rng.uniform(2900, 3100) * 60)}),
                            ({"ResponseType": "ClientAccountBandwidthThrottlingError"},
                             lambda t: {"total": round(rng.uniform(40, 70) * 60)})]),
                    ])
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "2", "--region",
                                 "eastus"],
                verdict="access mode", confidence="confirmed",
                gpu_lost_gpu_s=samples.lost_gpu_s(), nodes=2,
                why="the job read stimagenet01 (the rslex resolver and every request say so) with "
                    "no 503 while its 16 GPUs waited 19 minutes for the download; the metrics "
                    "file is of stlogsarchive02, throttled at its limit by another workload: it "
                    "must be set aside, not blamed")


def request_throttled_gpu_stall_cut_lines(c, rng):
    """One ND96 node reads 6 million 48 KB satellite tiles through a mount from an account a
    labelling app also hammers: the account (eastus, 40,000 requests/s) refuses with 503
    503 ServerBusy (the log names no limit: the metrics do). Storage metrics came in two saves, the
    Egress from the REST API (Z times) and the Transactions from az (+00:00). nvidia-smi printed
    [Unknown Error] for GPU 5 and then stalled 9 minutes while the driver recovered it. The node
    was deallocated mid-write: every log's last line is cut."""
    name = "request-throttled-gpu-stall-cut-lines"
    d = c.folder(name)
    t0 = c.utc("2026-04-07 10:00:00")
    m_start, end = t0 + 26, t0 + 80 * 60
    stall = (t0 + 41 * 60 + 20, t0 + 50 * 60 + 20)
    logdir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{logdir}/data-capability.log",
                            [("mount", m_start, m_start + 2.4, "Success")], rng)
    with open(f"{logdir}/data-capability.log", "a") as f:
        f.write(f"INFO {c.py_log(end - 3)} sdk_logger.py:44 [28] - ActivityComp")  # cut mid-write
    r = c.Rslex(rng, account="stgeotiles03")
    resolver_line(r, m_start + 0.3, "geo_tiles", "stgeotiles03")
    r.spans(m_start + 3, end, "mount", 5)
    throttled = lambda t: ((t - m_start) // 60) % 6 < 3 and t > m_start + 120
    for _ in range(900):
        t = rng.uniform(m_start + 120, end - 30)
        if throttled(t):
            r.refused(t, 503, "Operations per second is over the account limit.", "ServerBusy")
    r.write(logdir, cut_last=True)
    samples = Samples()

    def util(t, g):
        if t < m_start + 40 or throttled(t):
            return c.idle(rng)
        return c.busy(rng, 80, 97)

    rows = []
    t = t0 + 4
    while t < end:
        if not stall[0] <= t < stall[1]:
            for g in range(8):
                u = util(t, g)
                if g == 5 and stall[0] - 60 <= t < stall[0]:
                    u = None  # [Unknown Error]: no sample
                samples.add(str(g), t + g * 0.004, u)
                rows.append((t + g * 0.004, g, u))
        t += 10
    text = "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n"
    for t, g, u in rows:
        cell = "[Unknown Error]" if u is None else f"{u:.0f} %"
        mem = "[Unknown Error]" if u is None else f"{rng.randint(30000, 39000)} MiB"
        text += f"{c.smi_time(t)}, {g}, NVIDIA A100-SXM4-40GB, {cell}, {mem}\n"
    text += f"{c.smi_time(end)}, 0, NVIDIA A100-SXM4-40GB, 9"  # cut: the node went away
    c.write(f"{d}/gpu/nvidia-smi.csv", text)
    account_metrics(c, f"{d}/metrics/egress-rest.json", "rest", 60, t0, end, "stgeotiles03", [
        ("Egress", "Bytes", [({}, lambda t: rate_total(
            rng.uniform(14.5, 15.5) if throttled(t) else rng.uniform(9, 11), 60))]),
    ])
    account_metrics(c, f"{d}/metrics/transactions-az.json", "az", 60, t0, end, "stgeotiles03", [
        ("Transactions", "Count", [
            ({"ResponseType": "Success"}, lambda t: {"total": round(
                rng.uniform(39200, 39900) * 60 if throttled(t) else rng.uniform(26000, 29000) * 60)}),
            ({"ResponseType": "ClientAccountRequestThrottlingError"},
             lambda t: {"total": round(rng.uniform(600, 900) * 60)} if throttled(t) else None)]),
    ])
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                 "eastus"],
                verdict="request rate", confidence="confirmed",
                gpu_lost_gpu_s=samples.lost_gpu_s(),
                why="503 Service Unavailable (ServerBusy; the log names no limit) in the rslex log and "
                    "ClientAccountRequestThrottlingError at ~39,500 requests/s (eastus' 40,000) "
                    "in the metrics, 3 minutes in every 6, exactly when the GPUs stall; "
                    "[Unknown Error] cells are no sample and the 9-minute stall of nvidia-smi a "
                    "hole, not idle time; the cut last lines are named, the rest read")


def nvidia_smi_ist_long_job(c, rng):
    """One ND96 node in Central India downloads 14.8 TB for 90 minutes (near its NIC, no
    throttling) with the GPUs idle, trains for 9 hours and uploads its final checkpoint to an
    upload output. The image sets TZ=Asia/Kolkata: nvidia-smi writes IST (UTC+05:30). The job
    (and the runtime's log, download to upload) is longer than the offset, so read as UTC the
    samples still overlap the logs, 5.5 hours late, and nothing looks wrong: only the user, with
    --gpu-utc-offset +05:30, can say which zone it was."""
    name = "nvidia-smi-ist-long-job"
    d = c.folder(name)
    t0 = c.utc("2026-05-12 02:15:00")
    dl_start = t0 + 33
    dl_end = dl_start + 90 * 60 + 40
    end = t0 + 10 * 3600 + 30 * 60
    ist = 5 * 3600 + 30 * 60
    logdir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{logdir}/data-capability.log",
                            [("download", dl_start, dl_end, "Success"),
                             ("upload", end - 70, end - 22, "Success")], rng)
    r = c.Rslex(rng, account="stllmcorpusci01")
    resolver_line(r, dl_start + 0.3, "llm_corpus", "stllmcorpusci01")
    r.spans(dl_start + 1, dl_end, "download", 20)
    r.write(logdir)
    samples = Samples()

    def util(t, g):
        if t < dl_end + 45:
            return c.idle(rng)
        if (t - dl_end) % 3600 < 150:  # a checkpoint every hour: 2.5 minutes
            return c.idle(rng)
        return c.busy(rng, 88, 98)

    rows = smi_rows(samples, 8, t0 + 8, end, 60, util)
    text = "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n"
    for t, g, u in rows:
        text += (f"{c.smi_time(t + ist)}, {g}, NVIDIA A100-SXM4-40GB, {u:.0f} %, "
                 f"{rng.randint(30000, 39000)} MiB\n")
    c.write(f"{d}/gpu/nvidia-smi.csv", text)
    return dict(name=name, args=["--sku", "Standard_ND96asr_v4", "--nodes", "1",
                                 "--gpu-utc-offset", "+05:30"],
                verdict="access mode", confidence="confirmed",
                gpu_lost_gpu_s=samples.lost_gpu_s(),
                why="8 GPUs idle for the 90-minute download (14% of the job), then busy but for "
                    "hourly checkpoints; nvidia-smi wrote IST, stated with --gpu-utc-offset: "
                    "read as UTC the idle download samples would land 5.5 hours late, in the "
                    "training, and the download would look free")


def two_inputs_labels_download_images_mount(c, rng):
    """One NC96ads node trains on 2.4 million ~110 KB JPEGs (an image folder input, ro_mount)
    with their labels in one parquet file (a uri_file input, download: 3 seconds). The GPUs
    stall 2 minutes in every 5 while the mount reads the images one request each; the account
    serves ~2.6 Gbit/s in ~112 KB requests, far below its limits, with no throttling."""
    name = "two-inputs-labels-download-images-mount"
    d = c.folder(name)
    t0 = c.utc("2026-06-03 11:20:00")
    dl_start = t0 + 12
    dl_end = dl_start + 3.1
    m_start, end = dl_end + 1.2, t0 + 58 * 60
    logdir = f"{d}/system_logs/data_capability"
    c.write_data_capability(f"{logdir}/data-capability.log",
                            [("download", dl_start, dl_end, "Success"),
                             ("mount", m_start, m_start + 2.3, "Success")], rng)
    r = c.Rslex(rng, account="stproductimg05")
    resolver_line(r, dl_start + 0.2, "product_images", "stproductimg05")
    r.spans(dl_start + 0.5, dl_end, "download", 0.5)
    r.spans(m_start + 3, end, "mount", 5)
    r.write(logdir)
    samples = Samples()
    rows = smi_rows(samples, 4, t0 + 3, end, 10,
                    lambda t, g: c.idle(rng) if t < m_start + 35 or ((t - t0) // 60) % 5 < 2
                    else c.busy(rng, 82, 97))
    c.write(f"{d}/gpu/nvidia-smi.csv", smi_text(c, rng, rows, "NVIDIA A100 80GB PCIe"))
    account_metrics(c, f"{d}/metrics/stproductimg05.json", "rest", 60, t0, end, "stproductimg05", [
        ("Egress", "Bytes", [({}, lambda t: rate_total(
            rng.uniform(2.5, 2.7) if t >= m_start else 0.01, 60))]),
        ("Transactions", "Count", [({"ResponseType": "Success"}, lambda t: {
            "total": round(rng.uniform(2850, 2950) * 60) if t >= m_start else 30})]),
        ("SuccessE2ELatency", "MilliSeconds", [({}, lambda t: {"average": 24.0})]),
        ("SuccessServerLatency", "MilliSeconds", [({}, lambda t: {"average": 19.0})]),
    ])
    return dict(name=name, args=["--sku", "Standard_NC96ads_A100_v4", "--nodes", "1",
                                 "--region", "eastus"],
                verdict="small files", confidence="confirmed",
                gpu_lost_gpu_s=samples.lost_gpu_s(),
                why="two inputs, a labels file downloaded in 3 s and 2.4 million images mounted: "
                    "the GPUs stall 2 minutes in every 5 while the mount reads ~112 KB per "
                    "request at 2,900 requests/s, far below the account's limits with no "
                    "throttling; the job's two input modes must not hide the mount's small files")
