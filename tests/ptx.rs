//! The embedded PTX is what the GPU backend expects.

use fibril_host::Precision;
use fibril_host::backend::KernelKind;

#[test]
fn embedded_ptx_has_every_kernel_entry_point() {
    let mut names: Vec<String> = vec!["flag_nonfinite_f32".into(), "flag_nonfinite_f64".into()];
    for kind in KernelKind::ALL {
        for precision in [Precision::F32, Precision::F64] {
            names.push(kind.entry_point(precision));
        }
    }
    for name in &names {
        let name = name.as_str();
        assert!(fibril::KERNEL_NAMES.contains(&name), "{name} missing from {:?}", fibril::KERNEL_NAMES);
        assert!(fibril::PTX.contains(&format!(".visible .entry {name}(")), "{name} not in the PTX text");
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
