"""fibril: cardiac electrophysiology on NVIDIA GPUs and CPUs, NumPy in and out.

The same engine as the ``fibril`` command: a simulation built here runs the
Rust library's solvers (the CPU reference, one GPU or several) and gives the
bits ``fibril run`` gives for the same run. This package only translates:
keywords to the engine's description, NumPy arrays in and out, frames as an
iterator, a progress bar. It computes nothing of its own.

>>> import fibril
>>> sim = fibril.Simulation("karma", grid=(64, 64), scroll=True)
>>> for frame in sim.run(20.0, every_ms=10.0):
...     print(frame.t_ms, frame["U"].shape)
10.0 (1, 64, 64)
20.0 (1, 64, 64)
"""

from __future__ import annotations

import copy
import math
import os
import re
import sys
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _fibril
from ._fibril import FibrilError, Mesh, gpu_count

__all__ = [
    "FibrilError",
    "Frame",
    "Mesh",
    "Run",
    "Simulation",
    "Tissue",
    "gpu_count",
    "model",
    "models",
]
__version__ = _fibril.__version__


def models() -> List[Dict[str, Any]]:
    """Every model fibril has: name, title, reference, variables (name,
    unit, meaning, rest value), parameters (name, default, unit), presets,
    and its usual dx, dt_ms, diffusion and precision."""
    return _fibril.models()


def model(name: str) -> Dict[str, Any]:
    """The description of one model (see :func:`models`)."""
    for m in _fibril.models():
        if m["name"] == name:
            return m
    known = ", ".join(m["name"] for m in _fibril.models())
    raise FibrilError(f"unknown model {name!r}; fibril has {known}")


def _toml_value(value: Any) -> str:
    """A Python value as TOML: the engine reads stimuli as TOML inline
    tables, as ``fibril run --stimulus`` does."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, os.PathLike):
        return _toml_value(os.fspath(value))
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise FibrilError(f"stimulus value {value!r} of type {type(value).__name__}: use numbers, strings or lists")


def _stimulus_text(stimulus: Union[str, Mapping[str, Any]]) -> str:
    if isinstance(stimulus, str):
        return stimulus
    return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in stimulus.items()) + " }"


# The command line's flags in fibril's messages, and the keywords of
# Simulation that set the same thing.
_FLAGS = {
    "--dt": "dt_ms=",
    "--dx": "dx=",
    "--diffusion": "diffusion=",
    "--s2-ms": "scroll=",
    "--stimulus": "stimuli=",
    "--precision": "precision=",
    "--preset": "preset=",
}


def _in_keywords(message: str) -> str:
    """fibril's message with the command line's flags named as this
    package's keywords (``use --dt 0.06`` reads ``use dt_ms=0.06``)."""
    for flag, keyword in _FLAGS.items():
        message = re.sub(re.escape(flag) + r"\s+(?=-?[\d.])", keyword, message)
        message = re.sub(re.escape(flag) + r"(?![-\w])", keyword.rstrip("="), message)
    return message


def _on_nodes(stimulus: Union[str, Mapping[str, Any]]) -> Union[str, Mapping[str, Any]]:
    """A stimulus on a mesh's nodes: its nodes are the selection, so the
    grid region a stimulus table names is not used (a box is put in)."""
    if isinstance(stimulus, str) or "region" in stimulus:
        return stimulus
    return {"region": "box", **stimulus}


class Tissue:
    """Voxel tissue from NumPy arrays, indexed ``[z, y, x]``.

    ``labels``: 0 where there is no tissue, 1.. for tissue (a label may have
    its own conductivities, ``regions``); a boolean mask is labels 0/1.
    ``fibres`` (and ``sheets``): one unit vector per cell, shape
    ``labels.shape + (3,)``, or one direction for all (``fibre=(x, y, z)``).
    ``d_fibre``, ``d_cross`` (``d_sheet``): diffusion coefficients along and
    across the fibres, in the model's units (mm^2/ms for the ionic models).
    ``regions``: ``{label: (d_fibre, d_cross[, d_sheet])}``.
    ``layout``: ``"compact"`` (only tissue cells stored, the default) or
    ``"dense"``. The tissue sets the grid and dx of the simulation.
    """

    def __init__(
        self,
        labels: np.ndarray,
        dx: float,
        *,
        d_fibre: float,
        d_cross: Optional[float] = None,
        d_sheet: Optional[float] = None,
        fibres: Optional[np.ndarray] = None,
        sheets: Optional[np.ndarray] = None,
        fibre: Sequence[float] = (1.0, 0.0, 0.0),
        sheet: Optional[Sequence[float]] = None,
        regions: Optional[Mapping[int, Sequence[float]]] = None,
        layout: str = "compact",
    ) -> None:
        labels = np.asarray(labels)
        if labels.ndim == 2:
            labels = labels[np.newaxis]
        self.labels = np.ascontiguousarray(labels, dtype=np.uint8)
        self.dx = float(dx)
        cross = d_fibre if d_cross is None else d_cross
        self.conductivity = (float(d_fibre), float(cross), None if d_sheet is None else float(d_sheet))
        as_field = lambda a: None if a is None else np.ascontiguousarray(np.asarray(a, dtype=np.float32).reshape(self.labels.shape + (3,)))  # noqa: E731
        self.fibres = as_field(fibres)
        self.sheets = as_field(sheets)
        self.fibre = tuple(float(v) for v in fibre)
        self.sheet = None if sheet is None else tuple(float(v) for v in sheet)
        self.regions = {}
        for label, c in (regions or {}).items():
            c = tuple(float(v) for v in c)
            self.regions[int(label)] = (c[0], c[1], c[2] if len(c) > 2 else None)
        self.layout = layout

    def with_fibrosis(
        self,
        pattern: str,
        density: float,
        *,
        seed: int = 0,
        length_mm: float = 3.0,
        width_mm: float = 0.5,
    ) -> "Tissue":
        """This tissue with fibrosis: cells uncoupled by fibril's seeded
        generator, their label set to 0 (removed from the operator, as
        ``[tissue.fibrosis]`` in a run file does; the same seed gives the
        same cells). ``pattern``: ``"diffuse"`` (each cell with probability
        ``density``) or ``"patchy"`` (ellipsoids ``length_mm`` along the
        fibres by ``width_mm`` across, until ``density`` of the tissue is
        gone). The new tissue's ``fibrosis`` says what was done:
        ``{"tissue_cells", "removed", "patches"}``."""
        labels, (cells, removed, patches) = _fibril.fibrosis(
            self._engine_dict(), pattern, float(density), int(seed), float(length_mm), float(width_mm)
        )
        made = copy.copy(self)
        made.labels = np.ascontiguousarray(labels, dtype=np.uint8)
        made.fibrosis = {"tissue_cells": cells, "removed": removed, "patches": patches}
        return made

    def _engine_dict(self) -> Dict[str, Any]:
        return {
            "labels": self.labels,
            "dx": self.dx,
            "conductivity": self.conductivity,
            "fibres": self.fibres,
            "sheets": self.sheets,
            "fibre": self.fibre,
            "sheet": self.sheet,
            "regions": sorted(self.regions.items()),
            "layout": self.layout,
        }


class Frame:
    """The state at one frame of :meth:`Simulation.run`: ``step``, ``t_ms``
    and the variables asked for, by name (``frame["V"]``), as NumPy arrays
    of the simulation's precision (``[z, y, x]`` on a grid, nodes in the
    file's order on a mesh)."""

    __slots__ = ("step", "t_ms", "arrays")

    def __init__(self, step: int, t_ms: float, arrays: Dict[str, np.ndarray]) -> None:
        self.step = step
        self.t_ms = t_ms
        self.arrays = arrays

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.arrays[name]
        except KeyError:
            raise KeyError(f"{name!r} is not in this frame; it holds {sorted(self.arrays)}") from None

    def __repr__(self) -> str:
        return f"Frame(step={self.step}, t_ms={self.t_ms}, variables={list(self.arrays)})"


def _progress_bar(total_ms: float, show: Optional[bool]):
    """A tqdm bar (the notebook widget in Jupyter) when tqdm is installed
    and ``show`` is not False; None otherwise."""
    if show is False:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        if show:
            print("fibril: install tqdm for a progress bar (pip install tqdm)", file=sys.stderr)
        return None
    if show is None and not (sys.stderr.isatty() or "ipykernel" in sys.modules):
        return None
    return tqdm(total=total_ms, unit="ms", unit_scale=False, desc="fibril", leave=False)


class Run:
    """The frames of :meth:`Simulation.run`, computed as they are asked
    for. ``probes`` fills as it goes: ``{"t_ms": times, name: values}``
    for every probe given."""

    def __init__(
        self,
        sim: "Simulation",
        duration_ms: float,
        every_ms: float,
        variables: Sequence[str],
        probes: Mapping[str, Tuple[str, Tuple[int, ...]]],
        progress: Optional[bool],
    ) -> None:
        self._sim = sim
        self._every = sim._steps("the frame interval", every_ms)
        self._end = sim._engine.step + sim._steps("the duration", duration_ms)
        self._variables = list(variables)
        self._probes = dict(probes)
        # Only what the frame and the probes read is copied out.
        self._wanted = list(dict.fromkeys(self._variables + [var for var, _ in self._probes.values()]))
        self._indices = [sim._index(v) for v in self._wanted]
        self.probes: Dict[str, List[float]] = {"t_ms": []}
        for name in self._probes:
            self.probes[name] = []
        self._bar = _progress_bar(duration_ms, progress)
        self._start_ms = sim.time_ms

    def __iter__(self) -> "Run":
        return self

    def __next__(self) -> Frame:
        engine = self._sim._engine
        if engine.step >= self._end:
            self._close()
            raise StopIteration
        next_step = min((engine.step // self._every + 1) * self._every, self._end)
        try:
            engine.advance(next_step - engine.step)
        except BaseException:
            self._close()
            raise
        state = dict(zip(self._wanted, engine.state(self._indices)))
        frame = Frame(engine.step, engine.time_ms, {v: state[v] for v in self._variables})
        self.probes["t_ms"].append(frame.t_ms)
        for name, (var, index) in self._probes.items():
            self.probes[name].append(float(state[var][index]))
        if self._bar is not None:
            self._bar.update(frame.t_ms - self._start_ms - self._bar.n)
        return frame

    def _close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def arrays(self) -> Dict[str, np.ndarray]:
        """The probes as NumPy arrays."""
        return {k: np.asarray(v) for k, v in self.probes.items()}


def _from_engine(name: str, doc: str) -> Any:
    """A read-only property that is the engine's own."""
    return property(lambda self: getattr(self._engine, name), doc=doc)


class Simulation:
    """A simulation: a model on a grid, a tissue or a tetrahedral mesh,
    with its stimuli and what it records, on the CPU or GPUs.

    Everything is checked when it is built; a problem raises
    :class:`FibrilError` naming it and the fix, before any work.

    Parameters
    ----------
    model:
        A model's name (:func:`models` lists them).
    grid:
        ``(nx, ny)`` for a sheet or ``(nx, ny, nz)``; a single cell by default.
    dx, dt_ms, diffusion:
        Spacing, time step and D in the model's units (its usual ones by default).
    preset, parameters:
        The model's preset and parameters by name (``{"gNa": 16.0}``).
    precision:
        ``"f32"`` or ``"f64"`` (the model's default precision by default).
    device:
        ``"auto"`` (the first GPU when there is one, else the CPU), ``"cpu"``,
        ``"gpu"``, a GPU ordinal, or a list of ordinals (the grid split along z).
    initial:
        ``"planar"`` (the paper's planar wave) or ``"rest"``.
    scroll:
        True for the S1-S2 scroll/spiral protocol (the S2 time found), or the
        S2 time in ms.
    stimuli:
        Stimuli as dicts or TOML inline tables with the keys of ``fibril run``'s
        ``[[stimulus]]`` (``{"region": "box", "x": [0, 3], "at_ms": 40}``).
    maps:
        ``{"up": threshold, "down": threshold, "beats": n}`` records activation
        (repolarisation and APD with ``down``; the last ``beats`` beats) maps.
    electrodes:
        ``{name: (x, y, z)}`` in the model's space unit: a pseudo-ECG every
        ``ecg_every_ms``.
    tips_every_ms:
        Tracks spiral tips (a sheet) or filaments (a volume).
    tissue:
        A :class:`Tissue` instead of the uniform grid.
    mesh, mesh_diffusion, node_stimuli:
        A :class:`Mesh` instead of the grid, its diffusivity (``D`` or
        ``(along, across)``, or ``{region: (along, across)}``), and stimuli on
        its nodes: ``[(stimulus, nodes)]`` with ``nodes`` one of
        ``{"lo_mm": .., "hi_mm": ..}``, ``{"center_mm": .., "radius_mm": ..}``,
        ``{"nodes": [...]}``, ``{"label": n}``.
    region_parameters:
        The model's parameters by region label (the tissue's labels, or the
        mesh's element tags, a node taking the largest tag of its elements):
        ``{2: {"preset": "m", "g_ks": 0.2}}``, the preset (a cell type) and
        values over it and over ``parameters``.
    parameter_fields:
        Parameters given per cell, over the regions: ``{"g_kr": array}``,
        shaped as the tissue's labels (``[z, y, x]``), or one value per node
        of the mesh in the file's order.
    """

    def __init__(
        self,
        model: str,
        *,
        grid: Optional[Sequence[int]] = None,
        dx: Optional[float] = None,
        dt_ms: Optional[float] = None,
        diffusion: Optional[float] = None,
        preset: Optional[str] = None,
        parameters: Optional[Mapping[str, float]] = None,
        precision: Optional[str] = None,
        device: Union[str, int, Sequence[int]] = "auto",
        initial: Optional[str] = None,
        scroll: Union[bool, float] = False,
        stimuli: Sequence[Union[str, Mapping[str, Any]]] = (),
        maps: Optional[Mapping[str, Any]] = None,
        electrodes: Optional[Mapping[str, Sequence[float]]] = None,
        ecg_every_ms: float = 1.0,
        tips_every_ms: Optional[float] = None,
        tissue: Optional[Tissue] = None,
        mesh: Optional[Mesh] = None,
        mesh_diffusion: Union[None, float, Sequence[float], Mapping[int, Any]] = None,
        node_stimuli: Sequence[Tuple[Union[str, Mapping[str, Any]], Mapping[str, Any]]] = (),
        region_parameters: Optional[Mapping[int, Mapping[str, Any]]] = None,
        parameter_fields: Optional[Mapping[str, np.ndarray]] = None,
        check_every_steps: Optional[int] = None,
    ) -> None:
        info = globals()["model"](model)
        if precision is None:
            precision = info["default_precision"]
        if grid is not None:
            grid = tuple(int(n) for n in grid)
            if len(grid) == 2:
                grid = grid + (1,)
            if len(grid) != 3:
                raise FibrilError(f"grid = {grid}: give (nx, ny) or (nx, ny, nz)")
        if initial is None:
            initial = "rest" if mesh is not None else "planar"
        recording = None
        if maps is not None:
            unknown = set(maps) - {"up", "down", "beats"}
            if unknown:
                raise FibrilError(f"maps has {sorted(unknown)}; its keys are up, down and beats")
            up = maps.get("up", info.get("activation_threshold"))
            if up is None:
                raise FibrilError("maps needs up, the activation threshold")
            recording = (float(up), None if maps.get("down") is None else float(maps["down"]), maps.get("beats"))
        spec = {
            "model": model,
            "preset": preset,
            "parameters": [(k, float(v)) for k, v in (parameters or {}).items()],
            "grid": grid,
            "dx": dx,
            "dt_ms": dt_ms,
            "diffusion": diffusion,
            "precision": precision,
            "gpus": self._gpus(device),
            "initial": initial,
            "scroll": scroll is not False,
            "s2_ms": None if isinstance(scroll, bool) else float(scroll),
            "stimuli": [_stimulus_text(s) for s in stimuli],
            "recording": recording,
            "electrodes": [(n, tuple(float(c) for c in p)) for n, p in (electrodes or {}).items()],
            "ecg_every_ms": float(ecg_every_ms),
            "tips_every_ms": tips_every_ms,
            "check_every_steps": check_every_steps,
        }
        diffusion_by_region = None
        if mesh is not None:
            diffusion_by_region = self._mesh_diffusion(mesh_diffusion, info)
        try:
            self._engine = _fibril.Engine(
                spec,
                tissue=None if tissue is None else tissue._engine_dict(),
                mesh=mesh,
                mesh_diffusion=diffusion_by_region,
                node_stimuli=[(_stimulus_text(_on_nodes(s)), dict(n)) for s, n in node_stimuli],
                region_parameters=self._region_parameters(region_parameters),
                parameter_fields=[
                    (str(k), np.ascontiguousarray(np.asarray(v, dtype=np.float64)).reshape(-1))
                    for k, v in (parameter_fields or {}).items()
                ],
            )
        except FibrilError as e:
            raise FibrilError(_in_keywords(str(e))) from None
        self._info = info
        self.variables: List[str] = [v[0] for v in info["variables"]]
        self._dtype = np.float32 if precision == "f32" else np.float64

    @staticmethod
    def _region_parameters(
        regions: Optional[Mapping[int, Mapping[str, Any]]],
    ) -> List[Tuple[int, Optional[str], List[Tuple[str, float]]]]:
        out = []
        for label, values in (regions or {}).items():
            values = dict(values)
            preset = values.pop("preset", None)
            out.append((int(label), None if preset is None else str(preset), [(str(k), float(v)) for k, v in values.items()]))
        return out

    @staticmethod
    def _gpus(device: Union[str, int, Sequence[int]]) -> Optional[List[int]]:
        if isinstance(device, str):
            if device == "auto":
                return [0] if gpu_count() > 0 else None
            if device == "cpu":
                return None
            if device == "gpu":
                return [0]
            if device.startswith("gpu:"):
                return [int(device[4:])]
            raise FibrilError(f"device = {device!r}: use \"auto\", \"cpu\", \"gpu\", \"gpu:N\" or GPU ordinals")
        if isinstance(device, (int, np.integer)):
            return [int(device)]
        return [int(d) for d in device]

    @staticmethod
    def _mesh_diffusion(d: Any, info: Mapping[str, Any]) -> List[Tuple[int, Tuple[float, float]]]:
        """Diffusivities by region; region ``i32::MIN`` stands for every other."""
        every = -(2**31)

        def pair(v: Any) -> Tuple[float, float]:
            if isinstance(v, (int, float, np.number)):
                return (float(v), float(v))
            v = tuple(float(x) for x in v)
            return (v[0], v[1] if len(v) > 1 else v[0])

        if d is None:
            return [(every, pair(info["diffusion"]))]
        if isinstance(d, Mapping):
            return [(int(k), pair(v)) for k, v in d.items()]
        return [(every, pair(d))]

    # -- where it stands ------------------------------------------------

    model = _from_engine("model", "The model's name.")
    step = _from_engine("step", "Steps taken since the start.")
    time_ms = _from_engine("time_ms", "Simulated time since the start, in the model's time unit.")
    dt_ms = _from_engine("dt_ms", "The time step.")
    dx = _from_engine("dx", "The grid spacing (a mesh: its mean edge), in the model's space unit.")
    diffusion = _from_engine("diffusion", "D (a tissue or mesh: the largest).")
    precision = _from_engine("precision", '"f32" or "f64".')

    @property
    def shape(self) -> Tuple[int, ...]:
        """The shape of a variable's array: (nz, ny, nx), or (nodes,) on a mesh."""
        return tuple(self._engine.shape)

    @property
    def placement(self) -> Dict[str, str]:
        """Where it runs: ``kind`` ("cpu" or "gpu"), ``device`` and ``method``."""
        kind, device, method = self._engine.placement
        return {"kind": kind, "device": device, "method": method}

    def __repr__(self) -> str:
        p = self.placement
        return (
            f"Simulation({self.model!r}, shape={self.shape}, {self.precision}, step={self.step}, "
            f"t={self.time_ms} ms, on {p['device']} [{p['method']}])"
        )

    # -- running --------------------------------------------------------

    def _steps(self, what: str, ms: float) -> int:
        return self._engine.steps(what, float(ms))

    def advance(self, duration_ms: float) -> None:
        """Runs for ``duration_ms`` (a whole number of steps). Ctrl-C stops
        it between stretches of about a quarter of a second, the state
        whole."""
        self._engine.advance(self._steps("the duration", duration_ms))

    def run(
        self,
        duration_ms: float,
        every_ms: Optional[float] = None,
        variables: Optional[Sequence[str]] = None,
        probes: Optional[Mapping[str, Tuple[str, Sequence[int]]]] = None,
        progress: Optional[bool] = None,
    ) -> Run:
        """Frames every ``every_ms`` (and at the end) while running for
        ``duration_ms``: iterate over it. ``variables`` names what a frame
        holds (all by default); ``probes`` ``{name: (variable, (x, y, z))}``
        (a cell; ``(node,)`` on a mesh) records that value at every frame into
        ``run.probes``. ``progress``: a tqdm bar (None: when tqdm is
        installed and output is a terminal or notebook). Nothing runs until
        the frames are asked for; :meth:`advance` runs at once."""
        every_ms = duration_ms if every_ms is None else every_ms
        names = list(self.variables) if variables is None else list(variables)
        for v in names:
            self._index(v)
        wanted: Dict[str, Tuple[str, Tuple[int, ...]]] = {}
        for name, (var, cell) in (probes or {}).items():
            self._index(var)
            index = tuple(int(c) for c in cell)
            if len(self.shape) == 3 and len(index) == 3:
                index = index[::-1]  # (x, y, z) -> [z, y, x]
            if len(index) != len(self.shape) or any(not 0 <= i < n for i, n in zip(index, self.shape)):
                raise FibrilError(f"probe {name!r} at {tuple(cell)} is outside the simulation ({self.shape}, [z, y, x])")
            wanted[name] = (var, index)
        return Run(self, duration_ms, every_ms, names, wanted, progress)

    # -- the state ------------------------------------------------------

    def _index(self, name: str) -> int:
        try:
            return self.variables.index(name)
        except ValueError:
            raise FibrilError(f"{self.model} has no variable {name!r}; its variables are {self.variables}") from None

    def _arrays(self) -> Dict[str, np.ndarray]:
        return dict(zip(self.variables, self._engine.state()))

    @property
    def state(self) -> Dict[str, np.ndarray]:
        """Every variable as a NumPy array (a copy). Assigning a dict sets
        the variables it names (an initial condition), the others kept."""
        return self._arrays()

    @state.setter
    def state(self, values: Mapping[str, Any]) -> None:
        arrays: List[Optional[np.ndarray]] = [None] * len(self.variables)
        for name, value in values.items():
            a = np.asarray(value, dtype=self._dtype)
            if a.size != math.prod(self.shape):
                raise FibrilError(
                    f"{name} has shape {a.shape}; this simulation's variables have shape {self.shape}"
                )
            arrays[self._index(name)] = np.ascontiguousarray(a.reshape(self.shape))
        self._engine.set_state(arrays)

    def __getitem__(self, name: str) -> np.ndarray:
        return self._engine.state([self._index(name)])[0]

    # -- what was recorded ----------------------------------------------

    def maps(self) -> Optional[Dict[str, np.ndarray]]:
        """Activation (repolarisation, APD) maps in ms, NaN where there was
        none; with ``beats``, shape (beats, ...) oldest first."""
        return self._engine.maps()

    def ecg(self) -> Optional[Dict[str, np.ndarray]]:
        """The pseudo-ECG so far: ``{"t_ms": times, name: trace}``."""
        found = self._engine.ecg()
        if found is None:
            return None
        names, t, values = found
        out = {"t_ms": t}
        for k, name in enumerate(names):
            out[name] = values[:, k]
        return out

    def tips(self) -> Optional[Dict[str, np.ndarray]]:
        """Spiral tips of a sheet (``t_ms``, ``charge``, ``x``, ``y``, ``z``)
        or filament points of a volume (``t_ms``, ``filament``, ``x``,
        ``y``, ``z``), positions in the model's space unit."""
        found = self._engine.tips()
        if found is None:
            return None
        volume, rows = found
        second = "filament" if volume else "charge"
        return {k: rows[:, i] for i, k in enumerate(["t_ms", second, "x", "y", "z"])}

    def save_checkpoint(self, path: Union[str, os.PathLike]) -> None:
        """Writes the state, step and maps to ``path`` (whole or not at all),
        in the format of ``fibril run``'s checkpoints."""
        self._engine.save_checkpoint(os.fspath(path))

    def load_checkpoint(self, path: Union[str, os.PathLike]) -> None:
        """Continues from a checkpoint of this model, grid and precision."""
        self._engine.load_checkpoint(os.fspath(path))
