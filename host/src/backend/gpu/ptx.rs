//! The embedded PTX, adapted to the GPU that loads it.
//!
//! `build.rs` compiles the kernels once, for the oldest target fibril
//! supports (PTX ISA 7.0, sm_70), so one binary runs on every GPU from
//! Volta on. The step kernels start with `griddepcontrol.wait`
//! (`kernels_gpu::gpu::wait_for_prerequisite_grids`), an instruction of
//! PTX ISA 7.8 for sm_90 that lets a step's grid be scheduled before the
//! previous step's has drained (programmatic dependent launch). ptxas
//! refuses it in a module that declares an older target, so:
//! - on a GPU of compute capability 9.0 or later the module is retargeted
//!   (`.version` raised to 7.8, `.target` to sm_90 where they are lower):
//!   every other instruction means the same there, and the driver compiles
//!   for the GPU it finds either way;
//! - on older GPUs the instruction's lines are removed (they were waits for
//!   an edge that cannot exist there).

use std::borrow::Cow;

/// The first PTX ISA version with `griddepcontrol`.
const GRIDDEP_VERSION: (u32, u32) = (7, 8);
/// The first target with `griddepcontrol`.
const GRIDDEP_TARGET: u32 = 90;
/// The instruction as the kernels emit it (one per line).
const GRIDDEP_PREFIX: &str = "griddepcontrol.";

/// A module's text for one GPU and what it allows.
#[derive(Debug)]
pub struct DevicePtx<'a> {
    pub text: Cow<'a, str>,
    /// The step kernels wait for their prerequisite grids, so the host may
    /// join consecutive steps by programmatic edges.
    pub programmatic: bool,
}

/// `ptx` as a GPU of `compute_capability` (major, minor) must load it.
pub fn for_device(ptx: &str, compute_capability: (i32, i32)) -> DevicePtx<'_> {
    if compute_capability.0 >= 9 {
        DevicePtx { text: Cow::Owned(retarget(ptx)), programmatic: true }
    } else if ptx.contains(GRIDDEP_PREFIX) {
        let kept: Vec<&str> =
            ptx.lines().filter(|line| !line.trim_start().starts_with(GRIDDEP_PREFIX)).collect();
        DevicePtx { text: Cow::Owned(kept.join("\n") + "\n"), programmatic: false }
    } else {
        DevicePtx { text: Cow::Borrowed(ptx), programmatic: false }
    }
}

/// `ptx` with only the entry points named in `keep` (every other line,
/// the globals and functions included, as it was).
///
/// The driver compiles every kernel of a module when it loads it, and the
/// embedded module holds every model's kernels in both precisions (about
/// 10 MB of PTX): on an H100 loading all of it took 30-50 s on a machine
/// whose compute cache did not hold it yet. A solver loads the few kernels
/// it launches instead. An entry runs from its `.entry` line to the first
/// line that is a lone `}` (as LLVM's NVPTX back end writes them).
pub fn only_entries(ptx: &str, keep: &[&str]) -> String {
    let mut out = String::with_capacity(ptx.len() / 8);
    let mut dropping = false;
    for line in ptx.lines() {
        if dropping {
            dropping = line != "}";
            continue;
        }
        if let Some(name) = entry_name(line)
            && !keep.contains(&name)
        {
            dropping = true;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The name of the entry point a line declares (`.visible .entry name(`).
fn entry_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(".visible .entry ").or_else(|| line.strip_prefix(".entry "))?;
    Some(rest.split('(').next()?.trim())
}

/// `ptx` with its `.version` and `.target` raised to at least those of
/// `griddepcontrol`, every other line as it was.
fn retarget(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len() + 16);
    for line in ptx.lines() {
        let trimmed = line.trim();
        if let Some(version) = trimmed.strip_prefix(".version ").and_then(parse_version) {
            let (major, minor) = version.max(GRIDDEP_VERSION);
            out.push_str(&format!(".version {major}.{minor}"));
        } else if let Some(target) = trimmed.strip_prefix(".target sm_").and_then(parse_target) {
            out.push_str(&format!(".target sm_{}", target.max(GRIDDEP_TARGET)));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

fn parse_version(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.trim().split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// `70` from `70`; `None` for a target with a suffix or options (`90a`,
/// `70, debug`), which is left as it is.
fn parse_target(text: &str) -> Option<u32> {
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = "//\n.version 7.0\n.target sm_70\n.address_size 64\n\n.visible .entry k(\n)\n{\n\t// begin inline asm\n\tgriddepcontrol.wait;\n\t// end inline asm\n\tret;\n}\n";

    #[test]
    fn only_the_named_entries_are_kept_with_everything_else() {
        let ptx = ".version 7.0\n.target sm_70\n.global .b8 table[4];\n\n.visible .entry a(\n)\n{\n\t{ .reg .u64 s; }\n\tret;\n}\n\n.func f(\n)\n{\n\tret;\n}\n.visible .entry b(\n\t.param .u64 b_p\n)\n{\n\tret;\n}\n.entry c(\n)\n{\n\tret;\n}\n";
        let kept = only_entries(ptx, &["b"]);
        assert!(!kept.contains(".entry a(") && !kept.contains(".entry c("), "{kept}");
        assert!(kept.contains(".visible .entry b(\n\t.param .u64 b_p\n)\n{\n\tret;\n}\n"), "{kept}");
        // The header, the globals and the functions stay.
        assert!(kept.starts_with(".version 7.0\n.target sm_70\n.global .b8 table[4];\n"), "{kept}");
        assert!(kept.contains(".func f(\n)\n{\n\tret;\n}\n"), "{kept}");
        assert_eq!(only_entries(ptx, &["a", "b", "c"]), ptx);
        assert!(!only_entries(ptx, &[]).contains(".entry"));
    }

    #[test]
    fn hopper_gets_the_instruction_under_a_target_that_has_it() {
        let p = for_device(PTX, (9, 0));
        assert!(p.programmatic);
        assert!(p.text.contains(".version 7.8\n.target sm_90\n"), "{}", p.text);
        assert!(p.text.contains("\tgriddepcontrol.wait;\n"));
        // Nothing else changes.
        let strip =
            |t: &str| t.lines().filter(|l| !l.starts_with(".version") && !l.starts_with(".target")).count();
        assert_eq!(strip(&p.text), strip(PTX));
        assert!(for_device(PTX, (10, 0)).programmatic);
    }

    #[test]
    fn older_gpus_get_the_module_without_it() {
        for cc in [(7, 0), (8, 0), (8, 9)] {
            let p = for_device(PTX, cc);
            assert!(!p.programmatic);
            assert!(!p.text.contains("griddepcontrol"), "{}", p.text);
            assert!(p.text.contains(".version 7.0\n.target sm_70\n"));
            assert_eq!(p.text.lines().count(), PTX.lines().count() - 1);
        }
    }

    #[test]
    fn newer_versions_and_targets_are_kept() {
        let newer = PTX.replace(".version 7.0", ".version 8.5").replace("sm_70", "sm_100");
        let p = for_device(&newer, (10, 0));
        assert!(p.text.contains(".version 8.5\n.target sm_100\n"), "{}", p.text);
        let suffixed = PTX.replace("sm_70", "sm_90a");
        assert!(for_device(&suffixed, (9, 0)).text.contains(".target sm_90a\n"));
    }

    #[test]
    fn the_embedded_kernels_need_no_change_on_old_gpus_when_they_lack_the_instruction() {
        let plain = PTX.replace("\tgriddepcontrol.wait;\n", "");
        assert!(matches!(for_device(&plain, (8, 0)).text, Cow::Borrowed(_)));
    }
}
