#!/usr/bin/env python3
"""Times a 2D Aliev-Panfilov spiral in pigreads (OpenCL), the counterpart of
fibril's spiral through its Python API, for a speed comparison on one machine.

    python3 scripts/pigreads-spiral.py --n 512 --dt 0.01 --dx 0.5 --duration 100

prints one JSON line: {"tool": "pigreads", "n", "steps", "seconds",
"steps_per_s", "device", "u_mean_final"}. It needs pigreads and its
dependencies (numpy, pyopencl, pydantic, pyyaml, jinja2); on a machine with no
network, from a folder of wheels fetched beforehand from the package index:

    pip install --no-index --find-links WHEELS pigreads

The model is pigreads' built-in "aliev1996simple": Aliev & Panfilov, Chaos
Solitons Fractals 7:293 (1996), k = 8, a = 0.15, eps0 = 0.002, mu1 = 0.2,
mu2 = 0.3, D = 1, all dimensionless (time in t.u., space in the model's
length unit). These are pigreads' defaults and fibril's `aliev_panfilov`
defaults too; they are passed explicitly below so that the run does not hang
on either tool's defaults.
pigreads steps by forward Euler, as fibril does.
"""

import argparse
import ctypes
import glob
import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np

AP_PARAMS = {"k": 8.0, "a": 0.15, "eps0": 0.002, "mu1": 0.2, "mu2": 0.3}
VENDORS = "/etc/OpenCL/vendors"


def add_nvidia_icd():
    """pyopencl's wheel brings its own ICD loader, which lists the platforms
    named in /etc/OpenCL/vendors (or OCL_ICD_VENDORS) and ignores
    OCL_ICD_FILENAMES. GPU containers often have the driver's
    libnvidia-opencl.so.1 with no nvidia.icd there, announced through
    OCL_ICD_FILENAMES only: pigreads would then see just a CPU platform such
    as PoCL. Here the loader is pointed at a folder with the existing entries
    plus NVIDIA's. Must run before pyopencl first lists platforms."""
    if "OCL_ICD_VENDORS" in os.environ or glob.glob(f"{VENDORS}/*nvidia*.icd"):
        return
    try:
        ctypes.CDLL("libnvidia-opencl.so.1")
    except OSError:
        return
    folder = tempfile.mkdtemp(prefix="opencl-vendors-")
    for icd in glob.glob(f"{VENDORS}/*.icd"):
        shutil.copy(icd, folder)
    with open(os.path.join(folder, "nvidia.icd"), "w") as f:
        f.write("libnvidia-opencl.so.1\n")
    os.environ["OCL_ICD_VENDORS"] = folder


def choose_device(want):
    """Sets PYOPENCL_CTX (read by pigreads' context creation) to the first
    device whose name or platform contains `want`, or else to the first GPU,
    or else to the first device of all."""
    import pyopencl as cl

    try:
        found = [(ip, idev, p, d) for ip, p in enumerate(cl.get_platforms())
                 for idev, d in enumerate(p.get_devices())]
    except cl.Error as e:
        sys.exit(f"no OpenCL platform: {e}")
    if want:
        pick = [f for f in found if want.lower() in (f[2].name + " " + f[3].name).lower()]
    else:
        pick = [f for f in found if f[3].type & cl.device_type.GPU] or found
    if not pick:
        names = [f"{p.name}: {d.name}" for _, _, p, d in found]
        sys.exit(f"no OpenCL device matches {want!r}; there are {names}")
    os.environ["PYOPENCL_CTX"] = f"{pick[0][0]}:{pick[0][1]}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=512, help="grid side in cells (n x n)")
    ap.add_argument("--dt", type=float, default=0.01, help="time step, t.u.")
    ap.add_argument("--dx", type=float, default=0.5, help="cell size, space units")
    ap.add_argument("--duration", type=float, default=100.0, help="timed run, t.u.")
    ap.add_argument("--frame-every", type=float, default=10.0,
                    help="t.u. per pigreads call; the state comes back to NumPy after each")
    ap.add_argument("--device", default=None,
                    help="part of an OpenCL device or platform name (default: first GPU); "
                         "ignored when PYOPENCL_CTX is set")
    ap.add_argument("--block", default="1,8,8", help="OpenCL local size z,y,x (pigreads' default)")
    ap.add_argument("--double", action="store_true", help="double precision (default single)")
    ap.add_argument("--save", default=None, help="write the final u (n x n) to this .npy")
    args = ap.parse_args()

    add_nvidia_icd()
    if "PYOPENCL_CTX" not in os.environ:
        choose_device(args.device)
    import pigreads as pig

    n, dx, dt = args.n, args.dx, args.dt
    # Tissue n x n inside a one-cell ring of non-tissue (inhom 0): pigreads
    # wraps its grid periodically, and the ring turns that into no-flux edges.
    inhom = np.zeros((1, n + 2, n + 2), dtype=np.int32)
    inhom[0, 1:-1, 1:-1] = 1

    models = pig.Models(double_precision=args.double)
    # pigreads multiplies the model's diffusivity_u by the weights' matrix:
    # D = diffusivity_u * 1.0 = 1.
    models.add("aliev1996simple", diffusivity_u=1.0, **AP_PARAMS)
    models.block_size = tuple(int(b) for b in args.block.split(","))
    weights = models.weights(dz=1.0, dy=dx, dx=dx, inhom=inhom, diffusivity=1.0)
    device = models.core.context.devices[0].name.strip()

    # States (Nz, Ny, Nx, Nv) with variables (u, v), at rest (0, 0) in tissue.
    states = models.resting_states(inhom)[0]
    u = states[0, 1:-1, 1:-1, 0]
    v = states[0, 1:-1, 1:-1, 1]
    # Broken wave: an excited strip along the left edge (x < 10 cells) sends a
    # planar wave to the right; the lower half (y < n/2) starts refractory, so
    # the front survives in the upper half only and its free end curls into a
    # spiral once the lower half recovers.
    u[:, :10] = 1.0
    v[: n // 2, :] = 2.0

    steps_per_frame = max(1, round(args.frame_every / dt))
    frames = max(1, round(args.duration / (steps_per_frame * dt)))

    # Warm-up on a copy (first launches, buffer set-up); kernels were built in
    # add() and weights().
    models.run(inhom, weights, states.copy(), Nt=min(10, steps_per_frame), dt=dt)

    t0 = time.perf_counter()
    for _ in range(frames):
        # Each call uploads the state, steps on the device, downloads it.
        states = models.run(inhom, weights, states, Nt=steps_per_frame, dt=dt)
    seconds = time.perf_counter() - t0

    u_final = states[0, 1:-1, 1:-1, 0]
    if args.save:
        np.save(args.save, u_final)
    steps = frames * steps_per_frame
    print(json.dumps({
        "tool": "pigreads",
        "n": n,
        "steps": steps,
        "seconds": round(seconds, 4),
        "steps_per_s": round(steps / seconds, 2),
        "device": device,
        "u_mean_final": float(np.mean(u_final, dtype=np.float64)),
    }))


if __name__ == "__main__":
    main()
