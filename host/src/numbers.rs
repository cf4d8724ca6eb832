//! Numbers in messages: printed so that a user can read them and pass
//! them back as options.

/// Which way [`readable`] rounds.
#[derive(Clone, Copy)]
pub enum Round {
    Nearest,
    /// Towards zero: a largest value printed stays within its bound.
    Down,
    /// Away from zero: a smallest value printed stays within its bound.
    Up,
}

/// `x` as text a user can read and pass back: `decimals` decimals where
/// they keep a few significant digits (0.060000), else five significant
/// digits in scientific notation (6.0000e-32, 5.4772e14, where six
/// decimals would print 0.000000 or 30 digits), rounded `round` so that a
/// bound printed is still on its safe side.
pub fn readable(x: f64, decimals: usize, round: Round) -> String {
    if (1e-3..1e6).contains(&x.abs()) || x == 0.0 {
        return format!("{x:.decimals$}");
    }
    if !x.is_normal() {
        return format!("{x:e}");
    }
    let scale = 10f64.powi(4 - x.abs().log10().floor() as i32);
    let scaled = x * scale;
    let rounded = match round {
        Round::Nearest => scaled.round(),
        Round::Down => scaled.floor(),
        Round::Up => scaled.ceil(),
    };
    if !scale.is_finite() || !rounded.is_finite() {
        return format!("{x:e}");
    }
    format!("{:.4e}", rounded / scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_print_readably_on_their_safe_side() {
        assert_eq!(readable(0.06, 6, Round::Down), "0.060000");
        assert_eq!(readable(2.5e-12, 6, Round::Down), "2.5000e-12");
        assert_eq!(readable(5.47722557e14, 6, Round::Up), "5.4773e14");
        assert_eq!(readable(1.38888e29, 4, Round::Nearest), "1.3889e29");
        assert_eq!(readable(5.99999e-7, 6, Round::Down), "5.9999e-7");
    }
}
