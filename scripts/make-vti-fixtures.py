"""Writes the .vti files tests/tissue_files.rs reads, with VTK's own XML
writer (the one ParaView uses): one small image (5 x 4 x 3 points, spacing
0.5, origin (1, 2, 3)) with a uint8 mask, an int16 label field, 3- and
6-component fibre vectors, in every form the writer has: ascii, binary
(inline base64), appended raw and appended base64, each uncompressed with
UInt32 and UInt64 headers and zlib-compressed. Run: python3 scripts/make-vti-fixtures.py
"""
import os, vtk
from vtk.util.numpy_support import numpy_to_vtk
import numpy as np

out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "vti")
os.makedirs(out, exist_ok=True)
nx, ny, nz = 5, 4, 3
z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
mask = ((x + y + z) % 3 != 0).astype(np.uint8)
labels = (mask * (1 + (x > 2))).astype(np.int16)
ang = np.radians(10.0 * x + 5.0 * z)
fib = np.stack([np.cos(ang), np.sin(ang), 0.1 * y], axis=-1).astype(np.float32)
sheet = np.stack([-np.sin(ang), np.cos(ang), 0 * ang], axis=-1)
six = np.concatenate([fib.astype(np.float64), sheet], axis=-1)

def image(spacing=(0.5, 0.5, 0.5)):
    img = vtk.vtkImageData()
    img.SetDimensions(nx, ny, nz)
    img.SetSpacing(*spacing)
    img.SetOrigin(1.0, 2.0, 3.0)
    for name, a, comps in [("tissue", mask, 1), ("labels", labels, 1), ("fibres", fib, 3), ("fibres6", six, 6)]:
        v = numpy_to_vtk(np.ascontiguousarray(a.reshape(-1, comps) if comps > 1 else a.reshape(-1)), deep=1)
        v.SetName(name)
        img.GetPointData().AddArray(v)
    return img

def write(name, img, mode, header64=True, encode=False, compress=False):
    w = vtk.vtkXMLImageDataWriter()
    w.SetFileName(os.path.join(out, name))
    w.SetInputData(img)
    {"ascii": w.SetDataModeToAscii, "binary": w.SetDataModeToBinary, "appended": w.SetDataModeToAppended}[mode]()
    w.SetEncodeAppendedData(1 if encode else 0)
    if header64:
        w.SetHeaderTypeToUInt64()
    else:
        w.SetHeaderTypeToUInt32()
    if compress:
        w.SetCompressorTypeToZLib()
    else:
        w.SetCompressorTypeToNone()
    w.Write()

img = image()
write("ascii.vti", img, "ascii")
write("binary-uint32.vti", img, "binary", header64=False)
write("binary-zlib.vti", img, "binary", compress=True)
write("appended-raw-uint64.vti", img, "appended")
write("appended-raw-uint32.vti", img, "appended", header64=False)
write("appended-base64.vti", img, "appended", encode=True)
write("appended-raw-zlib.vti", img, "appended", compress=True)
write("anisotropic-spacing.vti", image((0.5, 0.5, 0.25)), "ascii")
np.save(os.path.join(out, "expected-tissue.npy"), mask)
np.save(os.path.join(out, "expected-fibres6.npy"), six)
print("vtk", vtk.vtkVersion.GetVTKVersion(), "wrote", sorted(os.listdir(out)))
