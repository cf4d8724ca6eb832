#!/usr/bin/env python3
"""Run the PyTorch FEM simulator TorchCor (package `torchcor`, tested with
1.0.6) on an openCARP mesh, for a side-by-side speed and activation-map
comparison with fibril. Our own driver: it calls TorchCor's public API
(Monodomain, TenTusscherPanfilov) and copies none of its code.

Model: monodomain, ten Tusscher-Panfilov 2006 epicardial cells everywhere,
one stimulus at t = 0 on the nodes of a .vtx file.

TorchCor's numerics (read from its source, 1.0.6): P1 tetrahedra,
consistent mass matrix by default (--mass-lumping lumps it), membrane
chi = 140 /mm and Cm = 0.01 uF/mm^2 (1 uF/cm^2), so D = sigma / 1.4 mm^2/ms
with sigma in S/m. Each step: the ionic model advances by forward Euler
(gates by Rush-Larsen, lookup tables) at V^n, then diffusion is
Crank-Nicolson, (Cm M + dt/2 K) V^{n+1} = M (Cm V^n + dt (I_stim - I_ion))
- dt/2 K V^n, solved by Jacobi-preconditioned CG in float64 (whatever
--dtype says; --dtype sets the mesh, matrices and ionic states), started
from the linear extrapolation 2 V^n - V^{n-1}.

Activation time: the first upward crossing of --threshold-mv, checked after
every step and interpolated linearly within the step (fibril's definition;
fibril's default for ten_tusscher_2006 is -40 mV). TorchCor's own map
(Monodomain.compute_activation_map) uses 0 mV by default and looks only at
the saved snapshots (every snapshot_interval ms, 1 ms in its example);
--torchcor-lat SNAPSHOT_MS uses it instead (its solve() and its map, with
interpolation between snapshots, at --threshold-mv).

Usage (see --help):
  torchcor-compare.py --mesh M --stim-vtx M.vtx --duration-ms 50
      --dt-ms 0.01 --sigma-l 0.1334 --sigma-t 0.0176 --device cuda --out DIR
Writes DIR/torchcor.json and DIR/torchcor_activation_ms.npy (float64, one
value per node in the .pts file's order, NaN where never activated).
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import types
from importlib import metadata
from pathlib import Path

import numpy as np
import torch


def import_torchcor():
    # torchcor.core imports pyvista at import time, only for VTK output,
    # which this driver never asks for; pyvista needs vtk (> 100 MB), so
    # when it is absent an empty stand-in module takes its place.
    try:
        import pyvista  # noqa: F401
    except ImportError:
        sys.modules["pyvista"] = types.ModuleType("pyvista")
    import torchcor  # noqa: F401
    from torchcor.ionic import TenTusscherPanfilov
    from torchcor.simulator import Monodomain
    return Monodomain, TenTusscherPanfilov


def read_vtx(path):
    # openCARP node list: count, `intra`/`extra`, then one index per line.
    with open(path) as f:
        count = int(f.readline().split()[0])
        f.readline()
        nodes = np.array(f.read().split(), dtype=np.int64)
    if len(nodes) != count:
        sys.exit(f"{path}: declares {count} nodes, holds {len(nodes)}")
    return nodes


def stage_mesh(base, vtx_nodes, stage):
    """TorchCor's reader takes a folder holding one .pts, .elem and .lon and
    wants 3 numbers per .lon line (a 6-column fibre+sheet file breaks its
    conductivity tensors), so the files go into `stage`: links to .pts and
    .elem, the fibre columns of .lon, and the stimulus node list (its
    reader also fails on a list of one node, which is written twice)."""
    for ext in ("pts", "elem"):
        os.symlink(os.path.abspath(f"{base}.{ext}"), stage / f"mesh.{ext}")
    with open(f"{base}.lon") as f:
        f.readline()  # the number of directions per element (1 or 2)
        three = len(f.readline().split()) == 3
    if three:
        os.symlink(os.path.abspath(f"{base}.lon"), stage / "mesh.lon")
    else:
        lon = np.loadtxt(f"{base}.lon", dtype=np.float64, skiprows=1, ndmin=2)
        np.savetxt(stage / "mesh.lon", lon[:, :3], fmt="%.8f", header="1", comments="")
    nodes = vtx_nodes if len(vtx_nodes) > 1 else np.repeat(vtx_nodes, 2)
    vtx = stage / "stim.vtx"
    with open(vtx, "w") as f:
        f.write(f"{len(nodes)}\nintra\n" + "".join(f"{n}\n" for n in nodes))
    return vtx


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mesh", required=True, help="openCARP basename: BASENAME.pts (um), .elem (Tt), .lon")
    p.add_argument("--stim-vtx", required=True, help="openCARP .vtx node list of the stimulus")
    p.add_argument("--duration-ms", type=float, required=True)
    p.add_argument("--dt-ms", type=float, default=0.01)
    p.add_argument("--sigma-l", type=float, required=True,
                   help="monodomain conductivity along the fibres, S/m (D = sigma/1.4 mm^2/ms)")
    p.add_argument("--sigma-t", type=float, required=True,
                   help="monodomain conductivity across the fibres, S/m")
    p.add_argument("--stim-strength", type=float, default=100.0,
                   help="stimulus current, uA/uF = pA/pF = mV/ms (fibril: current = 100.0, or "
                        "current_density = 140000 uA/cm^3 with chi 140/mm, Cm 1 uF/cm^2) "
                        "[default 100, TorchCor's example; the TT06 paper's 52 for 1 ms excites "
                        "one cell but stays subthreshold on a node face of two_boxes]")
    p.add_argument("--stim-duration-ms", type=float, default=1.0, help="[default 1 ms]")
    p.add_argument("--threshold-mv", type=float, default=-40.0,
                   help="activation threshold, mV [default -40, fibril's for ten_tusscher_2006; "
                        "TorchCor's own default is 0]")
    p.add_argument("--device", default="cuda")
    p.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    p.add_argument("--mass-lumping", action="store_true",
                   help="lump TorchCor's mass matrix (fibril lumps; TorchCor's default does not)")
    p.add_argument("--cg-atol", type=float, default=1e-5, help="[default 1e-5, TorchCor's example]")
    p.add_argument("--cg-rtol", type=float, default=1e-5, help="[default 1e-5, TorchCor's example]")
    p.add_argument("--cg-max-iter", type=int, default=100)
    p.add_argument("--eager-ionic", action="store_true",
                   help="skip TorchCor's torch.compile of the ionic model (slower; "
                        "used anyway when compiling fails)")
    p.add_argument("--torchcor-lat", type=float, metavar="SNAPSHOT_MS",
                   help="use TorchCor's solve() and compute_activation_map (snapshots every "
                        "SNAPSHOT_MS, interpolated) instead of the per-step crossing")
    p.add_argument("--out", required=True)
    a = p.parse_args()

    dev = torch.device(a.device)
    if dev.type == "cuda":
        if dev.index is None:
            dev = torch.device("cuda", torch.cuda.current_device())
        torch.cuda.set_device(dev)
    dtype = getattr(torch, a.dtype)

    def sync():
        if dev.type == "cuda":
            torch.cuda.synchronize(dev)

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix="torchcor-mesh-"))
    nt = int(round(a.duration_ms / a.dt_ms))
    dt = a.dt_ms

    Monodomain, TenTusscherPanfilov = import_torchcor()
    vtx = stage_mesh(a.mesh, read_vtx(a.stim_vtx), stage)  # not timed
    t0 = time.perf_counter()
    cell = TenTusscherPanfilov(dt=dt, cell_type="EPI", device=dev, dtype=dtype)
    sim = Monodomain(ionic_models=[cell], T=nt * dt, dt=dt, device=dev, dtype=dtype,
                     mass_lumping=a.mass_lumping)
    sim.load_mesh(path=str(stage), unit_conversion=1000)  # .pts in um -> mm
    sim.add_conductivity(None, il=a.sigma_l, it=a.sigma_t)  # all regions, monodomain
    # Stimulus: TorchCor applies it at step n (t = n dt) when start <= t <=
    # start + duration; duration + dt/2 gives exactly round(duration/dt)
    # steps despite rounding in t. The period defaults to the run's length,
    # which would fire it again at the last step, hence a far one.
    sim.add_stimulus(str(vtx), start=0.0, duration=a.stim_duration_ms + 0.5 * dt,
                     intensity=a.stim_strength, period=10.0 * (nt + 1) * dt, count=1)
    n = sim.n_nodes
    cg_iters = 0
    sync()
    setup_s = time.perf_counter() - t0

    # TorchCor wraps the ionic step in torch.compile, which compiles at the
    # first call (about a minute on 2 CPU cores): done here, untimed, on
    # throwaway states; initialize() (called again below or by solve())
    # resets every state of the model.
    t1 = time.perf_counter()
    compiled = not a.eager_ionic
    if compiled:
        try:
            v = cell.initialize(cell.node_indices.shape[0])
            for _ in range(2):
                cell.differentiate(v.clone())
        except Exception as e:  # e.g. no C compiler for Inductor/Triton
            print(f"torch.compile of the ionic model failed ({type(e).__name__}: {e}); "
                  "running it eagerly", file=sys.stderr)
            compiled = False
    if not compiled:
        # The compiled function is an attribute of the instance that hides
        # the class's plain method; removing it runs the model eagerly.
        vars(cell).pop("differentiate", None)
    sync()
    compile_s = time.perf_counter() - t1
    first_step_s = None

    if a.torchcor_lat:
        # TorchCor's own driver: solve() assembles, initialises and steps
        # (its assembly is inside the timed wall here).
        t1 = time.perf_counter()
        vm = sim.solve(a_tol=a.cg_atol, r_tol=a.cg_rtol, max_iter=a.cg_max_iter,
                       snapshot_interval=a.torchcor_lat, verbose=False, result_path=str(out))
        sync()
        wall_s = time.perf_counter() - t1
        lat = sim.compute_activation_map(vm, snapshot_interval=a.torchcor_lat,
                                         threshold=a.threshold_mv, interpolate=True)
        lat_method = (f"TorchCor compute_activation_map, snapshots every {a.torchcor_lat} ms, "
                      f"linear interpolation, threshold {a.threshold_mv} mV")
        del vm
    else:
        # The same set-up as TorchCor's solve(), then its step() in our loop
        # so that the crossing is found at every step, on the device.
        t1 = time.perf_counter()
        sim.assemble()
        u = torch.zeros(n, dtype=dtype, device=dev)
        u[cell.node_indices] = cell.initialize(cell.node_indices.shape[0])
        sim.cg.initialize(x=u, linear_guess=True)
        thr = a.threshold_mv
        lat = torch.full((n,), float("nan"), dtype=torch.float64, device=dev)
        prev = u.clone()  # step() may hand back the CG's own buffer
        sync()
        setup_s += time.perf_counter() - t1
        t1 = time.perf_counter()
        t = 0.0
        for step in range(1, nt + 1):
            t_prev, t = t, step * dt
            u, it, _, _ = sim.step(u, t, a.cg_atol, a.cg_rtol, a.cg_max_iter)
            if it >= a.cg_max_iter:
                sys.exit(f"CG did not converge in {a.cg_max_iter} iterations at t = {t} ms")
            cg_iters += it + 1  # TorchCor counts the iterations after the first
            up = (prev < thr) & (u >= thr) & torch.isnan(lat)
            frac = ((thr - prev) / (u - prev)).to(torch.float64)
            lat = torch.where(up, t_prev + frac * dt, lat)
            prev.copy_(u)
            if step == 1:
                sync()
                first_step_s = time.perf_counter() - t1
        sync()
        wall_s = time.perf_counter() - t1
        lat_method = (f"first upward crossing of {thr} mV, checked every step, "
                      "linear interpolation within the step")

    shutil.rmtree(stage)
    lat = lat.cpu().numpy().astype(np.float64)
    np.save(out / "torchcor_activation_ms.npy", lat)
    act = np.isfinite(lat)
    info = {
        "wall_s": wall_s,
        "setup_s": setup_s,
        "compile_s": compile_s,
        "first_step_s": first_step_s,
        "nodes": int(n),
        "elements": int(sim.elems.elems_num()),
        "dt_ms": dt,
        "duration_ms": nt * dt,
        "steps": nt,
        "node_steps_per_s": n * nt / wall_s,
        "torchcor_version": metadata.version("torchcor"),
        "torch_version": torch.__version__,
        "device": torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu",
        "dtype": a.dtype + " (CG in float64)",
        "mass_lumping": a.mass_lumping,
        "ionic_model": "TenTusscherPanfilov, cell_type EPI",
        "ionic_torch_compile": compiled,
        "sigma_l_S_per_m": a.sigma_l,
        "sigma_t_S_per_m": a.sigma_t,
        "chi_per_mm": sim.Chi,
        "cm_uF_per_mm2": sim.Cm,
        "stimulus": {"nodes": int(len(read_vtx(a.stim_vtx))), "strength_uA_per_uF": a.stim_strength,
                     "start_ms": 0.0, "duration_ms": a.stim_duration_ms},
        "cg": {"atol": a.cg_atol, "rtol": a.cg_rtol, "max_iter": a.cg_max_iter,
               "mean_iterations_per_step": cg_iters / nt if not a.torchcor_lat else None},
        "activation": {"method": lat_method, "activated": int(act.sum()),
                       "min_ms": float(lat[act].min()) if act.any() else None,
                       "max_ms": float(lat[act].max()) if act.any() else None},
    }
    (out / "torchcor.json").write_text(json.dumps(info, indent=2) + "\n")
    print(json.dumps(info, indent=2))


if __name__ == "__main__":
    main()
