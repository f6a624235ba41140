#!/usr/bin/env python3
"""Table of auto-tuned results (pfa-cli train --auto-tune): per algorithm and epsilon, the final
squared gradient norm of the training objective and the test error (MSE for regression), mean ± sd
over seeds, and the settings auto-tune chose.

Usage: scripts/auto_tune_table.py RESULTS.jsonl
"""
import json
import statistics
import sys
from collections import defaultdict


def mean_sd(values):
    if not values:
        return "–"
    if len(values) == 1:
        return f"{values[0]:.3g}"
    return f"{statistics.mean(values):.3g} ± {statistics.stdev(values):.2g}"


def main(path):
    cells = defaultdict(list)
    chosen = defaultdict(list)
    for line in open(path, encoding="utf-8"):
        record = json.loads(line)
        if not record.get("run_key", "").startswith("auto-tune|"):
            continue
        key = (record["algorithm"], record["epsilon"])
        history = record["history"]
        norms = history.get("gradient_norm_squared") or [float("nan")]
        cells[key].append((norms[-1], record["test_error"]))
        s = record["settings"]
        chosen[key].append(f"T={s.get('restart-period', 1)},C1={s.get('full-clip')},eta={s.get('gd-step')}")
    algorithms = sorted({a for a, _ in cells})
    epsilons = sorted({e for _, e in cells})
    print("| epsilon | " + " | ".join(f"{a} grad-norm² | {a} test error" for a in algorithms) + " | seeds |")
    print("|---" * (1 + 2 * len(algorithms)) + "|---|")
    for e in epsilons:
        row = [f"{e:g}"]
        for a in algorithms:
            runs = cells.get((a, e), [])
            row += [mean_sd([r[0] for r in runs]), mean_sd([r[1] for r in runs])]
        row.append("/".join(str(len(cells.get((a, e), []))) for a in algorithms))
        print("| " + " | ".join(row) + " |")
    print()
    for key in sorted(chosen):
        print(f"{key[0]} epsilon={key[1]:g}: " + "; ".join(chosen[key]))


if __name__ == "__main__":
    main(sys.argv[1])
