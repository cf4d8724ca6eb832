//! The embedded PTX is what the GPU backend expects.

use fibril_host::Precision;
use fibril_host::backend::KernelKind;
use fibril_host::models::MODELS;
use kernels_gpu::registry::ENTRY_POINTS;

#[test]
fn the_ptx_holds_exactly_the_registrys_entry_points() {
    for e in ENTRY_POINTS {
        assert!(fibril::KERNEL_NAMES.contains(&e.name), "{} missing from {:?}", e.name, fibril::KERNEL_NAMES);
        assert!(
            fibril::PTX.contains(&format!(".visible .entry {}(", e.name)),
            "{} not in the PTX text",
            e.name
        );
    }
    for name in fibril::KERNEL_NAMES {
        assert!(ENTRY_POINTS.iter().any(|e| e.name == *name), "{name} is in the PTX but not in the registry");
    }
}

#[test]
fn every_model_has_the_naive_kernel_for_every_grid_shape() {
    for m in MODELS {
        for axes in 1..=3 {
            for precision in [Precision::F32, Precision::F64] {
                let name = KernelKind::Naive.entry_point(m.name, axes, precision);
                assert!(name.is_some_and(|n| n.starts_with(m.name)), "{} {axes}D {precision}", m.name);
            }
        }
    }
}

#[test]
fn embedded_ptx_is_self_contained_and_ieee() {
    assert!(fibril::PTX.contains(".target sm_"));
    // No calls to functions the module does not define.
    assert!(!fibril::PTX.contains(".extern .func"));
    // Bit-exactness with the CPU needs correctly rounded arithmetic: explicit
    // .rn rounding (which ptxas may not contract), FMAs only where the
    // shared code asks for them (fma.rn), no approximate forms, no flushing
    // of subnormals.
    for forbidden in ["div.approx", "div.full", ".ftz", "tanh.approx", "ex2.approx", "rcp.approx"] {
        assert!(!fibril::PTX.contains(forbidden), "PTX contains {forbidden}");
    }
    assert!(fibril::PTX.contains("mul.rn.f32") && fibril::PTX.contains("add.rn.f32"));
    assert!(fibril::PTX.contains("fma.rn.f32") && fibril::PTX.contains("fma.rn.f64"));
    // Every multiply and add carries its rounding mode: none is left for
    // ptxas to fuse on its own.
    for line in fibril::PTX.lines().map(str::trim) {
        for op in ["mul.f32", "add.f32", "sub.f32", "mul.f64", "add.f64", "sub.f64"] {
            assert!(!line.starts_with(op), "contractible instruction without rounding mode: {line}");
        }
    }
}

/// The body of entry point `name` in the PTX text.
fn entry_body(name: &str) -> &'static str {
    let start =
        fibril::PTX.find(&format!(".visible .entry {name}(")).unwrap_or_else(|| panic!("{name} in the PTX"));
    let rest = &fibril::PTX[start..];
    &rest[..rest.find("\n}\n").expect("an entry ends with a closing brace")]
}

#[test]
fn one_cell_per_thread_kernels_keep_their_state_in_registers() {
    // Local memory (a per-thread stack in DRAM, cached) costs instructions
    // and bandwidth in the compute-bound ionic models: an array indexed by
    // a loop variable that the compiler did not unroll lands there. The
    // naive and tissue step kernels of every model must not load from it,
    // nor the blocked kernel, whose threads carry each level's planes and
    // locals from one iteration to the next in arrays indexed by the level.
    // (The columns kernel, four cells per thread, does spill for the
    // models with many variables; it is chosen only for the small ones.)
    // Nor may they set up a stack frame at all: an aggregate passed to an
    // out-of-line function (the crossing writer once took a struct) is
    // copied to the stack on every thread's common path (without it
    // Karma's naive step at 64^3 was 1.4% faster on an H100:
    // docs/history/BENCHMARKS-2026.md, "Small grids: the naive kernel's common path").
    let mut checked = 0;
    for e in ENTRY_POINTS {
        let one_per_thread =
            e.name.contains("_naive") || e.name.contains("_tissue_") || e.name.contains("_blocked_");
        if !one_per_thread || !MODELS.iter().any(|m| e.name.starts_with(m.name)) {
            continue;
        }
        let body = entry_body(e.name);
        assert!(!body.contains("ld.local"), "{} loads from local memory", e.name);
        assert!(!body.contains("__local_depot"), "{} sets up a stack frame", e.name);
        checked += 1;
    }
    assert!(checked >= MODELS.len() * 2 * 5, "checked only {checked} entry points");
}

/// The lines between entry point `name`'s parameter list and its body,
/// where `build.rs` puts a register cap.
fn entry_directives(name: &str) -> Vec<&'static str> {
    let start =
        fibril::PTX.find(&format!(".visible .entry {name}(")).unwrap_or_else(|| panic!("{name} in the PTX"));
    fibril::PTX[start..]
        .lines()
        .skip_while(|line| line.trim() != ")")
        .skip(1)
        .take_while(|line| line.trim() != "{")
        .collect()
}

/// `build.rs` caps the registers of the entry points it names, once each
/// (a rebuild that finds its own rewritten PTX in place must not add a
/// second directive), and of no other.
#[test]
fn register_caps_stand_once_on_the_entry_points_build_rs_names() {
    // build.rs's REGISTER_CAPS: (name prefix, precision suffix, registers).
    let expected = |name: &str| match name {
        n if n.starts_with("ten_tusscher_2006_naive") && n.ends_with("_f64") => Some(128),
        n if n.ends_with("_blocked_f32")
            && ["karma", "aliev_panfilov", "mitchell_schaeffer", "fenton_karma", "bocf", "diffusion"]
                .iter()
                .any(|m| n.strip_suffix("_blocked_f32") == Some(m)) =>
        {
            Some(64)
        }
        _ => None,
    };
    let mut capped = 0;
    for e in ENTRY_POINTS {
        let caps: Vec<_> =
            entry_directives(e.name).into_iter().filter(|l| l.starts_with(".maxnreg")).collect();
        match expected(e.name) {
            Some(n) => {
                assert_eq!(caps, [format!(".maxnreg {n}")], "{}", e.name);
                capped += 1;
            }
            None => assert!(caps.is_empty(), "{} capped: {caps:?}", e.name),
        }
    }
    assert!(capped >= 7, "the capped entry points are in the registry");
}

/// Every step kernel waits for its prerequisite grids before it reads
/// anything: the graphs join consecutive steps by programmatic edges on
/// sm_90 (`fibril_host::backend::gpu::graph`), and a read before the wait
/// could see the previous step half written.
#[test]
fn step_kernels_wait_for_the_previous_grid_before_any_read() {
    let mut checked = 0;
    for e in ENTRY_POINTS {
        if !MODELS.iter().any(|m| e.name.starts_with(m.name)) {
            continue;
        }
        let body = entry_body(e.name);
        let wait = body.find("griddepcontrol.wait;").unwrap_or_else(|| panic!("{} has no wait", e.name));
        // Parameters (ld.param) are the launch's own, not the previous grid's.
        for read in ["ld.global", "ld.shared"] {
            if let Some(at) = body.find(read) {
                assert!(wait < at, "{}: {read} before the wait", e.name);
            }
        }
        checked += 1;
    }
    // Five box kernels and six tissue kernels per model and precision at
    // least (and the `_sets` twins).
    assert!(checked >= MODELS.len() * 2 * 11, "checked only {checked} entry points");
}

/// The module the GPUs load: retargeted where the wait is an instruction
/// of the device (sm_90 on), without it where it is not.
#[test]
fn the_module_loads_on_old_and_new_gpus() {
    use fibril_host::backend::gpu::ptx::for_device;
    let old = for_device(fibril::PTX, (8, 0));
    assert!(!old.programmatic && !old.text.contains("griddepcontrol"));
    assert!(old.text.contains(".target sm_70"));
    let hopper = for_device(fibril::PTX, (9, 0));
    assert!(hopper.programmatic && hopper.text.contains("griddepcontrol.wait;"));
    assert!(hopper.text.contains(".version 7.8\n") && hopper.text.contains(".target sm_90\n"));
}
