#!/usr/bin/python3
"""Runs a small real PyTorch training loop under torch.profiler and writes its trace, plus the
data runtime's read log the loop's reads leave beside it.

  make_torch_traces.py --kind sleep|cpu --out DIR [--steps N] [--item-ms MS] [--node NAME]

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
"""
import argparse
import datetime
import os
import tempfile
import time

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
    if log:
        log.close()


if __name__ == "__main__":
    main()
