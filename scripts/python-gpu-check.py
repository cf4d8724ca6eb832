"""On a machine with a GPU: the Python package gives the same bits on the
GPU as on the CPU (the engine's promise, seen from Python): a Karma box
with frames, a Beeler-Reuter sheet with the scroll protocol and maps, and
an Aliev-Panfilov spiral from a NumPy initial condition, f32 and f64.
Prints one line per case and exits 1 if any differs.

    python scripts/python-gpu-check.py
"""

import sys

import numpy as np

import fibril


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


def case(name, build, duration, every, setup=None):
    ok = True
    for precision in ("f32", "f64"):
        results = []
        for device in ("cpu", "gpu"):
            sim = build(precision, device)
            if setup:
                setup(sim)
            for _ in sim.run(duration, every_ms=every, progress=False):
                pass
            maps = sim.maps() or {}
            results.append((sim.state, maps, sim.placement["method"]))
        (cpu, cmaps, _), (gpu, gmaps, method) = results
        same = all(np.array_equal(bits(cpu[v]), bits(gpu[v])) for v in cpu)
        same &= all(np.array_equal(bits(cmaps[k]), bits(gmaps[k])) for k in cmaps)
        print(f"{name} {precision}: {'same bits' if same else 'DIFFERENT'} (GPU: {method})", flush=True)
        ok &= same
    return ok


def spiral_start(sim):
    u = np.zeros(sim.shape, dtype=np.float32 if sim.precision == "f32" else np.float64)
    v = np.zeros_like(u)
    u[:, :, :10] = 1.0
    v[:, : sim.shape[1] // 2, :] = 2.0
    sim.state = {"u": u, "v": v}


if fibril.gpu_count() == 0:
    print("skipped: no CUDA device")
    sys.exit(0)
ok = case("karma 64^3", lambda p, d: fibril.Simulation("karma", grid=(64, 64, 64), precision=p, device=d), 20.0, 5.0)
br = fibril.model("beeler_reuter")["activation_threshold"]
ok &= case(
    "beeler_reuter 128^2 scroll",
    lambda p, d: fibril.Simulation("beeler_reuter", grid=(128, 128), scroll=True, precision=p, device=d,
                                   maps={"up": br, "down": -70.0}),
    200.0, 50.0,
)
ok &= case(
    "aliev_panfilov 256^2 spiral",
    lambda p, d: fibril.Simulation("aliev_panfilov", grid=(256, 256), initial="rest", precision=p, device=d),
    200.0, 10.0, spiral_start,
)
sys.exit(0 if ok else 1)
