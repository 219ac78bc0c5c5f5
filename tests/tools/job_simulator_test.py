#!/usr/bin/env python3
"""Unit tests of the job simulator (tests/tools/job_simulator.py), run by ctest (label simulator):
its truth conserves GPU time (the states sum to the GPU time lost, which is what the GPU files it
wrote say, counted by the corpus's Ledger), a seed writes the same bytes, every state of the idle
ledger is drawn, and each piece of evidence is written only when its physics holds."""

import csv
import datetime as dt
import glob
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import job_simulator as js  # noqa: E402

lib = js.lib
KB = js.load_kb()
TS = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+)Z ")
STATUS = re.compile(r"Status: (\d{3})|response_status_code=(\d{3})")
SPAN_IDLE = re.compile(rb"time\.idle=\S+")
SPAN = re.compile(r"close time\.busy=(\S+) time\.idle=(\S+)")


def epoch(s, fmt):
    return dt.datetime.strptime(s, fmt).replace(tzinfo=dt.timezone.utc).timestamp()


def gpu_lost_from_files(job_dir):
    """The GPU time lost that the job's GPU files say, read back and counted by lib.Ledger."""
    ledger = lib.Ledger()
    for path in glob.glob(os.path.join(job_dir, "**", "nvidia-smi.csv"), recursive=True):
        with open(path) as f:
            for line in f:
                if line.startswith("timestamp"):  # the header, when it was asked for
                    continue
                parts = [p.strip() for p in line.split(",")]
                value = parts[3].replace("%", "").strip()
                t = epoch(parts[0], "%Y/%m/%d %H:%M:%S.%f")
                ledger.sample(f"{path}/{parts[1]}", t, float(value) if value[:1].isdigit() else None)
    for path in glob.glob(os.path.join(job_dir, "**", "nvidia-smi-dmon.log"), recursive=True):
        with open(path) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                date, clock, gpu, sm = line.split()[:4]
                t = epoch(f"{date} {clock}", "%Y%m%d %H:%M:%S")
                ledger.sample(f"{path}/{gpu}", t, None if sm == "-" else float(sm))
    for path in glob.glob(os.path.join(job_dir, "**", "dcgm.txt"), recursive=True):
        stamp = None
        with open(path) as f:
            for line in f:
                if line.startswith("# 20"):
                    stamp = epoch(line[2:].strip(), "%Y-%m-%dT%H:%M:%SZ")
                elif line.startswith("DCGM_FI_DEV_GPU_UTIL{"):
                    gpu = line.split('gpu="')[1].split('"')[0]
                    ledger.sample(f"{path}/{gpu}", stamp, float(line.rsplit(" ", 1)[1]))
    gpu_json = os.path.join(job_dir, "metrics", "gpu.json")
    if os.path.exists(gpu_json):
        with open(gpu_json) as f:
            doc = json.load(f)
        for ts in doc["value"][0]["timeseries"]:
            for point in ts["data"]:
                ledger.add(point["average"], 60)
    return ledger.lost_gpu_s()


def read_json(path):
    """A JSON file as the simulator saved it: UTF-8, or UTF-16 with its byte order mark."""
    with open(path, "rb") as f:
        data = f.read()
    return json.loads(data.decode("utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8"))


def rslex_events(job_dir):
    """(node folder, epoch s, HTTP status or None) of every event in the job's rslex logs."""
    out = []
    for path in sorted(glob.glob(os.path.join(job_dir, "**", "rslex.log.*"), recursive=True)):
        node = os.path.relpath(path, job_dir).split(os.sep)[0]
        t, status = None, None
        with open(path) as f:
            for line in f:
                m = TS.match(line)
                if m:
                    if t is not None:
                        out.append((node, t, status))
                    t, status = epoch(m.group(1)[:26], "%Y-%m-%dT%H:%M:%S.%f"), None
                s = STATUS.search(line)
                if s:
                    status = int(s.group(1) or s.group(2))
        if t is not None:
            out.append((node, t, status))
    return out


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def tree_digest(root):
    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(root, "**", "*"), recursive=True)):
        if os.path.isfile(path):
            h.update(os.path.relpath(path, root).encode())
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


# A stand-in for `feedcheck postmortem JOB --json ...` run from a draw's folder: the truth's
# ledger, with FAKE_BIAS of each job's GPU time lost moved from its largest state to `unknown`.
FAKE_POSTMORTEM = """#!/usr/bin/env python3
import json, os, sys
t = json.load(open(os.path.join("truth", sys.argv[2] + ".json")))
states = dict(t["states"])
cause = t["cause_state"]
if states:
    top = max(states, key=states.get)
    moved = min(states[top], float(os.environ.get("FAKE_BIAS", "0")) * t["lost_gpu_s"])
    states[top] -= moved
    states["unknown"] = states.get("unknown", 0.0) + moved
if os.environ.get("FAKE_OWN_AS_PIPELINE"):  # the job's own phases told as its pipeline's pace
    states["not_storage"] = states.get("not_storage", 0.0) + states.pop("own_code", 0.0)
print(json.dumps({"diagnosis": {"ledger": {"states": states, "cause_state": cause,
                                           "lost_gpu_s": t["lost_gpu_s"]}}}))
"""


class Draw(unittest.TestCase):
    """One small draw shared by the tests that read files."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="simtest-")
        cls.truths = [js.make_job(11, i, cls.tmp, KB, small=True) for i in range(40)]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def fake_postmortem(self):
        """The stand-in post-mortem (FAKE_POSTMORTEM) written into the draw's folder."""
        fake = os.path.join(self.tmp, "fake-postmortem.py")
        with open(fake, "w") as f:
            f.write(FAKE_POSTMORTEM)
        os.chmod(fake, 0o755)
        return fake

    def test_states_sum_to_the_gpu_time_lost_the_files_say(self):
        for t in self.truths:
            with self.subTest(job=t["name"]):
                self.assertAlmostEqual(sum(t["states"].values()), t["lost_gpu_s"],
                                       delta=0.1 * len(t["states"]) + 0.2)
                on_disk = gpu_lost_from_files(os.path.join(self.tmp, t["name"]))
                self.assertAlmostEqual(on_disk, t["lost_gpu_s"], delta=1.0)
                self.assertLessEqual(t["lost_gpu_s"], t["sampled_gpu_s"])
                self.assertTrue(set(t["states"]) <= set(js.STATES), t["states"])

    def test_the_scorer_fails_a_state_biased_across_the_draw(self):
        """score_postmortems.py against a stand-in post-mortem that reports the truth, less a
        share of each job's GPU time lost moved from its largest state to `unknown`: every job
        within 5%, so only the state's bias over the draw can catch it, and it does."""
        fake = self.fake_postmortem()
        scorer = os.path.join(HERE, "score_postmortems.py")

        def score(bias, max_bias):
            env = dict(os.environ, FAKE_BIAS=str(bias))
            r = subprocess.run([sys.executable, scorer, self.tmp, "--feedcheck", fake,
                                "--min-cause", "0", "--min-states", "0", "--min-lost", "0",
                                "--max-state-bias", str(max_bias), "--list", "0"],
                               capture_output=True, text=True, env=env, timeout=120)
            return r.returncode, r.stdout + r.stderr

        lost = sum(t["lost_gpu_s"] > 0 for t in self.truths) / len(self.truths)
        self.assertGreater(lost, 0.5)  # enough jobs lost time for a bias to show
        for bias, max_bias, rc in ((0.0, 0.001, 0), (0.04, 0.05, 0), (0.04, 0.04 * lost - 0.005, 1)):
            with self.subTest(bias=bias, max_bias=max_bias):
                got, out = score(bias, max_bias)
                self.assertEqual(got, rc, out)
                self.assertIn("each state's bias", out)

    def test_the_scorer_splits_the_rates_by_the_evidence_each_job_left(self):
        """The groups (account metrics, a profile, both, neither) partition the draw, each job in
        the group its draw gave it, and each group's rates are its own jobs': against a stand-in
        that moves half of every job's GPU time lost to `unknown`, a group's states are within
        exactly where its jobs lost nothing (or lost most to `unknown`), its causes all right."""
        fake = self.fake_postmortem()
        out = os.path.join(self.tmp, "scores.json")
        r = subprocess.run([sys.executable, os.path.join(HERE, "score_postmortems.py"), self.tmp,
                            "--feedcheck", fake, "--json", out, "--list", "0"],
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, FAKE_BIAS="0.5"))
        self.assertIn("by the evidence the job left", r.stdout, r.stderr)
        groups = read_json(out)["by_evidence"]
        expected = {}
        for t in self.truths:
            p = t["params"]
            g = {(True, True): "metrics and profile", (True, False): "metrics only",
                 (False, True): "profile only", (False, False): "neither"}[
                (bool(p["metrics"]), bool(p["profile"]))]
            e = expected.setdefault(g, {"jobs": 0, "cause_right": 0, "states_within": 0})
            e["jobs"] += 1
            e["cause_right"] += 1
            st = t["states"]  # half moved from the largest state: no move when it is unknown
            e["states_within"] += int(not st or max(st, key=st.get) == "unknown")
        self.assertGreaterEqual(len(expected), 3)  # the draw mixes them
        self.assertEqual(groups, expected)

    def test_the_scorer_counts_the_jobs_own_time_as_one_state_and_refines_it(self):
        """The issue's states hold the job's own time as one (its input pipeline's pace and its own
        phases); the ledger's refinement splits it. A stand-in that tells every own phase as the
        pipeline's pace is within on every job at the issue's states, and within on the refined
        ones exactly where a job's own phases held at most 5% of its GPU time lost."""
        fake = self.fake_postmortem()
        out = os.path.join(self.tmp, "scores-own.json")
        r = subprocess.run([sys.executable, os.path.join(HERE, "score_postmortems.py"), self.tmp,
                            "--feedcheck", fake, "--json", out, "--list", "0", "--min-cause", "0",
                            "--min-states", "1", "--min-lost", "0", "--min-refined-states", "1"],
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, FAKE_OWN_AS_PIPELINE="1"))
        score = read_json(out)
        refined = sum(t["states"].get("own_code", 0.0) <= 0.05 * max(t["lost_gpu_s"], 1.0)
                      for t in self.truths)
        self.assertLess(refined, len(self.truths))  # the draw has own phases to tell apart
        self.assertEqual(score["states_within"], 1.0)
        self.assertAlmostEqual(score["refined_states_within"], refined / len(self.truths))
        self.assertEqual(r.returncode, 1, r.stdout)  # the refined floor of 100% is not met
        # the split's two sides miss by the same time: either may be the one named
        self.assertRegex(r.stdout, r"refined state (own_code|not_storage) ")

    def test_the_cause_follows_the_verdict_rule(self):
        for t in self.truths:
            with self.subTest(job=t["name"]):
                st = t["states"]
                if t["failed_on_access"]:
                    self.assertEqual(t["cause_state"], "access")
                elif not st:
                    self.assertIsNone(t["cause_state"])
                elif t["cause_state"] is None:
                    self.assertTrue(all(k in js.STORAGE_STATES for k in st))
                    self.assertLess(sum(st.values()), 0.1 * t["sampled_gpu_s"])
                else:
                    # Storage when one of its states holds at least as much as each of the job's
                    # own (not_storage, own_code) and storage cost a tenth of the sampled time.
                    storage = sum(v for k, v in st.items() if k in js.STORAGE_STATES)
                    top_storage = max((v for k, v in st.items() if k in js.STORAGE_STATES),
                                      default=0.0)
                    own = max((v for k, v in st.items() if k in ("not_storage", "own_code")),
                              default=0.0)
                    is_storage = t["cause_state"] in js.STORAGE_STATES
                    self.assertEqual(is_storage, top_storage > 0 and top_storage >= own and
                                     storage >= 0.1 * t["sampled_gpu_s"])

    def test_refusals_only_while_a_limit_is_exceeded(self):
        """A 503 in a node's log falls in a minute whose metrics show a throttling ResponseType, and
        the account never serves more than its limits."""
        checked = 0
        for t in self.truths:
            d = os.path.join(self.tmp, t["name"])
            p = t["params"]
            if not p["metrics"]:
                continue
            doc = read_json(os.path.join(d, "metrics", "storage.json"))
            by = {m["name"]["value"]: m for m in doc["value"]}
            throttled = set()
            for ts in by["Transactions"]["timeseries"]:
                rt = ts["metadatavalues"][0]["value"]
                if rt in ("ClientAccountBandwidthThrottlingError",
                          "ClientAccountRequestThrottlingError", "ServerBusyError"):
                    for point in ts["data"]:
                        if point.get("total"):
                            throttled.add(point["timeStamp"][:16])
            for name, limit in (("Egress", p["egress_gbps"]), ("Ingress", p["ingress_gbps"])):
                for point in by[name]["timeseries"][0]["data"]:
                    self.assertLessEqual(point["total"], limit * 1e9 / 8 * 60 * 1.001,
                                         f"{t['name']} {name} {point}")
            for node, ts, status in rslex_events(d):
                if status == 503:
                    checked += 1
                    minute = dt.datetime.fromtimestamp(ts, dt.timezone.utc).strftime(
                        "%Y-%m-%dT%H:%M")
                    self.assertIn(minute, throttled, f"{t['name']} {node}: 503 at {minute}")
        self.assertGreater(checked, 0, "no 503 in the draw: the check checked nothing")

    def test_an_access_verdict_has_a_record_of_the_failure(self):
        # A job ends on access only where something recorded it: a node's logs (the runtime's
        # StreamAccess error) or the account's metrics.
        for t in self.truths:
            if not t["failed_on_access"]:
                continue
            with self.subTest(job=t["name"]):
                d = os.path.join(self.tmp, t["name"])
                logged = any("StreamAccess" in open(f, errors="replace").read()
                             for f in glob.glob(os.path.join(d, "**", "*.log*"), recursive=True))
                self.assertTrue(logged or os.path.isdir(os.path.join(d, "metrics")))

    def test_access_refusals_only_after_their_fault(self):
        for t in self.truths:
            p = t["params"]
            t0 = epoch(p["t0"], "%Y-%m-%dT%H:%M:%SZ")
            for node, ts, status in rslex_events(os.path.join(self.tmp, t["name"])):
                if status in (403, 404):
                    self.assertEqual(p["fault"], {403: "sas_expiry", 404: "not_found"}[status])
                    self.assertGreaterEqual(ts - t0, p["fault_at_s"] - js.STEP_S)

    def test_a_dead_node_reads_nothing(self):
        for t in self.truths:
            dead = t["params"]["dead_node"]
            if dead is None:
                continue
            reads = [e for e in rslex_events(os.path.join(self.tmp, t["name"]))
                     if e[0] == f"node-{dead}" and e[2] is None]
            self.assertLessEqual(len(reads), 2, t["name"])  # the resolver and settings lines


    def test_the_request_log_says_what_each_read_moved(self):
        """A served read in the StorageBlobLogs export moved one request of the model's size (a
        whole small file, or one read block of a large one); a refused one, only its error."""
        logged = 0
        for t in self.truths:
            path = os.path.join(self.tmp, t["name"], "metrics", "storagebloblogs.csv")
            if not os.path.exists(path):
                continue
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
            size = round(js.bytes_per_request(t["params"]))
            for row in rows:
                with self.subTest(job=t["name"], status=row["StatusCode"]):
                    body = int(row["ResponseBodySize"])
                    if row["StatusCode"] == "200":
                        self.assertEqual(body, size)
                        logged += 1
                    else:
                        self.assertLess(body, 1024)
        self.assertGreater(logged, 0, "no job of the shared draw has a request log")

    def test_requests_in_flight_follow_the_runtime_settings_written(self):
        """The threads the latency cap uses are the ones the job's files say: the thread setting
        in job.yml exactly when drawn (else the cores x 4 default), the profile's readers for a
        mount's files under one block, and the E2E metric counting the transfer."""
        for t in self.truths:
            p = t["params"]
            with self.subTest(job=t["name"]):
                with open(os.path.join(self.tmp, t["name"], "job.yml")) as f:
                    yml = f.read()
                key = ("RSLEX_DOWNLOADER_THREADS" if p["mode"] == "download"
                       else "DATASET_MOUNT_READ_THREADS")
                self.assertEqual(key in yml, p["threads_env"] is not None)
                threads = p["threads_env"] or p["vcpus"] * 4
                if p["mode"] == "download":
                    self.assertEqual(p["inflight"], threads)
                elif p["file_mb"] < p["read_mb"]:
                    self.assertEqual(p["inflight"], p["readers"])
                else:
                    self.assertEqual(p["inflight"], min(threads, 32 * p["readers"]))
                per_request_ms = js.request_e2e_ms(p)
                self.assertGreater(per_request_ms, p["e2e_ms"])
                self.assertAlmostEqual(
                    js.latency_cap_gbps(p),
                    p["inflight"] * min(p["file_mb"], p["read_mb"]) * 8e6 / per_request_ms / 1e6,
                    places=6)


def expected_wait_share(windows):
    """The share of their steps' time loops wait in __next__, from the model's idle fractions at
    the profiled times (sim_traces: a step computes c and waits c x f / (1 - f), f capped at
    sim_traces.MAX_IDLE; every window has as many steps of the same c)."""
    fs = [min(js.sim_traces.MAX_IDLE, w["idle"]) for w in windows]
    return sum(f / (1 - f) for f in fs) / sum(1 / (1 - f) for f in fs)


def feedcheck_binary():
    path = os.environ.get("FEEDCHECK") or os.path.join(HERE, "..", "..", "build", "feedcheck")
    return os.path.abspath(path) if os.path.isfile(path) and os.access(path, os.X_OK) else None


class Traces(unittest.TestCase):
    """Profiler traces: drawn for every job here (share 1), they add files and change nothing else,
    parse as torch.profiler's Kineto form, and their loops wait as the model's node idled."""

    @classmethod
    def setUpClass(cls):
        cls.with_traces, cls.without = (tempfile.mkdtemp(prefix="simtr-") for _ in range(2))
        cls.truths = [js.make_job(31, i, cls.with_traces, KB, small=True, trace_share=1.0)
                      for i in range(24)]
        cls.plain = [js.make_job(31, i, cls.without, KB, small=True, trace_share=0.0)
                     for i in range(24)]
        cls.traced = [t for t in cls.truths if "traces" in t["params"]]

    @classmethod
    def tearDownClass(cls):
        for d in (cls.with_traces, cls.without):
            shutil.rmtree(d, ignore_errors=True)

    def test_traces_add_files_and_change_nothing_else(self):
        self.assertGreaterEqual(len(self.traced), 12, "too few jobs whose loops trained")
        for t, plain in zip(self.truths, self.plain):
            with self.subTest(job=t["name"]):
                params = dict(t["params"])
                files = [f["file"] for f in params.pop("traces", {}).get("files", [])]
                self.assertEqual(dict(t, params=params), plain)
                a = os.path.join(self.with_traces, t["name"])
                b = os.path.join(self.without, t["name"])
                found = sorted(os.path.relpath(f, a) for f in glob.glob(
                    os.path.join(a, "**", "outputs", "profiler", "*"), recursive=True))
                self.assertEqual(found, sorted(files))
                for path in glob.glob(os.path.join(b, "**", "*"), recursive=True):
                    if not os.path.isfile(path):
                        continue
                    with open(path, "rb") as x, open(a + path[len(b):], "rb") as y:
                        plain_bytes, traced_bytes = x.read(), y.read()
                    if "traces" in t["params"] and "rslex.log." in path:
                        # only the span closes' read times follow the model's reads
                        plain_bytes, traced_bytes = (SPAN_IDLE.sub(b"time.idle=T", v)
                                                     for v in (plain_bytes, traced_bytes))
                    self.assertEqual(plain_bytes, traced_bytes, path)

    def test_span_closes_take_the_model_reads_time(self):
        """In a job with traces, each span close's busy + idle is its read's time in the model
        (the request's end to end, or its queue's), so a node held by its data loader shows its
        requests' own time beside its waiting loop: fast (under 50 ms) when its account is near."""
        checked = fast_loader_reads = 0
        for t in self.traced:
            p, _ = js.draw_job(31, t["index"], KB, True)
            nodes = js.simulate(p)[0]
            t0 = epoch(t["params"]["t0"], "%Y-%m-%dT%H:%M:%SZ")
            job = os.path.join(self.with_traces, t["name"])
            for path in glob.glob(os.path.join(job, "**", "rslex.log.*"), recursive=True):
                node = os.path.relpath(path, job).split(os.sep)[0]
                n = nodes[int(node[5:]) if node.startswith("node-") else 0]
                with open(path) as f:
                    for line in f:
                        m = SPAN.search(line)
                        if not m:
                            continue
                        rec = n.steps[int((epoch(line[:26], "%Y-%m-%dT%H:%M:%S.%f") - t0) // 10)]
                        busy, idle = js.duration_ms(m.group(1)), js.duration_ms(m.group(2))
                        if busy > 0.8 * rec["read_ms"]:
                            continue  # the drawn busy time alone is past the read's
                        self.assertGreaterEqual(busy + idle, 0.79 * rec["read_ms"], line)
                        self.assertLessEqual(busy + idle, 1.26 * rec["read_ms"], line)
                        checked += 1
                        if rec["state"] == "not_storage":  # no queue: one request's time
                            self.assertLessEqual(busy + idle, 1.26 * js.request_e2e_ms(p), line)
                            fast_loader_reads += p["same_region"] and busy + idle < 50
        self.assertGreater(checked, 20)
        self.assertGreater(fast_loader_reads, 0, "no loader-bound node read in the draw")

    def test_trace_files_are_kineto_traces_on_their_node(self):
        for t in self.traced:
            tr = t["params"]["traces"]
            for written in tr["files"]:
                rel = written["file"]
                with self.subTest(file=rel):
                    parts = rel.split(os.sep)
                    node = parts[0] if parts[0].startswith("node-") else "node-0"
                    self.assertIn(node[5:], tr["nodes"])
                    self.assertRegex(parts[-1], r"^[0-9a-f]{38}_\d+\.\d{13}\.pt\.trace\.json$")
                    with open(os.path.join(self.with_traces, t["name"], rel)) as f:
                        doc = json.load(f)
                    info = doc["distributedInfo"]
                    self.assertEqual(info["world_size"], t["params"]["nodes"] * t["params"]["gpus"])
                    self.assertEqual(info["rank"], written["rank"])
                    self.assertEqual(info["rank"] // t["params"]["gpus"], int(node[5:]))
                    ev = doc["traceEvents"]
                    steps = [e for e in ev if e["name"].startswith("ProfilerStep#")
                             and e.get("cat") == "user_annotation"]
                    waits = [e for e in ev if e["name"] == js.sim_traces.LOADER]
                    self.assertEqual(len(steps), tr["active_steps"])
                    self.assertEqual(len(waits), len(steps))
                    kernels = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy")]
                    self.assertTrue(kernels)
                    base = doc.get("baseTimeNanoseconds", 0) / 1e3
                    t0 = epoch(t["params"]["t0"], "%Y-%m-%dT%H:%M:%SZ")
                    for s, w in zip(steps, waits):
                        # the wait and the GPU's work fall inside their step
                        self.assertGreaterEqual(w["ts"], s["ts"])
                        self.assertLessEqual(w["ts"] + w["dur"], s["ts"] + s["dur"])
                        self.assertGreater((s["ts"] + base) / 1e6, t0)
                    for k in kernels:
                        self.assertTrue(any(s["ts"] <= k["ts"] and k["ts"] + k["dur"] <=
                                            s["ts"] + s["dur"] for s in steps), k["name"])

    def test_the_loop_waits_as_its_node_idled_read_by_feedcheck(self):
        exe = feedcheck_binary()
        if exe is None:
            self.skipTest("no feedcheck binary (set FEEDCHECK or build build/feedcheck)")
        checked = 0
        for t in self.traced[:8]:
            tr = t["params"]["traces"]
            out = subprocess.run([exe, "postmortem", t["name"], "--json"] + t["args"],
                                 cwd=self.with_traces, capture_output=True, text=True, timeout=120)
            with self.subTest(job=t["name"]):
                doc = json.loads(out.stdout)
                facts = {f["key"]: f.get("value") for f in doc["evidence"]["facts"]}
                # the job's share: all its ranks' steps together
                self.assertAlmostEqual(facts["trace.loader_wait_fraction"],
                                       expected_wait_share(tr["files"]), delta=0.05)
                # each file (one profiling window of one rank) as its node idled then
                rows = {os.path.relpath(r["file"], t["name"]): r for r in doc["data_wait"]["ranks"]}
                self.assertEqual(set(rows), {f["file"] for f in tr["files"]})
                for f in tr["files"]:
                    row = rows[f["file"]]
                    self.assertEqual(row["rank"], str(f["rank"]))
                    got = row["loader_wait_fraction"]
                    self.assertAlmostEqual(got, expected_wait_share([f]), delta=0.05, msg=f)
                    if t["params"]["nodes"] > 1 and f["node"] != t["params"]["no_logs_node"]:
                        self.assertEqual(row["node"], f"node-{f['node']}")
                    # the GPU idles while the loop waits, and otherwise only between kernels
                    self.assertGreaterEqual(row["gpu_idle_fraction"], got - 0.01)
                    self.assertLessEqual(row["gpu_idle_fraction"], got + 0.08 * (1 - got) + 0.01)
                    checked += 1
        self.assertGreater(checked, 0)


class Determinism(unittest.TestCase):
    def test_a_seed_writes_the_same_bytes(self):
        a, b, c = (tempfile.mkdtemp(prefix="simdet-") for _ in range(3))
        try:
            for i in range(4):
                js.make_job(5, i, a, KB, small=True)
                js.make_job(5, i, b, KB, small=True)
                js.make_job(6, i, c, KB, small=True)
            self.assertEqual(tree_digest(a), tree_digest(b))
            self.assertNotEqual(tree_digest(a), tree_digest(c))
        finally:
            for d in (a, b, c):
                shutil.rmtree(d, ignore_errors=True)

    def test_the_truth_does_not_depend_on_the_string_hash(self):
        """A GpuUtilization minute whose idle steps tie between two states of one rank is charged
        the same state whatever PYTHONHASHSEED (seed 31, job 142 of the small draw has such
        minutes)."""
        truths = []
        for hash_seed in ("1", "3"):
            out = tempfile.mkdtemp(prefix="simhash-")
            try:
                subprocess.run([sys.executable, os.path.join(HERE, "job_simulator.py"), "one",
                                "--small", "--seed", "31", "--index", "142", out], check=True,
                               capture_output=True, env=dict(os.environ, PYTHONHASHSEED=hash_seed))
                with open(os.path.join(out, "truth", "job-0142.json")) as f:
                    truths.append(json.load(f)["states"])
            finally:
                shutil.rmtree(out, ignore_errors=True)
        self.assertEqual(truths[0], truths[1])
        self.assertEqual(len(truths[0]), 2, truths[0])  # the tie is still drawn: two states


class AccessRecord(unittest.TestCase):
    def test_an_access_failure_nothing_recorded_is_no_access_verdict(self):
        """A one-node job whose credential expired, whose node left no logs and whose account's
        metrics were not saved (seed 5, job 27 of the small draw): nothing records its failure,
        its idle time is unknown, and so is its cause."""
        out = tempfile.mkdtemp(prefix="simnorecord-")
        try:
            t = js.make_job(5, 27, out, KB, small=True)
            p = t["params"]
            self.assertEqual((p["fault"], p["nodes"], p["no_logs_node"], p["metrics"]),
                             ("sas_expiry", 1, 0, None))
            self.assertEqual(glob.glob(os.path.join(out, t["name"], "**", "*.log*"),
                                       recursive=True), [])
            self.assertFalse(t["failed_on_access"])
            self.assertEqual(set(t["states"]), {"unknown"})
            self.assertEqual(t["cause_state"], "unknown")
        finally:
            shutil.rmtree(out, ignore_errors=True)


    def test_a_node_without_logs_fails_with_the_job_where_another_records_it(self):
        """A three-node job whose input was not found, one node without logs (seed 2027, job 37
        of the small draw): the fault is every node's, and the other nodes' logs record it, so
        that node's idle time is access too, not unknown."""
        out = tempfile.mkdtemp(prefix="simrecord-")
        try:
            t = js.make_job(2027, 37, out, KB, small=True)
            p = t["params"]
            self.assertEqual((p["fault"], p["nodes"], p["no_logs_node"]), ("not_found", 3, 2))
            self.assertEqual(set(t["states"]), {"access"})
            self.assertEqual(t["cause_state"], "access")
        finally:
            shutil.rmtree(out, ignore_errors=True)

    def test_what_records_an_access_failure(self):
        """Another node's logs (any fault), or the account's metrics where the requests reached
        it (a credential refused, an input not found; a name that never resolved sends none)."""
        for nodes in (1, 2):
            for metrics in (None, "rest"):
                for fault in ("sas_expiry", "not_found", "dns"):
                    w = js.Writer.__new__(js.Writer)
                    w.p = {"nodes": nodes, "metrics": metrics, "fault": fault}
                    with self.subTest(nodes=nodes, metrics=metrics, fault=fault):
                        self.assertEqual(w.access_recorded(),
                                         nodes > 1 or (metrics is not None and fault != "dns"))


class DiskOverflow(unittest.TestCase):
    def test_a_download_that_outgrows_its_disk_fails_the_job_on_the_mode(self):
        """The first jobs of seed 11 whose download outgrows the node's disk: each node that
        filled it wrote the OS's ENOSPC line and a failed download, the job ends within 30 s of
        the first, its cause is the start-up download whatever its shares; and feedcheck names
        the input mode, exits 1 and says the input did not fit. Every other job of the seed is
        the same as without the overflow's generator."""
        found = []
        for i in range(600):
            p = js.draw_params(js.job_rng(11, i), KB, True)
            plain = dict(p)
            js.draw_disk_overflow(p, 11, i)
            if p["disk_full"]:
                found.append(i)
                self.assertGreater(p["dataset_gb"], p["disk_gb"])
            else:
                self.assertEqual(p, dict(plain, disk_full=False))
        self.assertGreaterEqual(len(found), 3)
        feedcheck = os.environ.get("FEEDCHECK")
        out = tempfile.mkdtemp(prefix="simdisk-")
        try:
            for i in found[:3]:
                t = js.make_job(11, i, out, KB, small=True)
                with self.subTest(job=t["name"]):
                    self.assertEqual(t["cause_state"], "startup_download")
                    # Its copy failed at any pace: no second of the wait is its latency's or a
                    # limit's (lifting either only fills the disk sooner).
                    self.assertEqual(set(t["states"]) & {"latency", "account_egress",
                                                         "blob_target", "throttled_unknown"},
                                     set(), t["states"])
                    logs = glob.glob(os.path.join(out, t["name"], "**", "rslex.log.*"),
                                     recursive=True)
                    self.assertIn("No space left on device (os error 28)",
                                  "".join(read_text(f) for f in logs))
                    caps = glob.glob(os.path.join(out, t["name"], "**", "data-capability.log"),
                                     recursive=True)
                    self.assertTrue(any("HowEnded=Failure" in read_text(f) for f in caps))
                    if not feedcheck:
                        continue
                    r = subprocess.run([feedcheck, "postmortem", t["name"], "--json"] + t["args"],
                                       cwd=out, capture_output=True, text=True, timeout=120)
                    self.assertEqual(r.returncode, 1, r.stderr)
                    d = json.loads(r.stdout)["diagnosis"]
                    self.assertEqual(d["ledger"]["cause_state"], "startup_download")
                    self.assertEqual(set(d["ledger"]["states"]) & {"latency", "account_egress"},
                                     set(), d["ledger"]["states"])
                    self.assertIn("input-disk-full", r.stdout)
        finally:
            shutil.rmtree(out, ignore_errors=True)


class FileForms(unittest.TestCase):
    def test_each_saved_form_reads_as_the_truth_says(self):
        """The first job of seed 11 in each saved form (nvidia-smi without its header, its dmon
        log, the metrics in UTF-16): feedcheck counts the GPU time lost the truth counts, and
        reads the metrics' account (the file is not set aside as unrecognised)."""
        feedcheck = os.environ.get("FEEDCHECK")
        if not feedcheck:
            self.skipTest("FEEDCHECK (the feedcheck binary) not given")
        wanted = {"csv_noheader": None, "dmon": None, "utf16": None}
        for i in range(400):
            p = js.draw_file_forms(js.draw_params(js.job_rng(11, i), KB, True), 11, i)
            for form in ("csv_noheader", "dmon"):
                if p["smi_form"] == form and wanted[form] is None:
                    wanted[form] = i
            if p["metrics_utf16"] and wanted["utf16"] is None:
                wanted["utf16"] = i
        self.assertNotIn(None, wanted.values(), wanted)
        out = tempfile.mkdtemp(prefix="simforms-")
        try:
            for form, i in wanted.items():
                t = js.make_job(11, i, out, KB, small=True)
                r = subprocess.run([os.path.abspath(feedcheck), "postmortem", t["name"], "--json"]
                                   + t["args"],
                                   cwd=out, capture_output=True, text=True, timeout=120)
                report = json.loads(r.stdout)
                with self.subTest(form=form, job=t["name"]):
                    gpu = report["diagnosis"]["gpu"]
                    self.assertAlmostEqual(gpu["lost_gpu_s"], t["lost_gpu_s"],
                                           delta=0.01 * max(t["lost_gpu_s"], 60))
                    self.assertNotIn("format not recognised", r.stderr)
                    facts = {f["key"]: f for f in report["evidence"]["facts"]}
                    if form == "utf16":  # the metrics read: their account and Egress
                        self.assertEqual(facts["metrics.account"]["value"], t["params"]["account"])
                        self.assertIn("metrics.egress_gbps_peak", facts)
        finally:
            shutil.rmtree(out, ignore_errors=True)

    def test_every_form_is_drawn(self):
        seen = {}
        for i in range(300):
            p = js.draw_file_forms(js.draw_params(js.job_rng(5, i), KB, True), 5, i)
            seen[p["smi_form"]] = seen.get(p["smi_form"], 0) + 1
            seen["utf16"] = seen.get("utf16", 0) + p["metrics_utf16"]
        for form in ("csv", "csv_noheader", "dmon", "utf16"):
            self.assertGreaterEqual(seen.get(form, 0), 5, seen)


class Reach(unittest.TestCase):
    def test_every_state_is_drawn(self):
        """Over 300 drawn jobs (physics only, no files), every state of the ledger holds idle GPU
        time in at least 4 of them (a little over 1%)."""
        seen = {}
        for i in range(300):
            p = js.draw_params(js.job_rng(5, i), KB, True)
            nodes, _, _, _ = js.simulate(p)
            states = {r["state"] for n in nodes for r in n.steps if r["idle"]}
            if p["no_logs_node"] is not None:
                states.add("unknown")
            if not p["metrics"] and states & {"account_egress", "account_ingress",
                                              "account_requests", "blob_target"}:
                states.add("throttled_unknown")
            for s in states:
                seen[s] = seen.get(s, 0) + 1
        for s in js.STATES:
            self.assertGreaterEqual(seen.get(s, 0), 4, f"{s}: {seen}")

    def test_a_checkpoint_on_a_node_without_logs_is_placed_by_the_ingress(self):
        """A node that left no logs still has its checkpoints' writes on record where the
        account's metrics were saved: their Ingress is the only record of any node's writes (no
        node's log shows them). Without the metrics, nothing places them: unknown."""
        picked = {True: [], False: []}
        for i in range(8000):
            p = js.draw_params(js.job_rng(7, i), KB, True)
            if not (p["no_logs_node"] == 0 and p["nodes"] == 1 and p["checkpoint"]
                    and not p["fault"]):
                continue
            nodes, _, _, _ = js.simulate(p)
            written = sum(r["state"] == "writes" for n in nodes for r in n.steps if r["idle"])
            if written * js.STEP_S >= 300:  # over several samples
                picked[bool(p["metrics"])].append(i)
        tmp = tempfile.mkdtemp(prefix="simckpt-")
        try:
            for metrics, indices in picked.items():
                self.assertGreaterEqual(len(indices), 2, picked)
                for i in indices[:3]:
                    t = js.make_job(7, i, tmp, KB, small=True)
                    with self.subTest(index=i, metrics=metrics):
                        self.assertEqual("writes" in t["states"], metrics, t["states"])
                        self.assertGreater(t["lost_gpu_s"], 0)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_a_download_fits_its_local_disk(self):
        """A download copies the input to the node's local disk, where it must fit: over 1,000
        drawn jobs, every download's input is within 90% of its VM size's disk, and the mounts
        keep inputs larger than any disk."""
        disk_gb = {s["name"]: s["disk_gb"] for s in KB["sizes"]}
        largest_mount = 0.0
        for i in range(1000):
            p = js.draw_params(js.job_rng(11, i), KB, True)
            if p["mode"] == "download":
                self.assertLessEqual(p["dataset_gb"], max(60.0, 0.9 * disk_gb[p["sku"]]), p["sku"])
            else:
                largest_mount = max(largest_mount, p["dataset_gb"])
        self.assertGreater(largest_mount, max(disk_gb.values()) * 0.5)


class MountReads(unittest.TestCase):
    def test_a_later_epoch_reads_from_storage_what_the_cache_cannot_hold(self):
        """A mount's later epochs read from storage the share of the input its cache's room
        (its cap, else the node's local disk) cannot hold: over drawn mounts, each node read its
        first epoch's shard and the miss share of all it consumed after it (to within the steps
        that crossed an epoch's end), and one whose cache holds the input read nothing again."""
        rereading = holding = 0
        for i in range(300):
            p = js.draw_params(js.job_rng(23, i), KB, True)
            if p["mode"] != "ro_mount":
                continue
            miss = max(0.0, 1.0 - js.cache_room_gb(p) / p["dataset_gb"])
            nodes, _, _, _ = js.simulate(p)
            for n in nodes:
                consumed = (n.epoch - 1) * n.shard_bits + n.epoch_done
                if n.epoch == 1:
                    continue
                read = sum(r["read"] for r in n.steps) * js.STEP_S * 1e9
                expected = n.shard_bits + miss * (consumed - n.shard_bits)
                top_step = max(r["read"] for r in n.steps) * js.STEP_S * 1e9 / max(miss, 1e-9)
                with self.subTest(index=i, node=n.i, miss=miss):
                    self.assertLessEqual(abs(read - expected), top_step * n.epoch)
                if miss > 0.5:
                    rereading += 1
                elif miss == 0:
                    holding += 1
        self.assertGreater(rereading, 10)
        self.assertGreater(holding, 10)

    def test_a_streamed_corpus_is_read_once(self):
        """A streamed corpus (10% of mounts) holds more than the nodes could read in the run at
        their NICs: no node finishes its first epoch, nothing is a re-read, its files are
        shards of 100 MB or more, and half of them want more than the NIC carries."""
        found = hungry = 0
        for i in range(800):
            p = js.draw_params(js.job_rng(29, i), KB, True)
            js.draw_streamed_corpus(p, 29, i)
            if not p["streamed"]:
                continue
            found += 1
            self.assertEqual(p["mode"], "ro_mount")
            self.assertGreaterEqual(p["file_mb"], 100)
            hungry += p["gpus"] * p["per_gpu_mbps"] * 8 / 1000 > p["nic_gbps"]
            nodes, _, _, _ = js.simulate(p)
            for n in nodes:
                with self.subTest(index=i, node=n.i):
                    self.assertEqual(n.epoch, 1)
                    self.assertFalse(any(r["state"] == "cache_rereads" for r in n.steps))
        self.assertGreater(found, 20)
        self.assertGreater(hungry, found * 0.3)


class NodeCpu(unittest.TestCase):
    def test_a_loader_that_holds_its_node_keeps_its_workers_busy(self):
        """Over drawn jobs, every step's CPU is a utilisation (0-100 %); where the data loader
        held the node (its rate at the loader's), the CPU stood at least at the share of it the
        loader's workers use; where storage held the node below half the loader's rate, the
        loader's workers were at most half busy."""
        held = starved = 0
        for i in range(200):
            p, _ = js.draw_job(37, i, KB, True)
            cpu = {"loader_share": random.Random(i).uniform(0.25, 1.0), "validation": 30.0}
            nodes, _, _, _ = js.simulate(p)
            for n in nodes:
                for rec in n.steps:
                    value = js.node_cpu_percent(p, rec, cpu)
                    self.assertGreaterEqual(value, 0.0)
                    self.assertLessEqual(value, 100.0)
                    if rec["kind"] not in ("read", "local") or rec["consumed"] <= 0:
                        continue
                    at_loader = rec["consumed"] >= 0.999 * p["loader_gbps"]
                    with self.subTest(index=i, node=n.i, state=rec["state"]):
                        if at_loader:
                            held += 1
                            self.assertGreaterEqual(value, 100 * cpu["loader_share"] - 1e-9)
                        elif rec["state"] in js.STORAGE_STATES and \
                                rec["consumed"] < 0.5 * p["loader_gbps"]:
                            starved += 1
                            loader = 100 * cpu["loader_share"] * rec["consumed"] / p["loader_gbps"]
                            self.assertLessEqual(loader, 50 * cpu["loader_share"])
        self.assertGreater(held, 100)
        self.assertGreater(starved, 100)

    def test_the_metric_is_written_per_node_and_minute_and_changes_nothing_else(self):
        """A job whose draw saved CpuUtilization writes metrics/workspace-cpu.json: one series per
        NodeId, one point a minute, each the mean of the node's steps in it within the noise; the
        draw of the metric comes from its own generator (the job's other draws, its truth and its
        other files are the same without it); a job with Azure ML's GPU metric always has it."""
        tmp = tempfile.mkdtemp(prefix="simcpu-")
        try:
            saved = 0
            for i in range(40):
                p, _ = js.draw_job(41, i, KB, True)
                q = js.draw_params(js.job_rng(41, i), KB, True)
                js.draw_file_forms(q, 41, i)
                js.draw_disk_overflow(q, 41, i)
                js.draw_streamed_corpus(q, 41, i)
                self.assertEqual({k: v for k, v in p.items() if k != "cpu_metric"}, q)
                if p["gpu_form"] == "metric":
                    self.assertIsNotNone(p["cpu_metric"])
                truth = js.make_job(41, i, tmp, KB, small=True)
                path = os.path.join(tmp, truth["name"], "metrics", "workspace-cpu.json")
                self.assertEqual(os.path.exists(path), p["cpu_metric"] is not None)
                if not p["cpu_metric"]:
                    continue
                saved += 1
                nodes, _, end_s, _ = js.simulate(p)
                doc = json.load(open(path))
                metric = doc["value"][0]
                self.assertEqual(metric["name"]["value"], "CpuUtilization")
                series = {}
                for ts in metric["timeseries"]:
                    node = [d["value"] for d in ts["metadatavalues"]][0]
                    series[node] = [x["average"] for x in ts["data"]]
                self.assertEqual(sorted(series), sorted(f"node-{n.i}" for n in nodes))
                for n in nodes:
                    values = series[f"node-{n.i}"]
                    self.assertEqual(len(values), int(end_s // 60))
                    for m, v in enumerate(values):
                        steps = n.steps[m * 6:(m + 1) * 6]
                        mean = sum(js.node_cpu_percent(p, r, p["cpu_metric"])
                                   for r in steps) / len(steps)
                        with self.subTest(job=truth["name"], node=n.i, minute=m):
                            self.assertLessEqual(abs(v - mean), 10.0)  # 5 sigma of the noise
            self.assertGreater(saved, 5)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class Profile(unittest.TestCase):
    def test_the_profile_declares_the_checkpoint_cadence_to_the_minute(self):
        """A drawn profile says how often the job saves a checkpoint exactly when it does, to
        the minute, in the workload section feedcheck reads (a duration it parses)."""
        tmp = tempfile.mkdtemp(prefix="simprof-")
        try:
            declared = 0
            for i in range(60):
                p, _ = js.draw_job(43, i, KB, True)
                nodes, _, _, _ = js.simulate(p)
                rel = js.write_profile(tmp, f"job-{i:04d}", p, nodes)
                text = open(os.path.join(tmp, rel)).read()
                found = re.search(r"^  checkpoint_every: (\d+)min$", text, re.M)
                with self.subTest(index=i):
                    self.assertEqual(found is not None, p["checkpoint"] is not None)
                    if found:
                        declared += 1
                        self.assertLessEqual(
                            abs(int(found.group(1)) * 60 - p["checkpoint"]["every_s"]), 30)
                        workload = text.index("workload:\n")
                        self.assertGreater(found.start(), workload)
            self.assertGreater(declared, 10)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
