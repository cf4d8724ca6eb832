"""fibril's Karma step (fp32, 7-point Laplacian, mirror boundaries) in PyTorch
under torch.compile: the yardstick of `fibril bench` (scripts/device-bench.sh).

    python3 bench/torch_karma.py --size 256 --steps 1000      # steps/s, one JSON line
    python3 bench/torch_karma.py --size 256 --forms all       # every form, then the fastest
    python3 bench/torch_karma.py --size 128 --compare RUN_DIR  # against `fibril run ... --save-v`

The forms a user could write: the plain compiled step (`plain`), the same
with `mode="reduce-overhead"` or `mode="max-autotune"` (both replay CUDA
graphs: their outputs are cloned between calls) or
`mode="max-autotune-no-cudagraphs"`, and
one compiled function doing k steps per call (`steps2`, `steps4`). With
`--forms`, a JSON line per form as it finishes, then one whose
`steps_per_s` is the fastest form's: the baseline.
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
    a.add_argument("--forms", help="`all`, or forms separated by commas (%s)" % ", ".join(
        FORMS))
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
    if not o.forms:
        print(json.dumps(timed(o, "plain", step, 1, consts)))
        return
    names = FORMS if o.forms == "all" else o.forms.split(",")
    results = {}
    for name in names:
        fn, per_call = form(name)
        r = timed(o, name, fn, per_call, consts)
        results[name] = r["steps_per_s"]
        print(json.dumps(r), flush=True)
    fastest = max(results, key=results.get)
    print(json.dumps({"what": "torch_compile_fastest", "device": torch.cuda.get_device_name(),
                      "torch": torch.__version__, "n": o.size, "steps": o.steps, "forms": results,
                      "fastest": fastest, "steps_per_s": results[fastest]}))


FORMS = ["plain", "steps2", "steps4", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"]


def form(name):
    """(the compiled function, steps per call) of a form."""
    if name in ("plain", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"):
        mode = None if name == "plain" else name
        return torch.compile(karma_step, fullgraph=True, mode=mode), 1
    if name.startswith("steps"):
        k = int(name[len("steps"):])

        def several(u, v, r, dt, gamma, inv_vstar, dt_eps):
            for _ in range(k):
                u, v = karma_step(u, v, r, dt, gamma, inv_vstar, dt_eps)
            return u, v

        return torch.compile(several, fullgraph=True), k
    raise SystemExit(f"unknown form {name!r}; the forms are {', '.join(FORMS)}")


def timed(o, name, fn, per_call, consts):
    """Steps/s of `fn` (per_call steps a call) from the planar start, the
    median of o.repeats runs of o.steps steps after o.warmup."""
    # Both modes replay CUDA graphs.
    graphs = name in ("reduce-overhead", "max-autotune")
    u, v = planar_start(o.size, "cuda")
    calls, warm = max(1, o.steps // per_call), max(1, o.warmup // per_call)

    def call(u, v):
        if not graphs:
            return fn(u, v, *consts)
        # A replay overwrites the previous replay's outputs, which are this
        # call's inputs: the outputs are cloned, as torch's documentation
        # asks of outputs kept across calls.
        torch.compiler.cudagraph_mark_step_begin()
        u, v = fn(u, v, *consts)
        return u.clone(), v.clone()

    for _ in range(warm):
        u, v = call(u, v)
    times = []
    for _ in range(o.repeats):
        a_ev, b_ev = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        a_ev.record()
        for _ in range(calls):
            u, v = call(u, v)
        b_ev.record()
        b_ev.synchronize()
        times.append(a_ev.elapsed_time(b_ev) / 1e3)
    median = sorted(times)[len(times) // 2]
    assert torch.isfinite(u).all(), "the state became non-finite"
    steps = calls * per_call
    return {"what": "torch_compile", "form": name, "device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "n": o.size, "steps": steps, "repeat_seconds": times,
            "steps_per_s": steps / median, "cell_updates_per_s": o.size**3 * steps / median}


if __name__ == "__main__":
    main()
