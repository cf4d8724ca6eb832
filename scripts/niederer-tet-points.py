#!/usr/bin/env python3
"""The activation times at the nine points of the Niederer et al. 2011
benchmark (P1 to P9 of their Figure 1: the corners and the centre of the
20 x 7 x 3 mm slab) from a run on a tetrahedral slab: the time at the node
nearest each point.

    python3 scripts/niederer-tet-points.py MESH.pts RUN/activation.npy
"""
import json
import sys

import numpy as np

# Niederer et al. 2011, Figure 1: P1 at the stimulated corner, P8 at the
# opposite one, P9 at the centre.
POINTS = {
    "P1": (0, 0, 0), "P2": (0, 7, 0), "P3": (20, 0, 0), "P4": (20, 7, 0),
    "P5": (0, 0, 3), "P6": (0, 7, 3), "P7": (20, 0, 3), "P8": (20, 7, 3), "P9": (10, 3.5, 1.5),
}

pts = np.loadtxt(sys.argv[1], skiprows=1) / 1000.0  # openCARP: um
act = np.load(sys.argv[2])
out = {}
for name, p in POINTS.items():
    i = int(np.argmin(((pts - np.array(p)) ** 2).sum(axis=1)))
    out[name] = round(float(act[i]), 3)
print(json.dumps(out))
