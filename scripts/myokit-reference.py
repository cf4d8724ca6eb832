#!/usr/bin/env python3
"""Reference biomarkers for published CellML cell models, solved with Myokit.

What it does
------------
For each model in MODELS below, this script loads the CellML file from a
checkout of the Chaste/cellml corpus, replaces the file's own stimulus
schedule with a fixed 1 Hz pacing protocol, solves the model with Myokit's
CVODE simulation at tight tolerances, and measures the last of N beats:

  rest_mv      V at the start of the beat (t = (N-1)*1000 ms), just before
               the stimulus switches on.
  peak_mv      max V over the beat [(N-1)*1000, N*1000) ms.
  max_dvdt     max dV/dt over the beat in mV/ms.  dot(V) is logged by Myokit
               (the model's right-hand side evaluated at CVODE's interpolated
               state) every 0.001 ms over the first 10 ms of the beat and
               every 0.01 ms over the rest; max_dvdt is the largest logged
               value, and its time is the time of that log point.
  apd90_ms     time from the instant of max dV/dt to the first later time V
               falls below rest + 0.1*(peak - rest), linearly interpolated
               between the two log points that bracket the crossing.
  max_cai      largest value over the beat (at the same log points) of the
               variable annotated oxmeta `cytosolic_calcium_concentration`,
               in the file's own unit (cai_name / cai_unit columns).

Protocol
--------
* The stimulus current is the variable annotated oxmeta
  `membrane_stimulus_current`; the amplitude and duration are the file's
  values of the variables annotated `membrane_stimulus_current_amplitude`
  and `membrane_stimulus_current_duration` (duration converted to ms).
  The stimulus current's equation is replaced by `pace * amplitude`, where
  `pace` is driven by myokit.pacing.blocktrain(period=1000 ms, duration=d,
  offset=0): a square pulse at t = 0 ms and every 1000 ms after that.
  The file's own period/offset/start/end variables are left unused.
* Time is converted to ms (Myokit's Variable.convert_unit on the time
  variable) if a file uses another time unit; V to mV likewise.
* Initial state: the file's initial values.  The one exception is the
  ohara_rudy_2011_m row, which is ohara_rudy_2011_endo.cellml with the
  constant `celltype` set to 2 (M cell).
* CVODE (Myokit's Simulation): abs tol 1e-10, rel tol 1e-8 by default, and
  max step size = the stimulus duration (for the whole run, so also during
  the stimulus).  Myokit halts the integrator at every pacing event
  (pulse on / pulse off), rewinds to the event time by interpolation if a
  step went past it, and re-initialises CVODE there, so no step straddles
  a discontinuity of the stimulus.

Myokit's CellML 1.0/1.1 importer only reads oxmeta annotations from RDF
placed directly under the <model> element; several corpus files put the RDF
inside each <variable>.  This script therefore scans the whole XML document
(standard library ElementTree) for rdf:Description / bqbiol:is oxmeta
annotations, attaches them to the CellML variables with the matching
cmeta:id, and only then converts the CellML model to a Myokit model.

How to run
----------
    pip install myokit          # needs SUNDIALS headers for CVODE
                                # (Debian: apt-get install libsundials-dev)
    python3 scripts/myokit-reference.py --cellml-dir /path/to/cellml

Options: --models NAME,NAME  (subset), --beats 1,10,100 (the same beat
counts for every model, instead of the per-model defaults in MODELS),
--out PATH (default tests/data/myokit_reference.csv next to this script's
repository root), --atol / --rtol.

The corpus is the Chaste/cellml repository; --cellml-dir is its `cellml`
folder.  The committed table was made from commit CORPUS_COMMIT below.

This script is run by hand, not in CI: it needs Myokit, SUNDIALS and a C
compiler, and the long runs take tens of minutes.  Its output,
tests/data/myokit_reference.csv, is committed and read by the Rust tests.

Dependencies: Python standard library, myokit, numpy.
"""

import argparse
import datetime
import os
import sys
import time
import xml.etree.ElementTree as ET

import numpy as np

import myokit
import myokit.formats.cellml as mcellml
import myokit.formats.cellml.v1 as cellml_v1

CORPUS_COMMIT = '8c9c042e33bb20c351cbbdd44b7f905b1b1749fa'

PERIOD_MS = 1000.0
FINE_WINDOW_MS = 10.0    # log every FINE_DT_MS over the first 10 ms of a beat
FINE_DT_MS = 0.001
COARSE_DT_MS = 0.01      # and every COARSE_DT_MS over the rest of the beat

# name -> (file, constant overrides, default beat counts).  About 0.16 s a
# beat for iyer_2004, 0.05 s for ORd, 0.005-0.02 s for the others.
LONG = [1, 10, 100, 1000, 4000, 5000]
MODELS = [
    ('iyer_2004', 'iyer_2004.cellml', {}, [1, 10, 100, 1000, 2000]),
    ('courtemanche_ramirez_nattel_1998',
     'courtemanche_ramirez_nattel_1998.cellml', {}, LONG),
    ('ohara_rudy_2011_endo', 'ohara_rudy_2011_endo.cellml', {}, LONG),
    ('ohara_rudy_2011_epi', 'ohara_rudy_2011_epi.cellml', {}, LONG),
    ('ohara_rudy_2011_m', 'ohara_rudy_2011_endo.cellml', {'celltype': 2},
     LONG),
    ('beeler_reuter_1977', 'beeler_reuter_model_1977.cellml', {}, LONG),
    ('luo_rudy_1991', 'luo_rudy_1991.cellml', {}, LONG),
    ('ten_tusscher_2006_epi', 'ten_tusscher_model_2006_epi.cellml', {},
     LONG),
]

NS_RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'
NS_BQBIOL = 'http://biomodels.net/biology-qualifiers/'

OX_STIM = 'membrane_stimulus_current'
OX_AMP = 'membrane_stimulus_current_amplitude'
OX_DUR = 'membrane_stimulus_current_duration'
OX_CAI = 'cytosolic_calcium_concentration'
OX_V = 'membrane_voltage'

COLUMNS = [
    'model', 'file', 'beats', 'stim_amplitude', 'stim_unit',
    'stim_duration_ms', 'rest_mv', 'peak_mv', 'apd90_ms',
    'max_dvdt_mv_per_ms', 'max_cai', 'cai_name', 'cai_unit',
]


def load_annotated(path):
    """
    Parses a CellML 1.0/1.1 file with Myokit, attaches every oxmeta
    annotation found anywhere in the document, and returns
    ``(myokit_model, {annotation: cellml_variable})``.
    """
    cm = cellml_v1.parse_file(path)
    found = {}
    tree = ET.parse(path)
    for desc in tree.iter('{%s}Description' % NS_RDF):
        about = desc.get('{%s}about' % NS_RDF)
        if not about or not about.startswith('#'):
            continue
        for is_el in desc.findall('{%s}is' % NS_BQBIOL):
            res = is_el.get('{%s}resource' % NS_RDF)
            if not res or not res.startswith(mcellml.NS_OXMETA):
                continue
            ann = res[len(mcellml.NS_OXMETA):]
            try:
                var = cm.element_with_cmeta_id(about[1:])
            except KeyError:
                continue
            if not isinstance(var, cellml_v1.Variable):
                continue
            old = var.meta.get('oxmeta')
            if old is not None and old != ann:
                # Keep the first; Myokit stores one oxmeta term a variable
                print('  note: %s has two oxmeta terms (%s, %s); keeping %s'
                      % (var, old, ann, old))
                continue
            if ann in found and found[ann] is not var:
                raise RuntimeError('oxmeta %s on two variables: %s and %s'
                                   % (ann, found[ann], var))
            if not var.is_local():
                # Myokit copies meta data only for variables it creates;
                # a connected (non-local) variable becomes its source.
                raise RuntimeError('oxmeta %s on non-source variable %s'
                                   % (ann, var))
            var.meta['oxmeta'] = ann
            found[ann] = var
    return cm.myokit_model(), found


def by_oxmeta(model, ann):
    hits = [v for v in model.variables(deep=True)
            if v.meta.get('oxmeta') == ann]
    if len(hits) != 1:
        raise RuntimeError('expected one variable annotated %s, found %d'
                           % (ann, len(hits)))
    return hits[0]


def unit_str(unit):
    """A Myokit unit without the brackets, e.g. 'A/F'."""
    s = str(unit)
    return s[1:-1] if s.startswith('[') and s.endswith(']') else s


def prepare(name, fname, overrides, cellml_dir):
    """Loads and modifies one model; returns (model, protocol, info)."""
    path = os.path.join(cellml_dir, fname)
    model, cvars = load_annotated(path)

    for ann in (OX_STIM, OX_AMP, OX_DUR, OX_CAI, OX_V):
        if ann not in cvars:
            raise RuntimeError('%s: no variable annotated oxmeta %s'
                               % (fname, ann))

    # Time in ms
    t = model.time()
    t_unit_file = t.unit()
    if t_unit_file != myokit.units.ms:
        t.convert_unit(myokit.units.ms)
    # Membrane voltage in mV
    v = by_oxmeta(model, OX_V)
    if v.unit() != myokit.units.mV:
        # A file in volts (the Paci models): Myokit rescales V's equation,
        # its initial value and its every use, as it does time above.
        v.convert_unit(myokit.units.mV)
    if not v.is_state():
        raise RuntimeError('%s: V is not a state' % fname)

    # Constant overrides (celltype for the M cell)
    for cname, value in overrides.items():
        hits = [x for x in model.variables(deep=True, const=True)
                if x.name() == cname]
        if len(hits) != 1:
            raise RuntimeError('%s: %d constants named %s'
                               % (fname, len(hits), cname))
        old = hits[0].eval()
        hits[0].set_rhs(myokit.Number(value, hits[0].unit()))
        print('  %s: %s = %r (file: %r)' % (name, hits[0].qname(), value, old))

    # Stimulus: file's amplitude and duration, our schedule
    stim = by_oxmeta(model, OX_STIM)
    amp = by_oxmeta(model, OX_AMP)
    dur = by_oxmeta(model, OX_DUR)
    amplitude = float(amp.eval())
    d = float(dur.eval())
    if dur.unit() is not None and dur.unit() != myokit.units.ms:
        d *= myokit.Unit.conversion_factor(dur.unit(), myokit.units.ms).value()
    if not d > 0:
        raise RuntimeError('%s: stimulus duration %r' % (fname, d))

    pace = model.binding('pace')
    if pace is None:
        pace = stim.parent(myokit.Component).add_variable_allow_renaming(
            'pace')
        pace.set_unit(myokit.units.dimensionless)
        pace.set_rhs(myokit.Number(0))
        pace.set_binding('pace')
    stim.set_rhs(myokit.Multiply(myokit.Name(pace), myokit.Name(amp)))
    model.validate()

    protocol = myokit.pacing.blocktrain(
        period=PERIOD_MS, duration=d, offset=0)

    cai = by_oxmeta(model, OX_CAI)
    c_cai = cvars[OX_CAI]
    c_amp = cvars[OX_AMP]
    info = {
        'path': path,
        'time': t.qname(),
        'v': v.qname(),
        'stim': stim.qname(),
        'amp_var': amp.qname(),
        'dur_var': dur.qname(),
        'amplitude': amplitude,
        'amp_unit': c_amp.units().name(),
        'amp_unit_myokit': unit_str(amp.unit()),
        'duration_ms': d,
        'time_unit_file': unit_str(t_unit_file),
        'cai': cai.qname(),
        'cai_name': '%s.%s' % (c_cai.component().name(), c_cai.name()),
        'cai_unit': c_cai.units().name(),
        'cai_unit_myokit': unit_str(cai.unit()),
        'n_states': model.count_states(),
    }
    return model, protocol, info


def beat_log_times(t0):
    """Log times for one beat starting at t0 (half-open, end excluded)."""
    n_fine = int(round(FINE_WINDOW_MS / FINE_DT_MS))
    n_coarse = int(round((PERIOD_MS - FINE_WINDOW_MS) / COARSE_DT_MS))
    fine = t0 + FINE_DT_MS * np.arange(n_fine)
    coarse = t0 + FINE_WINDOW_MS + COARSE_DT_MS * np.arange(n_coarse)
    return np.concatenate((fine, coarse))


def measure(t, vm, dvdt, cai):
    """Biomarkers of one logged beat, as defined in the module docstring."""
    rest = float(vm[0])
    peak = float(np.max(vm))
    i_up = int(np.argmax(dvdt))
    max_dvdt = float(dvdt[i_up])
    t_up = float(t[i_up])
    thresh = rest + 0.1 * (peak - rest)
    apd90 = float('nan')
    below = np.nonzero(vm[i_up + 1:] < thresh)[0]
    if len(below):
        j = i_up + 1 + int(below[0])
        t0, t1 = float(t[j - 1]), float(t[j])
        v0, v1 = float(vm[j - 1]), float(vm[j])
        tc = t0 + (v0 - thresh) * (t1 - t0) / (v0 - v1)
        apd90 = tc - t_up
    return {
        'rest_mv': rest,
        'peak_mv': peak,
        'max_dvdt_mv_per_ms': max_dvdt,
        't_max_dvdt_ms': t_up - float(t[0]),
        'apd90_ms': apd90,
        'max_cai': float(np.max(cai)),
    }


def run_model(name, fname, overrides, beats, args):
    t_start = time.time()
    model, protocol, info = prepare(name, fname, overrides, args.cellml_dir)
    print('%s (%s): %d states, time unit in file: %s' % (
        name, fname, info['n_states'], info['time_unit_file']))
    print('  stimulus %s = pace * %s; amplitude %r %s (%s), duration %r ms'
          % (info['stim'], info['amp_var'], info['amplitude'],
             info['amp_unit'], info['amp_unit_myokit'], info['duration_ms']))
    print('  Cai: %s [%s = %s]' % (info['cai_name'], info['cai_unit'],
                                   info['cai_unit_myokit']))

    sim = myokit.Simulation(model, protocol)
    sim.set_tolerance(abs_tol=args.atol, rel_tol=args.rtol)
    sim.set_max_step_size(info['duration_ms'])

    logvars = [info['time'], info['v'], 'dot(%s)' % info['v'], info['cai']]
    rows = []
    done = 0   # beats simulated so far
    for n in sorted(set(beats)):
        t_beat = (n - 1) * PERIOD_MS
        if n - 1 > done:
            sim.run((n - 1 - done) * PERIOD_MS, log=myokit.LOG_NONE)
        elif n - 1 < done:
            raise RuntimeError('beat counts must increase')
        if abs(sim.time() - t_beat) > 1e-9 * max(1.0, t_beat):
            raise RuntimeError('time %r, expected %r' % (sim.time(), t_beat))
        times = beat_log_times(t_beat)
        d = sim.run(PERIOD_MS, log=logvars, log_times=times)
        done = n
        t = np.asarray(d[info['time']])
        if len(t) != len(times) or abs(t[0] - t_beat) > 1e-9 * max(1, t_beat):
            raise RuntimeError('unexpected log: %d points from t=%r'
                               % (len(t), t[0]))
        m = measure(t, np.asarray(d[info['v']]),
                    np.asarray(d['dot(%s)' % info['v']]),
                    np.asarray(d[info['cai']]))
        if m['peak_mv'] < 0:
            print('  WARNING: beat %d peak %.3f mV: did it fire?'
                  % (n, m['peak_mv']))
        row = {
            'model': name, 'file': fname, 'beats': n,
            'stim_amplitude': info['amplitude'],
            'stim_unit': info['amp_unit_myokit'],
            'stim_duration_ms': info['duration_ms'],
            'cai_name': info['cai_name'],
            'cai_unit': info['cai_unit_myokit'],
        }
        row.update(m)
        rows.append(row)
        print('  N=%-5d rest %.6f peak %.6f APD90 %.6f dV/dt %.6f '
              '(at %.3f ms) Cai %.6e  [%.1f s]'
              % (n, m['rest_mv'], m['peak_mv'], m['apd90_ms'],
                 m['max_dvdt_mv_per_ms'], m['t_max_dvdt_ms'], m['max_cai'],
                 time.time() - t_start))
        sys.stdout.flush()
    return rows, info


def fmt(x):
    if isinstance(x, float):
        return repr(x)
    return str(x)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--cellml-dir', default=os.environ.get('CELLML_DIR'),
        required='CELLML_DIR' not in os.environ,
        help='the cellml/ folder of a Chaste/cellml checkout '
             '(or set CELLML_DIR)')
    ap.add_argument('--models', default=None,
                    help='comma-separated subset of model names')
    ap.add_argument('--beats', default=None,
                    help='comma-separated beat counts for every model '
                         '(default: per-model lists in MODELS)')
    ap.add_argument('--out', default=os.path.join(
        root, 'tests', 'data', 'myokit_reference.csv'))
    ap.add_argument('--atol', type=float, default=1e-10)
    ap.add_argument('--rtol', type=float, default=1e-8)
    args = ap.parse_args()

    selected = MODELS
    if args.models:
        names = args.models.split(',')
        known = [m[0] for m in MODELS]
        for n in names:
            if n not in known:
                ap.error('unknown model %s (known: %s)' % (n, known))
        selected = [m for m in MODELS if m[0] in names]
    fixed_beats = None
    if args.beats:
        fixed_beats = [int(b) for b in args.beats.split(',')]
        if min(fixed_beats) < 1:
            ap.error('beat counts must be >= 1')

    print('Myokit %s, SUNDIALS %s' % (myokit.__version__,
                                      myokit.Sundials.version()))
    t0 = time.time()
    all_rows = []
    steadiness = []
    for name, fname, overrides, beats in selected:
        rows, info = run_model(name, fname, overrides,
                               fixed_beats or beats, args)
        all_rows.extend(rows)
        if len(rows) >= 2:
            a, b = rows[-2], rows[-1]
            steadiness.append(
                '#   %s: N=%d -> N=%d: dAPD90 %+.3e ms, drest %+.3e mV, '
                'dpeak %+.3e mV, dmax_cai %+.3e %s'
                % (name, a['beats'], b['beats'],
                   b['apd90_ms'] - a['apd90_ms'],
                   b['rest_mv'] - a['rest_mv'],
                   b['peak_mv'] - a['peak_mv'],
                   b['max_cai'] - a['max_cai'], info['cai_unit_myokit']))
    elapsed = time.time() - t0

    cmd = ' '.join(['python3', os.path.relpath(os.path.abspath(sys.argv[0]),
                                               root)] + sys.argv[1:])
    header = [
        '# Reference biomarkers from Myokit (CVODE), made by',
        '#   scripts/myokit-reference.py (run by hand, not in CI).',
        '# Command: %s' % cmd,
        '# Date: %s' % datetime.date.today().isoformat(),
        '# Myokit %s, SUNDIALS %s; CVODE abs tol %r, rel tol %r, max step'
        % (myokit.__version__, myokit.Sundials.version(),
           args.atol, args.rtol),
        '#   = stimulus duration; Myokit halts and re-initialises CVODE at'
        ' each pulse on/off.',
        '# Corpus: Chaste/cellml commit %s.' % CORPUS_COMMIT,
        '# Protocol: oxmeta membrane_stimulus_current := pace * (file value'
        ' of membrane_stimulus_current_amplitude);',
        '#   pace = blocktrain(period=1000 ms, duration=file value of'
        ' membrane_stimulus_current_duration in ms, offset=0):',
        '#   pulses at t = 0, 1000, 2000, ... ms.  Initial state = the'
        ' file\'s initial values',
        '#   (ohara_rudy_2011_m: ohara_rudy_2011_endo.cellml with constant'
        ' celltype = 2).',
        '# Each row measures the last of `beats` beats, t in'
        ' [(beats-1)*1000, beats*1000) ms:',
        '#   rest_mv = V at the beat start; peak_mv = max V; max_dvdt ='
        ' max of dot(V) logged every 0.001 ms',
        '#   (first 10 ms) / 0.01 ms (rest); apd90_ms = from the max-dV/dt'
        ' log point to the first later',
        '#   crossing of rest + 0.1*(peak - rest), linearly interpolated;'
        ' max_cai = max of the oxmeta',
        '#   cytosolic_calcium_concentration variable (cai_name =',
        '#   component.variable in the file), in the file\'s unit.',
        '# stim_unit and cai_unit are Myokit\'s spelling of the file\'s'
        ' units (e.g. the file\'s uA_per_mm2',
        '#   is written A/m^2, the same quantity); values are not'
        ' converted.',
        '# Change between the last two rows of each model:',
    ] + steadiness + [
        '# Total runtime: %.0f s.' % elapsed,
    ]
    out_dir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(out_dir, exist_ok=True)
    with open(args.out, 'w') as f:
        for line in header:
            f.write(line + '\n')
        f.write(','.join(COLUMNS) + '\n')
        for row in all_rows:
            f.write(','.join(fmt(row[c]) for c in COLUMNS) + '\n')
    print('\n'.join(steadiness))
    print('Wrote %d rows to %s in %.0f s' % (len(all_rows), args.out, elapsed))


if __name__ == '__main__':
    main()
