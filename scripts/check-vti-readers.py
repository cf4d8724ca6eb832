import sys, glob, numpy as np, vtk
from vtk.util.numpy_support import vtk_to_numpy
d = sys.argv[1]
n = 0
for f in sorted(glob.glob(f"{d}/*.vti")):
    r = vtk.vtkXMLImageDataReader(); r.SetFileName(f); r.Update()
    img = r.GetOutput()
    dims = img.GetDimensions()
    pd = img.GetPointData()
    for i in range(pd.GetNumberOfArrays()):
        name = pd.GetArrayName(i)
        a = vtk_to_numpy(pd.GetArray(i)).reshape(dims[2], dims[1], dims[0])
        npyf = f.replace(".vti", ".npy") if not f.endswith("activation.vti") else f"{d}/activation.npy"
        if "activation" not in f:
            base = f.split("/")[-1]; idx = base.split("_")[-1].split(".")[0]
            npyf = f"{d}/{name}_{idx}.npy"
        b = np.load(npyf)
        assert a.shape == b.shape, (f, a.shape, b.shape)
        assert np.array_equal(a, b, equal_nan=True), (f, name)
        n += 1
print("vtk", vtk.vtkVersion.GetVTKVersion(), "read", n, "arrays, all equal to the .npy files")
