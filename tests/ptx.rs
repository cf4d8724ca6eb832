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
