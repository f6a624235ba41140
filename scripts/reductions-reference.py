#!/usr/bin/python3
"""An exact exponentiated-gradient reduction (Agarwal et al. 2018) on Adult, for comparison
with pfa-cli's non-private DP reductions (epsilon = inf).

A re-implementation of Fairlearn's ExponentiatedGradient with EqualizedOdds or
DemographicParity (fairlearn/reductions/_exponentiated_gradient, MIT licence): the same
multipliers, signed weights, cached best responses, duality gap, LP step, step shrinking and
best-iterate choice, with scikit-learn's LogisticRegression (liblinear) as the learner. The
randomised classifier is scored in expectation, as pfa-cli scores its mixtures.

Adult is prepared as PFA Explorer prepares it (datasets/adult.json): adult.data and
adult.test joined, rows with '?' dropped, sex removed from the features, the categorical
columns one-hot encoded, the numeric ones z-scored with training statistics, a seeded 75/25
split (its own permutation, so the rows differ from pfa-cli's split; compare means over seeds).

Needs Debian's python3-numpy, python3-scipy and python3-sklearn (not installed by CI):
    scripts/reductions-reference.py --data-dir DIR [--fairness eo] [--seeds 5]
"""
import argparse
import json
import os
import statistics

import numpy as np
import scipy.optimize as opt
from sklearn.linear_model import LogisticRegression

HERE = os.path.dirname(os.path.abspath(__file__))


def load_adult(directory, seed, catalog):
    schema = catalog["schema"]
    names = schema["column_names"]
    rows = []
    for file in ("adult.data", "adult.test"):
        with open(os.path.join(directory, file)) as f:
            for line in f:
                if not line.strip() or line.startswith("|"):
                    continue
                cells = [c.strip() for c in line.strip().split(",")]
                if len(cells) != len(names) or "?" in cells:
                    continue
                rows.append(dict(zip(names, cells)))
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(rows))
    n_test = int(round(0.25 * len(rows)))
    test_idx, train_idx = order[:n_test], order[n_test:]
    y = np.array([1 if r["income"].rstrip(".") == ">50K" else 0 for r in rows])
    s = np.array([1 if r["sex"] == "Male" else 0 for r in rows])
    columns = []
    for name, spec in schema["columns"].items():
        if name == "sex":
            continue
        if spec["role"] == "numeric":
            values = np.array([float(r[name]) for r in rows])
            mean, sd = values[train_idx].mean(), values[train_idx].std()
            columns.append(((values - mean) / sd)[:, None])
        else:
            levels = spec["levels"]
            block = np.zeros((len(rows), len(levels)))
            for i, r in enumerate(rows):
                block[i, levels.index(r[name])] = 1.0
            columns.append(block)
    X = np.hstack(columns)
    return (X[train_idx], y[train_idx], s[train_idx]), (X[test_idx], y[test_idx], s[test_idx])


class Moment:
    """EqualizedOdds (events = labels) or DemographicParity (one event), two groups."""

    def __init__(self, y, s, notion, bound):
        self.y, self.s, self.n = y, s, len(y)
        self.event = y if notion == "eo" else np.zeros_like(y)
        self.events = sorted(set(self.event.tolist()))
        self.bound = bound
        # Constraint index: (sign, event, group), "+" first as in Fairlearn.
        self.index = [(sign, e, a) for sign in "+-" for e in self.events for a in (0, 1)]
        self.p_event = {e: np.mean(self.event == e) for e in self.events}
        self.p_group_event = {
            (e, a): np.mean((self.event == e) & (self.s == a)) for e in self.events for a in (0, 1)
        }

    def gamma(self, h):
        values = []
        for sign, e, a in self.index:
            in_event = self.event == e
            diff = h[in_event & (self.s == a)].mean() - h[in_event].mean()
            values.append(diff if sign == "+" else -diff)
        return np.array(values)

    def signed_weights(self, lam):
        lam = dict(zip(self.index, lam))
        adjust = {}
        for e in self.events:
            event_sum = sum(lam[("+", e, a)] - lam[("-", e, a)] for a in (0, 1)) / self.p_event[e]
            for a in (0, 1):
                group = (lam[("+", e, a)] - lam[("-", e, a)]) / self.p_group_event[(e, a)]
                adjust[(e, a)] = event_sum - group
        return np.array([adjust[(e, a)] for e, a in zip(self.event, self.s)])


class Lagrangian:
    def __init__(self, X, y, moment, B, learner):
        self.X, self.y, self.c, self.B, self.learner = X, y, moment, B, learner
        if learner == "least-squares":
            # pfa-cli's learner: w = (X̃ᵀX̃ + μI)⁻¹X̃ᵀr, h = 1[w·x̃ > 0], μ = 1e−6·tr/(d+1).
            self.design = np.hstack((X, np.ones((len(X), 1))))
            gram = self.design.T @ self.design
            gram += 1e-6 * np.trace(gram) / gram.shape[0] * np.eye(gram.shape[0])
            self.gram_inverse = np.linalg.inv(gram)
        self.hs, self.errors, self.gammas = [], [], []
        self.last_lp = None

    def fit(self, lam):
        sw = (2.0 * self.y - 1.0) / self.c.n + self.c.signed_weights(lam) / self.c.n
        if self.learner == "least-squares":
            w = self.gram_inverse @ (self.design.T @ sw)
            return lambda X: ((X @ w[:-1] + w[-1]) > 0).astype(float)
        red_y = (sw > 0).astype(int)
        red_w = np.abs(sw)
        red_w = self.c.n * red_w / red_w.sum()
        if len(set(red_y.tolist())) == 1:
            const = red_y[0]
            return lambda X: np.full(len(X), const, dtype=float)
        model = LogisticRegression(solver="liblinear", fit_intercept=True)
        model.fit(self.X, red_y, sample_weight=red_w)
        return lambda X: model.predict(X).astype(float)

    def best_h(self, lam):
        h = self.fit(lam)
        pred = h(self.X)
        error = np.mean(np.abs(pred - self.y))
        gamma = self.c.gamma(pred)
        value = error + gamma @ lam
        best, best_value = -1, np.inf
        if self.hs:
            values = np.array(self.errors) + np.array(self.gammas) @ lam
            best, best_value = int(values.argmin()), values.min()
        if value < best_value - 1e-8:
            self.hs.append(h)
            self.errors.append(error)
            self.gammas.append(gamma)
            best = len(self.hs) - 1
        return best

    def evaluate(self, Q, lam):
        # Fairlearn's project_lambda: λ₊ − λ₋ kept on one side (the same or a higher value).
        half = len(lam) // 2
        diff = lam[:half] - lam[half:]
        lam = np.concatenate((np.maximum(diff, 0.0), np.maximum(-diff, 0.0)))
        error = np.array(self.errors) @ Q
        gamma = np.array(self.gammas).T @ Q
        L = error + lam @ (gamma - self.c.bound)
        worst = (gamma - self.c.bound).max()
        return L, error + (self.B * worst if worst > 0 else 0.0)

    def gap(self, Q, lam, nu):
        L, L_high = self.evaluate(Q, lam)
        L_low = L
        for mul in (1.0, 2.0, 5.0, 10.0):
            idx = self.best_h(mul * lam)
            one = np.zeros(len(self.hs))
            one[idx] = 1.0
            Q = np.append(Q, np.zeros(len(self.hs) - len(Q)))
            L_low = min(L_low, self.evaluate(one, lam)[0])
            if max(L - L_low, L_high - L) > nu + 1e-8:
                break
        return max(L - L_low, L_high - L)

    def linprog(self, nu):
        k, m = len(self.hs), len(self.c.index)
        if self.last_lp and self.last_lp[0] == k:
            return self.last_lp[1:]
        c = np.concatenate((self.errors, [self.B]))
        A_ub = np.concatenate((np.array(self.gammas).T - self.c.bound, -np.ones((m, 1))), axis=1)
        A_eq = np.concatenate((np.ones((1, k)), np.zeros((1, 1))), axis=1)
        primal = opt.linprog(c, A_ub=A_ub, b_ub=np.zeros(m), A_eq=A_eq, b_eq=np.ones(1),
                             method="highs-ds")
        Q = primal.x[:-1]
        dual_c = np.concatenate((np.zeros(m), -np.ones(1)))
        dual_A = np.concatenate((-A_ub.T, A_eq.T), axis=1)
        bounds = [(None, None) if i == m else (0, None) for i in range(m + 1)]
        dual = opt.linprog(dual_c, A_ub=dual_A, b_ub=c, bounds=bounds, method="highs-ds")
        lam = dual.x[:-1]
        result = (Q, self.gap(Q, lam, nu))
        self.last_lp = (k,) + result
        return result


def exponentiated_gradient(X, y, s, notion, tolerance, learner, max_iter=50, eta0=2.0):
    B = 1.0 / tolerance
    moment = Moment(y, s, notion, tolerance)
    lag = Lagrangian(X, y, moment, B, learner)
    m = len(moment.index)
    theta = np.zeros(m)
    counts = {}
    lam_sum = np.zeros(m)
    Qs, gaps, gaps_eg = [], [], []
    nu, eta = None, None
    last_checked, last_gap = 5, np.inf
    for t in range(max_iter):
        lam = B * np.exp(theta) / (1.0 + np.exp(theta).sum())
        lam_sum += lam
        lam_eg = lam_sum / (t + 1)
        idx = lag.best_h(lam)
        if t == 0:
            pred = lag.hs[idx](X)
            nu = 0.5 * np.abs(pred - y).std(ddof=1) / np.sqrt(len(y))
            eta = eta0 / B
        counts[idx] = counts.get(idx, 0) + 1
        Q_eg = np.zeros(len(lag.hs))
        for i, c in counts.items():
            Q_eg[i] = c
        Q_eg /= Q_eg.sum()
        gap_eg = lag.gap(Q_eg, lam_eg, nu)
        Q_eg = np.append(Q_eg, np.zeros(len(lag.hs) - len(Q_eg)))
        gaps_eg.append(gap_eg)
        gap_lp = np.inf
        if t > 0:
            Q_lp, gap_lp = lag.linprog(nu)
        if gap_eg < gap_lp:
            Qs.append(Q_eg)
            gaps.append(gap_eg)
        else:
            Qs.append(Q_lp)
            gaps.append(gap_lp)
        if gaps[t] < nu and t >= 5:
            break
        if t >= last_checked * 1.6:
            best = min(gaps_eg)
            if best > last_gap * 0.8:
                eta *= 0.8
            last_checked, last_gap = t, best
        gamma = lag.gammas[idx]
        theta += eta * (gamma - tolerance)
    best_gap = min(gaps)
    best_iter = max(i for i, g in enumerate(gaps) if g <= best_gap + 1e-8)
    Q = Qs[best_iter]
    Q = np.append(Q, np.zeros(len(lag.hs) - len(Q)))
    return lag.hs, Q, t + 1


def scores_in_expectation(p, y, s, notion):
    error = np.mean(np.where(y == 1, 1.0 - p, p))
    if notion == "dp":
        violation = abs(p[s == 0].mean() - p[s == 1].mean())
    else:
        violation = max(abs(p[(y == e) & (s == 0)].mean() - p[(y == e) & (s == 1)].mean())
                        for e in (0, 1))
    return error, violation


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--fairness", choices=["eo", "dp"], default="eo")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--tolerances", default="0.2,0.1,0.05,0.02,0.01")
    parser.add_argument("--learner", choices=["logistic", "least-squares"], default="logistic",
                        help="the best response: scikit-learn's LogisticRegression on the "
                        "relabelled, reweighted rows (Fairlearn's usual), or pfa-cli's "
                        "least-squares fit of the signed weights")
    args = parser.parse_args()
    with open(os.path.join(HERE, "..", "datasets", "adult.json")) as f:
        catalog = json.load(f)
    results = {}
    for seed in range(args.seeds):
        (X, y, s), (Xt, yt, st) = load_adult(args.data_dir, seed, catalog)
        for c in (float(v) for v in args.tolerances.split(",")):
            hs, Q, iters = exponentiated_gradient(X, y, s, args.fairness, c, args.learner)
            p = sum(q * h(Xt) for q, h in zip(Q, hs) if q > 0)
            p_train = sum(q * h(X) for q, h in zip(Q, hs) if q > 0)
            results.setdefault(c, []).append(scores_in_expectation(p, yt, st, args.fairness) +
                                             (iters,) +
                                             scores_in_expectation(p_train, y, s, args.fairness))
    print("tolerance  test error (mean ± sd)  %s violation (mean ± sd)  train error, violation"
          "  iterations" % args.fairness.upper())
    for c, values in results.items():
        e = [v[0] for v in values]
        v = [v[1] for v in values]
        sd = (lambda x: statistics.stdev(x) if len(x) > 1 else 0.0)
        print("%9g  %.4f ± %.4f          %.4f ± %.4f              %.4f, %.4f         %s" %
              (c, statistics.mean(e), sd(e), statistics.mean(v), sd(v),
               statistics.mean(x[3] for x in values), statistics.mean(x[4] for x in values),
               ",".join(str(x[2]) for x in values)))


if __name__ == "__main__":
    main()
