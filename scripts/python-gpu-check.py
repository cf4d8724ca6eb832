"""On a machine with a GPU: the Python package gives the same bits on the
GPU as on the CPU (the engine's promise, seen from Python): a Karma box
with frames, a Beeler-Reuter sheet with the scroll protocol and maps, and
an Aliev-Panfilov spiral from a NumPy initial condition, f32 and f64.
Prints one line per case and exits 1 if any differs.

    python scripts/python-gpu-check.py            # the first GPU
    python scripts/python-gpu-check.py 0 1        # the grid split over GPUs 0 and 1
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
        for device in ("cpu", GPUS):
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


GPUS = [int(g) for g in sys.argv[1:]] or [0]
if fibril.gpu_count() < max(GPUS) + 1:
    print(f"skipped: this machine has {fibril.gpu_count()} CUDA device(s), the check asks for {GPUS}")
    sys.exit(0)
# Several GPUs share the grid along z: boxes then, sheets on one GPU.
BR, AP = ((128, 128), (256, 256)) if len(GPUS) == 1 else ((64, 64, 32), (96, 96, 32))
S2 = True if len(GPUS) == 1 else 30.0  # a box's S2 at 30 ms (the search times a sheet's)
ok = case("karma 64^3", lambda p, d: fibril.Simulation("karma", grid=(64, 64, 64), precision=p, device=d), 20.0, 5.0)
br = fibril.model("beeler_reuter")["activation_threshold"]
ok &= case(
    f"beeler_reuter {BR} scroll",
    lambda p, d: fibril.Simulation("beeler_reuter", grid=BR, scroll=S2, precision=p, device=d,
                                   maps={"up": br, "down": -70.0}),
    200.0, 50.0,
)
ok &= case(
    f"aliev_panfilov {AP} spiral",
    lambda p, d: fibril.Simulation("aliev_panfilov", grid=AP, initial="rest", precision=p, device=d),
    200.0, 10.0, spiral_start,
)
sys.exit(0 if ok else 1)
