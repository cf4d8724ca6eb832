//! A 2D spiral through the library: the Aliev-Panfilov model on a 256 x 256
//! sheet, started by the scroll protocol, a picture of its potential every
//! 100 time units; on the first GPU when there is one, else on the CPU.
//!
//! `cargo run --release --example spiral` (pictures in `runs/spiral-example/`).

use fibril::Backend;
use fibril_host::io::image::write_midplanes;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = fibril_host::backend::gpu::device_count().is_ok_and(|n| n > 0);
    let backend = if gpu { Backend::Gpus(vec![0]) } else { Backend::Cpu };
    let builder = fibril::simulation("aliev_panfilov").grid(256, 256, 1).scroll_protocol(None);
    let mut sim = builder.backend(backend).build::<f32>()?;
    let out = std::path::Path::new("runs/spiral-example");
    std::fs::create_dir_all(out)?;
    sim.run_frames(1000.0, 100.0, |frame| -> Result<(), Box<dyn std::error::Error>> {
        let u = frame.state.model().variables[0];
        let path = out.join(format!("u_{:04}.png", frame.t_ms as u32));
        let title = format!("u  t = {} t.u.", frame.t_ms);
        Ok(write_midplanes(&path, frame.state.var(0), u.display.0, u.display.1, &title, "u")?)
    })?;
    let (_, device, method) = sim.placement();
    println!("{} steps on {device} [{method}]; pictures in {}", sim.step(), out.display());
    Ok(())
}
