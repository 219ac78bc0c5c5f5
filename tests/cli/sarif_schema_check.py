#!/usr/bin/env python3
"""`feedcheck lint --format sarif` logs against the SARIF 2.1.0 JSON schema (vendored in
tests/data/sarif with its source): every job shape of the lint corpus, a job with findings and
a file lint cannot read (exit 3). A log broken on purpose must fail, so the check is known to
check. Usage: sarif_schema_check.py FEEDCHECK_BINARY SOURCE_DIR"""
import copy
import glob
import json
import os
import subprocess
import sys

import jsonschema

binary, source = sys.argv[1], sys.argv[2]
with open(os.path.join(source, "tests/data/sarif/sarif-schema-2.1.0.json")) as f:
    schema = json.load(f)
validator = jsonschema.Draft202012Validator(schema)

cases = sorted(glob.glob(os.path.join(source, "tests/data/edges/shapes/*.yml")))
cases += [os.path.join(source, "examples/jobs/train-images-12-nodes.yml")]
failures = 0
checked = 0
logs = []
for job in cases:
    for extra in ([], ["--sku", "Standard_ND96asr_v4", "--region", "eastus"]):
        run = subprocess.run([binary, "lint", os.path.relpath(job, source), "--format", "sarif"]
                             + extra, cwd=source, capture_output=True, text=True, timeout=60)
        if run.returncode not in (0, 1):
            print(f"FAIL {job} {extra}: exit {run.returncode}: {run.stderr}")
            failures += 1
            continue
        log = json.loads(run.stdout)
        errors = list(validator.iter_errors(log))
        for e in errors[:5]:
            print(f"FAIL {job} {extra}: {'/'.join(map(str, e.absolute_path))}: {e.message}")
        failures += bool(errors)
        checked += 1
        logs.append(log)

# Exit 3 (not a job): still a valid log, with the error as a notification.
bad = os.path.join(source, "tests/data/edges/README.md")
run = subprocess.run([binary, "lint", bad, "--format", "sarif"], capture_output=True, text=True,
                     timeout=60)
if run.returncode != 3:
    print(f"FAIL exit 3 case: exit {run.returncode}")
    failures += 1
else:
    log = json.loads(run.stdout)
    errors = list(validator.iter_errors(log))
    for e in errors[:5]:
        print(f"FAIL exit-3 log: {'/'.join(map(str, e.absolute_path))}: {e.message}")
    failures += bool(errors)
    checked += 1

# The validator refuses what the schema forbids: a line 0 and an unknown level.
broken = copy.deepcopy(next(l for l in logs if l["runs"][0]["results"]))
broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
broken["runs"][0]["results"][0]["level"] = "fatal"
if not list(validator.iter_errors(broken)):
    print("FAIL the schema check accepted a log with startLine 0 and level 'fatal'")
    failures += 1

print(f"{checked - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
