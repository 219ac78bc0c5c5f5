"""Writers of the job-log corpus's file formats (stdlib only), used by make-joblog-corpus.py:
timestamps as each tool prints them, data-capability.log, hourly rslex.log files, nvidia-smi
CSV, DCGM text, Azure Monitor metrics (REST and `az` forms), a StorageBlobLogs export, and the
GPU ledger that counts the GPU time lost from the very samples written.

The rslex forms are those docs/postmortem.md lists with their public sources: span closes,
the retry count's `AZUREML_DATASET_HTTP_RETRY_COUNT set in environment` line, the resolver line, non-successful responses (asynchronous
and synchronous over several lines, the 2026 field form, the one-line form of a bug report),
retries, give-ups and body-read timeouts. Every writer draws from the job's seeded random
generator in a fixed order, so the corpus is the same on every run.
"""

import datetime as dt
import json
import os

BUSY_THRESHOLD = 10.0  # feedcheck's default --gpu-busy-threshold


def utc(s):
    return dt.datetime.strptime(s, "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt.timezone.utc).timestamp()


def _d(t):
    return dt.datetime.fromtimestamp(t, dt.timezone.utc)


def iso_rslex(t):
    return _d(t).strftime("%Y-%m-%dT%H:%M:%S.") + f"{_d(t).microsecond:06d}Z"


def py_log(t):
    return _d(t).strftime("%Y-%m-%d %H:%M:%S,") + f"{_d(t).microsecond // 1000:03d}"


def smi_time(t):
    return _d(t).strftime("%Y/%m/%d %H:%M:%S.") + f"{_d(t).microsecond // 1000:03d}"


def iso_z(t):
    return _d(t).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_az(t):
    return _d(t).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def us_time(t):
    """The Log Analytics portal's CSV time: US locale, 12-hour clock, quoted."""
    d = _d(t)
    return (f'"{d.month}/{d.day}/{d.year}, {d.hour % 12 or 12}:{d.minute:02d}:{d.second:02d}.'
            f'{d.microsecond // 1000:03d} {"PM" if d.hour >= 12 else "AM"}"')


def write(path, text, crlf=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        f.write(text.replace("\n", "\r\n") if crlf else text)


class Ledger:
    """The GPU time lost, by one of two rules: `add` charges a sample (or a metric point) its
    interval; `sample` keeps per-GPU samples, each covering the time until the same GPU's next
    readable one (one interval across a hole of more than 3.5 intervals, and for the last)."""

    def __init__(self):
        self.direct_s = 0.0
        self.gpus = {}

    def add(self, util, covers_s):
        if util < BUSY_THRESHOLD:
            self.direct_s += covers_s

    def sample(self, key, t, util):
        self.gpus.setdefault(key, []).append((t, util))

    def lost_gpu_s(self):
        lost = self.direct_s
        for samples in self.gpus.values():
            readable = sorted((t, u) for t, u in samples if u is not None)
            gaps = [b[0] - a[0] for a, b in zip(readable, readable[1:]) if b[0] > a[0]]
            if not gaps:
                continue
            interval = min(gaps)
            for i, (t, u) in enumerate(readable):
                covers = readable[i + 1][0] - t if i + 1 < len(readable) else interval
                if u < BUSY_THRESHOLD:
                    lost += interval if covers > 3.5 * interval else covers
        return lost


# ---------------------------------------------------------------- data runtime logs


SDK_LOGGER = "sdk_logger.py:44 [28] -"


def data_capability(activities, rng):
    """activities: (name, start, end, how_ended). Only the activity telemetry a public source
    shows (ActivityStarted / ActivityCompleted, Python logging's layout); returns the text."""
    rng.uniform(2, 6)  # the session start the first version drew: seeds stay as they were
    lines = []
    for name, start, end, how in activities:
        ms = (end - start) * 1000
        lines.append((start, f"INFO {py_log(start)} {SDK_LOGGER} ActivityStarted, {name}"))
        lines.append((end, f"INFO {py_log(end)} {SDK_LOGGER} ActivityCompleted: Activity={name}, "
                           f"HowEnded={how}, Duration={ms:.2f} [ms]"))
    return "".join(l + "\n" for _, l in sorted(lines))


SPANS = {"download": "copy_uri:copy_uri:copy_dataset:write_streams_to_files:collect",
         "mount": "mount:fuse_read:read_file"}
# The HTTP library's canonical reasons: rslex logs these, never Azure's message.
REASONS = {403: "Forbidden", 404: "Not Found", 409: "Conflict", 429: "Too Many Requests",
           500: "Internal Server Error", 503: "Service Unavailable"}
RESPONSE = "rslex_http_stream::http_client::response"


class Rslex:
    """One node's rslex log (tracing's Compact layout: time, level padded to 5, spans, target),
    written as hourly files rslex.log.<YYYY-MM-DD-HH>."""

    def __init__(self, rng, account="stmlcorpus01"):
        self.rng = rng
        self.account = account
        self.lines = []

    def _rid(self):
        return f"{self.rng.getrandbits(32):08x}-601e-0042-1b3c-{self.rng.getrandbits(48):012x}"

    def add(self, t, level, target, message):
        self.lines.append((t, f"{iso_rslex(t)} {level:>5} {target}: {message}"))

    def uri(self, blob=None):
        blob = blob or f"train/shard-{self.rng.randrange(99999):05d}.tar"
        return f"https://{self.account}.blob.core.windows.net/data/{blob}"

    def retry_count(self, t, value):
        """The one setting line the data runtime is known to print (rslex-http-stream's retry
        module, formats in docs/postmortem.md); every other setting is in the job's job.yml."""
        self.add(t, "INFO", "rslex_http_stream::retry::retry",
                 "AZUREML_DATASET_HTTP_RETRY_COUNT set in environment, using for http client: "
                 f"{value} num_retries={value}")

    def resolved(self, t, datastore="workspaceblobstore"):
        self.add(t, "INFO", "rslex_azureml::data_store::resolver",
                 "[CachedResolver::resolve()] DataStore resolved info=DataStoreInfo { id: "
                 f'"{datastore}", ... }} datastore_type=Some(AzureBlob) '
                 f'account_name=Some("{self.account}")')

    def spans(self, start, end, mode, every, times=None):
        """Span closes of the copy (download) or the FUSE reads (mount), every ~`every` s.
        `times(busy, idle)`, when given, replaces the drawn busy and idle texts (the same draws
        are made either way, so the rest of the file is unchanged)."""
        t = start
        while t < end:
            busy = self.rng.choice(["41.7µs", "1.22ms", "3.41ms", "118µs", "12.3ms"])
            idle = self.rng.choice(["1.90µs", "187ms", "1.02s", "9.50µs", "2.31ms"])
            if times:
                busy, idle = times(busy, idle)
            self.add(t, "INFO", f"{SPANS[mode]}: rslex::prefetching",
                     f"close time.busy={busy} time.idle={idle} parallelization_degree=4")
            t += every * self.rng.uniform(0.5, 1.5)

    def response(self, t, status, code, rid, azure_message=None):
        """http_client/response.rs: the asynchronous form over several lines, or the synchronous
        one with Azure's XML body when `azure_message` is given (short headers)."""
        tag = "[AsyncResponse::success()]" if azure_message is None else "[Response::success()]"
        lines = [f"{tag} non-successful response", f"Status: {status} {REASONS[status]}",
                 "Headers: {", '    "content-type": "application/xml",',
                 f'    "x-ms-error-code": "{code}",', f'    "x-ms-request-id": "{rid}",',
                 '    "x-ms-version": "2021-08-06",']
        if azure_message is None:
            lines.append(f"}} code={status}")
        else:
            lines += ["}", f'Body: <?xml version="1.0" encoding="utf-8"?><Error><Code>{code}</Code>'
                           f"<Message>{azure_message}", f"RequestId:{rid}",
                      f"Time:{iso_z(t)[:-1]}.0000000Z</Message></Error> code={status}"]
        self.add(t, "WARN", RESPONSE, "\n".join(lines))

    def retry_strategy(self, t, tries, delay_ms):
        """retry/retry_strategy.rs: a retry after a retryable status."""
        delay = f"{delay_ms:.1f}ms" if delay_ms % 1 else f"{delay_ms:.0f}ms"
        self.add(t, "DEBUG", "run: rslex_http_stream::retry::retry_strategy",
                 f"[RetryStrategy::run()] retrying after delay: {delay} tries={tries} "
                 f"should_retry=true delay={delay}")

    def refused(self, t, status, reason, code, sync=False, blobs=99999, tries=4,
                delays=(250, 500, 1000, 2000)):
        """A refused read and its retry: `reason` is Azure's message, logged only when sync."""
        rid = f"{self.rng.getrandbits(64):016x}-0000"
        self.rng.randrange(blobs)  # the blob name the invented form drew: seeds stay as they were
        self.response(t, status, code, rid, reason if sync else None)
        self.retry_strategy(t + 0.00005, self.rng.randint(1, tries), self.rng.choice(list(delays)))

    def refusals(self, start, end, count, status, reason, code, sync=False, **kw):
        for _ in range(count):
            self.refused(self.rng.uniform(start, end), status, reason, code, sync, **kw)

    def one_line(self, t, status, code, method, uri, rid=True):
        """The one-line form of a public bug report's rslex.log (status and headers in the
        message, then method= and request_uri=)."""
        rid = f', "x-ms-request-id": "{self.rng.getrandbits(64):016x}-0000"' if rid else ""
        self.add(t, "WARN", RESPONSE, f"non-successful response Status: {status} {REASONS[status]} "
                                      f'Headers: {{ "x-ms-error-code": "{code}"{rid}, ... }} '
                                      f"method={method} request_uri={uri}")

    def headers(self, code, length=212):
        return (f'Headers: {{\n    "content-length": "{length}",\n    "content-type": '
                f'"application/xml",\n    "server": "Windows-Azure-Blob/1.0 Microsoft-HTTPAPI/2.0",'
                f'\n    "x-ms-error-code": "{code}",\n    "x-ms-request-id": "{self._rid()}",\n'
                f'    "x-ms-version": "2021-08-06",\n}}')

    def field(self, t, status, uri=None):
        """The 2026 one-line field form: the status in response_status_code=."""
        guid = (f"{self.rng.getrandbits(32):08x}-{self.rng.getrandbits(16):04x}-0042-"
                f"{self.rng.getrandbits(16):04x}-{self.rng.getrandbits(48):012x}")
        self.add(t, "WARN", RESPONSE,
                 f"non-successful response request_uri={uri or self.uri()} "
                 f'response_status_code={status} ms_server_side_request_id=Some("{guid}")')

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

    def throttled(self, start, end, count, form, status=503, code="ServerBusy",
                  message="The server is busy."):
        """`count` refusals in a real form (async, sync with a Body, field) over [start, end],
        each followed by a retry."""
        for _ in range(count):
            t = self.rng.uniform(start, end)
            if form == "field":
                self.field(t, status)
            else:
                body = ""
                if form == "sync":
                    body = ('\nBody: <?xml version="1.0" encoding="utf-8"?><Error>'
                            f"<Code>{code}</Code><Message>{message}\nRequestId:{self._rid()}\nTime:{iso_rslex(t)}"
                            "</Message></Error>")
                tag = "[Response::success()]" if form == "sync" else "[AsyncResponse::success()]"
                self.add(t, "WARN", RESPONSE,
                         f"{tag} non-successful response\nStatus: {status} {REASONS[status]}\n"
                         f"{self.headers(code)}{body} code={status}")
            self.retry(t + 0.0004)

    def write(self, folder, junk=0, cut_last=False):
        self.lines.sort()
        for _ in range(junk):  # lines a crashed writer or a bad copy leaves behind
            t = self.rng.choice(self.lines)[0]
            self.lines.append((t, "\x00\x00garbage \x07 not a tracing line"))
        self.lines.sort(key=lambda x: x[0])
        by_hour = {}
        for t, line in self.lines:
            by_hour.setdefault(_d(t).strftime("%Y-%m-%d-%H"), []).append(line)
        hours = sorted(by_hour)
        for i, hour in enumerate(hours):
            text = "".join(l + "\n" for l in by_hour[hour])
            if cut_last and i == len(hours) - 1:
                text = text[: len(text) - 25]  # the job was killed mid-write
            write(os.path.join(folder, f"rslex.log.{hour}"), text)


# ---------------------------------------------------------------- the job's definition


def job_yml(path, name, mode, env, nodes=1, gpus=8):
    """The Azure ML CLI v2 command job the job was submitted with (`az ml job create --file
    job.yml`; schema commandJob.schema.json): its environment_variables are the settings the
    data runtime ran with. No random draws: adding one changes no other file."""
    lines = [
        "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json",
        "type: command",
        f"display_name: {name}",
        "experiment_name: feed-check",
        "code: ./src",
        "command: >-",
        "  torchrun --nproc_per_node " + str(gpus) + " train.py",
        "  --data ${{inputs.training_data}} --out ${{outputs.checkpoints}}",
        "environment: azureml:acpt-pytorch-2.2-cuda12.1@latest",
        "environment_variables:",
    ]
    lines += [f'  {k}: "{v}"' for k, v in env.items()]
    lines += [
        "inputs:",
        "  training_data:",
        "    type: uri_folder",
        f"    path: azureml://datastores/workspaceblobstore/paths/datasets/{name}/",
        f"    mode: {mode}",
        "outputs:",
        "  checkpoints:",
        "    type: uri_folder",
        "    mode: rw_mount",
        "compute: azureml:gpu-cluster",
        "resources:",
        f"  instance_count: {nodes}",
    ]
    if nodes > 1:
        lines += ["distribution:", "  type: pytorch", f"  process_count_per_instance: {gpus}"]
    write(path, "".join(l + "\n" for l in lines))


# ---------------------------------------------------------------- GPU samples


def smi_csv(path, gpus, start, end, interval, util, ledger, rng, units=True, header=True,
            hole=None):
    """nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu,memory.used --format=csv
    [,nounits][,noheader], each sample charged its interval."""
    out = ["timestamp, index, name, utilization.gpu [%], memory.used [MiB]"] if header else []
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
            out.append(f"{smi_time(t + g * 0.003)}, {g}, NVIDIA A100-SXM4-80GB, {pct}, {mem}"
                       if header else f"{smi_time(t + g * 0.003)}, {g}, {pct}")
        t += interval
    write(path, "".join(l + "\n" for l in out))


def smi_rows(ledger, gpus, start, end, interval, util, key="", na_every=0, hole=None, unknown=None):
    """(t, gpu, util or None) rows of nvidia-smi, one per GPU per interval, kept as samples;
    None for the driver's [N/A] every `na_every` cells or an [Unknown Error] (unknown(t, g))."""
    rows, t, k = [], start, 0
    while t < end:
        if not (hole and hole[0] <= t < hole[1]):
            for g in range(gpus):
                u = util(t, g)
                k += 1
                if (na_every and k % na_every == 0) or (unknown and unknown(t, g)):
                    u = None
                ledger.sample(f"{key}/{g}", t + g * 0.004, u)
                rows.append((t + g * 0.004, g, u))
        t += interval
    return rows


def smi_text(rows, rng, model=None, mem=(30000, 39000), header=True, shift_s=0, na="[N/A]",
             na_mem=False, power=False):
    """nvidia-smi CSV of smi_rows: with a name and memory.used column unless model is None,
    `shift_s` for a local-time clock; na_mem: the memory cell fails with the utilisation."""
    cols = "timestamp, index, " + ("utilization.gpu [%]" if model is None else
                                   "name, utilization.gpu [%], memory.used [MiB]")
    text = (cols + (", power.draw [W]" if power else "") + "\n") if header else ""
    for t, g, u in rows:
        if model is None:
            text += f"{smi_time(t + shift_s)}, {g}, {u:.0f}\n"
            continue
        cell = na if u is None else f"{u:.0f} %"
        m = na if na_mem and u is None else f"{rng.randint(*mem)} MiB"
        text += (f"{smi_time(t + shift_s)}, {g}, {model}, {cell}, {m}"
                 + (", [Not Supported]" if power else "") + "\n")
    return text


def smi_dmon_text(rows, every=20):
    """`nvidia-smi dmon -s u -o DT` of smi_rows: whitespace columns under a '#' header reprinted
    every `every` samples of the first GPU, a units line after it; '-' for no value; time to the
    second, as dmon prints it."""
    header = ("#Date       Time        gpu    sm   mem   enc   dec\n"
              "#YYYYMMDD   HH:MM:SS    Idx     %     %     %     %\n")
    text, firsts = "", 0
    for t, g, u in rows:
        if g == 0:
            if firsts % every == 0:
                text += header
            firsts += 1
        d = _d(int(t))
        cell = "-" if u is None else f"{u:.0f}"
        text += f" {d.strftime('%Y%m%d')}   {d.strftime('%H:%M:%S')}   {g:4d}  {cell:>4}     0     0     0\n"
    return text


def dcgm_text(path, host, gpus, start, end, interval, util, ledger, uuid=None,
              model="NVIDIA A100-SXM4-80GB", samples=False):
    """dcgm-exporter text; each sample charged its interval (or kept, `samples`)."""
    out, t = [], start
    while t < end:
        out += [f"# {iso_z(t)}", "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).",
                "# TYPE DCGM_FI_DEV_GPU_UTIL gauge"]
        for g in range(gpus):
            u = util(t, g)
            ledger.sample(str(g), t, u) if samples else ledger.add(u, interval)
            out.append(f'DCGM_FI_DEV_GPU_UTIL{{gpu="{g}",UUID="GPU-{uuid or host}-{g:04d}",'
                       f'device="nvidia{g}",modelName="{model}",Hostname="{host}"}} {u:.0f}')
        t += interval
    write(path, "".join(l + "\n" for l in out))


def mig_dcgm(path, host, gpus, start, end, interval, stalled, rng, ledger):
    """dcgm-exporter with MIG on: DCGM_FI_PROF_GR_ENGINE_ACTIVE (0..1) per 3g.40gb instance."""
    out, t = [], start
    while t < end:
        out += [f"# {iso_z(t)}",
                "# HELP DCGM_FI_PROF_GR_ENGINE_ACTIVE Ratio of time the graphics engine is active.",
                "# TYPE DCGM_FI_PROF_GR_ENGINE_ACTIVE gauge"]
        idle = stalled(t)
        for g in range(gpus):
            for inst in (1, 2):
                ratio = rng.uniform(0, 0.02) if idle else rng.uniform(0.7, 0.95)
                ledger.sample(f"{g}/{inst}", t, ratio * 100)
                out.append(f'DCGM_FI_PROF_GR_ENGINE_ACTIVE{{gpu="{g}",UUID="GPU-8c3e11f2-{g:04d}",'
                           f'pci_bus_id="00000000:{0x07 + g * 0x10:02X}:00.0",device="nvidia{g}",'
                           f'modelName="NVIDIA A100-SXM4-80GB",GPU_I_PROFILE="3g.40gb",'
                           f'GPU_I_ID="{inst}",Hostname="{host}",container="trainer",'
                           f'namespace="azureml",pod="job-{g * 2 + inst - 1}"}} {ratio:.6f}')
        t += interval
    write(path, "".join(l + "\n" for l in out))


# ---------------------------------------------------------------- Azure Monitor metrics


AZ_AGGREGATIONS = ("average", "count", "maximum", "minimum", "total")


def monitor_doc(form, start, end, interval_s, namespace, metrics):
    """metrics: [(name, unit, [(dims, [(t, {aggregation: value})])])] as a REST or `az` response."""
    values = []
    for name, unit, series in metrics:
        ts_list = []
        for dims, points in series:
            data = []
            for t, aggs in points:
                p = {"timeStamp": iso_z(t) if form == "rest" else iso_az(t)}
                if form == "az":  # az prints every aggregation, null when not requested
                    p.update({a: aggs.get(a) for a in AZ_AGGREGATIONS})
                else:
                    p.update(aggs)
                data.append(p)
            md = [{"name": {"value": k.lower() if form == "rest" else k, "localizedValue": k},
                   "value": v} for k, v in dims.items()]
            ts_list.append({"metadatavalues": md, "data": data})
        m = {"id": f"/subscriptions/0000/resourceGroups/rg-ml/providers/{namespace}/providers/"
                   f"Microsoft.Insights/metrics/{name}",
             "type": "Microsoft.Insights/metrics", "name": {"value": name, "localizedValue": name},
             "displayDescription": "", "unit": unit, "errorCode": "Success", "timeseries": ts_list}
        if form == "az":
            m["errorMessage"] = None
            m["resourceGroup"] = "rg-ml"
        values.append(m)
    interval = f"PT{interval_s // 60}M" if form == "rest" else str(dt.timedelta(seconds=interval_s))
    return {"cost": 0, "timespan": f"{iso_z(start)}/{iso_z(end)}", "interval": interval,
            "namespace": namespace, "resourceregion": "eastus", "value": values}


def write_doc(path, doc, form):
    write(path, json.dumps(doc, indent=1, sort_keys=(form == "az")))


def gpu_metric(path, form, interval_s, nodes, gpus, start, end, util, ledger, point=None,
               workspace="ws-corpus"):
    """Azure ML's GpuUtilization split by NodeId and DeviceId: each point the mean of util at
    10 s steps over its bucket (or point()), charged the bucket."""
    series = []
    for n in nodes:
        for g in range(gpus):
            points, t = [], start
            while t < end:
                if point:
                    avg = exact = point()
                else:
                    samples = [util(n, t + k * 10, g) for k in range(interval_s // 10)]
                    exact = sum(samples) / len(samples)
                    avg = round(exact, 2)
                ledger.add(exact, interval_s)
                points.append((t, {"average": avg}))
                t += interval_s
            series.append(({"NodeId": n, "DeviceId": str(g)}, points))
    write_doc(path, monitor_doc(form, start, end, interval_s,
                                f"Microsoft.MachineLearningServices/workspaces/{workspace}",
                                [("GpuUtilization", "Count", series)]), form)


STORAGE_NS = "Microsoft.Storage/storageAccounts/{}/blobServices/default"


def storage_metrics(path, form, interval_s, start, end, egress_gbps, tx, e2e_ms=18.0,
                    server_ms=9.0):
    """Egress, Transactions by ResponseType, latencies, drawn minute by minute:
    egress_gbps(t) -> Gbit/s; tx(t) -> {ResponseType: requests per second}."""
    egress, by_type, lat_e2e, lat_srv = [], {}, [], []
    t = start
    while t < end:
        egress.append((t, {"total": round(egress_gbps(t) * 1e9 / 8 * interval_s, 1)}))
        for rt, rate in tx(t).items():
            by_type.setdefault(rt, []).append((t, {"total": round(rate * interval_s, 1)}))
        lat_e2e.append((t, {"average": e2e_ms}))
        lat_srv.append((t, {"average": server_ms}))
        t += interval_s
    write_doc(path, monitor_doc(form, start, end, interval_s, STORAGE_NS.format("stmlcorpus01"), [
        ("Egress", "Bytes", [({}, egress)]),
        ("Transactions", "Count", [({"ResponseType": rt}, pts) for rt, pts in by_type.items()]),
        ("SuccessE2ELatency", "MilliSeconds", [({}, lat_e2e)]),
        ("SuccessServerLatency", "MilliSeconds", [({}, lat_srv)])]), form)


def account_metrics(path, form, interval_s, start, end, metrics, account="stmlcorpus01",
                    region="eastus", resource_ids=False):
    """Series drawn one after another: metrics [(name, unit, [(dims, fn(t) -> {aggregation:
    value} or None)])]; `resource_ids`: the batch API's namespace and ids naming the account."""
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
    doc = monitor_doc(form, start, end, interval_s, STORAGE_NS.format(account), built)
    doc["resourceregion"] = region
    if resource_ids:
        doc["namespace"] = "Microsoft.Storage/storageAccounts/blobServices"
        for m in doc["value"]:
            m["id"] = ("/subscriptions/5f3c2a91-7d1e-4b6a-9c0e-2b8d4e6f1a37/resourceGroups/"
                       f"rg-ml-data/providers/{STORAGE_NS.format(account)}/providers/Microsoft.Insights/"
                       f"metrics/{m['name']['value']}")
    write_doc(path, doc, form)


def rate_total(gbps, interval_s):
    return {"total": round(gbps * 1e9 / 8 * interval_s, 1)}


def storage_blob_logs_csv(path, rows):
    """A Log Analytics export of StorageBlobLogs (PascalCase columns, US-locale time); rows are
    (epoch_s, status, status_text, uri, duration_ms); ServerLatencyMs is most of DurationMs."""
    lines = ["TimeGenerated [UTC],AccountName,OperationName,StatusCode,StatusText,DurationMs,"
             "ServerLatencyMs,CallerIpAddress,Uri,Protocol,AuthenticationType"]
    for t, status, text, uri, duration in sorted(rows):
        server = duration * (0.6 + 0.3 * ((t * 1000) % 1))
        lines.append(f"{us_time(t)},stmlcorpus01,GetBlob,{status},{text},{duration:.0f},"
                     f"{server:.0f},10.0.4.7:{49152 + int(t * 7) % 16000},{uri},HTTPS,OAuth")
    write(path, "\n".join(lines) + "\n")
