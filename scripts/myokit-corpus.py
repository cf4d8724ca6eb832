#!/usr/bin/env python3
"""Myokit survey of every CellML file in a folder (2 beats at 1 Hz each).

What it does
------------
For every *.cellml file of --cellml-dir (sorted by name), this script loads
the file with Myokit, applies the same stimulus protocol as
scripts/myokit-reference.py, solves 2 beats with Myokit's CVODE simulation
and measures the second beat, t in [1000, 2000) ms:

  rest_mv      V at t = 1000 ms, just before the second stimulus.
  peak_mv      max V over the beat.
  max_dvdt     max dot(V) over the beat in mV/ms (logged every 0.001 ms
               over the first 10 ms of the beat, every 0.01 ms after).
  apd90_ms     from the max-dV/dt log point to the first later crossing of
               rest + 0.1*(peak - rest), linearly interpolated (empty / nan
               if V does not come back down within the beat).

The loading, the protocol, the solve and the measurements are the functions
of scripts/myokit-reference.py (load_annotated, prepare, run_model,
measure), imported from that file; see its docstring for the details.  It is
a survey: each file is solved once, from the file's initial values, for 2
beats only, so the numbers are not steady state.

Protocol
--------
* The oxmeta `membrane_stimulus_current` is replaced by `pace * amplitude`
  (amplitude = file value of `membrane_stimulus_current_amplitude`), with
  pace = myokit.pacing.blocktrain(period=1000 ms, duration=file value of
  `membrane_stimulus_current_duration` in ms, offset=0): pulses at t = 0
  and 1000 ms.  The file's own period/offset/start/end are unused.
* Time is converted to ms and V to mV if the file uses other units
  (Myokit's Variable.convert_unit).
* The oxmeta `cytosolic_calcium_concentration` annotation is not needed
  here; a file without it is still solved (note: "no Cai annotation").
  The other four annotations (stimulus current, amplitude, duration,
  membrane voltage) are required.
* CVODE: abs tol 1e-8, rel tol 1e-6 (--atol / --rtol), max step = the
  stimulus duration.  If the solve fails at these tolerances it is tried
  once more at abs 1e-10, rel 1e-8 (--retry-atol / --retry-rtol), and the
  note says so.

Each file runs in its own Python subprocess with a wall-clock limit
(--timeout, default 120 s, including Myokit's compilation of the model);
a file that goes past it is killed and gets status "timeout".  A file
Myokit cannot load or solve gets status "error" and the reason in `note`;
the run goes on with the next file.  Rows are written (and flushed) as each
file finishes, so a partial CSV survives an interrupted run.

Output columns: file, status (ok / error / timeout), rest_mv, peak_mv,
apd90_ms, max_dvdt, note.  Lines starting with '#' are comments (command,
versions, tolerances; total runtime at the end).

How to run
----------
    pip install myokit          # needs SUNDIALS headers for CVODE
    python3 scripts/myokit-corpus.py \\
        --cellml-dir /path/to/cellml --out /path/to/myokit-corpus.csv

Options: --files NAME,NAME (subset of file names), --timeout SECONDS,
--atol / --rtol, --retry-atol / --retry-rtol.

This script is run by hand, not in CI (about 10-40 minutes for the
79-file Chaste/cellml corpus).

Dependencies: Python standard library, myokit, numpy.
"""

import argparse
import csv
import datetime
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

COLUMNS = ['file', 'status', 'rest_mv', 'peak_mv', 'apd90_ms', 'max_dvdt',
           'note']
BEATS = 2
RESULT_TAG = 'MYOKIT-CORPUS-RESULT '


def load_reference():
    """Imports scripts/myokit-reference.py as a module."""
    path = os.path.join(HERE, 'myokit-reference.py')
    spec = importlib.util.spec_from_file_location('myokit_reference', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def one_line(text, limit=300):
    s = ' '.join(str(text).split())
    return s if len(s) <= limit else s[:limit - 3] + '...'


def sim_error_summary(e):
    """One line from a Myokit SimulationError: where, and CVODE's flag."""
    lines = [x.strip() for x in str(e).splitlines() if x.strip()]
    keep = lines[:1]
    for x in lines[1:]:
        if 'flag' in x:
            keep.append(x.split(':')[0])
        elif 'overflow' in x or 'division' in x or 'invalid value' in x:
            keep.append(x)
    return one_line(' '.join(keep), 200)


def solve_one(fname, args):
    """
    Runs in the child process: loads and solves one file, returns a result
    dict (status, biomarkers, note).
    """
    import myokit
    ref = load_reference()
    notes = []

    # Files without a Cai annotation: measure V in its place (max_cai is
    # not reported here), so prepare() and run_model() can be used as is.
    _, cvars = ref.load_annotated(os.path.join(args.cellml_dir, fname))
    if ref.OX_CAI not in cvars:
        ref.OX_CAI = ref.OX_V
        notes.append('no Cai annotation')

    tols = [(args.atol, args.rtol)]
    if (args.retry_atol, args.retry_rtol) != (args.atol, args.rtol):
        tols.append((args.retry_atol, args.retry_rtol))
    for i, (atol, rtol) in enumerate(tols):
        run_args = argparse.Namespace(
            cellml_dir=args.cellml_dir, atol=atol, rtol=rtol)
        try:
            rows, info = ref.run_model(fname, fname, {}, [BEATS], run_args)
        except myokit.SimulationError as e:
            notes.append('tol %g/%g: %s' % (atol, rtol, sim_error_summary(e)))
            continue
        row = rows[-1]
        if i > 0:
            notes.append('solved at tol %g/%g' % (atol, rtol))
        if info['time_unit_file'] != 'ms':
            notes.append('time in %s converted to ms' % info['time_unit_file'])
        if row['peak_mv'] < 0:
            notes.append('peak < 0 mV: no AP?')
        if row['apd90_ms'] != row['apd90_ms']:
            notes.append('no repolarisation to 90% within the beat')
        return {
            'status': 'ok',
            'rest_mv': row['rest_mv'],
            'peak_mv': row['peak_mv'],
            'apd90_ms': row['apd90_ms'],
            'max_dvdt': row['max_dvdt_mv_per_ms'],
            'note': '; '.join(notes),
        }
    raise myokit.SimulationError(' | '.join(notes))


def child_main(fname, args):
    try:
        res = solve_one(fname, args)
    except Exception as e:
        res = {'status': 'error',
               'note': one_line('%s: %s' % (type(e).__name__, e), 500)}
    sys.stdout.flush()
    print(RESULT_TAG + json.dumps(res))
    sys.stdout.flush()


def run_child(fname, args):
    """Runs one file in a subprocess; returns (result dict, seconds)."""
    cmd = [sys.executable, os.path.abspath(__file__), '--child', fname,
           '--cellml-dir', args.cellml_dir,
           '--atol', repr(args.atol), '--rtol', repr(args.rtol),
           '--retry-atol', repr(args.retry_atol),
           '--retry-rtol', repr(args.retry_rtol)]
    t0 = time.time()
    # Own process group, so that a timeout also ends the compiler processes
    # the child may have started.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        return ({'status': 'timeout',
                 'note': 'killed after %g s' % args.timeout},
                time.time() - t0)
    dt = time.time() - t0
    for line in reversed(out.splitlines()):
        if line.startswith(RESULT_TAG):
            return json.loads(line[len(RESULT_TAG):]), dt
    tail = [x for x in out.splitlines() if x.strip()][-1:] or ['no output']
    return ({'status': 'error',
             'note': one_line('child exited with code %s: %s'
                              % (proc.returncode, tail[0]))}, dt)


def fmt(x):
    if x is None:
        return ''
    if isinstance(x, float):
        return repr(x)
    return str(x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--cellml-dir', default=os.environ.get('CELLML_DIR'),
        required='CELLML_DIR' not in os.environ,
        help='the cellml/ folder of a Chaste/cellml checkout '
             '(or set CELLML_DIR)')
    ap.add_argument('--out', default='myokit-corpus.csv')
    ap.add_argument('--files', default=None,
                    help='comma-separated subset of file names')
    ap.add_argument('--timeout', type=float, default=120.0,
                    help='wall-clock limit per file in seconds')
    ap.add_argument('--atol', type=float, default=1e-8)
    ap.add_argument('--rtol', type=float, default=1e-6)
    ap.add_argument('--retry-atol', type=float, default=1e-10)
    ap.add_argument('--retry-rtol', type=float, default=1e-8)
    ap.add_argument('--child', default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.child:
        child_main(args.child, args)
        return

    files = sorted(f for f in os.listdir(args.cellml_dir)
                   if f.endswith('.cellml'))
    if args.files:
        wanted = args.files.split(',')
        missing = [f for f in wanted if f not in files]
        if missing:
            ap.error('not in %s: %s' % (args.cellml_dir, missing))
        files = [f for f in files if f in wanted]

    import myokit
    cmd = ' '.join(['python3', os.path.relpath(os.path.abspath(sys.argv[0]),
                                               ROOT)] + sys.argv[1:])
    header = [
        '# Myokit survey of the CellML corpus, made by'
        ' scripts/myokit-corpus.py (run by hand).',
        '# Command: %s' % cmd,
        '# Date: %s' % datetime.date.today().isoformat(),
        '# Myokit %s, SUNDIALS %s; CVODE abs tol %r, rel tol %r (retry %r,'
        ' %r); max step = stimulus duration.'
        % (myokit.__version__, myokit.Sundials.version(), args.atol,
           args.rtol, args.retry_atol, args.retry_rtol),
        '# Protocol as scripts/myokit-reference.py: stimulus := pace *'
        ' file amplitude, blocktrain(1000 ms, file duration, offset 0);',
        '#   %d beats from the file\'s initial values; biomarkers of the'
        ' last beat, t in [1000, 2000) ms.' % BEATS,
        '# Per-file wall-clock limit %g s (status timeout).' % args.timeout,
    ]
    out_dir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(out_dir, exist_ok=True)
    t_all = time.time()
    counts = {}
    with open(args.out, 'w', newline='') as f:
        for line in header:
            f.write(line + '\n')
        w = csv.writer(f, lineterminator='\n')
        w.writerow(COLUMNS)
        f.flush()
        for i, fname in enumerate(files):
            res, dt = run_child(fname, args)
            res['file'] = fname
            counts[res['status']] = counts.get(res['status'], 0) + 1
            w.writerow([fmt(res.get(c)) for c in COLUMNS])
            f.flush()
            print('[%d/%d] %-60s %-7s %6.1f s  %s'
                  % (i + 1, len(files), fname, res['status'], dt,
                     res.get('note', '')))
            sys.stdout.flush()
        elapsed = time.time() - t_all
        f.write('# Total runtime: %.0f s; %s.\n' % (elapsed, ', '.join(
            '%s %d' % kv for kv in sorted(counts.items()))))
    print('Wrote %d rows to %s in %.0f s (%s)' % (
        len(files), args.out, elapsed,
        ', '.join('%s %d' % kv for kv in sorted(counts.items()))))


if __name__ == '__main__':
    main()
