#!/usr/bin/env python3
"""Unit tests of the job simulator (tests/tools/job_simulator.py), run by ctest (label simulator):
its truth conserves GPU time (the states sum to the GPU time lost, which is what the GPU files it
wrote say, counted by the corpus's Ledger), a seed writes the same bytes, every state of the idle
ledger is drawn, and each piece of evidence is written only when its physics holds."""

import datetime as dt
import glob
import hashlib
import json
import os
import re
import shutil
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


def epoch(s, fmt):
    return dt.datetime.strptime(s, fmt).replace(tzinfo=dt.timezone.utc).timestamp()


def gpu_lost_from_files(job_dir):
    """The GPU time lost that the job's GPU files say, read back and counted by lib.Ledger."""
    ledger = lib.Ledger()
    for path in glob.glob(os.path.join(job_dir, "**", "nvidia-smi.csv"), recursive=True):
        with open(path) as f:
            next(f)
            for line in f:
                parts = [p.strip() for p in line.split(",")]
                value = parts[3].replace("%", "").strip()
                t = epoch(parts[0], "%Y/%m/%d %H:%M:%S.%f")
                ledger.sample(f"{path}/{parts[1]}", t, float(value) if value[:1].isdigit() else None)
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


def tree_digest(root):
    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(root, "**", "*"), recursive=True)):
        if os.path.isfile(path):
            h.update(os.path.relpath(path, root).encode())
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


class Draw(unittest.TestCase):
    """One small draw shared by the tests that read files."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="simtest-")
        cls.truths = [js.make_job(11, i, cls.tmp, KB, small=True) for i in range(40)]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_states_sum_to_the_gpu_time_lost_the_files_say(self):
        for t in self.truths:
            with self.subTest(job=t["name"]):
                self.assertAlmostEqual(sum(t["states"].values()), t["lost_gpu_s"],
                                       delta=0.1 * len(t["states"]) + 0.2)
                on_disk = gpu_lost_from_files(os.path.join(self.tmp, t["name"]))
                self.assertAlmostEqual(on_disk, t["lost_gpu_s"], delta=1.0)
                self.assertLessEqual(t["lost_gpu_s"], t["sampled_gpu_s"])
                self.assertTrue(set(t["states"]) <= set(js.STATES), t["states"])

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
            with open(os.path.join(d, "metrics", "storage.json")) as f:
                doc = json.load(f)
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


if __name__ == "__main__":
    unittest.main()
