#!/usr/bin/env python3
"""Mean ± sd of the excess risk per algorithm, clip setting and epsilon in a results file
written by `pfa-cli train --preset heavy-tails-...` (JSON lines).

Usage: scripts/heavy_tail_summary.py RESULTS.jsonl"""
import collections
import json
import statistics
import sys

cells = collections.defaultdict(list)
for line in open(sys.argv[1]):
    record = json.loads(line)
    regression = record.get("regression")
    if not regression or regression.get("excess_risk") is None:
        continue
    settings = record.get("settings", {})
    key = (record["algorithm"], settings.get("clip-rule"), float(settings.get("clip-norm", 0)), record["epsilon"])
    cells[key].append(regression["excess_risk"])
print("| algorithm | clip rule | C | epsilon | excess risk (mean ± sd) | runs |")
print("|---|---|---|---|---|---|")
for key in sorted(cells, key=lambda k: (k[0], k[1] or "", k[3], k[2])):
    values = cells[key]
    sd = statistics.stdev(values) if len(values) > 1 else float("nan")
    print(f"| {key[0]} | {key[1]} | {key[2]:.4g} | {key[3]} | {statistics.mean(values):.4g} ± {sd:.2g} | {len(values)} |")
