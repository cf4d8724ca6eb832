//! Compiles `kernels-gpu` to PTX with rustc's NVPTX backend and embeds it.
//!
//! A nested `cargo rustc` builds the kernel crate for `nvptx64-nvidia-cuda`
//! with `-Zbuild-std=core` (no prebuilt std exists for that target) under the
//! root manifest's `ptx` profile (`panic = "immediate-abort"`), in its own
//! target directory (sharing the outer one would deadlock on its lock). The
//! PTX goes to `$OUT_DIR/kernels.ptx`; the entry points found in it are
//! written to `$OUT_DIR/kernel_names.rs` so the host never types them.
//!
//! If the kernels do not compile, the build fails with the kernel
//! compiler's own messages.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The PTX ISA target. sm_70 PTX loads on every GPU from Volta on; the
/// driver compiles it for the GPU it finds (sm_90 on an H100), so nothing of
/// Hopper's speed is lost for these kernels. Override with FIBRIL_PTX_ARCH.
const DEFAULT_PTX_ARCH: &str = "sm_70";

fn main() {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").unwrap());
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let arch = env::var("FIBRIL_PTX_ARCH").unwrap_or_else(|_| DEFAULT_PTX_ARCH.to_string());

    println!("cargo::rerun-if-changed=kernels-gpu/src");
    println!("cargo::rerun-if-changed=kernels-gpu/Cargo.toml");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=FIBRIL_PTX_ARCH");

    let ptx_path = out_dir.join("kernels.ptx");
    let mut emit = std::ffi::OsString::from("--emit=asm=");
    emit.push(&ptx_path);

    let mut cmd = Command::new(&cargo);
    cmd.current_dir(&manifest_dir)
        .args(["rustc", "--profile", "ptx", "-p", "kernels-gpu"])
        .args(["--target", "nvptx64-nvidia-cuda", "-Zbuild-std=core"])
        .arg("--target-dir")
        .arg(out_dir.join("ptx-target"))
        .args(["--", "-C"])
        .arg(format!("target-cpu={arch}"))
        // Unroll the loops that move a model's state between memory and
        // registers in full, also for models of 40-70 variables (the
        // imported ones): a loop left rolled indexes the state array by a
        // variable, which puts the array in local memory (a per-thread
        // stack in DRAM). Smaller loops were unrolled already; the
        // operations, and so the bits, are the same.
        .args(["-C", "llvm-args=-unroll-threshold=1000"])
        .arg(emit);
    // Flags and wrappers meant for the host build (clippy, coverage, custom
    // RUSTFLAGS) must not leak into the kernel build.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        cmd.env_remove(var);
    }
    let output = cmd.output().unwrap_or_else(|e| {
        panic!("could not start `{}` to build the GPU kernels: {e}", cargo.to_string_lossy())
    });
    if !output.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&output.stderr));
        panic!(
            "the GPU kernels (kernels-gpu) failed to compile for nvptx64-nvidia-cuda; \
             the compiler's messages are above. The toolchain in rust-toolchain.toml \
             (with its rust-src component) is required."
        );
    }
    // The kernel build's warnings (code the GPU build leaves unused, which
    // the host build and clippy never see) would otherwise be swallowed.
    for line in String::from_utf8_lossy(&output.stderr).lines() {
        if line.starts_with("warning: ") && !line.contains("generated") {
            println!("cargo::warning=kernels-gpu for nvptx64: {}", &line["warning: ".len()..]);
        }
    }

    let ptx = fs::read_to_string(&ptx_path)
        .unwrap_or_else(|e| panic!("kernel build produced no PTX at {}: {e}", ptx_path.display()));
    let ptx = cap_registers(&ptx);
    fs::write(&ptx_path, &ptx).unwrap_or_else(|e| panic!("cannot rewrite {}: {e}", ptx_path.display()));
    check_self_contained(&ptx);
    write_kernel_names(&ptx, &out_dir.join("kernel_names.rs"));
}

/// Register limits (PTX `.maxnreg`) for the entry points whose name starts
/// with the prefix and ends with the precision suffix. ten Tusscher-Panfilov
/// in f64 otherwise takes about 255 registers per thread, so one 256-thread
/// block fills an SM's register file and 12% of its warp slots are used
/// (ncu on an H100); at 128 the step runs 1.29x faster (133 -> 171 steps/s
/// at 256^3, the same results: a register limit changes where values live,
/// never the arithmetic). Limits of 64, 96 and 168 were slower, and no other
/// model's single-step kernel gained from 64-168 (`docs/history/BENCHMARKS-2026.md`).
/// The blocked kernels in f32 are capped at 64 so that blocks of 32x32
/// threads fit (65,536 registers an SM, 1,024 threads); uncapped, ptxas
/// (sm_90) gives Karma's 66 registers, Aliev-Panfilov's and
/// Mitchell-Schaeffer's 66, Fenton-Karma's 72 and BOCF's 80 (diffusion's
/// 58, capped so that no other GPU's compiler may take more).
const REGISTER_CAPS: &[(&str, &str, u32)] = &[
    ("ten_tusscher_2006_naive", "_f64", 128),
    ("karma_blocked", "_f32", 64),
    ("aliev_panfilov_blocked", "_f32", 64),
    ("mitchell_schaeffer_blocked", "_f32", 64),
    ("fenton_karma_blocked", "_f32", 64),
    ("bocf_blocked", "_f32", 64),
    ("diffusion_blocked", "_f32", 64),
];

/// The PTX with a `.maxnreg` directive after the parameter list of each
/// entry point that [`REGISTER_CAPS`] names.
fn cap_registers(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len() + 256);
    let mut cap = None;
    for line in ptx.lines() {
        // The inner build leaves an up-to-date PTX file alone, so this may
        // read its own output: drop the caps written last time.
        if line.starts_with(".maxnreg ") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if let Some(name) = line.strip_prefix(".visible .entry ") {
            let name = name.trim_end_matches('(');
            cap = REGISTER_CAPS
                .iter()
                .find(|(prefix, precision, _)| name.starts_with(prefix) && name.ends_with(precision))
                .map(|&(_, _, n)| n);
        } else if line == ")"
            && let Some(n) = cap.take()
        {
            out.push_str(&format!(".maxnreg {n}\n"));
        }
    }
    out
}

/// A call into a function the PTX only declares (for example a `core`
/// routine that was not inlined) would fail at module load on the GPU, long
/// after the build. Refuse it here instead.
fn check_self_contained(ptx: &str) {
    let externs: Vec<&str> = ptx.lines().filter(|l| l.trim_start().starts_with(".extern .func")).collect();
    if !externs.is_empty() {
        panic!(
            "the kernel PTX calls functions it does not define (make them #[inline] or avoid them):\n{}",
            externs.join("\n")
        );
    }
}

fn write_kernel_names(ptx: &str, path: &Path) {
    let names: Vec<&str> = ptx
        .lines()
        .filter_map(|l| l.trim().strip_prefix(".visible .entry "))
        .map(|rest| rest.split('(').next().unwrap_or(rest).trim())
        .collect();
    if names.is_empty() {
        panic!("the kernel PTX has no entry points");
    }
    let body: String = names.iter().map(|n| format!("    {n:?},\n")).collect();
    fs::write(
        path,
        format!(
            "/// Kernel entry points found in the embedded PTX.\npub const KERNEL_NAMES: &[&str] = &[\n{body}];\n\
             /// FNV-1a (64-bit) of the embedded PTX, in hex: names this build's kernels\n\
             /// where a record must not outlive them (the tune cache).\n\
             pub const PTX_FINGERPRINT: &str = \"{:016x}\";\n",
            fnv1a(ptx.as_bytes())
        ),
    )
    .expect("write kernel_names.rs");
}

/// FNV-1a, 64-bit (Fowler, Noll, Vo): a fingerprint, not a checksum
/// against tampering.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}
