#!/usr/bin/env python3
"""Draws a map on the surface of a tetrahedral mesh: the activation times
of a run on the left ventricle of make_lv_mesh.py, or any point array of a
VTK .vtu file of tetrahedra.

The surface is the set of faces that belong to one tetrahedron only. Each
face is coloured by the mean of its three nodes' values (a face with a NaN
node, say one never activated, is grey) and lit a little so that the shape
reads; faces turned away from the viewer are left out (back-face culling),
which is exact for the orthographic views used. Two views side by side: the
ventricle from the side, apex down, and from the base, looking into the
cavity onto the endocardium.

    python3 render_activation.py run/activation.vtu --out activation.png
    python3 render_activation.py map.vtu --field activation_ms_beat1 --vmax 120

Needs numpy, matplotlib and meshio.
"""

import argparse
import sys

import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import cm, colors  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402

NAN_GREY = np.array([0.62, 0.62, 0.62])
# (title, elevation, azimuth) in degrees; matplotlib's camera convention.
VIEWS = (("side, apex down", 12.0, -60.0), ("from the base", 90.0, -90.0))


def read(path, field):
    """Points (N, 3), tetrahedra (M, 4) and per-node values (N,), or per-tet
    values (M,) where `field` is a cell array; and whether it is per cell."""
    import meshio

    mesh = meshio.read(path)
    tets = [c.data for c in mesh.cells if c.type == "tetra"]
    if not tets:
        kinds = sorted({c.type for c in mesh.cells})
        sys.exit(f"{path}: no tetrahedra (cells: {', '.join(kinds) or 'none'})")
    tets = np.concatenate(tets).astype(np.int64)
    if field in mesh.point_data:
        return mesh.points.astype(float), tets, np.asarray(mesh.point_data[field], float).ravel(), False
    if field in mesh.cell_data:
        blocks = [np.asarray(d, float).ravel() for c, d in zip(mesh.cells, mesh.cell_data[field])
                  if c.type == "tetra"]
        return mesh.points.astype(float), tets, np.concatenate(blocks), True
    arrays = list(mesh.point_data) + [f"{k} (cells)" for k in mesh.cell_data]
    sys.exit(f"{path}: no array {field!r}; it has: {', '.join(arrays) or 'none'} (choose with --field)")


def boundary_faces(points, tets):
    """The faces of exactly one tetrahedron, ordered so that their normals
    point out of the mesh, and the tetrahedron each belongs to."""
    local = np.array([[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]])
    faces = tets[:, local].reshape(-1, 3)
    owner = np.repeat(np.arange(len(tets)), 4)
    opposite = tets[:, [0, 1, 2, 3]].reshape(-1)
    key = np.sort(faces, axis=1)
    _, first, counts = np.unique(key, axis=0, return_index=True, return_counts=True)
    keep = first[counts == 1]
    faces, owner, opposite = faces[keep], owner[keep], opposite[keep]
    # Outward whatever the element's orientation: away from the fourth node.
    a, b, c = (points[faces[:, k]] for k in range(3))
    normal = np.cross(b - a, c - a)
    inward = np.einsum("ij,ij->i", normal, points[opposite] - a) > 0
    faces[inward] = faces[inward][:, [0, 2, 1]]
    return faces, owner


def unit_normals(points, faces):
    a, b, c = (points[faces[:, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    return n / np.linalg.norm(n, axis=1, keepdims=True)


def draw(ax, points, faces, face_values, normals, norm, cmap, title, elev, azim, shade):
    e, a = np.radians(elev), np.radians(azim)
    eye = np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
    front = normals @ eye > 0
    rgb = np.where(np.isnan(face_values)[:, None], NAN_GREY,
                   cmap(norm(np.nan_to_num(face_values)))[:, :3])
    if shade:
        # Lambert light from over the viewer's shoulder.
        light = eye + np.array([0.0, 0.0, 0.6]) if elev < 60 else eye + np.array([0.3, -0.3, 0.0])
        light /= np.linalg.norm(light)
        rgb = rgb * (0.55 + 0.45 * np.clip(normals @ light, 0.0, 1.0))[:, None]
    poly = Poly3DCollection(points[faces[front]], facecolors=rgb[front], edgecolors=rgb[front],
                            linewidths=0.2, antialiased=False)
    ax.add_collection3d(poly)
    lo, hi = points.min(axis=0), points.max(axis=0)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_zlim(lo[2], hi[2])
    ax.set_box_aspect(hi - lo, zoom=1.15)
    ax.set_proj_type("ortho")
    ax.view_init(elev=elev, azim=azim)
    ax.set_axis_off()
    ax.set_title(title)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vtu", help="a .vtu file with tetrahedra and the array to draw")
    ap.add_argument("--field", default="activation_ms", help="point array to draw (default activation_ms)")
    ap.add_argument("--out", default="activation.png", help="PNG to write (default activation.png)")
    ap.add_argument("--title", default=None, help="figure title (default: the file and the array)")
    ap.add_argument("--vmin", type=float, default=None, help="colour scale minimum (default: the data's)")
    ap.add_argument("--vmax", type=float, default=None, help="colour scale maximum (default: the data's)")
    ap.add_argument("--cmap", default="turbo", help="matplotlib colour map (default turbo)")
    ap.add_argument("--unit", default="ms", help="unit on the colour bar (default ms)")
    ap.add_argument("--no-shade", action="store_true", help="flat colours, no lighting")
    ap.add_argument("--dpi", type=int, default=100, help="the picture is 12 x 6 inches (default 1200x600 px)")
    args = ap.parse_args()

    points, tets, values, per_cell = read(args.vtu, args.field)
    faces, owner = boundary_faces(points, tets)
    if per_cell:
        face_values = values[owner]
    else:
        face_values = values[faces].mean(axis=1)  # NaN where any node is NaN
    normals = unit_normals(points, faces)

    finite = face_values[np.isfinite(face_values)]
    vmin = args.vmin if args.vmin is not None else (finite.min() if finite.size else 0.0)
    vmax = args.vmax if args.vmax is not None else (finite.max() if finite.size else 1.0)
    if vmax <= vmin:
        vmax = vmin + 1.0
    norm = colors.Normalize(vmin=vmin, vmax=vmax)
    cmap = plt.get_cmap(args.cmap)

    fig = plt.figure(figsize=(12, 6), dpi=args.dpi)
    grid = fig.add_gridspec(1, 3, width_ratios=[1, 1, 0.05], left=0.02, right=0.93, top=0.94, bottom=0.0, wspace=0.05)
    for k, (title, elev, azim) in enumerate(VIEWS):
        ax = fig.add_subplot(grid[0, k], projection="3d")
        draw(ax, points, faces, face_values, normals, norm, cmap, title, elev, azim, not args.no_shade)
    cax = fig.add_subplot(grid[0, 2])
    cax.set_position([0.92, 0.15, 0.015, 0.7])
    bar = fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), cax=cax)
    bar.set_label(f"{args.field} ({args.unit})" if args.unit else args.field)
    nan_faces = int(np.isnan(face_values).sum())
    fig.suptitle(args.title or f"{args.vtu}: {args.field}"
                 + (f"  (grey: no value, {nan_faces} of {len(faces)} faces)" if nan_faces else ""))
    fig.savefig(args.out, dpi=args.dpi)
    print(f"{args.out}: {len(points):,} nodes, {len(tets):,} tetrahedra, {len(faces):,} surface faces, "
          f"{args.field} {vmin:.4g} to {vmax:.4g} {args.unit}, {nan_faces} faces without a value")
    return 0


if __name__ == "__main__":
    sys.exit(main())
