#!/usr/bin/env python3
"""Recomputes the epsilon of every Poisson-subsampled Gaussian run in a PFA Explorer results file
with an accountant written independently of the application's: the exact RDP of the subsampled
Gaussian at integer orders (Mironov, Talwar and Zhang 2019, add/remove adjacency),
    A_a = sum_k C(a, k) (1 - q)^(a - k) q^k exp((k^2 - k) / (2 z^2)),  rho(a) = ln(A_a) / (a - 1),
composed over the record's steps, converted with eps(a) = T rho(a) + ln(1 - 1/a)
- (ln delta + ln a) / (a - 1), plus the epsilon of side releases the record charges by basic
composition (the group shares). Records of other mechanisms or adjacencies are skipped.
It reads only the record's accounting inputs (sampling rate, noise multiplier, steps, delta) and
uses integer orders 2..63, 128..1024 only, so its epsilon is never below the application's and
equal to it whenever the application's optimal order is an integer.

    python3 scripts/independent-epsilon.py RESULTS.jsonl

Prints one line per data set file: how many records it checked, how many agree to 1e-8, and the
largest relative excess; exits 1 if any record's recorded epsilon is below the independent one
by more than 1e-9 (the recorded epsilon would then claim too little).
"""
import json
import math
import sys

ORDERS = list(range(2, 64)) + [128, 256, 512, 1024]


def log_comb(n, k):
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def rdp_subsampled_gaussian(q, z, a):
    if q >= 1.0:
        return a / (2 * z * z)
    terms = [log_comb(a, k) + (a - k) * math.log1p(-q) + k * math.log(q) + (k * k - k) / (2 * z * z)
             for k in range(a + 1)]
    top = max(terms)
    return (top + math.log(sum(math.exp(t - top) for t in terms))) / (a - 1)


def epsilon(q, z, steps, delta):
    best = min(steps * rdp_subsampled_gaussian(q, z, a) + math.log1p(-1 / a)
               - (math.log(delta) + math.log(a)) / (a - 1) for a in ORDERS)
    return max(0.0, best)


def main(path):
    checked = agree = 0
    worst = 0.0
    failed = False
    for line in open(path):
        record = json.loads(line)
        privacy = record.get("privacy", {})
        inputs = privacy.get("accounting", {})
        extra = inputs.get("extra_releases") or []
        if inputs.get("curve") != "poisson-subsampled-gaussian" or inputs.get("adjacency") != "add-remove" \
                or any(not release.get("composition", "").startswith("basic") for release in extra):
            continue
        # Side releases charged by basic composition (e.g. the group shares): their epsilon added.
        independent = epsilon(inputs["sampling_rate"], inputs["noise_multiplier"], inputs["steps"],
                              inputs["delta"]) + sum(release["epsilon"] for release in extra)
        recorded = privacy["epsilon_spent"]
        checked += 1
        agree += abs(independent - recorded) <= 1e-8 * recorded
        worst = max(worst, (independent - recorded) / recorded)
        if independent < recorded * (1 - 1e-9):
            print(f"record below the independent epsilon? recorded {recorded}, independent {independent}")
            failed = True
    print(f"{path}: {checked} record(s) checked, {agree} equal to 1e-8, largest relative excess of the "
          f"independent epsilon (integer orders only) {worst:.3g}")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
