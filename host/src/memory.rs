//! Memory estimates, made before any allocation so an impossible run is
//! refused with a number instead of failing half-way.

use crate::scalar::Precision;

/// Host bytes of the CPU backend (U, U_next, v) plus one downloaded copy of
/// U and v for snapshots.
pub fn cpu_bytes(cells: usize, precision: Precision) -> u64 {
    5 * cells as u64 * precision.bytes() as u64
}

/// Host bytes needed next to a GPU run: the initial fields and one snapshot copy.
pub fn host_side_of_gpu_bytes(cells: usize, precision: Precision) -> u64 {
    2 * cells as u64 * precision.bytes() as u64
}

/// Host bytes of the activation-time map: the times (f32) and the
/// previous sample of U.
pub fn activation_bytes(cells: usize, precision: Precision) -> u64 {
    cells as u64 * (4 + precision.bytes() as u64)
}

/// `MemAvailable` of /proc/meminfo, where the system reports it.
pub fn available_host_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// 1536 MiB -> "1.50 GiB".
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} B") } else { format!("{value:.2} {}", UNITS[unit]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_meminfo() {
        let text = "MemTotal:  1000 kB\nMemFree: 10 kB\nMemAvailable:     2048 kB\n";
        assert_eq!(parse_mem_available(text), Some(2048 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn formats_bytes() {
        assert_eq!(format_bytes(12), "12 B");
        assert_eq!(format_bytes(1536 * 1024 * 1024), "1.50 GiB");
    }
}
