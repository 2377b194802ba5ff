#!/usr/bin/env python3
"""Vectorised NumPy Monte Carlo of the reference attack run, the baseline volley is
compared with (benches/README.md).

Reference cell: one weapon system firing 6 shots per action, hitting on 5 or less on a
d20, 12 damage per hit, against AC2 with 20 life (each hit takes 6 life), one action per
turn, 20-turn cap. Prints engagements per second and the mean actions to kill (exact:
about 3.08).

    python3 benches/numpy_reference.py [engagements]
"""
import sys
import time

import numpy as np


def attack_runs(n, rng):
    life = np.full(n, 20, dtype=np.int32)
    actions = np.zeros(n, dtype=np.int32)
    alive = np.ones(n, dtype=bool)
    for _ in range(20):
        idx = np.nonzero(alive)[0]
        if idx.size == 0:
            break
        rolls = rng.integers(1, 21, size=(idx.size, 6), dtype=np.int8)
        hits = (rolls <= 5).sum(axis=1, dtype=np.int32)
        life[idx] -= (hits * 12) // 2
        actions[idx] += 1
        alive[idx] = life[idx] > 0
    return actions[~alive]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    rng = np.random.default_rng(1)
    attack_runs(100_000, rng)  # warm up
    best = 0.0
    for _ in range(3):
        t = time.perf_counter()
        killed = attack_runs(n, rng)
        dt = time.perf_counter() - t
        best = max(best, n / dt)
    print(f"numpy {np.__version__}: {best / 1e6:.2f} M engagements/s (best of 3), mean actions {killed.mean():.3f}")


if __name__ == "__main__":
    main()
