//! The speed of the tetrahedral mesh's node kernel on the first GPU, as
//! JSON: Luo-Rudy I in f32 at dt = 0.005 ms (the large case of
//! Vasconcellos et al. 2024, Table 7: 646,627 nodes, 100 ms), on a box of
//! about `--nodes` nodes cut into tetrahedra, its node numbers shuffled as
//! a mesh generator's can be, then renumbered each way fibril offers;
//! with `gpus` above 1, the breadth-first mesh split over that many GPUs
//! too (peer and host-staged halos), in the same run as the one-GPU
//! figures it is measured against.
//!
//! `cargo run --release --example tet_speed -- [nodes] [steps] [gpus]`

use std::sync::Arc;
use std::time::Instant;

use fibril_host::backend::GpuDevice;
use fibril_host::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
use fibril_host::events::{EventStart, Events};
use fibril_host::multi::Exchange;
use fibril_host::solver::Solver;
use fibril_host::tet::regions::{NodeSelection, stimulus_on};
use fibril_host::tet::renumber::Renumbering;
use fibril_host::tet::{Diffusivity, NodeOrder, TetGpuMultiSolver, TetGpuSolver, TetMesh, TetProblem};
use fibril_host::{CellModel, Domain, ModelSetup, State};
use kernels_gpu::models::luo_rudy_1991::LuoRudy1991;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let nodes: usize = args.next().map_or(Ok(650_000), |a| a.parse())?;
    let steps: u64 = args.next().map_or(Ok(20_000), |a| a.parse())?;
    let gpus: usize = args.next().map_or(Ok(1), |a| a.parse())?;
    let side = (nodes as f64).cbrt().round() as usize;
    let h = 0.25;
    let boxed = TetMesh::kuhn_box([side, side, side], h);
    // A fixed shuffle of the node numbers (a multiplier prime to the count).
    let n = boxed.nodes() as u64;
    let mut mult = 2_654_435_761 % n;
    while gcd(mult, n) != 1 {
        mult += 1;
    }
    let order: Vec<u32> = (0..n).map(|i| ((i * mult + 12_345) % n) as u32).collect();
    let mesh = Renumbering::from_old_of_new(order).apply(&boxed);
    let devices = (0..gpus).map(GpuDevice::open).collect::<Result<Vec<_>, _>>()?;
    let gpu = &devices[0];
    let info = LuoRudy1991::INFO;
    let mut runs = Vec::new();
    let mut cases = vec![
        (NodeOrder::File, 1, Exchange::Peer),
        (NodeOrder::BreadthFirst, 1, Exchange::Peer),
        (NodeOrder::ReverseCuthillMcKee, 1, Exchange::Peer),
    ];
    if gpus > 1 {
        cases.extend([
            (NodeOrder::BreadthFirst, gpus, Exchange::Peer),
            (NodeOrder::BreadthFirst, gpus, Exchange::Host),
        ]);
    }
    for (order, parts, exchange) in cases {
        let t0 = Instant::now();
        let diffusivity = |_| Some(Diffusivity::transverse(0.1, 0.025));
        let problem = Arc::new(TetProblem::new(&mesh, order, &diffusivity)?);
        let prepare_s = t0.elapsed().as_secs_f64();
        let dt = 0.005;
        problem.check_dt(dt)?;
        let line = problem.line();
        let domain = Domain::with_own_operator(line, h, dt, 0.1, ModelSetup::new(info.name, None, &[])?)?;
        let start = State::<f32>::rest(info, line);
        let face = NodeSelection::BoxMm { lo: [-1.0; 3], hi: [h / 2.0, 1e9, 1e9] };
        let mask = face.mask(&problem.mesh, &problem.renumbering.new_of_old)?;
        let mut spec = StimulusSpec::new(RegionKind::Box, 0.0);
        spec.duration_ms = 2.0;
        let stimuli = vec![stimulus_on(&spec, 1, mask, dt, info)?];
        let events = Events { stimuli: StimulusSchedule { stimuli }, recording: None };
        let (mut solver, halo): (Box<dyn Solver<f32>>, usize) = if parts == 1 {
            (Box::new(TetGpuSolver::<LuoRudy1991, f32>::new(gpu, fibril::PTX, &domain, &problem, &start)?), 0)
        } else {
            let s = TetGpuMultiSolver::<LuoRudy1991, f32>::new(
                &devices[..parts],
                fibril::PTX,
                &domain,
                &problem,
                exchange,
                &start,
            )?;
            let halo = s.split().halo_nodes();
            (Box::new(s), halo)
        };
        solver.set_events(&events, EventStart::NEW, None)?;
        solver.advance(100)?;
        solver.synchronize()?;
        let t0 = Instant::now();
        solver.advance(steps)?;
        solver.synchronize()?;
        let seconds = t0.elapsed().as_secs_f64();
        let u = solver.state()?;
        let excited = u.slice(0).iter().filter(|v| **v > -40.0).count();
        runs.push(format!(
            "{{\"order\": \"{order:?}\", \"gpus\": {parts}, \"method\": \"{}\", \"halo_nodes\": {halo}, \
             \"prepare_s\": {prepare_s:.3}, \"seconds\": {seconds:.4}, \"node_steps_per_s\": {:.4e}, \
             \"width\": {}, \"nodes_above_minus_40_mV\": {excited}}}",
            solver.method(),
            problem.nodes() as f64 * steps as f64 / seconds,
            problem.op.width
        ));
    }
    println!(
        "{{\"device\": \"{}\", \"model\": \"{}\", \"precision\": \"f32\", \"dt_ms\": 0.005, \"nodes\": {}, \
         \"elements\": {}, \"steps\": {steps}, \"runs\": [{}]}}",
        gpu.info().name,
        info.name,
        mesh.nodes(),
        mesh.elements(),
        runs.join(", ")
    );
    Ok(())
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
