"""The Python package against the command line (the same bits), and its
own behaviour: frames, state in and out, maps, the pseudo-ECG, tissue and
meshes from arrays, checkpoints, Ctrl-C and errors. CPU only (CI has no GPU)."""

import json
import os
import re
import signal
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

import fibril

ROOT = Path(__file__).resolve().parents[2]


def fibril_binary():
    """The command line built from this checkout (FIBRIL_BIN, or the test
    or release build); the comparisons need it."""
    given = os.environ.get("FIBRIL_BIN")
    candidates = [Path(given)] if given else [ROOT / "target/debug/fibril", ROOT / "target/release/fibril"]
    for c in candidates:
        if c.is_file():
            return c
    pytest.skip("skipped: no fibril binary (build it with cargo build, or set FIBRIL_BIN)")


def cli_run(tmp_path, *args):
    out = tmp_path / "cli"
    subprocess.run(
        [str(fibril_binary()), "run", "--backend", "cpu", "-q", "--out", str(out), *args],
        check=True,
        capture_output=True,
    )
    return out


def last_snapshot(out, variable=0):
    index = json.loads((out / "snapshots.json").read_text())
    return np.load(out / index[-1]["files"][variable])


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    view = np.uint32 if a.dtype == np.float32 else np.uint64
    return np.array_equal(a.view(view), b.view(view))


STIMULUS = {"region": "box", "x": [0, 3], "at_ms": 40.0, "duration_ms": 1.0}


def test_the_same_bits_as_the_command_line(tmp_path):
    # A Beeler-Reuter sheet: the scroll protocol, a stimulus, maps and a
    # pseudo-ECG, f64; the CLI's files against the package's arrays.
    out = cli_run(
        tmp_path,
        "--model", "beeler_reuter", "--nx", "40", "--ny", "40", "--nz", "1", "--protocol", "scroll",
        "--s2-ms", "30", "--duration-ms", "60", "--precision", "f64", "--apd-map",
        "--repolarisation-threshold", "-70",
        "--stimulus", '{ region = "box", x = [0, 3], at_ms = 40.0, duration_ms = 1.0 }',
        "--electrode", '{ name = "E", position = [10.0, 4.0, 2.0] }',
    )
    sim = fibril.Simulation(
        "beeler_reuter", grid=(40, 40), scroll=30.0, stimuli=[STIMULUS], precision="f64", device="cpu",
        maps={"up": fibril.model("beeler_reuter")["activation_threshold"], "down": -70.0},
        electrodes={"E": (10.0, 4.0, 2.0)},
    )
    frames = list(sim.run(60.0, every_ms=20.0))
    assert [f.t_ms for f in frames] == [20.0, 40.0, 60.0]
    assert same_bits(last_snapshot(out), frames[-1]["V"])
    maps = sim.maps()
    for name in ("activation", "repolarisation", "apd"):
        assert same_bits(np.load(out / f"{name}.npy"), maps[name]), name
    assert np.isfinite(maps["activation"]).any()
    ecg = sim.ecg()
    text = (out / "ecg.csv").read_text().splitlines()
    cli = np.array([[float(x) for x in line.split(",")] for line in text[1:]])
    assert np.array_equal(cli[:, 0], ecg["t_ms"]) and np.allclose(cli[:, 1], ecg["E"], rtol=1e-12, atol=0)


def test_frames_do_not_change_the_run():
    def make():
        return fibril.Simulation("aliev_panfilov", grid=(64, 64), scroll=True, tips_every_ms=1.0, device="cpu")

    straight, framed = make(), make()
    straight.advance(100.0)
    steps = [f.step for f in framed.run(100.0, every_ms=12.5, variables=["u"])]
    assert steps == [625 * k for k in range(1, 9)]
    for name in straight.variables:
        assert same_bits(straight[name], framed[name]), name
    a, b = straight.tips(), framed.tips()
    assert len(a["t_ms"]) > 0 and all(np.array_equal(a[k], b[k]) for k in a)


def test_the_state_in_and_out():
    sim = fibril.Simulation("aliev_panfilov", grid=(48, 32), initial="rest", device="cpu")
    assert sim.shape == (1, 32, 48) and sim.variables == ["u", "v"]
    u = np.zeros(sim.shape, dtype=np.float32)
    u[:, :, :5] = 1.0  # a planar wave set from NumPy
    sim.state = {"u": u}
    assert same_bits(sim["u"], u) and not sim["v"].any()
    probes = {"left": ("u", (2, 16, 0)), "right": ("u", (40, 16, 0))}
    run = sim.run(40.0, every_ms=1.0, probes=probes)
    for _ in run:
        pass
    p = run.arrays()
    assert len(p["t_ms"]) == 40 and p["right"].max() > 0.5 > p["right"][0], "the wave reaches the right"
    with pytest.raises(fibril.FibrilError, match="shape"):
        sim.state = {"u": np.zeros((3, 3))}
    with pytest.raises(fibril.FibrilError, match="no variable 'w'"):
        sim.state = {"w": u}
    with pytest.raises(fibril.FibrilError, match="outside"):
        sim.run(1.0, probes={"p": ("u", (99, 0, 0))})


def test_a_tissue_from_arrays_is_the_command_line_tissue(tmp_path):
    z, y, x = np.mgrid[0:4, 0:16, 0:24]
    labels = (~((9 <= x) & (x < 14) & (5 <= y) & (y < 10))).astype(np.uint8)
    np.save(tmp_path / "mask.npy", labels)
    config = tmp_path / "tissue.toml"
    config.write_text('[tissue]\nmask = "mask.npy"\nd_fibre = 1.0\nd_cross = 0.25\n[grid]\ndx = 0.5\n')
    out = cli_run(tmp_path, str(config), "--model", "aliev_panfilov", "--steps", "200", "--precision", "f64")
    tissue = fibril.Tissue(labels, 0.5, d_fibre=1.0, d_cross=0.25)
    sim = fibril.Simulation("aliev_panfilov", tissue=tissue, precision="f64", device="cpu")
    assert sim.shape == (4, 16, 24)
    sim.advance(200 * sim.dt_ms)
    assert same_bits(last_snapshot(out), sim["u"])


def test_parameters_by_region_and_by_cell(tmp_path):
    # A TP06 sheet whose right half (label 2) has M cells' g_ks: given as a
    # region, as a field and to the command line, the same bits.
    labels = np.ones((1, 2, 10), dtype=np.uint8)
    labels[..., 5:] = 2
    np.save(tmp_path / "labels.npy", labels)
    config = tmp_path / "run.toml"
    config.write_text(
        '[grid]\ndx = 0.2\n[tissue]\nmask = "labels.npy"\nd_fibre = 0.154\n'
        '[[tissue.region]]\nlabel = 2\nparameters = { g_ks = 0.098 }\n'
    )
    out = cli_run(tmp_path, str(config), "--model", "ten_tusscher_2006", "--steps", "300", "--precision", "f64")
    tissue = fibril.Tissue(labels, 0.2, d_fibre=0.154)
    common = dict(tissue=tissue, precision="f64", device="cpu")
    by_region = fibril.Simulation("ten_tusscher_2006", region_parameters={2: {"g_ks": 0.098}}, **common)
    default = dict((name, value) for name, value, _ in fibril.model("ten_tusscher_2006")["parameters"])
    g_ks = np.where(labels == 2, 0.098, default["g_ks"])
    by_field = fibril.Simulation("ten_tusscher_2006", parameter_fields={"g_ks": g_ks}, **common)
    for sim in (by_region, by_field):
        sim.advance(300 * sim.dt_ms)
    assert same_bits(by_region["V"], by_field["V"])
    assert same_bits(last_snapshot(out), by_region["V"])
    with pytest.raises(fibril.FibrilError, match="region label 2.*mid"):
        fibril.Simulation("ten_tusscher_2006", region_parameters={2: {"preset": "mid"}}, **common)


def kuhn_box(n, h):
    """A box of n[0] x n[1] x n[2] nodes h apart, each cube cut into six tetrahedra."""
    idx = np.arange(np.prod(n)).reshape(n[2], n[1], n[0])
    zz, yy, xx = np.meshgrid(np.arange(n[2]), np.arange(n[1]), np.arange(n[0]), indexing="ij")
    points = np.stack([xx.ravel(), yy.ravel(), zz.ravel()], axis=1) * h
    c = [idx[k : n[2] - 1 + k, j : n[1] - 1 + j, i : n[0] - 1 + i].ravel() for k in (0, 1) for j in (0, 1) for i in (0, 1)]
    # Corners c[4k + 2j + i]; the six tetrahedra along the diagonal 0-7.
    paths = [(1, 3), (1, 5), (2, 3), (2, 6), (4, 5), (4, 6)]
    tets = np.concatenate([np.stack([c[0], c[a], c[b], c[7]], axis=1) for a, b in paths])
    return points.astype(np.float64), tets


def test_a_mesh_from_arrays():
    points, tets = kuhn_box((21, 3, 3), 0.5)
    mesh = fibril.Mesh(points, tets)
    assert (mesh.nodes, mesh.elements) == (189, 6 * 20 * 2 * 2)
    excite = {"region": "box", "at_ms": 0.0, "duration_ms": 1.0, "value": 1.0}
    sim = fibril.Simulation(
        "aliev_panfilov", mesh=mesh, mesh_diffusion=1.0, device="cpu",
        node_stimuli=[(excite, {"lo_mm": [-1, -1, -1], "hi_mm": [1.1, 2, 2]})],
        maps={"up": 0.5},
    )
    assert sim.shape == (189,)
    sim.advance(5.0)
    u = sim["u"]  # in the order of `points`
    near, far = points[:, 0] < 1.0, points[:, 0] > 9.5
    assert u[near].max() > 0.5 and u[far].max() < 0.1
    sim.advance(40.0)
    act = sim.maps()["activation"]
    assert np.all(np.diff([act[points[:, 0] == x].mean() for x in (2.0, 5.0, 8.0)]) > 0), "activation travels along x"
    with pytest.raises(fibril.FibrilError, match="names node"):
        fibril.Mesh(points, tets + 1000)


def test_a_checkpoint_continues_the_run(tmp_path):
    def make():
        return fibril.Simulation("aliev_panfilov", grid=(32, 32), scroll=True, maps={"up": 0.5, "down": 0.2}, device="cpu")

    straight = make()
    straight.advance(40.0)
    first = make()
    first.advance(15.0)
    first.save_checkpoint(tmp_path / "half.fibril")
    second = make()
    second.load_checkpoint(tmp_path / "half.fibril")
    assert second.step == first.step
    second.advance(25.0)
    assert same_bits(straight["u"], second["u"]) and same_bits(straight["v"], second["v"])
    assert same_bits(straight.maps()["apd"], second.maps()["apd"])
    other = fibril.Simulation("aliev_panfilov", grid=(33, 32), maps={"up": 0.5, "down": 0.2}, device="cpu")
    with pytest.raises(fibril.FibrilError, match="33"):
        other.load_checkpoint(tmp_path / "half.fibril")


def test_ctrl_c_stops_between_stretches():
    # Python's own SIGINT handler, also where the tests were started with
    # SIGINT ignored (a background job of a script), which Python inherits.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        sim = fibril.Simulation("karma", grid=(64, 64, 64), device="cpu")
        timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            sim.advance(4_000 * sim.dt_ms)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert 0 < sim.step < 4_000 and np.isfinite(sim["U"]).all()
    sim.advance(sim.dt_ms)  # it goes on from where it stopped


def test_bad_input_is_refused_before_any_work():
    with pytest.raises(fibril.FibrilError, match="unknown model 'hart'"):
        fibril.Simulation("hart")
    with pytest.raises(fibril.FibrilError, match="precision"):
        fibril.Simulation("karma", precision="f16", device="cpu")
    with pytest.raises(fibril.FibrilError, match=r"unstable.*use dt_ms=0\.06") as e:
        fibril.Simulation("karma", grid=(8, 8, 8), dt_ms=1.0, device="cpu")
    assert "--dt" not in str(e.value), "the fix is named as this package's keyword"
    with pytest.raises(fibril.FibrilError, match="no parameter \"nope\""):
        fibril.Simulation("karma", parameters={"nope": 1.0}, device="cpu")
    sim = fibril.Simulation("karma", device="cpu")
    with pytest.raises(fibril.FibrilError, match="whole number of time steps"):
        sim.advance(0.001)
    with pytest.raises(fibril.FibrilError, match="stimulus"):
        fibril.Simulation("karma", grid=(8, 8), stimuli=[{"region": "nowhere"}], device="cpu")


def test_the_progress_bar():
    pytest.importorskip("tqdm", reason="skipped: tqdm is not installed")
    sim = fibril.Simulation("karma", grid=(16, 16), device="cpu")
    frames = list(sim.run(10.0, every_ms=2.0, progress=True))
    assert len(frames) == 5


def test_the_readme_python_examples(tmp_path, monkeypatch):
    # Every ```python block of the README that imports fibril runs as it is.
    text = (ROOT / "README.md").read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "import fibril" in b]
    assert blocks, "the README shows the package"
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_fibrosis_is_the_command_lines_cell_for_cell(tmp_path):
    # A sheet with fibres along x: the package's patchy fibrosis uncouples
    # the cells that [tissue.fibrosis] writes to fibrosis.npy, seeded; a
    # run on it steps the same bits as the command line's.
    labels = np.ones((1, 40, 60), dtype=np.uint8)
    np.save(tmp_path / "labels.npy", labels)
    config = tmp_path / "run.toml"
    config.write_text(
        '[grid]\ndx = 0.25\n[tissue]\nmask = "labels.npy"\nd_fibre = 0.1\nd_cross = 0.025\n'
        '[tissue.fibrosis]\npattern = "patchy"\ndensity = 0.2\nseed = 7\nlength_mm = 2.0\nwidth_mm = 0.5\n'
    )
    out = cli_run(tmp_path, str(config), "--model", "luo_rudy_1991", "--steps", "50", "--precision", "f64")
    written = np.load(out / "fibrosis.npy")
    tissue = fibril.Tissue(labels, 0.25, d_fibre=0.1, d_cross=0.025)
    made = tissue.with_fibrosis("patchy", 0.2, seed=7, length_mm=2.0, width_mm=0.5)
    assert np.array_equal(made.labels, written)
    assert made.fibrosis["removed"] == int((written == 0).sum()) > 0.19 * labels.size
    assert made.fibrosis["patches"] > 0 and (tissue.labels == 1).all(), "the tissue given is left as it was"
    sim = fibril.Simulation("luo_rudy_1991", tissue=made, precision="f64", device="cpu")
    sim.advance(50 * sim.dt_ms)
    assert same_bits(last_snapshot(out), sim["V"])
    # Diffuse: the same seed the same cells, another seed others.
    a = tissue.with_fibrosis("diffuse", 0.3, seed=1).labels
    assert np.array_equal(a, tissue.with_fibrosis("diffuse", 0.3, seed=1).labels)
    assert not np.array_equal(a, tissue.with_fibrosis("diffuse", 0.3, seed=2).labels)
    with pytest.raises(fibril.FibrilError, match="density = 1.5"):
        tissue.with_fibrosis("diffuse", 1.5)
    with pytest.raises(fibril.FibrilError, match="pattern \"stripes\""):
        tissue.with_fibrosis("stripes", 0.1)
