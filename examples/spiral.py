"""A 2D Aliev-Panfilov spiral set up the way finitewave's examples do it,
with NumPy in and out: a planar wave from the left edge, the lower half
made refractory (a cross-field S1-S2), frames every 10 time units, and the
last one drawn with matplotlib.

    pip install ./python matplotlib
    python examples/spiral.py            # the first GPU if there is one
    python examples/spiral.py --device cpu --n 256
"""

import argparse
import time

import numpy as np

import fibril

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--n", type=int, default=512, help="cells along each side")
parser.add_argument("--duration", type=float, default=1000.0, help="time units to simulate")
parser.add_argument("--device", default="auto", help="auto, cpu, gpu or gpu:N")
parser.add_argument("--out", default="spiral.png", help="the picture of the last frame")
args = parser.parse_args()

# Aliev & Panfilov 1996 (k = 8, a = 0.15, eps0 = 0.002, mu1 = 0.2, mu2 = 0.3),
# D = 1, dx = 0.5, dt = 0.02: the model's defaults in fibril.
sim = fibril.Simulation("aliev_panfilov", grid=(args.n, args.n), initial="rest", device=args.device)
u = np.zeros(sim.shape, dtype=np.float32)
v = np.zeros(sim.shape, dtype=np.float32)
u[:, :, :10] = 1.0           # S1: the left edge excited
v[:, : args.n // 2, :] = 2.0  # the lower half refractory: the wave's end curls
sim.state = {"u": u, "v": v}

t0 = time.perf_counter()
trace = []
for frame in sim.run(args.duration, every_ms=10.0, variables=["u"]):
    trace.append(frame["u"][0, args.n // 4, args.n // 4])  # a point probe, from NumPy
wall = time.perf_counter() - t0
print(f"{sim.step} steps of {args.n}^2 in {wall:.2f} s on {sim.placement['device']} ({sim.step / wall:,.0f} steps/s)")

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

fig, (ax, tr) = plt.subplots(1, 2, figsize=(10, 4.5), gridspec_kw={"width_ratios": [1, 1.3]})
image = ax.imshow(frame["u"][0], origin="lower", cmap="viridis", vmin=0, vmax=1)
ax.set_title(f"u at t = {frame.t_ms:g}")
fig.colorbar(image, ax=ax, fraction=0.046)
tr.plot(np.arange(1, len(trace) + 1) * 10.0, trace)
tr.set_xlabel("t")
tr.set_ylabel(f"u at cell ({args.n // 4}, {args.n // 4})")
fig.tight_layout()
fig.savefig(args.out, dpi=100)
print(f"wrote {args.out}")
