"""Times a run through the Python package the way `fibril run` times
its own (the stepping loop, after the simulation is built), for the
comparison of scripts/device-python.sh: frames every EVERY ms holding the
variables as NumPy arrays, or no frames at all. Prints one JSON line.

    python scripts/python-overhead.py --size 256 --duration-ms 200 --every-ms 10
"""

import argparse
import json
import time

import fibril

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="karma")
parser.add_argument("--size", type=int, default=256)
parser.add_argument("--duration-ms", type=float, default=200.0)
parser.add_argument("--every-ms", type=float, default=None, help="frame interval (none: sim.advance)")
parser.add_argument("--precision", default="f32")
parser.add_argument("--device", default="gpu")
args = parser.parse_args()

n = args.size
sim = fibril.Simulation(args.model, grid=(n, n, n), precision=args.precision, device=args.device)
t0 = time.perf_counter()
frames = 0
if args.every_ms is None:
    sim.advance(args.duration_ms)
else:
    for frame in sim.run(args.duration_ms, every_ms=args.every_ms, progress=False):
        frames += 1
wall = time.perf_counter() - t0
print(json.dumps({
    "tool": "fibril-python",
    "model": args.model,
    "size": n,
    "steps": sim.step,
    "frames": frames,
    "seconds": round(wall, 4),
    "steps_per_s": round(sim.step / wall, 1),
    "device": sim.placement["device"],
    "method": sim.placement["method"],
}))
