#!/usr/bin/env python3
"""Builds an idealised left ventricle as an openCARP tetrahedral mesh with
rule-based fibres, for fibril's examples and speed comparisons.

Geometry
--------
The truncated prolate ellipsoid of the cardiac mechanics benchmark of

    S. Land et al., "Verification of cardiac mechanics software: benchmark
    problems and solutions for testing active and passive material
    behaviour", Proc. R. Soc. A 471:20150641 (2015), problems 2 and 3.

In the benchmark's parametrisation x = r_s sin(u) cos(v),
y = r_s sin(u) sin(v), z = r_l cos(u) the wall lies between

    endocardium  r_s = 7 mm,  r_l = 17 mm,  u in [-pi, -acos(5/17)]
    epicardium   r_s = 10 mm, r_l = 20 mm,  u in [-pi, -acos(5/20)]

so the long axis is z, the apex points to -z (endocardial apex at
z = -17 mm, epicardial apex at z = -20 mm) and the ventricle is cut flat
at the base plane z = 5 mm. Wall volume: 3235 mm^3 (analytically,
pi a^2 [(h + c) - (h^3 + c^3) / (3 c^2)] for each ellipsoid up to h = 5).

Fibres
------
A Laplace-Dirichlet rule-based (LDRB) construction after

    J. D. Bayer, R. C. Blake, G. Plank, N. A. Trayanova, "A novel
    rule-based algorithm for assigning myocardial fiber orientation to
    computational heart models", Ann. Biomed. Eng. 40(10):2243-2254 (2012),

in a simplified form for a single ventricle (our own implementation, no
code taken from elsewhere):

  * phi, the transmural coordinate: Laplace's equation on the mesh with
    phi = 0 on the endocardium and 1 on the epicardium (natural boundary
    condition on the base);
  * psi, the apex-base coordinate: Laplace's equation with psi = 0 at the
    epicardial apex (Bayer et al. fix one apex node; here the epicardial
    nodes within --apex-patch-mm = 1 mm of it, so that psi does not
    depend on the mesh size) and 1 on the base plane;
  * per element (P1, so gradients are constant per tetrahedron):
        e_t = grad(phi) / |grad(phi)|                (transmural)
        e_l = grad(psi) minus its e_t part, normalised (longitudinal)
        e_c = e_l x e_t                              (circumferential)
    fibre f = e_c rotated about e_t by the helix angle alpha,
        f = cos(alpha) e_c + sin(alpha) e_l,
    alpha varying linearly in phi from +60 deg (endocardium) to -60 deg
    (epicardium) by default (--helix-endo-deg, --helix-epi-deg); the
    sheet is e_t, normal to the fibre. Where grad(psi) is parallel to e_t
    (a few elements at the very apex, where no longitudinal direction
    exists) the z axis, or failing that the x axis, stands in for it.
    With this e_c (anticlockwise seen from the base), a positive angle
    makes a right-handed helix, as in the subendocardium, and a negative
    one a left-handed helix, as in the subepicardium (Streeter's classic
    description; Bayer et al. use +40/-50 deg; Land et al.'s problem 3
    uses +90/-90 deg, which `--helix-endo-deg 90 --helix-epi-deg -90`
    gives).

Output (openCARP formats, see the openCARP user manual, "File formats")
------
  BASENAME.pts        node count, then x y z per node in micrometres
  BASENAME.elem       element count, then `Tt n0 n1 n2 n3 tag` (0-based)
  BASENAME.lon        `2`, then fx fy fz sx sy sz per element
  BASENAME_apex.vtx   node count, `intra`, then the nodes within
                      --apex-radius-mm of the endocardial apex (a stimulus)

Tags: by default the element's mean phi splits the wall into thirds,
1 = endocardial, 2 = mid-myocardial, 3 = epicardial (--tags thirds); with
--tags one every element has tag 1. (The thirds are thirds of the Laplace
coordinate, close to but not exactly thirds of the wall thickness.)

Every element is written with positive orientation
(det[n1-n0, n2-n0, n3-n0] > 0, checked on the coordinates as written),
every node is used, and the mesh is checked to be one connected piece.

Usage
-----
    python3 examples/lv/make_lv_mesh.py --size-mm 0.8 --out examples/lv/lv

(the mesh kept in the repository: 7,041 nodes, 28,996 elements, 2.2 MB).
Node count: about 1910 / h^3 + 2100 / h^2 for --size-mm h (0.155 gives
~600,000 nodes in ~2 minutes and ~1 GB; 0.080 would give ~4 million).

Needs numpy, scipy and the gmsh Python API (the `gmsh` Python package).
"""

import argparse
import math
import os
import sys
import time

# One BLAS thread unless asked otherwise: nothing here gains from more.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.sparse.csgraph import connected_components

# --- geometry (Land et al. 2015, problems 2/3), mm -------------------------
R_S_ENDO, R_L_ENDO = 7.0, 17.0
R_S_EPI, R_L_EPI = 10.0, 20.0
Z_BASE = 5.0


def log(msg):
    print(msg, flush=True)


# --- meshing ----------------------------------------------------------------
def build_mesh(size_mm, threads, algorithm3d, verbose):
    """Meshes the truncated ellipsoidal shell with gmsh's OpenCASCADE kernel.

    Returns (points (N, 3) float64 in mm, tets (M, 4) int64 0-based, and the
    0-based node sets of the endocardium, epicardium and base)."""
    import gmsh

    gmsh.initialize(readConfigFiles=False)
    try:
        gmsh.option.setNumber("General.Terminal", 1 if verbose else 0)
        gmsh.option.setNumber("General.NumThreads", threads)
        gmsh.option.setNumber("Mesh.MaxNumThreads3D", threads)
        gmsh.model.add("lv")
        occ = gmsh.model.occ
        # The two ellipsoids as unit spheres stretched along their axes: the
        # sphere's poles are on z, so each apex is a geometric vertex.
        epi = occ.addSphere(0, 0, 0, 1)
        occ.dilate([(3, epi)], 0, 0, 0, R_S_EPI, R_S_EPI, R_L_EPI)
        endo = occ.addSphere(0, 0, 0, 1)
        occ.dilate([(3, endo)], 0, 0, 0, R_S_ENDO, R_S_ENDO, R_L_ENDO)
        shell, _ = occ.cut([(3, epi)], [(3, endo)])
        # Keep z <= Z_BASE: intersect with a box below the base plane.
        margin = 2.0
        box = occ.addBox(-R_S_EPI - margin, -R_S_EPI - margin, -R_L_EPI - margin,
                         2 * (R_S_EPI + margin), 2 * (R_S_EPI + margin),
                         R_L_EPI + margin + Z_BASE)
        lv, _ = occ.intersect(shell, [(3, box)])
        occ.synchronize()
        if len(lv) != 1:
            raise RuntimeError(f"expected one volume after the Boolean operations, got {lv}")

        # Which boundary surface is which: the base is the plane; of the two
        # curved ones the endocardium has the smaller area. (Bounding boxes
        # of spline surfaces come from their control points: no use here.)
        bounding = gmsh.model.getBoundary(lv, oriented=False)
        curved = []
        surfaces = {"endo": [], "epi": [], "base": []}
        for dim, tag in bounding:
            if gmsh.model.getType(dim, tag) == "Plane":
                surfaces["base"].append(tag)
            else:
                curved.append((occ.getMass(dim, tag), tag))
        if len(curved) == 2:
            curved.sort()
            surfaces["endo"].append(curved[0][1])
            surfaces["epi"].append(curved[1][1])
        if not all(surfaces.values()):
            raise RuntimeError(f"could not tell the boundary surfaces apart: {surfaces}")

        # A uniform size everywhere: no refinement by curvature or points.
        gmsh.option.setNumber("Mesh.MeshSizeMin", size_mm)
        gmsh.option.setNumber("Mesh.MeshSizeMax", size_mm)
        gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
        gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
        gmsh.option.setNumber("Mesh.Algorithm", 6)  # Frontal-Delaunay (surfaces)
        gmsh.option.setNumber("Mesh.Algorithm3D", algorithm3d)
        gmsh.option.setNumber("Mesh.Optimize", 1)
        gmsh.option.setNumber("Mesh.ElementOrder", 1)
        gmsh.model.mesh.generate(3)

        tags, coords, _ = gmsh.model.mesh.getNodes()
        tags = np.asarray(tags, dtype=np.int64)
        coords = np.asarray(coords, dtype=np.float64).reshape(-1, 3)
        # gmsh node tags need not be contiguous: map them to 0-based rows.
        index = np.full(tags.max() + 1, -1, dtype=np.int64)
        index[tags] = np.arange(len(tags))

        etypes, _, enodes = gmsh.model.mesh.getElements(3)
        tets = []
        for et, en in zip(etypes, enodes):
            name, _, order, nn, _, _ = gmsh.model.mesh.getElementProperties(et)
            if nn != 4 or order != 1:
                raise RuntimeError(f"unexpected 3D element type {name}")
            tets.append(index[np.asarray(en, dtype=np.int64)].reshape(-1, 4))
        tets = np.concatenate(tets)

        def nodes_of(surface_tags):
            out = []
            for t in surface_tags:
                ntags, _, _ = gmsh.model.mesh.getNodes(2, t, includeBoundary=True)
                out.append(index[np.asarray(ntags, dtype=np.int64)])
            return np.unique(np.concatenate(out))

        sets = {k: nodes_of(v) for k, v in surfaces.items()}
    finally:
        gmsh.finalize()
    return coords, tets, sets


# --- mesh hygiene -------------------------------------------------------------
# Large meshes (millions of elements) are processed in slices of elements so
# that the temporaries stay at a few hundred MB.
CHUNK = 400_000
TET_EDGES = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def slices(m, size=CHUNK):
    for s in range(0, m, size):
        yield slice(s, min(m, s + size))


def drop_unused_nodes(points, tets, sets):
    used = np.zeros(len(points), dtype=bool)
    used[tets.ravel()] = True
    new = np.full(len(points), -1, dtype=np.int64)
    new[used] = np.arange(used.sum())
    sets = {k: new[v][new[v] >= 0] for k, v in sets.items()}
    return points[used], new[tets], sets, int((~used).sum())


def signed_volume6(points, tets):
    """6 x the signed volume, det[n1 - n0, n2 - n0, n3 - n0], per element."""
    out = np.empty(len(tets))
    for sl in slices(len(tets)):
        t = tets[sl]
        p0 = points[t[:, 0]]
        out[sl] = np.einsum("ij,ij->i", points[t[:, 1]] - p0,
                            np.cross(points[t[:, 2]] - p0, points[t[:, 3]] - p0))
    return out


def orient_positive(points, tets):
    """Swaps the last two nodes of every element of negative signed volume."""
    neg = signed_volume6(points, tets) < 0
    tets = tets.copy()
    tets[neg, 2], tets[neg, 3] = tets[neg, 3].copy(), tets[neg, 2].copy()
    return tets, int(neg.sum())


def edge_graph(n, tets):
    """The mesh's edges, each once, as an upper-triangular sparse matrix."""
    G = sp.csr_matrix((n, n), dtype=np.float32)
    for sl in slices(len(tets)):
        pairs = np.concatenate([tets[sl][:, [a, b]] for a, b in TET_EDGES])
        lo, hi = pairs.min(axis=1), pairs.max(axis=1)
        G = G + sp.csr_matrix((np.ones(len(lo), dtype=np.float32), (lo, hi)), shape=(n, n))
    return G


def radius_ratio(points, tets):
    """3 r_in / r_circ: 1 for the regular tetrahedron, 0 for a flat one."""
    out = np.empty(len(tets))
    for sl in slices(len(tets)):
        t = tets[sl]
        p0 = points[t[:, 0]]
        a, b, c = (points[t[:, k]] - p0 for k in (1, 2, 3))
        bc, ca, ab = np.cross(b, c), np.cross(c, a), np.cross(a, b)
        v6 = np.abs(np.einsum("ij,ij->i", a, bc))
        # circumradius |(|a|^2 b x c + |b|^2 c x a + |c|^2 a x b)| / (2 v6)
        num = (np.einsum("ij,ij->i", a, a)[:, None] * bc + np.einsum("ij,ij->i", b, b)[:, None] * ca
               + np.einsum("ij,ij->i", c, c)[:, None] * ab)
        r_circ = np.linalg.norm(num, axis=1) / (2 * v6)
        # inradius 3 V / (total face area), V = v6 / 6
        area = 0.5 * (np.linalg.norm(bc, axis=1) + np.linalg.norm(ca, axis=1) + np.linalg.norm(ab, axis=1)
                      + np.linalg.norm(np.cross(b - a, c - a), axis=1))
        out[sl] = 3 * (v6 / 2 / area) / r_circ
    return out


# --- P1 finite elements -----------------------------------------------------------
def p1_gradients(points, tets):
    """Gradients of the four barycentric functions per element, (m, 4, 3),
    and the element volumes (m,), for one slice of elements."""
    p0 = points[tets[:, 0]]
    J = np.stack([points[tets[:, k]] - p0 for k in (1, 2, 3)], axis=2)  # columns
    Jinv = np.linalg.inv(J)  # rows are grad(lambda_1..3)
    grads = np.empty((len(tets), 4, 3))
    grads[:, 1:, :] = Jinv
    grads[:, 0, :] = -Jinv.sum(axis=1)
    vol = np.abs(np.linalg.det(J)) / 6
    return grads, vol


def stiffness(points, tets):
    """The P1 Laplace stiffness matrix, K_ab = sum_e vol_e grad(l_a).grad(l_b),
    and the element volumes."""
    n = len(points)
    K = sp.csr_matrix((n, n))
    vol = np.empty(len(tets))
    for sl in slices(len(tets)):
        t = tets[sl]
        g, vol[sl] = p1_gradients(points, t)
        ke = np.einsum("mai,mbi->mab", g, g) * vol[sl][:, None, None]
        rows = np.repeat(t, 4, axis=1).ravel()
        cols = np.tile(t, (1, 4)).ravel()
        K = K + sp.csr_matrix((ke.ravel(), (rows, cols)), shape=(n, n))
    return K, vol


def solve_dirichlet(K, fixed, values, rtol):
    """Solves K u = 0 with u[fixed] = values; Jacobi-preconditioned CG for the
    free nodes (the reduced matrix is symmetric positive definite)."""
    n = K.shape[0]
    u = np.zeros(n)
    u[fixed] = values
    free = np.ones(n, dtype=bool)
    free[fixed] = False
    Kf = K[free]
    Kff = Kf[:, free].tocsr()
    rhs = -(Kf[:, fixed] @ values)
    del Kf
    dinv = 1.0 / Kff.diagonal()
    M = spla.LinearOperator(Kff.shape, matvec=lambda x: dinv * x)
    iters = [0]

    def count(_):
        iters[0] += 1

    x0 = np.full(Kff.shape[0], float(np.mean(values)))
    x, info = spla.cg(Kff, rhs, x0=x0, rtol=rtol, atol=0.0, M=M, maxiter=20_000, callback=count)
    if info != 0:
        raise RuntimeError(f"CG did not converge (info {info}) after {iters[0]} iterations")
    u[free] = x
    return u, iters[0]


def normalise(v):
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def fibres(points, tets, phi, psi, helix_endo_deg, helix_epi_deg):
    """Per element fibre and sheet directions (LDRB-style, see the header),
    and each element's transmural coordinate (the mean of phi)."""
    m = len(tets)
    f, s, t_elem = np.empty((m, 3)), np.empty((m, 3)), np.empty(m)
    fallback = 0
    for sl in slices(m):
        t = tets[sl]
        grads, _ = p1_gradients(points, t)
        gphi = np.einsum("mai,ma->mi", grads, phi[t])
        gpsi = np.einsum("mai,ma->mi", grads, psi[t])
        e_t = normalise(gphi)
        e_l = gpsi - np.einsum("mi,mi->m", gpsi, e_t)[:, None] * e_t
        # Where grad(psi) is (nearly) parallel to e_t, which can happen at
        # the very apex, the long axis z, and failing that x, stands in.
        weak = np.linalg.norm(e_l, axis=1) <= 1e-3 * np.linalg.norm(gpsi, axis=1)
        fallback += int(weak.sum())
        for axis in (np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0])):
            if not weak.any():
                break
            cand = axis - np.einsum("mi,i->m", e_t[weak], axis)[:, None] * e_t[weak]
            ok = np.linalg.norm(cand, axis=1) > 1e-3
            idx = np.flatnonzero(weak)[ok]
            e_l[idx] = cand[ok]
            weak[idx] = False
        e_l = normalise(e_l)
        e_c = np.cross(e_l, e_t)
        t_elem[sl] = phi[t].mean(axis=1)
        alpha = np.radians(helix_endo_deg + (helix_epi_deg - helix_endo_deg) * t_elem[sl])
        f[sl] = normalise(np.cos(alpha)[:, None] * e_c + np.sin(alpha)[:, None] * e_l)
        s[sl] = e_t
    return f, s, t_elem, fallback


# --- writing -------------------------------------------------------------------------
def write_lines(path, header, fmt, rows, chunk=200_000):
    """Writes `header` then `fmt % row` for each row, in chunks (a single
    %-format per chunk keeps Python's per-line cost low)."""
    with open(path, "w") as f:
        f.write(header)
        for s in range(0, len(rows), chunk):
            block = rows[s:s + chunk]
            f.write((fmt * len(block)) % tuple(block.ravel().tolist()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-mm", type=float, default=0.8,
                    help="gmsh's characteristic element size in mm (default 0.8); the mean "
                         "edge length comes out 1.3 to 1.4 times larger")
    ap.add_argument("--out", default="lv", help="output base name (default ./lv)")
    ap.add_argument("--tags", choices=("thirds", "one"), default="thirds",
                    help="element tags: endo/mid/epi thirds as 1/2/3 (default), or 1 for all")
    ap.add_argument("--helix-endo-deg", type=float, default=60.0,
                    help="fibre helix angle on the endocardium (default +60)")
    ap.add_argument("--helix-epi-deg", type=float, default=-60.0,
                    help="fibre helix angle on the epicardium (default -60)")
    ap.add_argument("--apex-radius-mm", type=float, default=1.5,
                    help="stimulus: nodes within this distance of the endocardial apex")
    ap.add_argument("--apex-patch-mm", type=float, default=1.0,
                    help="apex-base Laplace problem: psi = 0 on the epicardial nodes within this "
                         "distance of the epicardial apex (default 1.0)")
    ap.add_argument("--threads", type=int, default=1, help="gmsh threads (default 1)")
    ap.add_argument("--algorithm3d", type=int, default=10,
                    help="gmsh Mesh.Algorithm3D: 10 HXT (default, fast), 1 Delaunay")
    ap.add_argument("--rtol", type=float, default=1e-10, help="CG relative tolerance")
    ap.add_argument("--verbose", action="store_true", help="show gmsh's log")
    args = ap.parse_args()
    if not args.size_mm > 0:
        ap.error("--size-mm must be positive")

    t_all = time.perf_counter()
    timings = {}

    t0 = time.perf_counter()
    points, tets, sets = build_mesh(args.size_mm, args.threads, args.algorithm3d, args.verbose)
    timings["gmsh"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    points, tets, sets, dropped = drop_unused_nodes(points, tets, sets)
    n, m = len(points), len(tets)
    # Round to what the .pts file will hold (micrometres, 2 decimals) so that
    # the orientation checks below hold for the coordinates as written.
    points = np.round(points * 1000.0, 2) / 1000.0
    tets, flipped = orient_positive(points, tets)
    v6 = signed_volume6(points, tets)
    if not (v6 > 0).all():
        raise RuntimeError(f"{int((v6 <= 0).sum())} elements have zero volume")
    edges = edge_graph(n, tets)
    pieces, _ = connected_components(edges, directed=False)
    if pieces != 1:
        raise RuntimeError(f"the mesh has {pieces} connected pieces, expected one")
    edges = edges.tocoo()
    edge_len = np.linalg.norm(points[edges.row] - points[edges.col], axis=1)
    n_edges = edges.nnz
    del edges
    quality = radius_ratio(points, tets)
    timings["checks"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    K, vol = stiffness(points, tets)
    # Transmural: endocardium 0, epicardium 1 (the rims where they meet the
    # base belong to both the base and their own wall; the base itself is
    # left free).
    endo, epi, base = sets["endo"], sets["epi"], sets["base"]
    if np.intersect1d(endo, epi).size:
        raise RuntimeError("endocardial and epicardial nodes overlap")
    fixed = np.concatenate([endo, epi])
    phi, it_phi = solve_dirichlet(K, fixed, np.concatenate([np.zeros(len(endo)), np.ones(len(epi))]),
                                  args.rtol)
    # Apex-base: 0 on the epicardial apex, 1 on the base plane. The apex is
    # the patch of epicardial nodes within --apex-patch-mm of the apex point
    # (at least the nearest node): a single node would do on one mesh
    # (Bayer et al. use a point), but a point has no capacity in 3D, so a
    # fixed-size patch keeps psi, and the fibres, alike from mesh to mesh.
    d_apex = np.linalg.norm(points[epi] - [0.0, 0.0, -R_L_EPI], axis=1)
    apex_patch = epi[d_apex <= max(args.apex_patch_mm, d_apex.min())]
    fixed = np.concatenate([apex_patch, base])
    psi, it_psi = solve_dirichlet(K, fixed, np.concatenate([np.zeros(len(apex_patch)), np.ones(len(base))]),
                                  args.rtol)
    del K
    timings["laplace"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    f, s, t_elem, fallback = fibres(points, tets, phi, psi, args.helix_endo_deg, args.helix_epi_deg)
    if args.tags == "thirds":
        tag = 1 + np.minimum((t_elem * 3).astype(np.int64), 2)
    else:
        tag = np.ones(m, dtype=np.int64)
    apex_endo = np.array([0.0, 0.0, -R_L_ENDO])
    stim = np.flatnonzero(np.linalg.norm(points - apex_endo, axis=1) <= args.apex_radius_mm)
    if stim.size == 0:  # a coarse mesh: at least the nearest node
        stim = np.array([int(np.argmin(np.linalg.norm(points - apex_endo, axis=1)))])
    timings["fibres"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    base_name = args.out
    for suffix in (".pts", ".elem", ".lon", ".vtx"):
        if base_name.endswith(suffix):
            base_name = base_name[: -len(suffix)]
    out_dir = os.path.dirname(base_name)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    files = {
        "pts": base_name + ".pts",
        "elem": base_name + ".elem",
        "lon": base_name + ".lon",
        "vtx": base_name + "_apex.vtx",
    }
    # (+ 0.0 turns the -0.0 of rounding into 0.0, so no "-0.00" is written)
    write_lines(files["pts"], f"{n}\n", "%.2f %.2f %.2f\n", np.round(points * 1000.0, 2) + 0.0)
    write_lines(files["elem"], f"{m}\n", "Tt %d %d %d %d %d\n", np.column_stack([tets, tag]))
    write_lines(files["lon"], "2\n", "%.4f %.4f %.4f %.4f %.4f %.4f\n",
                np.round(np.column_stack([f, s]), 4) + 0.0)
    write_lines(files["vtx"], f"{len(stim)}\nintra\n", "%d\n", stim[:, None])
    timings["write"] = time.perf_counter() - t0
    timings["total"] = time.perf_counter() - t_all

    # --- summary ---
    analytic = math.pi * (R_S_EPI ** 2 * ((Z_BASE + R_L_EPI) - (Z_BASE ** 3 + R_L_EPI ** 3) / (3 * R_L_EPI ** 2))
                          - R_S_ENDO ** 2 * ((Z_BASE + R_L_ENDO) - (Z_BASE ** 3 + R_L_ENDO ** 3) / (3 * R_L_ENDO ** 2)))
    fs = np.einsum("mi,mi->m", f, s)
    log(f"left ventricle (Land et al. 2015 ellipsoid), --size-mm {args.size_mm:g}")
    log(f"  nodes {n:,}   elements {m:,}   edges {n_edges:,}   unused nodes dropped {dropped}")
    log(f"  edge length mm: mean {edge_len.mean():.3f}  min {edge_len.min():.3f}  max {edge_len.max():.3f}")
    log(f"  volume {vol.sum():.1f} mm^3 (analytic {analytic:.1f})")
    log(f"  quality (3 r_in / r_circ): min {quality.min():.3f}  mean {quality.mean():.3f}  "
        f"max {quality.max():.3f}  below 0.2: {int((quality < 0.2).sum())}")
    log(f"  elements reoriented {flipped}; all signed volumes > 0; one connected piece")
    log(f"  surface nodes: endocardium {len(endo):,}  epicardium {len(epi):,}  base {len(base):,}")
    log(f"  Laplace CG iterations: transmural {it_phi}, apex-base {it_psi} "
        f"(apex patch {len(apex_patch)} nodes)")
    log(f"  fibre helix angle {args.helix_endo_deg:+g} (endo) to {args.helix_epi_deg:+g} (epi) deg;"
        f" max |f.s| {np.abs(fs).max():.1e}; elements with the axis fallback {fallback}")
    counts = np.bincount(tag)[1:]
    log("  tags: " + "  ".join(f"{k + 1}: {c:,}" for k, c in enumerate(counts) if c))
    log(f"  stimulus: {len(stim)} nodes within {args.apex_radius_mm:g} mm of the endocardial apex")
    total_bytes = 0
    for path in files.values():
        size = os.path.getsize(path)
        total_bytes += size
        log(f"  {path}: {size / 1e6:.2f} MB")
    log(f"  total {total_bytes / 1e6:.2f} MB")
    log("  time s: " + "  ".join(f"{k} {v:.1f}" for k, v in timings.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
