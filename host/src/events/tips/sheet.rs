//! The spiral tips of a sheet: one point per charged plaquette, with its
//! charge, in cells and in the model's space unit.

use kernels_gpu::GridDims;

use super::plaquettes::{ChargedPlaquette, TipsError, charged_plaquettes, check_level};
use crate::scalar::Scalar;

/// A spiral tip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tip {
    /// +1 or -1 (see the module docs for the sense).
    pub charge: i32,
    /// (x, y, z) in cells; the sheet's missing axis is 0.
    pub position_cells: [f64; 3],
    /// (x, y, z) in the model's space unit.
    pub position_mm: [f64; 3],
}

/// The tips of a sheet given its charged plaquettes (from
/// [`charged_plaquettes`] or a kernel), in their order.
pub fn tips_from(plaquettes: &[ChargedPlaquette], dx: f64) -> Vec<Tip> {
    plaquettes
        .iter()
        .map(|p| {
            let cells = p.position_cells();
            Tip { charge: p.singularity.charge, position_cells: cells, position_mm: cells.map(|c| c * dx) }
        })
        .collect()
}

/// The spiral tips of a sheet, from V(t) and V(t - tau) at the level
/// `v_star`, ordered by plaquette (row-major).
pub fn find_tips<T: Scalar>(
    now: &[T],
    prev: &[T],
    dims: GridDims,
    dx: f64,
    v_star: f64,
) -> Result<Vec<Tip>, TipsError> {
    if dims.axes() != 2 {
        return Err(TipsError::NotASheet { nx: dims.nx, ny: dims.ny, nz: dims.nz });
    }
    check_level(v_star)?;
    Ok(tips_from(&charged_plaquettes(now, prev, dims, v_star), dx))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    use crate::events::tips::testing::{fields, spiral};

    #[test]
    fn one_rotating_wave_gives_one_tip_of_its_sense_at_its_centre() {
        let dims = GridDims::new(24, 20, 1);
        let (x0, y0) = (10.3, 7.6);
        for (sense, charge) in [(1.0, 1), (-1.0, -1)] {
            let (now, prev) = fields(dims, PI / 3.0, spiral(x0, y0, sense));
            let tips = find_tips(&now, &prev, dims, 0.5, 0.0).unwrap();
            assert_eq!(tips.len(), 1, "{tips:?}");
            let t = tips[0];
            assert_eq!(t.charge, charge);
            let [x, y, z] = t.position_cells;
            assert!((x - x0).abs() < 0.25 && (y - y0).abs() < 0.25 && z == 0.0, "{t:?}");
            assert_eq!(t.position_mm, [x * 0.5, y * 0.5, 0.0]);
        }
        // A sheet in the xz plane: the singularity is found there too.
        let dims = GridDims::new(24, 1, 20);
        let (now, prev) = fields(dims, PI / 3.0, |x, _, z, wt| spiral(x0, y0, 1.0)(x, z, 0.0, wt));
        let tips = find_tips(&now, &prev, dims, 1.0, 0.0).unwrap();
        assert_eq!(tips.len(), 1);
        assert!(
            (tips[0].position_cells[0] - x0).abs() < 0.25 && (tips[0].position_cells[2] - y0).abs() < 0.25
        );
    }

    #[test]
    fn a_vortex_pair_gives_two_opposite_tips() {
        let dims = GridDims::new(40, 24, 1);
        let (a, b) = ((10.4, 11.7), (29.2, 12.1));
        let (now, prev) =
            fields(dims, 0.5, |x, y, _, wt| ((y - a.1).atan2(x - a.0) - (y - b.1).atan2(x - b.0) - wt).cos());
        let tips = find_tips(&now, &prev, dims, 1.0, 0.0).unwrap();
        assert_eq!(tips.len(), 2, "{tips:?}");
        let near = |t: &Tip, c: (f64, f64)| {
            (t.position_cells[0] - c.0).abs() < 0.5 && (t.position_cells[1] - c.1).abs() < 0.5
        };
        let pa = tips.iter().find(|t| near(t, a)).expect("a tip at the first centre");
        let pb = tips.iter().find(|t| near(t, b)).expect("a tip at the second centre");
        assert_eq!((pa.charge, pb.charge), (1, -1));
    }

    #[test]
    fn smooth_fields_have_no_tips() {
        let dims = GridDims::new(30, 30, 1);
        // A plane wave, a uniform field, a target pattern.
        let (now, prev) = fields(dims, 0.7, |x, y, _, wt| (0.3 * x + 0.1 * y - wt).cos());
        assert!(find_tips(&now, &prev, dims, 1.0, 0.0).unwrap().is_empty());
        let u = vec![0.25f32; dims.cells()];
        assert!(find_tips(&u, &u, dims, 1.0, 0.25).unwrap().is_empty());
        let (now, prev) = fields(dims, 0.7, |x, y, _, wt| (0.4 * ((x - 15.0).hypot(y - 14.0)) - wt).cos());
        assert!(find_tips(&now, &prev, dims, 1.0, 0.0).unwrap().is_empty());
    }
}
