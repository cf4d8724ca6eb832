//! `fibril restitution`: APD and CV restitution curves by S1-S2 or
//! dynamic pacing of a single cell or a cable, written as a CSV, a plot
//! beside a published curve where one applies, and a JSON summary
//! (`fibril_host::restitution` does the work).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use fibril_host::Precision;
use fibril_host::restitution::report::{self, Summary};
use fibril_host::restitution::{
    ApdLevel, Dynamic, Experiment, Geometry, Protocol, Restitution, S1S2, S2Sweep, Schedule,
};
use fibril_host::simulation::Backend;
use fibril_host::time::short;

use super::args::PrecisionArg;
use super::params::{ParamAssign, parse_param};

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ProtocolArg {
    /// n S1 beats at the BCL, then one S2 at intervals from long to short
    /// until it fails to capture.
    S1s2,
    /// n beats at each BCL in turn (decreasing); the last two of each are
    /// measured.
    Dynamic,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum GeometryArg {
    /// One cell, no diffusion.
    Cell,
    /// A cable of --cells cells stimulated at one end.
    Cable,
}

#[derive(Debug, Args)]
pub struct RestitutionArgs {
    /// The cell model, in ms and mm (`fibril models` lists them).
    #[arg(long, default_value = "beeler_reuter", value_name = "NAME")]
    pub model: String,
    /// A named parameter set of the model [default: the model's own].
    #[arg(long)]
    pub preset: Option<String>,
    /// A model parameter, NAME=VALUE, over the preset (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    pub parameters: Vec<ParamAssign>,
    #[arg(long, value_enum, default_value_t = ProtocolArg::S1s2)]
    pub protocol: ProtocolArg,
    #[arg(long, value_enum, default_value_t = GeometryArg::Cell)]
    pub geometry: GeometryArg,
    /// Cells of the cable (--geometry cable).
    #[arg(long, default_value_t = 200)]
    pub cells: u32,
    /// Basic cycle length, ms: the S1 interval (one value), or the BCLs of
    /// the dynamic protocol from long to short (comma-separated)
    /// [default: 1000; dynamic: 1000,800,600,500,400,350,300,275,250].
    #[arg(long, value_delimiter = ',', value_name = "MS")]
    pub bcl_ms: Vec<f64>,
    /// S1 beats before the S2 (s1s2), or beats per BCL (dynamic; at least
    /// 4) [default: 8; dynamic: 10].
    #[arg(long)]
    pub beats: Option<u32>,
    /// The longest S2 coupling interval, ms [default: the BCL].
    #[arg(long, allow_negative_numbers = true)]
    pub s2_from_ms: Option<f64>,
    /// The shortest S2 coupling interval tried, ms (the sweep stops at the
    /// first S2 that fails to capture).
    #[arg(long, default_value_t = 50.0, allow_negative_numbers = true)]
    pub s2_to_ms: f64,
    /// The step of the S2 sweep, ms.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    pub s2_step_ms: f64,
    /// APDx: measure at x % repolarisation of the reference beat.
    #[arg(long, default_value_t = 90.0, allow_negative_numbers = true)]
    pub apd_percent: f64,
    /// Measure APD and DI at this potential instead (the model's unit: mV
    /// for the ionic models; Fenton & Karma 1998 use -60 mV).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "apd_percent", value_name = "V")]
    pub apd_threshold: Option<f64>,
    /// Grid spacing, mm [default: the model's].
    #[arg(long, allow_negative_numbers = true)]
    pub dx: Option<f64>,
    /// Time step, ms [default: the model's].
    #[arg(long, allow_negative_numbers = true)]
    pub dt: Option<f64>,
    /// The potential at the probes is read every this many ms (whole steps).
    #[arg(long, default_value_t = 0.1)]
    pub sample_ms: f64,
    #[arg(long, value_enum, default_value_t = PrecisionArg::Auto)]
    pub precision: PrecisionArg,
    /// cpu, or gpu:N for GPU N. A cell or a short cable is a few hundred
    /// cells: the CPU is the faster.
    #[arg(long, default_value = "cpu", value_parser = parse_device)]
    pub device: DeviceArg,
    /// The output directory (created when missing): restitution.csv,
    /// restitution.png, restitution.json.
    #[arg(short = 'o', long = "out")]
    pub out: PathBuf,
}

/// Where the experiment runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceArg {
    Cpu,
    Gpu(usize),
}

fn parse_device(text: &str) -> Result<DeviceArg, String> {
    let t = text.trim();
    if t == "cpu" {
        return Ok(DeviceArg::Cpu);
    }
    match t.strip_prefix("gpu:").map(str::parse::<usize>) {
        Some(Ok(n)) if n < 4096 => Ok(DeviceArg::Gpu(n)),
        _ => Err(format!("expected `cpu` or `gpu:N` (N the GPU's number, 0 for the first), got {text:?}")),
    }
}

impl RestitutionArgs {
    /// The experiment the options describe.
    pub fn experiment(&self) -> anyhow::Result<Experiment> {
        let protocol = match self.protocol {
            ProtocolArg::S1s2 => {
                let bcl_ms = match self.bcl_ms[..] {
                    [] => 1000.0,
                    [bcl] => bcl,
                    _ => bail!(
                        "--bcl-ms takes one value for --protocol s1s2 (the S1 interval), got {}; give one, or \
                         use --protocol dynamic for a list",
                        self.bcl_ms.len()
                    ),
                };
                let s2 = S2Sweep {
                    from_ms: self.s2_from_ms.unwrap_or(bcl_ms),
                    to_ms: self.s2_to_ms,
                    step_ms: self.s2_step_ms,
                };
                Protocol::S1S2(S1S2 { bcl_ms, s1_beats: self.beats.unwrap_or(8), s2 })
            }
            ProtocolArg::Dynamic => {
                let bcls_ms = if self.bcl_ms.is_empty() {
                    vec![1000.0, 800.0, 600.0, 500.0, 400.0, 350.0, 300.0, 275.0, 250.0]
                } else {
                    self.bcl_ms.clone()
                };
                Protocol::Dynamic(Dynamic { bcls_ms, beats: self.beats.unwrap_or(10) })
            }
        };
        let geometry = match self.geometry {
            GeometryArg::Cell => Geometry::Cell,
            GeometryArg::Cable => Geometry::Cable { cells: self.cells },
        };
        let level = match self.apd_threshold {
            Some(v) => ApdLevel::Potential(v),
            None => ApdLevel::Percent(self.apd_percent),
        };
        let backend = match self.device {
            DeviceArg::Cpu => Backend::Cpu,
            DeviceArg::Gpu(n) => Backend::Gpus(vec![n]),
        };
        if !(self.sample_ms > 0.0 && self.sample_ms.is_finite()) {
            bail!("--sample-ms {} must be a time > 0 (0.1 reads the potential every 0.1 ms)", self.sample_ms);
        }
        Ok(Experiment {
            model: self.model.clone(),
            preset: self.preset.clone(),
            parameters: self.parameters.iter().map(|p| (p.name.clone(), p.value)).collect(),
            dx_mm: self.dx,
            dt_ms: self.dt,
            sample_ms: self.sample_ms,
            backend,
            kernels: Some(crate::PTX),
            schedule: Schedule { protocol, geometry, level },
        })
    }
}

pub fn restitution(args: RestitutionArgs) -> anyhow::Result<ExitCode> {
    let experiment = args.experiment()?;
    // Everything that can be refused is refused before the first step.
    let (setup, _) = experiment.check()?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create the output directory {}", args.out.display()))?;
    let result = match args.precision.resolve(setup.info()) {
        Precision::F32 => experiment.run::<f32>()?,
        Precision::F64 => experiment.run::<f64>()?,
    };
    let summary = report::write(&result, &args.out)?;
    print!("{}", describe(&result, &summary, &args.out));
    Ok(ExitCode::SUCCESS)
}

/// What the terminal shows: the rows, the findings, the comparison.
fn describe(r: &Restitution, s: &Summary<'_>, out: &std::path::Path) -> String {
    let opt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
    let interval = if matches!(r.schedule.protocol, Protocol::S1S2(_)) { "S2 (ms)" } else { "BCL (ms)" };
    let mut text = format!(
        "fibril restitution: {} on {} [{}, {}], {} in {:.1} s\n  reference beat: rest {:.2}, peak {:.2}, {} level {:.2}, APD {:.1} ms{}\n",
        r.model,
        r.device,
        r.method,
        r.precision,
        r.schedule.level.label(),
        r.wall_s,
        r.reference.rest,
        r.reference.peak,
        r.schedule.level.label(),
        r.reference.level,
        r.reference.apd_ms,
        r.reference.cv_m_per_s.map_or(String::new(), |cv| format!(", CV {cv:.3} m/s")),
    );
    text += &format!(
        "  {interval:>9} {:>5} {:>8} {:>8} {:>8}  captured\n",
        "beat", "DI (ms)", "APD (ms)", "CV (m/s)"
    );
    for row in &r.rows {
        let beat = match row.beat_from_end {
            None => "-".to_string(),
            Some(1) => "n".to_string(),
            Some(b) => format!("n-{}", b - 1),
        };
        let cv = row.cv_m_per_s.map_or("-".to_string(), |v| format!("{v:.3}"));
        text += &format!(
            "  {:>9} {beat:>5} {:>8} {:>8} {cv:>8}  {}\n",
            short(row.interval_ms),
            opt(row.di_ms),
            opt(row.apd_ms),
            if row.captured { "yes" } else { "no" }
        );
    }
    let f = &s.findings;
    if let Some(slope) = f.max_apd_slope {
        text += &format!("  steepest APD restitution slope: {slope:.2}\n");
    }
    for a in &f.alternans {
        text += &format!(
            "  alternans at BCL {} ms: APDs differ by {:.1} ms\n",
            short(a.bcl_ms),
            a.apd_difference_ms
        );
    }
    if let Some(c) = &s.comparison {
        text += &format!("  beside {}:", c.published.label);
        if let Some(a) = c.apd_ms {
            text += &format!(
                " APD at {} points: mean difference {:+.1} ms, rms {:.1} ms, largest {:.1} ms;",
                a.points, a.mean_difference, a.rms_difference, a.max_abs_difference
            );
        }
        if let Some(a) = c.cv_m_per_s {
            text += &format!(" CV at {} points: rms {:.3} m/s;", a.points, a.rms_difference);
        }
        text += "\n";
        if let Some(caveat) = &c.published.caveat {
            text += &format!("  (conditions differ from the publication's: {caveat})\n");
        }
    }
    text += &format!(
        "  wrote {} in {}\n",
        [report::CSV_FILE, report::PNG_FILE, report::JSON_FILE].join(", "),
        out.display()
    );
    text
}
