//! Named stimulus protocols: the S1-S2 cross-field start of a scroll wave
//! (a spiral in 2D).
//!
//! The S1 is the paper's planar start (eqs. 7-8): a plane wave travelling
//! along +z. The S2 excites the quarter x < nx/2, z < nz/2 (all y) once,
//! when the S1 wave's back has passed z = 0.4 nz: the tissue behind the
//! back has recovered and fires, the tissue ahead of it is still
//! refractory, so the S2 wave can only turn around the free end at
//! (x = nx/2, z ~ 0.4 nz) and winds into a scroll wave with a straight
//! filament along y (the cross-field protocol; e.g. Fenton et al., Chaos
//! 12:852, 2002, section III). In a sheet (nz = 1) y plays
//! z's part throughout (see [`crate::init::wave_axis`]) and the same S2
//! makes a spiral; a cable has no room for one and is refused.
//!
//! Why this and not eq. 9 copied: the paper's S2 strip (0.08 nx wide,
//! 0.15 nz tall) launched no re-entry at 128^3 with dx = 0.6 for any S2
//! time between 40 and 90 ms (it does at 256^3, e.g. at 100 ms), while the
//! quarter-domain S2 gives one rotating scroll wave (period ~44 ms) at
//! every size tried, 64^3 to 256^3, for a wide window of S2 times (about
//! 50-90 ms at 128^3 and 50-130 ms at 256^3).
//!
//! The stimuli and the check are in [`scroll`]; the S2's time is found by
//! running the S1 on a column of the grid, which needs a solver, so that
//! search is [`crate::s2_search`], re-exported here with the rest of the
//! protocol.

pub mod scroll;

pub use crate::s2_search::{s1_back_passes, scroll_s2_step};
pub use scroll::{ProtocolError, SCROLL_S2_BACK_FRACTION, check_plane, planar_s1, scroll_s2};
