"""Benchmark: PAC allocate + update per step, vectorised vs a straightforward per-slot loop.

    python scripts/bench/controller.py [--steps 200] [--quick]

For each size (B prompts, N arms) the controller is warmed up past the cold start (so allocation is
Thompson sampling), then timed over ``--steps`` steps (median per step) of ``allocate()`` +
``update()`` with G = 8 rollouts of random binary rewards. ``loop`` is the textbook implementation
of the same rules (docs/concepts/spec.md#signals, docs/concepts/spec.md#belief-and-allocation): one
normal draw per arm per slot, Python loops over prompts, arms and window steps.
Also timed: the vectorised controller with each Thompson method forced (``direct`` = B x N normals,
``quadrature`` = p once per step + B categorical draws); ``auto`` picks the cheaper one per step
(``pac_verl.curriculum.sampling.QUADRATURE_COST``).

Second table: prompt-level selection (``pac_verl.curriculum.prompts``, rule ``thompson``) at
B = 256 with 10^5 prompts per arm: ``draw`` (candidates from the queues, Beta posterior, Thompson
score, top-k per arm) + ``observe`` (posterior update), after 20 warm-up steps, median ms per step,
beside a plain per-prompt loop of the same rule (dicts per prompt, one ``random.betavariate`` per
candidate, Python loops over slots, candidates and rollouts) and the arm-level PAC step. Memory of
the posterior state is printed too.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from pac_verl.curriculum import make_controller
from pac_verl.curriculum.prompts import PromptCurriculum, PromptLevelConfig
from pac_verl.progress import print_summary

SIZES = [(256, 9), (256, 3), (4096, 1000)]
G = 8


class LoopPAC:
    """PAC written plainly: per-slot argmax of per-arm normal draws; loops everywhere."""

    def __init__(self, n, b, seed=0, window=16, cold_start=50, delta2=0.02, eps=1e-9):
        self.n, self.b, self.w, self.cold, self.delta2, self.eps = (
            n,
            b,
            window,
            cold_start,
            delta2,
            eps,
        )
        self.rng = np.random.default_rng(seed)
        self.mu = [0.0] * n
        self.s2 = [1.0] * n
        self.history = []  # per step: dict arm -> (a, rbar)
        self.step = 0

    def allocate(self):
        if self.step < self.cold:
            return [int(self.rng.integers(self.n)) for _ in range(self.b)]
        slots = []
        for _ in range(self.b):
            best, best_v = 0, -math.inf
            for j in range(self.n):
                v = self.rng.normal(self.mu[j], math.sqrt(self.s2[j]))
                if v > best_v:
                    best, best_v = j, v
            slots.append(best)
        return slots

    def update(self, arm_ids, rewards, advantages):
        per_arm = {}
        for arm, r, a in zip(arm_ids, rewards, advantages):
            acc = per_arm.setdefault(int(arm), [0, 0.0, 0.0])
            acc[0] += 1
            acc[1] += sum(abs(x) for x in a) / len(a)
            acc[2] += sum(r) / len(r)
        self.history.append({k: (v[1] / v[0], v[2] / v[0]) for k, v in per_arm.items()})
        self.history = self.history[-self.w :]
        t_first = self.step - self.w + 1
        steps = range(self.step - len(self.history) + 1, self.step + 1)
        s_adv, slope = [0.0] * self.n, [0.0] * self.n
        for i in range(self.n):
            obs = [(s, h[i]) for s, h in zip(steps, self.history) if i in h]
            if obs:
                s_adv[i] = sum(a for _, (a, _) in obs) / len(obs)
            if len(obs) >= 3:
                tau = [(s - t_first) / (self.w - 1) for s, _ in obs]
                rb = [r for _, (_, r) in obs]
                tm, rm = sum(tau) / len(tau), sum(rb) / len(rb)
                sxx = sum((x - tm) ** 2 for x in tau)
                if sxx > 0:
                    slope[i] = sum((x - tm) * (y - rm) for x, y in zip(tau, rb)) / sxx
        norm = sum(abs(k) for k in slope) + self.eps
        for i in range(self.n):
            u = (1 + slope[i] / norm) * s_adv[i]
            rho = per_arm.get(i, [0])[0] / (self.b / self.n)
            eta = 1 / self.s2[i] + rho
            self.mu[i] = (self.mu[i] / self.s2[i] + rho * u) / eta
            self.s2[i] = 1 / eta + self.delta2
        self.step += 1


def feedback(rng, b):
    rewards = (rng.random((b, G)) < 0.5).astype(np.float64)
    std = rewards.std(axis=1, ddof=1, keepdims=True)
    adv = (rewards - rewards.mean(axis=1, keepdims=True)) / (std + 1e-6)
    return rewards, adv


def time_steps(ctrl, b, steps, rng, warmup):
    rewards, adv = feedback(rng, b)
    for _ in range(warmup):
        ctrl.update(ctrl.allocate(), rewards, adv)
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        ctrl.update(ctrl.allocate(), rewards, adv)
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3  # median: robust to other jobs on a shared machine


class LoopPrompt:
    """The prompt-level rule written plainly: a dict per prompt, loops over candidates."""

    def __init__(self, sizes, seed=0, candidates=4.0, kappa=2.0, half_life=50.0, g=8, revisit=2):
        import random

        self.r = random.Random(seed)
        self.perm = [self.r.sample(range(n), n) for n in sizes]
        self.cursor = [0] * len(sizes)
        self.post: dict = {}  # (arm, prompt) -> [s, f, last]
        self.arm = [[0.0, 0.0] for _ in sizes]
        self.cand, self.kappa, self.h, self.g, self.revisit = (
            candidates,
            kappa,
            half_life,
            g,
            revisit,
        )
        self.recent: list = []
        self.step = 0

    def _beta(self, a, p):
        m = (self.arm[a][0] + 1) / (sum(self.arm[a]) + 2)
        s, f, last = self.post.get((a, p), (0.0, 0.0, self.step))
        w = 2 ** (-(self.step - last) / self.h)
        return self.kappa * m + s * w, self.kappa * (1 - m) + f * w

    def draw(self, slots):
        out = []
        for a in sorted(set(slots)):
            k = sum(1 for x in slots if x == a)
            cands = []
            for _ in range(math.ceil(self.cand * k)):
                if self.cursor[a] == len(self.perm[a]):
                    self.r.shuffle(self.perm[a])
                    self.cursor[a] = 0
                cands.append(self.perm[a][self.cursor[a]])
                self.cursor[a] += 1
            cands += [p for b, p in self.recent if b == a and p not in cands]
            scored = []
            for p in cands:
                x = self.r.betavariate(*self._beta(a, p))
                scored.append((1 - x**self.g - (1 - x) ** self.g, p))
            scored.sort(reverse=True)
            out += [(a, p) for _, p in scored[:k]]
        self.recent = (self.recent + out)[-self.revisit * len(slots) :]
        return out

    def observe(self, drawn, rewards):
        for (a, p), rs in zip(drawn, rewards):
            s, f, last = self.post.get((a, p), (0.0, 0.0, self.step))
            w = 2 ** (-(self.step - last) / self.h)
            s, f = s * w, f * w
            for r in rs:
                s, f = s + r, f + 1 - r
                self.arm[a][0] += r
                self.arm[a][1] += 1 - r
            self.post[(a, p)] = [s, f, self.step]
        self.step += 1


def bench_prompt_level(b, n, per_arm, steps, loop_steps):
    rng = np.random.default_rng(0)
    arms = [f"arm{i:04d}" for i in range(n)]
    ctrl = make_controller("pac", arms, b, seed=0, cold_start=5)
    pools = [np.arange(per_arm) + i * per_arm for i in range(n)]
    pc = PromptCurriculum(pools, seed=0, config=PromptLevelConfig())
    rewards = (rng.random((b, G)) < 0.5).astype(np.float64)
    adv = feedback(rng, b)[1]
    times, arm_times = [], []
    for i in range(20 + steps):
        t0 = time.perf_counter()
        slots = ctrl.allocate()
        t1 = time.perf_counter()
        rows = pc.draw(slots)
        t2 = time.perf_counter()
        ctrl.update(slots, rewards, adv)
        t3 = time.perf_counter()
        pc.observe(rows, rewards)
        t4 = time.perf_counter()
        if i >= 20:
            times.append((t2 - t1) + (t4 - t3))
            arm_times.append((t1 - t0) + (t3 - t2))
    loop = LoopPrompt([per_arm] * n)
    slots_list = ctrl.allocate().tolist()
    for _ in range(3):
        loop.observe(loop.draw(slots_list), rewards.tolist())
    t0 = time.perf_counter()
    for _ in range(loop_steps):
        loop.observe(loop.draw(slots_list), rewards.tolist())
    loop_ms = (time.perf_counter() - t0) / loop_steps * 1e3
    vec_ms = float(np.median(times)) * 1e3
    mem = (pc.s.nbytes + pc.f.nbytes + pc.last.nbytes + pc.queues.order.nbytes) / 2**20
    return [f"B={b}, N={n}, {per_arm:,} prompts/arm", float(np.median(arm_times)) * 1e3, vec_ms,
            loop_ms, loop_ms / vec_ms, f"{mem:.1f} MiB"]  # fmt: skip


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200, help="timed steps per size (vectorised)")
    ap.add_argument("--loop-steps", type=int, default=5, help="timed steps for the loop version")
    ap.add_argument("--quick", action="store_true", help="tiny run (used by a smoke test)")
    args = ap.parse_args(argv)
    sizes = [(32, 3)] if args.quick else SIZES
    steps = 3 if args.quick else args.steps
    rows = []
    for b, n in sizes:
        arms = [f"arm{i:04d}" for i in range(n)]
        big = b * n > 100_000
        s = max(3, steps // 10) if big else steps
        res = {}
        for method in ("auto", "direct", "quadrature"):
            rng = np.random.default_rng(1)
            ctrl = make_controller("pac", arms, b, seed=0, cold_start=5, thompson_method=method)
            res[method] = time_steps(ctrl, b, s, rng, warmup=20)
        rng = np.random.default_rng(1)
        loop = LoopPAC(n, b, cold_start=5)
        rw, adv = feedback(rng, b)
        for _ in range(6):
            loop.update(loop.allocate(), rw.tolist(), adv.tolist())
        ls = 1 if args.quick else args.loop_steps
        t0 = time.perf_counter()
        for _ in range(ls):
            loop.update(loop.allocate(), rw.tolist(), adv.tolist())
        res["loop"] = (time.perf_counter() - t0) / ls * 1e3
        rows.append(
            [
                f"B={b}, N={n}",
                res["auto"],
                res["direct"],
                res["quadrature"],
                res["loop"],
                res["loop"] / res["auto"],
            ]
        )
    print_summary(
        "PAC allocate+update, ms/step (after cold start)",
        ["size", "auto", "direct", "quadrature", "per-slot loop", "loop / auto"],
        rows,
        footer={"targets": "<= 0.25 ms at B=256,N=9; <= 20 ms at B=4096,N=1000"},
    )
    sizes = [(32, 3, 1000)] if args.quick else [(256, 9, 100_000), (256, 3, 100_000)]
    rows = [bench_prompt_level(b, n, k, steps, 1 if args.quick else args.loop_steps)
            for b, n, k in sizes]  # fmt: skip
    print_summary(
        "Prompt-level selection, ms/step (draw + observe), vectorised vs per-prompt loop",
        ["size", "arm-level PAC", "prompt-level", "per-prompt loop", "loop / vectorised",
         "posterior + queue memory"],
        rows,
        footer={"target": "prompt-level well under 10 ms at B=256 with 10^5 prompts per arm"},
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
