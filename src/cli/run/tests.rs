use super::*;

#[test]
fn the_default_check_interval_spaces_gpu_checks_by_cell_updates() {
    let cube = |n| GridDims::new(n, n, n);
    assert_eq!(check_every_steps(false, cube(64)), 100, "the CPU checks every 100 steps");
    assert_eq!(check_every_steps(false, GridDims::new(1, 1, 1)), 100);
    // 2^27 / 64^3 = 512 steps, rounded up to hundreds.
    assert_eq!(check_every_steps(true, cube(64)), 600);
    assert_eq!(check_every_steps(true, cube(128)), 100, "64 steps, at least 100");
    assert_eq!(check_every_steps(true, cube(256)), 100);
    assert_eq!(check_every_steps(true, GridDims::new(512, 512, 1)), 600);
    assert_eq!(check_every_steps(true, GridDims::new(1, 1, 1)), 10_000, "at most 10,000");
}
