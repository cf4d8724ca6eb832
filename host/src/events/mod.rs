//! What happens to the tissue during a run besides stepping: stimuli
//! ([`stimulus`]), the named protocols that time them ([`protocol`]), and
//! what is recorded of the wave ([`activation`], the pseudo-ECG of
//! [`ecg`], spiral tips and filaments in [`tips`]). The run loop
//! (`crate::driver`) applies them between steps; the solvers know nothing
//! of them.

pub mod activation;
pub mod ecg;
pub mod protocol;
pub mod stimulus;
pub mod tips;
