#!/usr/bin/env python3
"""Compare two activation maps, A.npy and B.npy: activation times in ms, one
per node (or cell) in the same order, NaN where never activated (any
shape; both are flattened). Prints JSON: the nodes activated in both, the
mean, RMS and max |B - A| over them and the node of the max, the mean of
B - A, and the nodes activated in only one.
Usage: compare-activation.py A.npy B.npy
"""
import json
import sys

import numpy as np


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = (np.load(f).astype(np.float64).ravel() for f in sys.argv[1:])
    if a.shape != b.shape:
        sys.exit(f"{sys.argv[1]} has {a.size} values, {sys.argv[2]} has {b.size}")
    fa, fb = np.isfinite(a), np.isfinite(b)
    both = fa & fb
    d = b - a
    ad = np.abs(d[both])
    worst = int(np.flatnonzero(both)[np.argmax(ad)]) if both.any() else None
    print(json.dumps({
        "a": sys.argv[1], "b": sys.argv[2], "nodes": int(a.size),
        "activated_both": int(both.sum()),
        "mean_abs_diff_ms": float(ad.mean()) if both.any() else None,
        "rms_diff_ms": float(np.sqrt((ad ** 2).mean())) if both.any() else None,
        "max_abs_diff_ms": float(ad.max()) if both.any() else None,
        "max_abs_diff_node": worst,
        "at_max_a_ms": float(a[worst]) if worst is not None else None,
        "at_max_b_ms": float(b[worst]) if worst is not None else None,
        "mean_b_minus_a_ms": float(d[both].mean()) if both.any() else None,
        "activated_only_a": int((fa & ~fb).sum()),
        "activated_only_b": int((fb & ~fa).sum()),
    }, indent=2))


if __name__ == "__main__":
    main()
