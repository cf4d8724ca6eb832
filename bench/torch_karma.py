"""fibril's Karma step (fp32, 7-point Laplacian, mirror boundaries) in PyTorch
under torch.compile: the yardstick of `fibril bench` (scripts/device-bench.sh).

    python3 bench/torch_karma.py --size 256 --steps 1000      # steps/s, one JSON line
    python3 bench/torch_karma.py --size 128 --compare RUN_DIR  # against `fibril run ... --save-v`
"""
import argparse, json, pathlib
import numpy as np
import torch
import torch.nn.functional as F


def karma_step(u, v, r, dt, gamma, inv_vstar, dt_eps):
    # Mirror rule U[-1] = U[1], U[n] = U[n-2] is 'reflect' padding.
    p = F.pad(u[None, None], (1, 1, 1, 1, 1, 1), mode="reflect")[0, 0]
    c = p[1:-1, 1:-1, 1:-1]
    lap = p[1:-1, 1:-1, :-2] + p[1:-1, 1:-1, 2:] + p[1:-1, :-2, 1:-1] + p[1:-1, 2:, 1:-1] \
        + p[:-2, 1:-1, 1:-1] + p[2:, 1:-1, 1:-1] - 6.0 * c
    q = v * inv_vstar
    q = q * q
    h = (1.0 - torch.tanh(u - 3.0)) * (u * u) * 0.5
    du_dt = h * (gamma - q * q) - u
    u_next = u + r * lap + dt * du_dt
    v_next = v + dt_eps * ((u > 1.0).to(u.dtype) - v)
    return u_next, v_next


def planar_start(n, device):
    # fibril's planar start: U = 3 on the slices k <= 0.05 n, v = 0.5 everywhere.
    slab = sum(1 for k in range(n) if k <= 0.05 * n)
    u = torch.zeros((n, n, n), dtype=torch.float32, device=device)
    u[:slab] = 3.0
    return u, torch.full_like(u, 0.5)


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--size", type=int, default=256)
    a.add_argument("--steps", type=int, default=1000)
    a.add_argument("--warmup", type=int, default=100)
    a.add_argument("--repeats", type=int, default=5)
    a.add_argument("--compare", help="a `fibril run --save-v --format npy` directory from the planar start")
    o = a.parse_args()
    dt, dx, d, gamma, eps, vstar = 0.05, 0.6, 1.0, 1.5415, 0.01, 0.6
    consts = (d * dt / dx**2, dt, gamma, 1.0 / vstar, dt * eps)
    step = torch.compile(karma_step, fullgraph=True)
    if o.compare:
        run = pathlib.Path(o.compare)
        last = json.loads((run / "snapshots.json").read_text())[-1]
        u_f, v_f = (np.load(run / f) for f in last["files"][:2])
        u, v = planar_start(u_f.shape[0], "cuda")
        for _ in range(last["step"]):
            u, v = step(u, v, *consts)
        du = float(np.abs(u.cpu().numpy() - u_f).max())
        dv = float(np.abs(v.cpu().numpy() - v_f).max())
        print(json.dumps({"what": "torch_vs_fibril", "n": u_f.shape[0], "steps": last["step"],
                          "max_abs_diff_U": du, "max_abs_diff_v": dv, "excited": float((u_f > 1).mean())}))
        return
    u, v = planar_start(o.size, "cuda")
    for _ in range(o.warmup):
        u, v = step(u, v, *consts)
    times = []
    for _ in range(o.repeats):
        a_ev, b_ev = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        a_ev.record()
        for _ in range(o.steps):
            u, v = step(u, v, *consts)
        b_ev.record()
        b_ev.synchronize()
        times.append(a_ev.elapsed_time(b_ev) / 1e3)
    median = sorted(times)[len(times) // 2]
    assert torch.isfinite(u).all(), "the state became non-finite"
    print(json.dumps({"what": "torch_compile", "device": torch.cuda.get_device_name(), "torch": torch.__version__,
                      "n": o.size, "steps": o.steps, "repeat_seconds": times,
                      "steps_per_s": o.steps / median, "cell_updates_per_s": o.size**3 * o.steps / median}))


if __name__ == "__main__":
    main()
