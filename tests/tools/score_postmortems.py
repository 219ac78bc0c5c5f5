#!/usr/bin/env python3
"""Scores `feedcheck postmortem` against the simulator's truth (tests/tools/job_simulator.py).

    score_postmortems.py OUT_DIR --feedcheck BUILD/feedcheck [--min-cause 0.95]
        [--max-state-error 0.05] [--min-states 0.95] [--max-lost-error 0.01] [--min-lost 0.95]
        [--max-state-bias 0.05] [--max-contradictions 0] [--workers 2]
        [--json REPORT.json] [--list 20]

For each OUT_DIR/truth/JOB.json it runs `feedcheck postmortem JOB --json ARGS` from OUT_DIR
(ARGS: the truth's flags) and reads the `ledger` object of the report's `diagnosis` section (the
idle ledger's contract: {"states": [{"state", "gpu_s", "nodes"}] or {state: gpu_s},
"cause_state", "lost_gpu_s"}).
Without a ledger (a feedcheck before it), the verdict's words are mapped to the nearest state key
and the cause is charged the verdict's attributed GPU time: the rates are then a baseline.

It reports the cause-right rate (no cause, not_storage and own_code are one cause, "none found"), the share of jobs whose every state is within
--max-state-error of the truth (as a share of the true GPU time lost; the job's own time, its
input pipeline's pace and its own phases, is one state, as in the ledger's contract), the same
share over the ledger's refined states (those two apart: --min-refined-states), the share whose GPU time
lost is within --max-lost-error, each state's bias (its signed error as a share of each job's
true GPU time lost, averaged over the draw, at most --max-state-bias: a job's misses may cancel
across jobs, a state charged too much on every job does not; each job weighs the same, so a
few long jobs do not decide it), and the contradictions (claim checks: a `contradictions` list,
or a diagnostic or finding whose code names a claim check). Each failed job is listed with its folder and the command to rerun it.
Exit 1 when a rate is below its threshold (or contradictions above theirs), 2 on a usage error.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import signal
import subprocess
import sys

# The verdicts' words (diagnosis.cause) to the nearest ledger state, for a feedcheck without a
# ledger.
VERDICT_STATE = {
    "account egress": "account_egress", "account ingress": "account_ingress",
    "request rate": "account_requests", "blob or partition target": "blob_target",
    "throttled, limit unknown": "throttled_unknown", "storage access failed": "access",
    "access mode": "startup_download", "cache disk": "cache_rereads", "small files": "latency",
    "client threads/cpu": "latency", "request latency": "latency", "node nic": "node_nic",
    "checkpoint writes": "writes", "writes": "writes", "not storage": "not_storage_node",
    "none found": "own_code", "inconclusive": "unknown",
}
# One cause for scoring: no cause, the input pipeline and the job's own phases all read
# "none found"; a node that read nothing is a cause of its own ("not storage", the node named).
NONE_FOUND = {None, "not_storage", "own_code"}
# The states, one level above the ledger's: "reading fast" (the input pipeline's own
# pace) and the job's own phases are one state, the job's own time; the ledger splits it by its
# GPUs' whole stops, a refinement scored apart (--min-refined-states).
STATE_FAMILY = {"not_storage": "own time", "own_code": "own time"}


def cause_family(key):
    return "none found" if key in NONE_FOUND else key


def state_families(states):
    out = {}
    for k, v in states.items():
        out[STATE_FAMILY.get(k, k)] = out.get(STATE_FAMILY.get(k, k), 0.0) + v
    return out


def worst_error(states, truth_states, denom):
    """(largest error as a share of the true GPU time lost, its state)."""
    errs = {k: abs(states.get(k, 0.0) - truth_states.get(k, 0.0)) / denom
            for k in sorted(set(states) | set(truth_states))}  # sorted: ties name one state
    if not errs:
        return 0.0, None
    worst = max(errs, key=errs.get)
    return errs[worst], worst


def contradictions(node, path=""):
    """The claim checks' findings in the report: every entry of a `contradictions` list, and
    every diagnostic or finding whose code or id names a claim check, with where it is. (A
    finding marked secondary because it "contradicts the fix" is advice set aside, not one.)"""
    out = []
    if isinstance(node, dict):
        ident = str(node.get("code") or node.get("rule_id") or node.get("id") or "").lower()
        if "claim" in ident or "contradict" in ident:
            out.append(f"{path}: {ident}: {str(node.get('message') or node.get('title'))[:200]}")
        for k, v in node.items():
            if k == "contradictions" and isinstance(v, list):
                out += [f"{path}.{k}: {x}" for x in v]
            else:
                out += contradictions(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += contradictions(v, f"{path}[{i}]")
    return out


def read_ledger(report):
    """(cause_state, {state: gpu_s}, lost_gpu_s, from_ledger) of a postmortem report."""
    diag = report.get("diagnosis") or {}
    ledger = diag.get("ledger")
    if isinstance(ledger, dict) and "states" in ledger:
        states = {}
        given = ledger.get("states") or []
        if isinstance(given, dict):  # {state: gpu_s}
            given = [{"state": k, "gpu_s": v} for k, v in given.items()]
        for s in given:  # [{"state", "gpu_s", "nodes"}]
            states[s["state"]] = states.get(s["state"], 0.0) + float(s.get("gpu_s") or 0)
        return ledger.get("cause_state"), states, float(ledger.get("lost_gpu_s") or 0), True
    cause = (diag.get("cause") or report.get("verdict") or "").strip().lower()
    key = VERDICT_STATE.get(cause)
    if key is None:
        key = next((v for k, v in VERDICT_STATE.items() if cause.startswith(k)), None)
    gpu = diag.get("gpu") or {}
    lost = float(gpu.get("lost_gpu_s") or 0)
    charged = float(diag.get("attributed_gpu_s") or 0)
    states = {key: min(max(charged, 0.0), lost)} if key and charged > 0 else {}
    return key, states, lost, False


def score_job(truth_path, feedcheck, args):
    with open(truth_path) as f:
        truth = json.load(f)
    job_dir = os.path.join(os.path.dirname(os.path.dirname(truth_path)), truth["name"])
    # from OUT_DIR: the flags name its profiles/ by a relative path
    cmd = [os.path.abspath(feedcheck), "postmortem", os.path.basename(job_dir), "--json"] + \
        truth["args"]
    res = {"name": truth["name"], "dir": job_dir, "truth": truth, "cmd": cmd}
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                           cwd=os.path.dirname(os.path.abspath(job_dir)))
    except (OSError, subprocess.TimeoutExpired) as e:
        res.update(error=f"could not run: {e}")
        return res
    res["rc"] = r.returncode
    try:
        report = json.loads(r.stdout)
    except ValueError:
        res.update(error=f"no JSON (exit {r.returncode}): {r.stderr.strip()[:300]}")
        return res
    failed = (report.get("result") or {}).get("error") if isinstance(report, dict) else None
    if failed:
        res.update(error=f"postmortem failed (exit {r.returncode}): {failed}")
        return res
    cause, states, lost, from_ledger = read_ledger(report)
    true_lost = truth["lost_gpu_s"]
    t_cause = truth["cause_state"]
    cause_ok = cause_family(cause) == cause_family(t_cause)
    denom = max(true_lost, 1.0)
    state_err, worst = worst_error(state_families(states), state_families(truth["states"]), denom)
    refined_err, refined_worst = worst_error(states, truth["states"], denom)
    lost_err = abs(lost - true_lost) / denom
    res.update(cause=cause, cause_ok=cause_ok, states=states, lost=lost, state_err=state_err,
               worst_state=worst, refined_err=refined_err, refined_worst_state=refined_worst,
               lost_err=lost_err, from_ledger=from_ledger, contradictions=contradictions(report))
    res["states_ok"] = state_err <= args.max_state_error
    res["refined_states_ok"] = refined_err <= args.max_state_error
    res["lost_ok"] = lost_err <= args.max_lost_error
    return res


EVIDENCE_GROUPS = ("metrics and profile", "metrics only", "profile only", "neither")


def evidence_group(params):
    """Which of the two sources that settle most states the job left: the account's metrics
    (saved beside the job) and a profile of its input (dataset bytes, files, epochs)."""
    metrics, profile = bool(params.get("metrics")), bool(params.get("profile"))
    return EVIDENCE_GROUPS[(0 if profile else 1) if metrics else (2 if profile else 3)]


def by_evidence(results):
    """The rates in each evidence group: what the ledger reaches where the evidence is there,
    apart from what no evidence in the job could settle. An unreadable job counts as wrong."""
    groups = {g: {"jobs": 0, "cause_right": 0, "states_within": 0} for g in EVIDENCE_GROUPS}
    for r in results:
        g = groups[evidence_group(r["truth"].get("params", {}))]
        g["jobs"] += 1
        g["cause_right"] += int("error" not in r and r["cause_ok"])
        g["states_within"] += int("error" not in r and r["states_ok"])
    return {k: v for k, v in groups.items() if v["jobs"]}


def rerun(res):
    t = res["truth"]
    small = " --small" if t.get("small") else ""
    return (f"python3 tests/tools/job_simulator.py one{small} --seed {t['seed']} --index {t['index']} "
            f"OUT && (cd OUT && {' '.join(res['cmd'][:2])} {t['name']} --json {' '.join(t['args'])})")


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the listing quietly
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--feedcheck", required=True)
    ap.add_argument("--min-cause", type=float, default=0.95)
    ap.add_argument("--max-state-error", type=float, default=0.05)
    ap.add_argument("--min-states", type=float, default=0.95,
                    help="share of jobs whose every state must be within --max-state-error")
    ap.add_argument("--min-refined-states", type=float, default=0.95,
                    help="share of jobs whose every state of the ledger's own refinement (the job's "
                    "own time split into its input pipeline and its own phases) must be within "
                    "--max-state-error")
    ap.add_argument("--max-lost-error", type=float, default=0.01)
    ap.add_argument("--min-lost", type=float, default=0.95,
                    help="share of jobs whose GPU time lost must be within --max-lost-error")
    ap.add_argument("--max-state-bias", type=float, default=0.05,
                    help="each state's mean signed error, as a share of each job's GPU time lost")
    ap.add_argument("--max-contradictions", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write the per-job scores there")
    ap.add_argument("--list", type=int, default=25, help="failed jobs listed (0: all)")
    args = ap.parse_args(argv[1:])
    jobs = sorted(glob.glob(os.path.join(args.out_dir, "truth", "*.json")))
    if not jobs:
        print(f"score_postmortems: no truth/*.json under {args.out_dir}", file=sys.stderr)
        return 2
    with concurrent.futures.ThreadPoolExecutor(max(1, args.workers)) as ex:
        results = list(ex.map(lambda j: score_job(j, args.feedcheck, args), jobs))
    n = len(results)
    errors = [r for r in results if "error" in r]
    ok = [r for r in results if "error" not in r]
    cause = sum(r["cause_ok"] for r in ok) / n
    states = sum(r["states_ok"] for r in ok) / n
    refined = sum(r["refined_states_ok"] for r in ok) / n
    lost = sum(r["lost_ok"] for r in ok) / n
    contra = sum(len(r["contradictions"]) for r in ok)
    ledger = sum(r["from_ledger"] for r in ok)
    totals, true_totals, bias = {}, {}, {}
    for r in ok:
        denom = max(r["truth"]["lost_gpu_s"], 1.0)
        for k in set(r["states"]) | set(r["truth"]["states"]):
            got, true = r["states"].get(k, 0.0), r["truth"]["states"].get(k, 0.0)
            totals[k] = totals.get(k, 0.0) + got
            true_totals[k] = true_totals.get(k, 0.0) + true
            bias[k] = bias.get(k, 0.0) + (got - true) / denom / max(len(ok), 1)
    worst_bias = max(bias, key=lambda k: abs(bias[k]), default=None)
    worst_bias_err = abs(bias[worst_bias]) if worst_bias else 0.0
    by_state = {}
    for r in ok:
        c = cause_family(r["truth"]["cause_state"])
        right, total = by_state.get(c, (0, 0))
        by_state[c] = (right + r["cause_ok"], total + 1)
    groups = by_evidence(results)
    print(f"scored {n} jobs of {args.out_dir} ({ledger} with a ledger, {n - len(errors) - ledger} "
          f"from the verdict's words, {len(errors)} unreadable)")
    print(f"  cause right:              {cause:.1%}  (min {args.min_cause:.0%})")
    print(f"  every state within {args.max_state_error:.0%}:    {states:.1%}  "
          f"(min {args.min_states:.0%})")
    print(f"    and refined:            {refined:.1%}  (min {args.min_refined_states:.0%}; the job's "
          f"own time split into its input pipeline and its own phases)")
    print(f"  GPU time lost within {args.max_lost_error:.0%}:  {lost:.1%}  (min {args.min_lost:.0%})")
    print(f"  each state's bias:        worst {worst_bias or '-'} {bias.get(worst_bias, 0.0):+.2%} of a "
          f"job's GPU time lost  (max {args.max_state_bias:.0%})")
    print("    draw totals, GPU-h (feedcheck/truth): " + ", ".join(
        f"{k} {totals.get(k, 0.0) / 3600:.0f}/{true_totals.get(k, 0.0) / 3600:.0f}"
        for k in sorted(bias, key=lambda k: -true_totals.get(k, 0.0))))
    print(f"  contradictions:           {contra}  (max {args.max_contradictions})")
    print("  cause right by true cause: " + ", ".join(
        f"{k} {a}/{b}" for k, (a, b) in sorted(by_state.items(), key=lambda kv: -kv[1][1])))
    print("  by the evidence the job left (cause right, every state within): " + "; ".join(
        f"{g} {v['cause_right']}/{v['jobs']}, {v['states_within']}/{v['jobs']}"
        for g, v in groups.items()))
    failed = [r for r in results if "error" in r or not (
        r["cause_ok"] and r["refined_states_ok"] and r["lost_ok"]) or r["contradictions"]]
    if failed:
        print(f"failed jobs ({len(failed)}; rerun one with the command shown):")
    for r in failed[: args.list or len(failed)]:
        if "error" in r:
            why = r["error"]
        else:
            why = []
            if not r["cause_ok"]:
                why.append(f"cause {cause_family(r['cause'])} "
                           f"(truth {cause_family(r['truth']['cause_state'])})")
            if not r["states_ok"]:
                w = r["worst_state"]
                got, true = state_families(r["states"]), state_families(r["truth"]["states"])
                why.append(f"state {w} {got.get(w, 0):.0f} GPU-s vs "
                           f"{true.get(w, 0):.0f} ({r['state_err']:.0%} of lost)")
            elif not r["refined_states_ok"]:
                w = r["refined_worst_state"]
                why.append(f"refined state {w} {r['states'].get(w, 0):.0f} GPU-s vs "
                           f"{r['truth']['states'].get(w, 0):.0f} ({r['refined_err']:.0%} of lost)")
            if not r["lost_ok"]:
                why.append(f"lost {r['lost']:.0f} vs {r['truth']['lost_gpu_s']:.0f} GPU-s")
            if r["contradictions"]:
                why.append(f"{len(r['contradictions'])} contradictions: {r['contradictions'][0]}")
            why = "; ".join(why)
        print(f"  {r['dir']}: {why}\n    {rerun(r)}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"jobs": n, "cause_right": cause, "states_within": states,
                       "refined_states_within": refined,
                       "lost_within": lost, "contradictions": contra, "with_ledger": ledger,
                       "state_totals_gpu_s": totals, "true_state_totals_gpu_s": true_totals,
                       "state_bias": bias, "worst_state_bias": worst_bias_err,
                       "by_evidence": groups,
                       "results": [dict({k: v for k, v in r.items() if k != "truth"},
                                        truth_cause=cause_family(r["truth"]["cause_state"]))
                                   for r in results]}, f, indent=1, default=str)
    below = (cause < args.min_cause or states < args.min_states
             or refined < args.min_refined_states or lost < args.min_lost
             or worst_bias_err > args.max_state_bias
             or contra > args.max_contradictions)
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
