"""PyTorch profiler traces for the job simulator (tests/tools/job_simulator.py; docs/simulator.md,
"Profiler traces"): a share of the drawn jobs ran their training loop under torch.profiler with
torch.profiler.tensorboard_trace_handler("./outputs/profiler"), so their folders hold Kineto traces
(the form GPU builds of PyTorch write: the real traces in tests/data/traces/ are copied for the
layout) of a few steps per profiled rank and node:

    [node-N/]outputs/profiler/<host>_<pid>.<ms since the epoch>.pt.trace.json

Each profiled step is a `ProfilerStep#N` span on the loop's thread, with the DataLoader's
`enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__` at its start (the loop's
data-loader workers: the profile's `readers`), then the batch's copy to the GPU and its forward,
backward and optimizer kernels on the GPU's compute stream. The physics is the node's at the
profiled time: in a 10 s model step whose GPUs idle a fraction f of the time, the loop computes
for c (the batch's GPU time, drawn per job) and waits in `__next__` c x f / (1 - f), so that the
step's wait share is f; the GPU is busy only while it computes. A node's loop is profiled only
while it trains (not while the input downloads, a checkpoint is written, a validation pass runs,
or after its reads failed; a dead node's loop never completes a step).

Everything here draws from its own generator (random.Random("traces:S:I")): the job's other
files, and its truth, are the same bytes whether traces are drawn or not."""

import json
import os
import random

STEP_S = 10
STREAM = 7  # the compute stream's id as CUDA numbers it (the real traces': "stream 7 ")
# Kernels of a ResNet-like step, as the real traces name them (forward, backward, optimizer).
FORWARD = ["void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 32, true, 1, true>"
           "(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, "
           "float const*, float, float, float*, float*, float*, float*, float, float)",
           "sm80_xmma_fprop_implicit_gemm_indexed_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x"
           "128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn",
           "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)"
           "::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
           "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}"
           "::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
           "at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, "
           "c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()"
           "() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array"
           "<char*, 2>)"]
BACKWARD = ["void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, "
            "float, float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, "
            "float const*, cudnnTensorStruct, float*, float const*, float*, float*, float const*, "
            "float const*, float)",
            "sm80_xmma_dgrad_implicit_gemm_indexed_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x"
            "128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn",
            "sm80_xmma_wgrad_implicit_gemm_indexed_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x"
            "128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn"]
OPTIMIZER = ["void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
             "(anonymous namespace)::TensorListMetadata<3>, at::native::(anonymous namespace)::"
             "FusedSgdMathFunctor<float, 3>, float*, double, double, double, bool, bool, bool, "
             "float*, float*>(at::native::(anonymous namespace)::TensorListMetadata<3>, "
             "at::native::(anonymous namespace)::FusedSgdMathFunctor<float, 3>, float*, double, "
             "double, double, bool, bool, bool, float*, float*)"]
LOADER = "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"
MAX_IDLE = 0.98  # a loop that waits longer per step is still a step: wait at most 49x compute


def trace_rng(seed, index):
    return random.Random(f"traces:{seed}:{index}")


def span_rng(seed, index):
    """The spread of the span closes' read times in a job with traces."""
    return random.Random(f"trace-spans:{seed}:{index}")


def profiled_times(n, p, rng, end_s, windows):
    """The model steps (indexes into n.steps) where node n's loop trained and can be profiled."""
    ok = []
    for k, rec in enumerate(n.steps):
        t = k * STEP_S
        if t >= end_s - STEP_S or rec["idle"] is None or rec["kind"] not in ("read", "local"):
            continue
        if p["mode"] == "download" and (n.download_end is None or t < n.download_end):
            continue
        if n.failed_at is not None and t >= n.failed_at:
            continue
        ok.append(k)
    if not ok:
        return []
    return sorted(rng.sample(ok, min(windows, len(ok))))


def draw(p, nodes, end_s, seed, index, share):
    """The job's traces (None when not drawn): per node, the model steps its profiler recorded."""
    rng = trace_rng(seed, index)
    if share <= 0 or rng.random() >= share:
        return None
    d = {"compute_s": round(rng.uniform(0.08, 0.8), 4),
         "all_local_ranks": rng.random() < 0.3,
         "active_steps": rng.randint(3, 6),
         "windows": rng.randint(1, 3),
         "base_time": rng.random() < 0.5,  # newer Kineto: ts relative to baseTimeNanoseconds
         "skip_steps": rng.randint(5, 40)}
    d["nodes"] = {}
    for n in nodes:
        ks = profiled_times(n, p, rng, end_s, d["windows"])
        if ks:
            d["nodes"][str(n.i)] = [{"t_s": k * STEP_S, "idle": round(n.steps[k]["idle"], 4),
                                     "state": n.steps[k]["state"]} for k in ks]
    d["seed"], d["index"] = seed, index
    return d if d["nodes"] else None


class _Events:
    def __init__(self, rng, pid, device, base_us):
        self.rng, self.pid, self.device, self.base_us = rng, pid, device, base_us
        self.events, self.ext, self.corr = [], 1000 + rng.randrange(9000), 100000 + rng.randrange(
            900000)

    def x(self, cat, name, pid, tid, ts, dur, args=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
             "ts": round(ts - self.base_us, 3), "dur": round(dur, 3)}
        if args is not None:
            e["args"] = args
        self.events.append(e)

    def ext_id(self):
        self.ext += 1
        return self.ext

    def launch(self, ts, kernel, dur_us, cat="kernel", runtime="cudaLaunchKernel", extra=None):
        """One launch on the loop's thread and its kernel (or copy) on the compute stream."""
        self.corr += 1
        ext = self.ext_id()
        self.x("cuda_runtime", runtime, self.pid, self.pid, ts, self.rng.uniform(4, 12),
               {"External id": ext, "cbid": 211 if runtime == "cudaLaunchKernel" else 41,
                "correlation": self.corr})
        args = {"External id": ext, "queued": 0, "device": self.device, "context": 1,
                "stream": STREAM, "correlation": self.corr}
        args.update(extra or {})
        self.x(cat, kernel, self.device, STREAM, ts + self.rng.uniform(6, 20), dur_us, args)


def step_events(ev, rng, number, start_us, wait_us, compute_us, batch_bytes):
    """One ProfilerStep#N: the DataLoader's __next__, the batch's copy to the GPU, then the GPU's
    forward, backward and optimizer kernels, back to back on the compute stream for compute_us.
    Returns the step's length."""
    step = len(ev.events)
    t = start_us + rng.uniform(8, 30)
    ev.x("user_annotation", LOADER, ev.pid, ev.pid, t, wait_us,
         {"External id": ev.ext_id(), "Record function id": 0})
    t += wait_us + rng.uniform(20, 60)
    gpu_start = t
    copy_us = max(5.0, min(batch_bytes / 20e3, 0.2 * compute_us))  # pinned, about 20 GB/s
    ev.x("cpu_op", "aten::to", ev.pid, ev.pid, t, copy_us + 30,
         {"External id": ev.ext_id(), "Record function id": 0})
    ev.launch(t, "Memcpy HtoD (Pinned -> Device)", copy_us, cat="gpu_memcpy",
              runtime="cudaMemcpyAsync",
              extra={"bytes": int(batch_bytes),
                     "memory bandwidth (GB/s)": round(batch_bytes / copy_us / 1e3, 3)})
    t += copy_us + 30
    phases = [("cpu_op", "aten::conv2d", FORWARD, 0.33),
              ("cpu_op", "autograd::engine::evaluate_function: ConvolutionBackward0", BACKWARD,
               0.6),
              ("user_annotation", "Optimizer.step#SGD.step", OPTIMIZER, 0.07)]
    for cat, name, kernels, share in phases:
        span = max(30.0, (compute_us - copy_us) * share)
        ev.x(cat, name, ev.pid, ev.pid, t, span,
             {"External id": ev.ext_id(), "Record function id": 0})
        count = max(1, min(12, int(span / 2000) + 1))
        for i in range(count):
            ev.launch(t + span / count * i, kernels[i % len(kernels)],
                      span / count * rng.uniform(0.94, 0.99),
                      extra={"registers per thread": 64, "shared memory": 144,
                             "blocks per SM": 1.6, "warps per SM": 25.6, "grid": [128, 1, 1],
                             "block": [512, 1, 1], "est. achieved occupancy %": 40})
        t += span
    step_us = t + rng.uniform(60, 150) - start_us
    ev.events.insert(step, {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{number}",
                            "pid": ev.pid, "tid": ev.pid, "ts": round(start_us - ev.base_us, 3),
                            "dur": round(step_us, 3),
                            "args": {"External id": ev.ext_id(), "Record function id": 0}})
    ev.x("gpu_user_annotation", f"ProfilerStep#{number}", ev.device, STREAM, gpu_start,
         t - gpu_start + 20, {"External id": ev.ext_id()})
    return step_us


def write(d, root, p, node_dir, t0, gpu_model):
    """Writes the drawn traces; returns the files written: {"file" (its path from root), "rank",
    "node", "t_s" (the model step profiled, from the job's start), "idle" (its idle fraction)}."""
    rng = random.Random(f"trace-files:{d['seed']}:{d['index']}")
    gpus = p["gpus"]
    world = p["nodes"] * gpus
    written = []
    batch_bytes = p["per_gpu_mbps"] * 1e6 * d["compute_s"]  # what one step's compute consumes
    for node, windows in sorted(d["nodes"].items(), key=lambda kv: int(kv[0])):
        i = int(node)
        host = "".join(rng.choice("0123456789abcdef") for _ in range(32)) + f"{i:06d}"
        locals_ = range(gpus) if d["all_local_ranks"] else [0]
        for local in locals_:
            rank = i * gpus + local
            pid = rng.randrange(100, 30000)
            number = d["skip_steps"]
            for w in windows:
                start_us = (t0 + w["t_s"] + rng.uniform(0, STEP_S / 2)) * 1e6
                base_ns = int(start_us // 1e6 - 1e6) * 10**9 if d["base_time"] else 0
                ev = _Events(rng, pid, local, base_ns / 1e3)
                profiler_start = start_us - rng.uniform(2e3, 2e4)
                compute_us = d["compute_s"] * 1e6
                t = start_us
                for _ in range(d["active_steps"]):
                    f = min(MAX_IDLE, w["idle"])
                    wait_us = compute_us * f / (1 - f) * rng.uniform(0.9, 1.1) + \
                        rng.uniform(50, 400)  # a ready batch still costs __next__ a little
                    t += step_events(ev, rng, number, t, wait_us,
                                     compute_us * rng.uniform(0.95, 1.05), batch_bytes)
                    t += rng.uniform(5, 40)
                    number += 1
                number += rng.randint(10, 400)  # the schedule's wait between windows
                path = write_one(ev, node_dir(i), host, pid, rank, world, local, gpus, gpu_model,
                                 profiler_start, t, base_ns)
                written.append({"file": os.path.relpath(path, root), "rank": rank, "node": i,
                                "t_s": w["t_s"], "idle": w["idle"]})
    return written


def write_one(ev, folder, host, pid, rank, world, local, gpus, gpu_model, start_us, end_us,
              base_ns):
    meta = []
    for proc, label, sort in [(pid, "CPU", pid)] + [(g, f"GPU {g}", 16777216 + g)
                                                    for g in range(gpus)]:
        for name, args in (("process_name", {"name": "python3"}),
                           ("process_labels", {"labels": label}),
                           ("process_sort_index", {"sort_index": sort})):
            meta.append({"name": name, "ph": "M", "ts": round(start_us - base_ns / 1e3, 3),
                         "pid": proc, "tid": 0, "args": args})
    meta.append({"name": "thread_name", "ph": "M", "ts": round(start_us - base_ns / 1e3, 3),
                 "pid": local, "tid": STREAM, "args": {"name": f"stream {STREAM} "}})
    meta.append({"name": "thread_name", "ph": "M", "ts": round(start_us - base_ns / 1e3, 3),
                 "pid": pid, "tid": pid, "args": {"name": f"thread {pid} (pt_main_thread)"}})
    span = {"ph": "X", "cat": "Trace", "ts": round(start_us - base_ns / 1e3, 3),
            "dur": round(end_us - start_us, 3), "pid": "Spans", "tid": "PyTorch Profiler",
            "name": "PyTorch Profiler (0)", "args": {"Op count": 0}}
    mark = {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces",
            "tid": "Trace PyTorch Profiler", "ts": round(start_us - base_ns / 1e3, 3)}
    doc = {"schemaVersion": 1,
           "deviceProperties": [{"id": g, "name": gpu_model, "warpSize": 32}
                                for g in range(gpus)],
           "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": world},
           "traceEvents": meta + ev.events + [span, mark],
           "traceName": f"/tmp/libkineto_activities_{pid}.json", "displayTimeUnit": "ms"}
    if base_ns:
        doc["baseTimeNanoseconds"] = base_ns
    # tensorboard_trace_handler names the file when the profiler hands it over: its end.
    name = f"{host}_{pid}.{int(end_us // 1e3)}.pt.trace.json"
    path = os.path.join(folder, "outputs", "profiler", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        # Kineto writes one event per line inside the array
        head = {k: v for k, v in doc.items() if k != "traceEvents"}
        text = json.dumps(head, indent=2)[:-2] + ',\n  "traceEvents": [\n'
        text += ",\n".join("  " + json.dumps(e) for e in doc["traceEvents"])
        text += "\n  ]\n}\n"
        f.write(text)
    return path
