//! The runner of the GPU check binaries (`gpu_vs_cpu`, `gpu_tet`): they
//! run without libtest's harness so that a check that cannot run here
//! says "skipped" and never reads as a pass.
#![allow(dead_code)] // each test binary uses a different subset

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;
use std::sync::Mutex;

use fibril_host::backend::{GpuDevice, GpuUnavailable};

/// One check: `Ok` when it passed, an explanation otherwise.
pub type Check = fn(&GpuDevice) -> Result<(), String>;

/// What a check returns when it cannot run here; reported as "skipped".
pub const SKIPPED: &str = "skipped: ";

/// What a passing check could not cover on this machine, printed after its
/// "ok" so that the line says what was tested.
static NOTE: Mutex<Option<String>> = Mutex::new(None);

pub fn note(text: String) {
    *NOTE.lock().unwrap_or_else(|e| e.into_inner()) = Some(text);
}

fn take_note() -> Option<String> {
    NOTE.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// A check's result from the failures it collected: `Ok` (printing what
/// passed) when there are none.
pub fn verdict(failures: Vec<String>, passed: impl FnOnce() -> String) -> Result<(), String> {
    if failures.is_empty() {
        println!("    ({})", passed());
        Ok(())
    } else {
        Err(failures.join("\n    "))
    }
}

/// Runs `checks` on GPU 0 (those whose name holds the first argument that
/// is not an option, when one is given). Without a CUDA device every check
/// prints "skipped: no CUDA device"; any other failure to open the GPU (a
/// driver that fails to initialise, a context that cannot be created)
/// fails every check: a broken GPU machine must not read as one without a
/// GPU.
pub fn run_checks(what: &str, checks: &[(&str, Check)]) -> ExitCode {
    let n = checks.len();
    let gpu = match GpuDevice::open(0) {
        Ok(gpu) => gpu,
        Err(why @ (GpuUnavailable::NoDriver | GpuUnavailable::NoDevice)) => {
            for (name, _) in checks {
                println!("test {name} ... skipped: no CUDA device ({why})");
            }
            println!("{n} {what}: 0 passed, 0 failed, {n} skipped");
            return ExitCode::SUCCESS;
        }
        Err(why) => {
            for (name, _) in checks {
                println!("test {name} ... FAILED: the GPU could not be opened: {why}");
            }
            println!("{n} {what}: 0 passed, {n} failed, 0 skipped");
            return ExitCode::FAILURE;
        }
    };
    println!("{what} on {} (compute capability {:?})", gpu.info().name, gpu.info().compute_capability);
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let (mut failed, mut skipped) = (0, 0);
    for (name, check) in checks {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            println!("test {name} ... filtered out");
            skipped += 1;
            continue;
        }
        take_note();
        let result =
            catch_unwind(AssertUnwindSafe(|| check(&gpu))).unwrap_or_else(|_| Err("panicked".into()));
        match result {
            Ok(()) => match take_note() {
                Some(note) => println!("test {name} ... ok, {note}"),
                None => println!("test {name} ... ok"),
            },
            Err(why) if why.starts_with(SKIPPED) => {
                println!("test {name} ... {why}");
                skipped += 1;
            }
            Err(why) => {
                println!("test {name} ... FAILED: {why}");
                failed += 1;
            }
        }
    }
    println!("{n} {what}: {} passed, {failed} failed, {skipped} skipped", n - failed - skipped);
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
