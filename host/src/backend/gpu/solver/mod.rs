//! A simulation resident on one GPU: [`GpuSolver`], built and holding its
//! buffers in `resident`, stepping in `stepping` (quiet stretches replayed
//! as graphs in `replay`), the run's events on the device in `events`, and
//! the run loop's interface in `interface`.

mod events;
mod interface;
mod replay;
mod resident;
mod stepping;

pub use resident::GpuSolver;
pub(crate) use resident::SliceGeometry;
