//! Whether a checkpoint belongs to the run that resumes it: the grid,
//! steps, model, math, tables, tissue and parameters compared, each
//! mismatch named with the option that fixes it.

use std::path::Path;

use kernels_gpu::fast_math::MathMode;

use super::format::{CheckpointError, CheckpointHeader};
use crate::domain::Domain;

impl CheckpointHeader {
    /// Refuses a checkpoint whose grid, steps, model or parameters differ
    /// from `domain`'s, naming the field and the option that fixes it.
    pub fn check_matches(&self, path: &Path, domain: &Domain) -> Result<(), CheckpointError> {
        let mismatch = |field: String, in_file: String, in_run: String, fix: String| {
            Err(CheckpointError::Mismatch { path: path.to_path_buf(), field, in_file, in_run, fix })
        };
        let d = domain.dims();
        let f = self.dims;
        // A tissue's grid and a mesh's nodes come from their files.
        const BODY_FIX: &str = "resume with the [tissue] or [mesh] (its file, fibres, conductivities, node order) \
                                the run was started with";
        if d != f {
            let fix = match domain.operator_fingerprint() {
                Some(_) => BODY_FIX.to_string(),
                None => format!("pass --nx {} --ny {} --nz {}", f.nx, f.ny, f.nz),
            };
            return mismatch(
                "the grid".into(),
                format!("{}x{}x{}", f.nx, f.ny, f.nz),
                format!("{}x{}x{}", d.nx, d.ny, d.nz),
                fix,
            );
        }
        let numbers = [
            ("dx", self.dx, domain.dx(), "--dx"),
            ("dt", self.dt_ms, domain.dt_ms(), "--dt"),
            ("diffusion", self.diffusion, domain.diffusion(), "--diffusion"),
        ];
        for (field, in_file, in_run, flag) in numbers {
            if in_file.to_bits() != in_run.to_bits() {
                return mismatch(
                    field.into(),
                    in_file.to_string(),
                    in_run.to_string(),
                    format!("pass {flag} {in_file} (the value the run was started with)"),
                );
            }
        }
        let model = domain.model();
        if self.model != model.name() {
            return mismatch(
                "the model".into(),
                self.model.clone(),
                model.name().into(),
                format!("pass --model {}", self.model),
            );
        }
        if self.operator != domain.operator_fingerprint() {
            let name =
                |f: Option<u64>| f.map_or("the isotropic box".to_string(), |f| format!("tissue {f:016x}"));
            return mismatch(
                "the tissue".into(),
                name(self.operator),
                name(domain.operator_fingerprint()),
                BODY_FIX.into(),
            );
        }
        if self.math != model.math() {
            let fix = match self.math {
                MathMode::Exact => "pass --exact-math (the run was started with the reference functions)",
                MathMode::Fast => "drop --exact-math (the run was started with the fast functions)",
            };
            return mismatch(
                "the math mode".into(),
                self.math.name().into(),
                model.math().name().into(),
                fix.into(),
            );
        }
        if self.rate_tables != model.rate_tables() {
            let (fix, said) = match self.rate_tables {
                true => ("pass --rate-tables (the run was started with the model's rate table)", "on"),
                false => ("drop --rate-tables (the run was started with the exact functions only)", "off"),
            };
            let here = if model.rate_tables() { "on" } else { "off" };
            return mismatch("the rate-table option".into(), said.into(), here.into(), fix.into());
        }
        for (name, in_file) in &self.parameters {
            let in_run = model.get(name);
            if in_run.map(f64::to_bits) != Some(in_file.to_bits()) {
                return mismatch(
                    format!("parameter {name}"),
                    in_file.to_string(),
                    in_run.map_or("absent".into(), |v| v.to_string()),
                    format!("pass --param {name}={in_file} (the value the run was started with)"),
                );
            }
        }
        if self.parameters.len() != model.values().len() {
            return mismatch(
                "the parameter list".into(),
                format!("{} parameters", self.parameters.len()),
                format!("{} parameters", model.values().len()),
                "resume with the fibril that wrote the checkpoint".into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::GridDims;

    use crate::checkpoint::encode::encode;
    use crate::checkpoint::format::Progress;
    use crate::checkpoint::header::decode_header;
    use crate::checkpoint::testing::{domain, state};
    use crate::models::ModelSetup;
    use crate::state::State;

    #[test]
    fn a_run_with_rate_tables_resumes_with_them_only() {
        let br = |tables: bool| {
            let setup =
                ModelSetup::new("beeler_reuter", None, &[]).unwrap().with_rate_tables(tables).unwrap();
            Domain::new(GridDims::new(4, 3, 2), 0.2, 0.02, 0.1, setup).unwrap()
        };
        let start =
            |d: &Domain| State::<f32>::from_fn(d.model().info(), d.dims(), |_, _, _, cell| cell.fill(0.5));
        let (tabled, exact) = (br(true), br(false));
        let p = Path::new("c");
        let of_tabled = decode_header(
            p,
            &encode(&tabled, Progress { step: 1, snapshots: 0, run: None }, &start(&tabled), None, None),
        )
        .unwrap();
        assert!(of_tabled.rate_tables && of_tabled.math == MathMode::Fast);
        of_tabled.check_matches(p, &tabled).unwrap();
        let e = of_tabled.check_matches(p, &exact).unwrap_err().to_string();
        assert!(
            e.contains("the rate-table option is on in the checkpoint but off here; pass --rate-tables"),
            "{e}"
        );
        let of_exact = decode_header(
            p,
            &encode(&exact, Progress { step: 1, snapshots: 0, run: None }, &start(&exact), None, None),
        )
        .unwrap();
        assert!(!of_exact.rate_tables);
        let e = of_exact.check_matches(p, &tabled).unwrap_err().to_string();
        assert!(e.contains("off in the checkpoint but on here; drop --rate-tables"), "{e}");
    }

    #[test]
    fn mismatches_name_the_field_and_the_fix() {
        let d = domain(3);
        let header = decode_header(
            Path::new("c"),
            &encode(&d, Progress { step: 1, snapshots: 3, run: None }, &state(&d), None, None),
        )
        .unwrap();
        let e = header.check_matches(Path::new("c"), &domain(4)).unwrap_err().to_string();
        assert!(e.contains("the grid is 3x4x5 in the checkpoint but 4x5x6 here"), "{e}");
        assert!(e.contains("--nx 3 --ny 4 --nz 5"), "{e}");
        let karma = || ModelSetup::new("karma", None, &[]).unwrap();
        let other = Domain::new(d.dims(), 0.6, 0.04, 1.0, karma()).unwrap();
        let e = header.check_matches(Path::new("c"), &other).unwrap_err().to_string();
        assert!(e.contains("dt is 0.05 in the checkpoint but 0.04 here; pass --dt 0.05"), "{e}");
        let breakup = ModelSetup::new("karma", Some("breakup"), &[]).unwrap();
        let other = Domain::new(d.dims(), 0.6, 0.05, 1.0, breakup).unwrap();
        let e = header.check_matches(Path::new("c"), &other).unwrap_err().to_string();
        assert!(
            e.contains("parameter vstar is 0.6 in the checkpoint but 0.72 here; pass --param vstar=0.6"),
            "{e}"
        );
        // A tissue's fingerprint is kept and compared.
        let tissue = d.clone().with_operator_fingerprint(0x1234_5678_9abc_def0);
        let e = header.check_matches(Path::new("c"), &tissue).unwrap_err().to_string();
        assert!(
            e.contains("the tissue is the isotropic box in the checkpoint but tissue 123456789abcdef0"),
            "{e}"
        );
        let of_tissue = decode_header(
            Path::new("t"),
            &encode(&tissue, Progress { step: 1, snapshots: 0, run: None }, &state(&d), None, None),
        )
        .unwrap();
        assert_eq!(of_tissue.operator, Some(0x1234_5678_9abc_def0));
        of_tissue.check_matches(Path::new("t"), &tissue).unwrap();
        let exact = Domain::new(d.dims(), 0.6, 0.05, 1.0, karma().with_math(MathMode::Exact)).unwrap();
        let e = header.check_matches(Path::new("c"), &exact).unwrap_err().to_string();
        assert!(
            e.contains("the math mode is fast in the checkpoint but exact here; drop --exact-math"),
            "{e}"
        );
        let diffusion =
            Domain::new(d.dims(), 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
        let e = header.check_matches(Path::new("c"), &diffusion).unwrap_err().to_string();
        assert!(
            e.contains("the model is karma in the checkpoint but diffusion here; pass --model karma"),
            "{e}"
        );
    }
}
