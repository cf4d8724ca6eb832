"""Activation times at the points P1..P9 of Niederer et al. 2011 from a
run's activation.npy (cell-centred: cell i of spacing dx spans
[i dx, (i + 1) dx]), by trilinear interpolation between cell centres,
constant beyond the outermost centres (half a cell from the faces).
P1 is the stimulated corner (0, 0, 0), P8 the opposite one (20, 7, 3),
P9 the centre. Usage: python3 niederer-points.py RUN_DIR DX [LABEL]
"""
import sys, numpy as np

POINTS = {
    "P1": (0, 0, 0), "P2": (0, 7, 0), "P3": (20, 0, 0), "P4": (20, 7, 0),
    "P5": (0, 0, 3), "P6": (0, 7, 3), "P7": (20, 0, 3), "P8": (20, 7, 3),
    "P9": (10, 3.5, 1.5),
}

def at(t, dx, p):
    # t[z, y, x]; p = (x, y, z) in mm
    n = t.shape[::-1]
    idx, w = [], []
    for a in range(3):
        s = min(max(p[a] / dx - 0.5, 0.0), n[a] - 1.0)
        i0 = min(int(np.floor(s)), n[a] - 2) if n[a] > 1 else 0
        f = s - i0 if n[a] > 1 else 0.0
        idx.append((i0, min(i0 + 1, n[a] - 1)))
        w.append((1 - f, f))
    v = 0.0
    for a in range(2):
        for b in range(2):
            for c in range(2):
                v += w[0][a] * w[1][b] * w[2][c] * t[idx[2][c], idx[1][b], idx[0][a]]
    return v

run, dx = sys.argv[1], float(sys.argv[2])
label = sys.argv[3] if len(sys.argv) > 3 else run
t = np.load(f"{run}/activation.npy")
row = [at(t, dx, POINTS[k]) for k in sorted(POINTS)]
print(label + "\t" + "\t".join(f"{v:.2f}" for v in row))
