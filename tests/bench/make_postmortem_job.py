#!/usr/bin/env python3
"""Writes a large generated job folder for timing `feedcheck postmortem` (stdlib only; nothing is
committed): NODES node folders (node-N/system_logs/data_capability/ with data-capability.log and
hourly rslex.log files, node-N/gpu/nvidia-smi.csv with 8 GPUs every 5 s) and the account's PT1M
metrics. The job mounts its input; each node reads all along (a read span close every second),
the account refuses requests for 4 minutes in every hour (asynchronous 503s over several lines,
retries), and the GPUs stall 6 minutes in every hour.

    python3 tests/bench/make_postmortem_job.py OUT_DIR [NODES=16] [HOURS=10]
"""

import datetime as dt
import json
import os
import sys


def iso(t):
    d = dt.datetime.fromtimestamp(t, dt.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{d.microsecond:06d}Z"


def main():
    out = sys.argv[1]
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    hours = float(sys.argv[3]) if len(sys.argv) > 3 else 10
    t0 = dt.datetime(2026, 5, 4, 0, 0, tzinfo=dt.timezone.utc).timestamp()
    end = t0 + hours * 3600
    for n in range(nodes):
        base = os.path.join(out, f"node-{n}")
        logs = os.path.join(base, "system_logs", "data_capability")
        os.makedirs(logs, exist_ok=True)
        os.makedirs(os.path.join(base, "gpu"), exist_ok=True)
        with open(os.path.join(logs, "data-capability.log"), "w") as f:
            s = dt.datetime.fromtimestamp(t0 + 10, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
            f.write(f"INFO {s},100 sdk_logger.py:44 [28] - ActivityStarted, mount\n")
            f.write(f"INFO {s},900 sdk_logger.py:44 [28] - ActivityCompleted: Activity=mount, "
                    "HowEnded=Success, Duration=800.00 [ms]\n")
        hour_files = {}
        t = t0 + 12
        k = 0
        while t < end:
            hour = dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%d-%H")
            f = hour_files.get(hour)
            if f is None:
                f = hour_files[hour] = open(os.path.join(logs, f"rslex.log.{hour}"), "w")
            f.write(f"{iso(t)}  INFO mount:fuse_read:read_file: rslex::prefetching: close "
                    f"time.busy=1.{k % 90:02d}ms time.idle=18{k % 10}µs parallelization_degree=4\n")
            if (t - t0) % 3600 < 240 and k % 4 == 0:  # 4 minutes of refusals every hour
                f.write(f"{iso(t + 0.0002)}  WARN rslex_http_stream::http_client::response: "
                        "[AsyncResponse::success()] non-successful response\n"
                        "Status: 503 Service Unavailable\nHeaders: {\n"
                        '    "content-length": "212",\n    "x-ms-error-code": "ServerBusy",\n'
                        f'    "x-ms-request-id": "{k:08x}-601e-0042-1b3c-000000000000",\n'
                        "} code=503\n")
                f.write(f"{iso(t + 0.0004)} DEBUG rslex_http_stream::retry::retry: "
                        "[RetryStrategy::run()] retrying after delay: 312.5ms\n")
            t += 1.0
            k += 1
        for f in hour_files.values():
            f.close()
        with open(os.path.join(base, "gpu", "nvidia-smi.csv"), "w") as f:
            f.write("timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n")
            t = t0
            while t < end:
                stamp = dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y/%m/%d %H:%M:%S.000")
                util = 1 if (t - t0) % 3600 < 360 else 93
                f.write("".join(f"{stamp}, {g}, NVIDIA A100-SXM4-80GB, {util} %, 40000 MiB\n"
                                for g in range(8)))
                t += 5
    # The account's metrics, one PT1M point per minute.
    os.makedirs(os.path.join(out, "metrics"), exist_ok=True)
    egress, ok, busy = [], [], []
    t = t0
    while t < end:
        stamp = dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        egress.append({"timeStamp": stamp, "total": 6e9 / 8 * 60})
        ok.append({"timeStamp": stamp, "total": 3000.0 * 60})
        busy.append({"timeStamp": stamp, "total": 600.0 * 60 if (t - t0) % 3600 < 240 else 0.0})
        t += 60
    ns = "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/stbench01/blobServices/default"

    def metric(name, unit, series):
        return {"id": f"{ns}/providers/Microsoft.Insights/metrics/{name}",
                "type": "Microsoft.Insights/metrics", "name": {"value": name},
                "unit": unit, "errorCode": "Success", "timeseries": series}

    doc = {"cost": 0, "interval": "PT1M", "namespace": "Microsoft.Storage/storageAccounts/blobServices",
           "resourceregion": "eastus", "value": [
               metric("Egress", "Bytes", [{"metadatavalues": [], "data": egress}]),
               metric("Transactions", "Count", [
                   {"metadatavalues": [{"name": {"value": "responsetype"}, "value": "Success"}],
                    "data": ok},
                   {"metadatavalues": [{"name": {"value": "responsetype"}, "value": "ServerBusyError"}],
                    "data": busy}])]}
    with open(os.path.join(out, "metrics", "storage.json"), "w") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    main()
