#!/usr/bin/env python3
"""Writes the labelled post-mortem corpus under tests/data/joblogs/ from joblog-corpus.yaml
(python3 with PyYAML; the log writers are in joblog_corpus.py).

Each job in the YAML is a folder shaped like an Azure ML job download (system_logs/
data_capability/ with data-capability.log and hourly rslex.log.<YYYY-MM-DD-HH> files, GPU
samples, storage metrics): its timeline (`at`: named times, drawn in order), the steps that
write its files in order (logs, throttling episodes, GPU samples with the utilisation as an
expression of t and g, metrics), and its label. corpus.json lists every job with the flags to
run `feedcheck postmortem` with, the expected verdict and confidence, and the GPU time lost,
computed here from the very samples written. Job i draws from random.Random(1000 + i) (or its
own `seed`): append jobs, never reorder them. The output is deterministic.

    python3 scripts/make-joblog-corpus.py            # rewrites every job but job-demo
    python3 scripts/make-joblog-corpus.py OUT_DIR    # writes the corpus elsewhere (no docs)
"""

import builtins
import datetime as dt
import json
import os
import random
import shutil
import sys

import yaml

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
import joblog_corpus as lib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "tests", "data", "joblogs")
DOC = os.path.join(HERE, "..", "docs", "postmortem.md")

# The data file is the repository's own: its expressions are evaluated (eval, with a few
# builtins) over the job's names. Each step's parameters, in order: NAME is an expression, NAME:s a text template (an
# f-string over the job's names), NAME:f(a,b) a function of (a, b) given as an expression.
LOG_OPS = {
    "retry_count": "t value:s", "resolved": "t datastore:s", "spans": "start end mode:s every",
    "refusals": "start end count status reason:s code:s sync blobs tries delays",
    "refused": "t status reason:s code:s", "one_line": "t status code:s method:s uri:s rid",
    "field": "t status", "retry": "t", "retry_error": "t attempt", "give_up": "t",
    "body_timeout": "t", "stream_error": "t code:s text:s", "add": "t level:s target:s message:s",
    "throttled": "start end count form:s status code:s message:s",
}
STEPS = {
    "capability": "path:s acts crlf append:s replace split_at:s first:s",
    "rslex": "account:s", "write_log": "dir:s junk cut_last",
    "smi": "path:s gpus start end interval util:f(t,g) units header hole",
    "nvsmi": "path:s gpus start end interval util:f(t,g) key:s na_every hole unknown:f(t,g) "
             "model:s mem header shift_s na:s na_mem power prefix:s tail:s cut_last crlf buffer:s",
    "dcgm": "path:s host:s gpus start end interval util:f(t,g) uuid:s model:s samples",
    "mig": "path:s host:s gpus start end interval stalled:f(t)",
    "gpu_metric": "path:s form:s interval nodes gpus start end util:f(n,t,g) point:f() workspace:s",
    "storage": "path:s form:s interval start end egress:f(t) tx:f(t) e2e server",
    "metrics": "path:s form:s interval start end metrics account:s region:s resource_ids",
    "file": "path:s text:s json crlf", "job": "mode:s env nodes gpus", "bloblogs": "path:s groups",
}


def parse(spec):
    return [(p.partition(":")[0], p.partition(":")[2]) for p in spec.split()]


class StepError(Exception):
    pass


class Job:
    """One job's names (its timeline, the loop variables), random generator and GPU ledger."""

    def __init__(self, spec, rng, root):
        self.rng = rng
        self.ledger = lib.Ledger()
        r = rng
        self.env = {
            "__builtins__": {k: getattr(builtins, k) for k in (
                "range", "enumerate", "any", "max", "min", "round", "int", "str", "len", "dict",
                "zip", "abs", "float", "list", "tuple")},
            "idle": lambda: r.uniform(0, 3), "busy": lambda lo=85, hi=98: r.uniform(lo, hi),
            "u": r.uniform, "rnd": r.random, "randint": r.randint, "randrange": r.randrange,
            "bits": r.getrandbits, "utc": lib.utc, "py_log": lib.py_log,
            "smi_time": lib.smi_time, "iso_z": lib.iso_z, "rate_total": lib.rate_total,
            "uri": lambda *a: self.env["log"].uri(*a), "name": spec["name"], "root": root,
            "d": os.path.join(root, spec["name"]),
            "logs": os.path.join(root, spec["name"], "system_logs", "data_capability")}

    def ev(self, x):
        return eval(x, self.env) if isinstance(x, str) else x

    def text(self, s):
        return eval("f" + repr(s), self.env) if isinstance(s, str) and "{" in s else s

    def fn(self, params, expr):
        return eval(f"lambda {params}: ({expr})", self.env) if isinstance(expr, str) else None

    def args(self, spec, given):
        """The step's arguments, evaluated in the order given (the order the draws happen)."""
        params = parse(spec)
        if isinstance(given, list):
            given = dict(zip((p for p, _ in params), given))
        kinds = dict(params)
        out = {}
        for k, v in given.items():
            kind = kinds[k]  # a KeyError names an unknown parameter
            out[k] = (self.text(v) if kind == "s" else
                      self.fn(kind[2:-1], v) if kind.startswith("f") else self.ev(v))
        return out

    def run(self, steps):
        for step in steps:
            if "for" in step:  # for: NAMES in EXPRESSION, do: [steps]
                names, _, expr = step["for"].partition(" in ")
                names = [n.strip() for n in names.split(",")]
                for item in self.ev(expr):
                    self.env.update(zip(names, item if len(names) > 1 else [item]))
                    self.run(step["do"])
            elif "if" not in step or self.ev(step["if"]):
                try:
                    self.step(*((k, v) for k, v in step.items() if k != "if"))
                except StepError:
                    raise
                except Exception as e:  # name the step the data file got wrong
                    raise StepError(f"{str(step)[:300]}: {type(e).__name__}: {e}") from e

    def step(self, op_given):
        op, given = op_given
        if op == "let":
            for k, v in given.items():
                self.env[k] = self.ev(v)
        elif op in LOG_OPS:
            getattr(self.env["log"], op)(**self.args(LOG_OPS[op], given))
        else:
            getattr(self, "do_" + op)(**self.args(STEPS[op], given))

    # ------------------------------------------------------------ the steps

    def do_capability(self, path, acts, crlf=False, append="", replace=None, split_at=None,
                      first=None):
        acts = [(a, self.ev(s), self.ev(e), h) for a, s, e, h in acts]
        text = lib.data_capability(acts, self.rng) + append
        if replace:
            assert replace[0] in text
            text = text.replace(*replace)
        if split_at:  # the log rotated: `first` (data-capability.log.1) holds the lines before
            lines = text.splitlines(keepends=True)
            cut = next(i for i, l in enumerate(lines) if split_at in l)
            lib.write(first, "".join(lines[:cut]))
            text = "".join(lines[cut:])
        lib.write(path, text, crlf)

    def do_rslex(self, account="stmlcorpus01"):
        self.env["log"] = lib.Rslex(self.rng, account)

    def do_write_log(self, dir, junk=0, cut_last=False):
        self.env["log"].write(dir, junk, cut_last)

    def do_smi(self, path, gpus, start, end, interval, util, units=True, header=True, hole=None):
        lib.smi_csv(path, gpus, start, end, interval, util, self.ledger, self.rng, units, header,
                    hole)

    def do_nvsmi(self, gpus, start, end, interval, util, path=None, key="", na_every=0, hole=None,
                 unknown=None, prefix="", tail="", cut_last=False, crlf=False, buffer=None, **fmt):
        rows = lib.smi_rows(self.ledger, gpus, start, end, interval, util, key, na_every, hole,
                            unknown)
        text = prefix + lib.smi_text(rows, self.rng, **fmt) + tail
        if cut_last:  # the sampler died mid-write: the last row is cut half-way, unreadable
            last = text.rstrip("\n").rsplit("\n", 1)[1]
            text = text[: len(text) - len(last) // 2 - 1]
            self.ledger.gpus[f"{key}/{rows[-1][1]}"].pop()
        if buffer:
            self.env[buffer] = self.env.get(buffer, "") + text
        else:
            lib.write(path, text, crlf)

    def do_dcgm(self, path, host, gpus, start, end, interval, util, **kw):
        lib.dcgm_text(path, host, gpus, start, end, interval, util, self.ledger, **kw)

    def do_mig(self, path, host, gpus, start, end, interval, stalled):
        lib.mig_dcgm(path, host, gpus, start, end, interval, stalled, self.rng, self.ledger)

    def do_gpu_metric(self, path, form, interval, nodes, gpus, start, end, util=None, point=None,
                      workspace="ws-corpus"):
        lib.gpu_metric(path, form, interval, nodes, gpus, start, end, util, self.ledger, point,
                       workspace)

    def do_storage(self, path, form, interval, start, end, egress, tx, e2e=18.0, server=9.0):
        lib.storage_metrics(path, form, interval, start, end, egress, tx, e2e, server)

    def do_metrics(self, path, form, interval, start, end, metrics, **kw):
        """metrics: [name, unit, [[dims, expression of t -> {aggregation: value} or None]]]."""
        built = [(name, unit, [(dims, self.fn("t", expr)) for dims, expr in series])
                 for name, unit, series in metrics]
        lib.account_metrics(path, form, interval, start, end, built, **kw)

    def do_job(self, mode, env, nodes=1, gpus=8):
        """The job's definition, job.yml in its folder: the settings it ran with."""
        lib.job_yml(os.path.join(self.env["d"], "job.yml"), self.env["name"], mode, env, nodes,
                    gpus)

    def do_file(self, path, text=None, crlf=False, **doc):
        """A file beside the jobs (a profile, a saved report: `json` is dumped)."""
        lib.write(path, text if "json" not in doc else json.dumps(doc["json"], indent=1), crlf)

    def do_bloblogs(self, path, groups):
        """groups: {bursts, count, t, status, text, uri, dur}; t, uri and dur drawn per row,
        count per burst (`burst` is the burst's index)."""
        rows = []
        for g in groups:
            for burst in range(g.get("bursts", 1)):
                self.env["burst"] = burst
                for _ in range(self.ev(g["count"])):
                    rows.append((self.ev(g["t"]), g["status"], g["text"], self.text(g["uri"]),
                                 self.ev(g["dur"])))
        lib.storage_blob_logs_csv(path, rows)



def demo_gpu_lost():
    """GPU time lost in the hand-written demo job, from its own files (samples x interval)."""
    ledger = lib.Ledger()
    gpu_dir = os.path.join(ROOT, "job-demo", "gpu")
    for name in sorted(os.listdir(gpu_dir)):
        stamp = None
        with open(os.path.join(gpu_dir, name)) as f:
            for line in f:
                line = line.strip()
                if name.endswith(".csv"):
                    parts = [p.strip() for p in line.split(",")]
                    value = parts[3].replace("%", "").strip() if len(parts) >= 4 else ""
                    if parts[0][:4].isdigit() and value.replace(".", "").isdigit():
                        t = dt.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
                        ledger.sample(f"{name}/{parts[1]}", t, float(value))
                elif line.startswith("# 20"):
                    stamp = dt.datetime.strptime(line[2:], "%Y-%m-%dT%H:%M:%SZ").timestamp()
                elif line.startswith("DCGM_FI_DEV_GPU_UTIL{"):
                    gpu = line.split('gpu="')[1].split('"')[0]
                    ledger.sample(f"{name}/{gpu}", stamp, float(line.rsplit(" ", 1)[1]))
    return ledger.lost_gpu_s()


def write_docs_table(labels):
    """The table in docs/postmortem.md, between its corpus-table markers."""
    with open(DOC) as f:
        text = f.read()
    rows = ["| Job | Flags | Verdict | Confidence | GPU time lost | Why |",
            "|---|---|---|---|---|---|"]
    for l in labels:
        lost = "unknown (no GPU data)" if l["gpu_lost_gpu_s"] is None else \
            f"{l['gpu_lost_gpu_s'] / 60:.0f} GPU-min"
        verdict = l["verdict"] + (f"; straggler {l['straggler']}" if l.get("straggler") else "")
        rows.append(f"| `{l['name']}` | `{' '.join(l['args']) or '(none)'}` | {verdict} | "
                    f"{l['confidence']} | {lost} | {l['why']} |")
    start, end = "<!-- corpus-table -->", "<!-- /corpus-table -->"
    head, rest = text.split(start, 1)
    with open(DOC, "w") as f:
        f.write(head + start + "\n" + "\n".join(rows) + "\n" + end + rest.split(end, 1)[1])


def run_job(i, spec, root):
    """Writes one job's folder; returns its label."""
    job = Job(spec, random.Random(spec.get("seed", 1000 + i)), root)
    shutil.rmtree(job.env["d"], ignore_errors=True)
    try:
        job.run([{"let": spec["at"]}] + spec["steps"])
    except Exception as e:  # the data file is wrong: name the job and the step
        sys.exit(f"scripts/joblog-corpus.yaml: job {spec['name']}: {e}")
    label = {"name": spec["name"], "args": [], "verdict": "", "confidence": "",
             "gpu_lost_gpu_s": job.ledger.lost_gpu_s()}
    label.update(spec["label"])  # gpu_lost_gpu_s: null when the job has no GPU data
    return label


def main(argv):
    root = argv[1] if len(argv) > 1 else ROOT
    with open(os.path.join(HERE, "joblog-corpus.yaml")) as f:
        data = yaml.safe_load(f)
    if root != ROOT:  # the corpus elsewhere: job-demo is copied there, the docs are left alone
        if not os.path.isdir(os.path.join(root, "job-demo")):
            shutil.copytree(os.path.join(ROOT, "job-demo"), os.path.join(root, "job-demo"))
    for sub in ("profiles", "with"):
        shutil.rmtree(os.path.join(root, sub), ignore_errors=True)
    demo = {k: data["demo"][k] for k in ("name", "args", "verdict", "confidence")}
    labels = [dict(demo, gpu_lost_gpu_s=demo_gpu_lost(), why=data["demo"]["why"])]
    labels += [run_job(i, spec, root) for i, spec in enumerate(data["jobs"])]
    for l in labels:
        if l["gpu_lost_gpu_s"] is not None:
            l["gpu_lost_gpu_s"] = round(l["gpu_lost_gpu_s"], 1)
    with open(os.path.join(root, "corpus.json"), "w") as f:
        json.dump({"generator": "scripts/make-joblog-corpus.py",
                   "gpu_busy_threshold_percent": lib.BUSY_THRESHOLD, "jobs": labels}, f, indent=1)
        f.write("\n")
    if root == ROOT:
        write_docs_table(labels)
    print(f"wrote {len(labels)} jobs to {os.path.normpath(root)}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
