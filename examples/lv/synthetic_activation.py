#!/usr/bin/env python3
"""Writes a made-up activation map on an openCARP mesh to a .vtu file, to try
render_activation.py (and .vtu readers) without running a simulation.

activation_ms = (distance from the endocardial apex) / --velocity, with the
nodes of one basal patch (x > 6 mm and z > 0 mm, the lateral base) set to
NaN, as a run writes for nodes never activated; the mesh's fibres go along
as cell data `fibre`.

    python3 synthetic_activation.py examples/lv/lv --out /tmp/lv_synthetic.vtu
"""

import argparse
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mesh", help="openCARP base name (BASE.pts, BASE.elem, BASE.lon)")
    ap.add_argument("--out", default="synthetic_activation.vtu")
    ap.add_argument("--velocity", type=float, default=0.6, help="mm/ms (default 0.6)")
    ap.add_argument("--no-nan", action="store_true", help="leave out the NaN patch")
    args = ap.parse_args()

    import meshio

    base = args.mesh
    for suffix in (".pts", ".elem", ".lon"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    points = np.loadtxt(base + ".pts", skiprows=1, ndmin=2) / 1000.0  # um -> mm
    tets = np.loadtxt(base + ".elem", skiprows=1, usecols=(1, 2, 3, 4), dtype=np.int64, ndmin=2)
    cell_data = {}
    try:
        lon = np.loadtxt(base + ".lon", skiprows=1, ndmin=2)
        cell_data["fibre"] = [lon[:, :3]]
    except OSError:
        pass

    apex_endo = np.array([0.0, 0.0, -17.0])
    act = np.linalg.norm(points - apex_endo, axis=1) / args.velocity
    if not args.no_nan:
        act[(points[:, 0] > 6.0) & (points[:, 2] > 0.0)] = np.nan
    meshio.write(args.out, meshio.Mesh(points, [("tetra", tets)],
                                       point_data={"activation_ms": act}, cell_data=cell_data))
    print(f"{args.out}: {len(points):,} nodes, {len(tets):,} tetrahedra, activation "
          f"{np.nanmin(act):.1f} to {np.nanmax(act):.1f} ms, {int(np.isnan(act).sum())} NaN nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
