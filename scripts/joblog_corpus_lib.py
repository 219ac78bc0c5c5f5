"""Writers of the corpus's file formats, shared by the job scripts (stdlib only): timestamps
as each tool prints them, data-capability.log, hourly rslex.log files, nvidia-smi CSV, DCGM
text, Azure Monitor metrics (REST and `az` forms), and the GPU ledger that counts samples x
interval. Imported by make-joblog-corpus.py.
"""

import datetime as dt
import json
import os

BUSY_THRESHOLD = 10.0  # feedcheck's default --gpu-busy-threshold


def utc(s):
    return dt.datetime.strptime(s, "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt.timezone.utc).timestamp()


def iso_rslex(t):
    d = dt.datetime.fromtimestamp(t, dt.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{d.microsecond:06d}Z"


def py_log(t):
    d = dt.datetime.fromtimestamp(t, dt.timezone.utc)
    return d.strftime("%Y-%m-%d %H:%M:%S,") + f"{d.microsecond // 1000:03d}"


def smi_time(t):
    d = dt.datetime.fromtimestamp(t, dt.timezone.utc)
    return d.strftime("%Y/%m/%d %H:%M:%S.") + f"{d.microsecond // 1000:03d}"


def iso_z(t):
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_az(t):
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def write(path, text, crlf=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if crlf:
        text = text.replace("\n", "\r\n")
    with open(path, "w", newline="") as f:
        f.write(text)


class GpuLedger:
    """What feedcheck should count: each sample under the threshold loses its interval."""

    def __init__(self):
        self.lost_gpu_s = 0.0

    def add(self, util, covers_s):
        if util < BUSY_THRESHOLD:
            self.lost_gpu_s += covers_s


# ---------------------------------------------------------------- data runtime logs


def write_data_capability(path, activities, rng, crlf=False, noise=True):
    """activities: (name, start, end, how_ended) for download/mount/upload. Only the lines a
    public source shows: the activity telemetry (`noise` is kept for the callers; no invented
    progress lines are written)."""
    rng.uniform(2, 6)  # the session start the first version drew: seeds stay as they were
    lines = []
    for name, start, end, how in activities:
        lines.append((start, f"INFO {py_log(start)} sdk_logger.py:44 [28] - ActivityStarted, {name}"))
        dur_ms = (end - start) * 1000
        lines.append((end, f"INFO {py_log(end)} sdk_logger.py:44 [28] - ActivityCompleted: "
                           f"Activity={name}, HowEnded={how}, Duration={dur_ms:.2f} [ms]"))
    lines.sort()
    write(path, "".join(l + "\n" for _, l in lines), crlf=crlf)


class Rslex:
    """Lines of one node's rslex log, written as hourly files rslex.log.<YYYY-MM-DD-HH>."""

    def __init__(self, rng, account="stmlcorpus01"):
        self.rng = rng
        self.account = account
        self.lines = []

    def add(self, t, level, target, message, spans=""):
        prefix = f"{spans}: " if spans else ""
        self.lines.append((t, f"{iso_rslex(t)} {level:>5} {prefix}{target}: {message}"))

    def setting(self, t, var, value):
        self.add(t, "INFO", "rslex::settings", f"{var} set in environment, using: {value} value={value}")

    def spans(self, start, end, mode, every_s):
        spans = ("copy_uri:copy_uri:copy_dataset:write_streams_to_files:collect"
                 if mode == "download" else "mount:fuse_read:read_file")
        t = start
        while t < end:
            busy = self.rng.choice(["41.7µs", "1.22ms", "3.41ms", "118µs", "12.3ms"])
            idle = self.rng.choice(["1.90µs", "187ms", "1.02s", "9.50µs", "2.31ms"])
            self.add(t, "INFO", "rslex::prefetching",
                     f"close time.busy={busy} time.idle={idle} parallelization_degree=4", spans)
            t += every_s * self.rng.uniform(0.5, 1.5)

    # The HTTP library's canonical reasons: rslex logs these, never Azure's message.
    REASONS = {403: "Forbidden", 404: "Not Found", 409: "Conflict", 429: "Too Many Requests",
               500: "Internal Server Error", 503: "Service Unavailable"}

    def response(self, t, status, code, rid, azure_message=None):
        """The runtime's non-successful response, one event over several lines
        (rslex-http-stream http_client/response.rs): the asynchronous form, or the synchronous
        one with Azure's XML body when `azure_message` is given."""
        sync = azure_message is not None
        tag = "[Response::success()]" if sync else "[AsyncResponse::success()]"
        lines = [f"{tag} non-successful response",
                 f"Status: {status} {self.REASONS[status]}",
                 "Headers: {",
                 '    "content-type": "application/xml",',
                 f'    "x-ms-error-code": "{code}",',
                 f'    "x-ms-request-id": "{rid}",',
                 '    "x-ms-version": "2021-08-06",']
        if sync:
            lines += ["}",
                      f'Body: <?xml version="1.0" encoding="utf-8"?><Error><Code>{code}</Code>'
                      f"<Message>{azure_message}",
                      f"RequestId:{rid}",
                      f"Time:{iso_z(t)[:-1]}.0000000Z</Message></Error> code={status}"]
        else:
            lines.append(f"}} code={status}")
        self.add(t, "WARN", "rslex_http_stream::http_client::response", "\n".join(lines))

    def retry(self, t, tries, delay_ms):
        """rslex-http-stream retry/retry_strategy.rs: a retry after a retryable status."""
        delay = f"{delay_ms:.1f}ms" if delay_ms % 1 else f"{delay_ms:.0f}ms"
        self.add(t, "DEBUG", "rslex_http_stream::retry::retry_strategy",
                 f"[RetryStrategy::run()] retrying after delay: {delay} tries={tries} "
                 f"should_retry=true delay={delay}", "run")

    def refused(self, t, status, reason, code, sync=False):
        """A refused read: `reason` is Azure's message, logged only in a synchronous body."""
        rid = f"{self.rng.getrandbits(64):016x}-0000"
        self.rng.randrange(99999)  # the blob name the invented form drew: seeds stay as they were
        self.response(t, status, code, rid, reason if sync else None)
        self.retry(t + 0.00005, self.rng.randint(1, 4), self.rng.choice([250, 500, 1000, 2000]))

    def refused_one_line(self, t, status, code, method, uri):
        """The one-line form of a refusal (status and headers in the message, then method= and
        request_uri=), as in a public 2026 bug report's rslex.log."""
        rid = f"{self.rng.getrandbits(64):016x}-0000"
        self.add(t, "WARN", "rslex_http_stream::http_client::response",
                 f"non-successful response Status: {status} {self.REASONS[status]} Headers: "
                 f'{{ "x-ms-error-code": "{code}", "x-ms-request-id": "{rid}", ... }} '
                 f"method={method} request_uri={uri}")

    def refused_fields(self, t, status, uri):
        """The 2026 field form: no Status: line, the status in response_status_code=."""
        guid = "-".join(f"{self.rng.getrandbits(b):0{b // 4}x}" for b in (32, 16, 16, 16, 48))
        self.add(t, "WARN", "rslex_http_stream::http_client::response",
                 f"non-successful response request_uri={uri} response_status_code={status} "
                 f'ms_server_side_request_id=Some("{guid}")')

    def body_retry(self, t, attempt, delay_ms, timeout=True):
        """http_client/async_body.rs: a body read retried after a stall (timeout) or an error."""
        kind = "Timeout" if timeout else f"Retry({attempt - 1})"
        why = "timeout" if timeout else "error"
        self.add(t, "INFO", "rslex_http_stream::http_client::async_body",
                 f"[RetryStrategy::run()] Retrying due to {why} retry_attempt={attempt} "
                 f"delay={delay_ms}ms error=AsyncBodyError {{ kind: {kind}, inner: None }}")

    def give_up(self, t, attempts, timeout=True):
        """A request given up: the body read ran out of retry attempts (WARN), or the retry
        strategy ran out of backoff delays (INFO) when `timeout` is None."""
        if timeout is None:
            self.add(t, "INFO", "rslex_http_stream::retry::retry_strategy",
                     f"[RetryStrategy::run()] ran out of backoff_delays, stopping retries "
                     f'tries={attempts} should_retry=true delay="None"', "run")
            return
        error = ("Timed out while trying to poll data from the response body" if timeout else
                 f"Retry error (attempt number {attempts}) while trying to poll data from the "
                 "response body")
        self.add(t, "WARN", "rslex_http_stream::http_client::async_body",
                 f"[RetryStrategy::run()] ran out of retry attempts retry_attempt={attempts} "
                 f"error={error}")

    def refusals(self, start, end, count, status, reason, code, sync=False):
        for _ in range(count):
            self.refused(self.rng.uniform(start, end), status, reason, code, sync)

    def write(self, folder, junk=0, cut_last=False):
        self.lines.sort()
        for _ in range(junk):  # lines a crashed writer or a bad copy leaves behind
            t = self.rng.choice(self.lines)[0]
            self.lines.append((t, "\x00\x00garbage \x07 not a tracing line"))
        self.lines.sort(key=lambda x: x[0])
        by_hour = {}
        for t, line in self.lines:
            hour = dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%d-%H")
            by_hour.setdefault(hour, []).append(line)
        hours = sorted(by_hour)
        for i, hour in enumerate(hours):
            text = "".join(l + "\n" for l in by_hour[hour])
            if cut_last and i == len(hours) - 1:
                text = text[: len(text) - 25]  # the job was killed mid-write
            write(os.path.join(folder, f"rslex.log.{hour}"), text)


# ---------------------------------------------------------------- GPU samples


def smi_csv(path, gpus, start, end, interval, util, ledger, rng, units=True, header=True,
            hole=None):
    """nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu,memory.used --format=csv[,nounits]."""
    out = []
    if header:  # --format=csv,nounits keeps the [unit] in the header, drops it from the values
        out.append("timestamp, index, name, utilization.gpu [%], memory.used [MiB]")
    t = start
    while t < end:
        if hole and hole[0] <= t < hole[1]:
            t += interval
            continue
        for g in range(gpus):
            u = util(t, g)
            ledger.add(u, interval)  # the sample before a hole still covers one interval
            pct = f"{u:.0f} %" if units else f"{u:.0f}"
            mem = f"{rng.randint(3, 70000)} MiB" if units else f"{rng.randint(3, 70000)}"
            if header:
                out.append(f"{smi_time(t + g * 0.003)}, {g}, NVIDIA A100-SXM4-80GB, {pct}, {mem}")
            else:  # --query-gpu=timestamp,index,utilization.gpu --format=csv,noheader[,nounits]
                out.append(f"{smi_time(t + g * 0.003)}, {g}, {pct}")
        t += interval
    write(path, "".join(l + "\n" for l in out))


def dcgm_text(path, host, gpus, start, end, interval, util, ledger):
    out = []
    t = start
    while t < end:
        out.append(f"# {iso_z(t)}")
        out.append("# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).")
        out.append("# TYPE DCGM_FI_DEV_GPU_UTIL gauge")
        for g in range(gpus):
            u = util(t, g)
            ledger.add(u, interval)
            out.append(f'DCGM_FI_DEV_GPU_UTIL{{gpu="{g}",UUID="GPU-{host}-{g:04d}",'
                       f'device="nvidia{g}",modelName="NVIDIA A100-SXM4-80GB",Hostname="{host}"}} '
                       f"{u:.0f}")
        t += interval
    write(path, "".join(l + "\n" for l in out))


def interval_text(seconds, form):
    if form == "rest":
        return f"PT{seconds // 60}M"
    return str(dt.timedelta(seconds=seconds))  # az prints a Python timedelta: 0:05:00


def monitor_doc(form, start, end, interval_s, namespace, metrics):
    """metrics: list of (name, unit, [(dims dict, [(t, {aggregation: value})])])."""
    values = []
    for name, unit, series in metrics:
        ts_list = []
        for dims, points in series:
            data = []
            for t, aggs in points:
                p = {"timeStamp": iso_z(t) if form == "rest" else iso_az(t)}
                if form == "az":  # az prints every aggregation, null when not requested
                    for a in ("average", "count", "maximum", "minimum", "total"):
                        p[a] = aggs.get(a)
                else:
                    p.update(aggs)
                data.append(p)
            md = [{"name": {"value": k.lower() if form == "rest" else k, "localizedValue": k},
                   "value": v} for k, v in dims.items()]
            ts_list.append({"metadatavalues": md, "data": data})
        m = {"id": f"/subscriptions/0000/resourceGroups/rg-ml/providers/{namespace}/providers/"
                   f"Microsoft.Insights/metrics/{name}",
             "type": "Microsoft.Insights/metrics",
             "name": {"value": name, "localizedValue": name},
             "displayDescription": "", "unit": unit, "errorCode": "Success",
             "timeseries": ts_list}
        if form == "az":
            m["errorMessage"] = None
            m["resourceGroup"] = "rg-ml"
        values.append(m)
    doc = {"cost": 0, "timespan": f"{iso_z(start)}/{iso_z(end)}",
           "interval": interval_text(interval_s, form),
           "namespace": namespace, "resourceregion": "eastus", "value": values}
    return json.dumps(doc, indent=1, sort_keys=(form == "az"))


def gpu_metric(path, form, interval_s, nodes, gpus, start, end, util, ledger):
    """Azure ML workspace metric GpuUtilization, split by NodeId and DeviceId."""
    series = []
    for n in nodes:
        for g in range(gpus):
            points = []
            t = start
            while t < end:
                samples = [util(n, t + k * 10, g) for k in range(interval_s // 10)]
                avg = sum(samples) / len(samples)
                ledger.add(avg, interval_s)
                points.append((t, {"average": round(avg, 2)}))
                t += interval_s
            series.append(({"NodeId": n, "DeviceId": str(g)}, points))
    write(path, monitor_doc(form, start, end, interval_s,
                            "Microsoft.MachineLearningServices/workspaces/ws-corpus",
                            [("GpuUtilization", "Count", series)]))


def storage_metrics(path, form, interval_s, start, end, egress_gbps, tx, e2e_ms=18.0, server_ms=9.0):
    """egress_gbps(t) -> Gbit/s; tx(t) -> {ResponseType: requests per second}."""
    egress, by_type = [], {}
    lat_e2e, lat_srv = [], []
    t = start
    while t < end:
        egress.append((t, {"total": round(egress_gbps(t) * 1e9 / 8 * interval_s, 1)}))
        for rt, rate in tx(t).items():
            by_type.setdefault(rt, []).append((t, {"total": round(rate * interval_s, 1)}))
        lat_e2e.append((t, {"average": e2e_ms}))
        lat_srv.append((t, {"average": server_ms}))
        t += interval_s
    ns = "Microsoft.Storage/storageAccounts/stmlcorpus01/blobServices/default"
    write(path, monitor_doc(form, start, end, interval_s, ns, [
        ("Egress", "Bytes", [({}, egress)]),
        ("Transactions", "Count", [({"ResponseType": rt}, pts) for rt, pts in by_type.items()]),
        ("SuccessE2ELatency", "MilliSeconds", [({}, lat_e2e)]),
        ("SuccessServerLatency", "MilliSeconds", [({}, lat_srv)]),
    ]))


def busy(rng, lo=85, hi=98):
    return rng.uniform(lo, hi)


def idle(rng):
    return rng.uniform(0, 3)
