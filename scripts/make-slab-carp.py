#!/usr/bin/env python3
"""A slab of tissue cut into tetrahedra, written as openCARP files, for runs
that compare fibril with simulators that read openCARP meshes (TorchCor).

Each cube of a regular grid of spacing h is cut into the six tetrahedra
around its main diagonal (Kuhn's subdivision), every one positively
oriented; fibres along x, sheets along y. Also writes BASENAME_face.vtx:
the nodes with x <= --face-mm (a planar wave along the fibres).

    python3 scripts/make-slab-carp.py --size-mm 40 40 3 --h-mm 0.2 --out /tmp/slab/slab
"""
import argparse
import os

import numpy as np


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size-mm", type=float, nargs=3, required=True)
    p.add_argument("--h-mm", type=float, required=True)
    p.add_argument("--out", required=True, help="basename of the .pts/.elem/.lon/_face.vtx files")
    p.add_argument("--face-mm", type=float, default=0.0,
                   help="BASENAME_face.vtx: the nodes with x <= this (0: the face x = 0)")
    p.add_argument("--corner-mm", type=float, default=1.5,
                   help="BASENAME_corner.vtx: the nodes with x, y, z <= this (the Niederer et al. 2011 stimulus cube)")
    a = p.parse_args()
    n = [int(round(s / a.h_mm)) + 1 for s in a.size_mm]
    nx, ny, nz = n
    ix, iy, iz = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
    # Node number x fastest: i + nx (j + ny k).
    node = lambda i, j, k: i + nx * (j + ny * k)
    pts = np.stack([ix.ravel(order="F"), iy.ravel(order="F"), iz.ravel(order="F")], axis=1) * a.h_mm
    ci, cj, ck = np.meshgrid(np.arange(nx - 1), np.arange(ny - 1), np.arange(nz - 1), indexing="ij")
    ci, cj, ck = ci.ravel(), cj.ravel(), ck.ravel()
    corner = lambda dx, dy, dz: node(ci + dx, cj + dy, ck + dz)
    tets = []
    # The six paths from (0,0,0) to (1,1,1), one axis at a time.
    for order in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]:
        step = [0, 0, 0]
        verts = [corner(0, 0, 0)]
        for axis in order:
            step[axis] = 1
            verts.append(corner(*step))
        tets.append(np.stack(verts, axis=1))
    tets = np.concatenate(tets)
    x = pts[tets]
    det = np.einsum("ij,ij->i", np.cross(x[:, 1] - x[:, 0], x[:, 2] - x[:, 0]), x[:, 3] - x[:, 0])
    flip = det < 0
    tets[flip, 2], tets[flip, 3] = tets[flip, 3].copy(), tets[flip, 2].copy()
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out + ".pts", "w") as f:
        f.write(f"{len(pts)}\n")
        np.savetxt(f, pts * 1000.0, fmt="%.3f")  # openCARP coordinates are in um
    with open(a.out + ".elem", "w") as f:
        f.write(f"{len(tets)}\n")
        np.savetxt(f, np.column_stack([tets, np.ones(len(tets), dtype=np.int64)]), fmt="Tt %d %d %d %d %d")
    with open(a.out + ".lon", "w") as f:
        f.write("2\n")
        lon = np.tile([1.0, 0.0, 0.0, 0.0, 1.0, 0.0], (len(tets), 1))
        np.savetxt(f, lon, fmt="%g")
    face = np.flatnonzero(pts[:, 0] <= a.face_mm + 1e-9)
    with open(a.out + "_face.vtx", "w") as f:
        f.write(f"{len(face)}\nintra\n")
        np.savetxt(f, face, fmt="%d")
    corner = np.flatnonzero((pts <= a.corner_mm + 1e-9).all(axis=1))
    with open(a.out + "_corner.vtx", "w") as f:
        f.write(f"{len(corner)}\nintra\n")
        np.savetxt(f, corner, fmt="%d")
    print(f"{len(pts)} nodes, {len(tets)} tetrahedra, {len(face)} nodes on x = 0, h = {a.h_mm} mm")


if __name__ == "__main__":
    main()
