#!/usr/bin/python3
"""Runs a small real PyTorch training loop under torch.profiler and writes its trace, plus the
data runtime's read log the loop's reads leave beside it.

  make_torch_traces.py --kind sleep|cpu --out DIR [--steps N] [--item-ms MS] [--node NAME]
                       [--no-read-log] [--cpu-metric]

Both loops read their samples from files through a Dataset with num_workers=0, so the time the
loop waits for a batch is spent in the DataLoader's __next__ (4 samples of --item-ms each, 240 ms
a batch), and then compute for --compute-ms (42 ms): about 85% of each step waits for data.
  sleep  each file read goes through an injected delay (a slow storage read);
  cpu    each file is read at once, then __getitem__ burns the CPU for the same time (a costly
         decode).
Their traces look alike (most of each step waits in __next__). What tells them apart is beside
the trace: DIR/system_logs/data_capability/rslex.log.<hour>, one line per read in the data
runtime's tracing form ("mount:fuse_read:read_file: ... close time.busy=.. time.idle=..") with
the time the read really took; with --no-read-log it is not written (nothing beside the trace).
The trace is written by torch.profiler.tensorboard_trace_handler to DIR/outputs/profiler/
(WORKER.MILLISECONDS.pt.trace.json). Bounded: a few seconds with the defaults.

With --cpu-metric the node's CPU is written beside it as Azure ML's workspace metric
CpuUtilization in the REST "Metrics - List" form (DIR/metrics/workspace-cpu.json, one PT1M
point per NodeId), from what the loop really used: its time on a CPU plus its time runnable and
waiting for one (/proc/self/schedstat; getrusage where that is missing), over the wall clock of
the profiled loop. The loop runs on one core (num_workers=0, torch.set_num_threads(1)), so that
is what its node's CPU would show on a machine of its own; counting only the time on a CPU
would understate it on a shared test machine. The CPU-burning loop is near 100%, the delayed
one near its compute share (about 15%).
"""
import argparse
import datetime
import json
import os
import resource
import tempfile
import time
import zlib

import torch
from torch.utils.data import DataLoader, Dataset


def utc_stamp():
    now = datetime.datetime.now(datetime.timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class FileDataset(Dataset):
    def __init__(self, files, kind, item_s, log):
        self.files, self.kind, self.item_s, self.log = files, kind, item_s, log

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        t0 = time.perf_counter()
        if self.kind == "sleep":
            time.sleep(self.item_s)  # the injected delay: storage answering slowly
        waited = time.perf_counter() - t0
        with open(self.files[i], "rb") as f:
            raw = f.read()
        read_s = time.perf_counter() - t0
        if self.log:
            busy_ms = (read_s - waited) * 1e3
            self.log.write(
                f"{utc_stamp()}  INFO mount:fuse_read:read_file: rslex::prefetching: close "
                f"time.busy={busy_ms:.3f}ms time.idle={waited * 1e3:.3f}ms "
                f"parallelization_degree=1\n")
        if self.kind == "cpu":
            # The decode: pure CPU for the same time the sleep loop waits.
            end = time.perf_counter() + self.item_s
            acc = 0
            while time.perf_counter() < end:
                for b in raw[:64]:
                    acc = (acc * 31 + b) & 0xFFFFFFFF
        x = torch.frombuffer(bytearray(raw[:64 * 4]), dtype=torch.float32).clone()
        return torch.nan_to_num(x, 0.0, 0.0, 0.0).clamp(-1, 1), torch.zeros(1)


def cpu_demand_s():
    """Seconds the main thread spent on a CPU or runnable waiting for one."""
    try:
        with open("/proc/self/schedstat") as f:
            on_cpu_ns, waiting_ns = (int(x) for x in f.read().split()[:2])
        return (on_cpu_ns + waiting_ns) / 1e9
    except (OSError, ValueError):
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime


def write_cpu_metric(out, node_id, start_wall, percent):
    """Azure ML's CpuUtilization for one node, as the REST Metrics - List API answers."""
    minute = datetime.datetime.fromtimestamp(start_wall, datetime.timezone.utc).replace(
        second=0, microsecond=0)
    stamp = minute.strftime("%Y-%m-%dT%H:%M:%SZ")
    end = (minute + datetime.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    workspace = ("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/"
                 "providers/Microsoft.MachineLearningServices/workspaces/ws")
    doc = {
        "cost": 0,
        "timespan": f"{stamp}/{end}",
        "interval": "PT1M",
        "namespace": "Microsoft.MachineLearningServices/workspaces",
        "resourceregion": "westeurope",
        "value": [{
            "id": f"{workspace}/providers/Microsoft.Insights/metrics/CpuUtilization",
            "type": "Microsoft.Insights/metrics",
            "name": {"value": "CpuUtilization", "localizedValue": "CpuUtilization"},
            "unit": "Percent",
            "errorCode": "Success",
            "timeseries": [{
                "metadatavalues": [{"name": {"value": "NodeId", "localizedValue": "NodeId"},
                                    "value": node_id}],
                "data": [{"timeStamp": stamp, "average": round(min(percent, 100.0), 2)}],
            }],
        }],
    }
    metrics_dir = os.path.join(out, "metrics")
    os.makedirs(metrics_dir, exist_ok=True)
    with open(os.path.join(metrics_dir, "workspace-cpu.json"), "w") as f:
        json.dump(doc, f, indent=2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", choices=["sleep", "cpu"], required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--item-ms", type=float, default=60)
    ap.add_argument("--batch", type=int, default=4)
    # The step's own work: real matrix products for this long, about 15% of the step.
    ap.add_argument("--compute-ms", type=float, default=42)
    ap.add_argument("--node", default="node-1")
    ap.add_argument("--no-read-log", action="store_true")
    ap.add_argument("--cpu-metric", action="store_true")
    a = ap.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    trace_dir = os.path.join(a.out, "outputs", "profiler")
    os.makedirs(trace_dir, exist_ok=True)
    log = None
    if not a.no_read_log:
        log_dir = os.path.join(a.out, "system_logs", "data_capability")
        os.makedirs(log_dir, exist_ok=True)
        hour = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d-%H")
        log = open(os.path.join(log_dir, f"rslex.log.{hour}"), "w")
    with tempfile.TemporaryDirectory() as data:
        files = []
        for i in range((a.steps + 4) * a.batch):
            p = os.path.join(data, f"sample-{i:04d}.bin")
            with open(p, "wb") as f:
                f.write(os.urandom(4096))
            files.append(p)
        loader = DataLoader(FileDataset(files, a.kind, a.item_ms / 1e3, log),
                            batch_size=a.batch, num_workers=0)
        model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(),
                                    torch.nn.Linear(64, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        schedule = torch.profiler.schedule(wait=1, warmup=1, active=a.steps, repeat=1)
        handler = torch.profiler.tensorboard_trace_handler(
            trace_dir, worker_name=f"{a.node}_{os.getpid()}")
        start_wall, start_s, start_cpu_s = time.time(), time.perf_counter(), cpu_demand_s()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                    schedule=schedule, on_trace_ready=handler) as prof:
            w = torch.randn(128, 128)
            for step, (x, y) in enumerate(loader):
                end = time.perf_counter() + a.compute_ms / 1e3
                while time.perf_counter() < end:
                    w = torch.tanh(torch.mm(w, w) / 128)
                loss = ((model(x) - y) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                prof.step()
                if step + 1 >= a.steps + 2:
                    break
            wall_s, used_s = time.perf_counter() - start_s, cpu_demand_s() - start_cpu_s
    if a.cpu_metric:
        # Azure ML names a node by its NodeId, not by the job folder's name for it.
        write_cpu_metric(a.out, f"tvmps_{zlib.crc32(a.node.encode()):08x}_d", start_wall,
                         100 * used_s / wall_s)
    if log:
        log.close()


if __name__ == "__main__":
    main()
