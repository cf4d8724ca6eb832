//! The outputs of a run as the run loop takes them.

use super::ecg::EcgSampler;
use super::sampler::Sampler;
use super::tips::TipsSampler;
use crate::scalar::Scalar;

/// The samplers a run has, in the order the loop samples them at a step
/// both fall on (the pseudo-ECG, then the tips).
pub fn samplers<'a, T: Scalar>(
    ecg: &'a mut Option<EcgSampler>,
    tips: &'a mut Option<TipsSampler>,
) -> Vec<&'a mut dyn Sampler<T>> {
    let ecg = ecg.iter_mut().map(|e| e as &mut dyn Sampler<T>);
    ecg.chain(tips.iter_mut().map(|t| t as &mut dyn Sampler<T>)).collect()
}
