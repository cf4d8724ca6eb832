"""Writes the mesh fixtures of tests/data/meshes (see README.md).

Two unit boxes side by side, [0,1]x[0,1]x[0,1] and [1,2]x[0,1]x[0,1] (mm),
meshed by Gmsh as physical volumes 7 and 9, with the outer surface as a
physical surface (boundary triangles the readers skip). The other formats
are the same mesh converted by meshio, and an openCARP set written here
following the openCARP file format documentation
(https://opencarp.org/documentation/user-manual, "File formats").
"""

import math
import gmsh
import meshio
import numpy as np

gmsh.initialize()
gmsh.option.setNumber("General.Terminal", 0)
gmsh.model.add("two_boxes")
a = gmsh.model.occ.addBox(0, 0, 0, 1, 1, 1)
b = gmsh.model.occ.addBox(1, 0, 0, 1, 1, 1)
gmsh.model.occ.fragment([(3, a)], [(3, b)])
gmsh.model.occ.synchronize()
gmsh.model.addPhysicalGroup(3, [a], 7, name="left")
gmsh.model.addPhysicalGroup(3, [b], 9, name="right")
outer = [s for _, s in gmsh.model.getBoundary([(3, a), (3, b)], combined=True)]
gmsh.model.addPhysicalGroup(2, outer, 1, name="outside")
gmsh.option.setNumber("Mesh.MeshSizeMax", 0.6)
gmsh.option.setNumber("Mesh.MeshSizeFactor", 1.0)
gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
gmsh.option.setNumber("Mesh.MeshSizeMin", 0.5)
gmsh.model.mesh.generate(3)
gmsh.option.setNumber("Mesh.Binary", 0)
gmsh.option.setNumber("Mesh.MshFileVersion", 4.1)
gmsh.write("two_boxes_v41.msh")
gmsh.option.setNumber("Mesh.MshFileVersion", 2.2)
gmsh.write("two_boxes_v22.msh")
gmsh.finalize()

mesh = meshio.read("two_boxes_v22.msh")
tets = mesh.cells_dict["tetra"]
physical = mesh.cell_data_dict["gmsh:physical"]["tetra"].astype(np.int32)
points = mesh.points
# A fibre per element: a helix-like turn with x, unit length.
centres = points[tets].mean(axis=1)
angle = centres[:, 0] * math.pi / 4
fibres = np.stack([np.cos(angle), np.sin(angle), np.zeros_like(angle)], axis=1)
sheets = np.stack([-np.sin(angle), np.cos(angle), np.zeros_like(angle)], axis=1)

only_tets = meshio.Mesh(points, [("tetra", tets)],
                        cell_data={"region": [physical], "fibres": [fibres], "sheets": [sheets]})
only_tets.write("two_boxes_ascii.vtu", binary=False)
only_tets.write("two_boxes_zlib.vtu", binary=True, compression="zlib")
only_tets.write("two_boxes_raw64.vtu", binary=True, compression=None, header_type="UInt64")
meshio.Mesh(points, [("tetra", tets)], cell_data={"tetgen:ref": [physical]}).write(
    "two_boxes.node", file_format="tetgen")

# openCARP: .pts in micrometres, .elem with tags, .lon with fibres and sheets.
with open("two_boxes.pts", "w") as f:
    f.write(f"{len(points)}\n")
    for p in points * 1000.0:
        f.write(f"{p[0]:.6f} {p[1]:.6f} {p[2]:.6f}\n")
with open("two_boxes.elem", "w") as f:
    f.write(f"{len(tets)}\n")
    for t, tag in zip(tets, physical):
        f.write(f"Tt {t[0]} {t[1]} {t[2]} {t[3]} {tag}\n")
with open("two_boxes.lon", "w") as f:
    f.write("2\n")
    for fi, s in zip(fibres, sheets):
        f.write(" ".join(f"{v:.8f}" for v in [*fi, *s]) + "\n")
left_face = [i for i, p in enumerate(points) if p[0] == 0.0]
with open("two_boxes.vtx", "w") as f:
    f.write(f"{len(left_face)}\nintra\n")
    for i in left_face:
        f.write(f"{i}\n")
print(len(points), "nodes", len(tets), "tets", "left face", len(left_face))
