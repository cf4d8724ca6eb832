//! Keeps the documentation from rotting: README.md and the user guide
//! (`docs/guide/src/*.md`) are checked against the binary they describe.
//!
//! (a) The configuration reference (`configuration.md`) documents every
//!     section and key of a run configuration file: each key that
//!     `fibril run --print-config` prints (run with options and files that
//!     make every section appear) and each key the file parser accepts
//!     (the list an unknown key's error names) has a row in the table
//!     under its section's heading (`` ### `[grid]` ``, `` ### `[[stimulus]]` ``,
//!     ...). Every ```` ```toml ```` block of the reference is written to a
//!     file that `fibril run FILE --print-config` must accept, and together
//!     they set exactly the keys the tables document; the ```` ```toml ````
//!     blocks of the README and the other chapters must be accepted too.
//!     Every `--option` in the reference's tables is one `fibril run --help`
//!     or `fibril bench --help` lists.
//!
//! (b) Every command of a ```` ```sh ```` block that calls `fibril` (or
//!     `cargo run --release --`, the same binary) is run with this build's
//!     binary, from the repository's root:
//!     - `fibril run ...` gets `--print-config` appended and must exit 0:
//!       its options parse and check, nothing is simulated (with
//!       `--protocol scroll` it also gets `--s2-ms 1` unless it gives one:
//!       finding the S2 time simulates the S1 wave, seconds for the ionic
//!       models; the runs below find it for real);
//!     - in a block whose line before is `<!-- runs in tests -->`, the
//!       `fibril run` commands run for real instead (the block's grids are
//!       small enough for a CPU in a second or two) and must exit 0; each
//!       `--out DIR` of the block becomes a directory under a temporary one,
//!       and so do the arguments under it (`DIR/checkpoint.fibril`); a run
//!       with neither `--out` nor `--resume` gets a temporary `--out`;
//!     - in a block whose line before is `<!-- fails in tests -->`, the
//!       commands run for real as above, every one but the last must exit 0
//!       (they set the failure up), and the last must fail with a message
//!       whose stderr holds every non-empty line of the ```` ```text ````
//!       block that follows (with the temporary directories in place of the
//!       block's `--out` ones);
//!     - `fibril models ...` and `fibril info ...` run for real and must
//!       exit 0;
//!     - `fibril bench ...` is not run (it times a GPU): every option it uses
//!       must be one `fibril bench --help` lists.
//!
//!     Lines are joined at a trailing `\`, `#` starts a comment, and `;`,
//!     `&&`, `||`, `&` and `|` separate commands; environment assignments and
//!     launchers (`mpirun -np 2`, `srun -n 8`) before `fibril` are left out
//!     (the assignments are passed on), and in `for VAR in A B; do ...; done`
//!     the loop variable takes its first value. In `performance.md`, whose
//!     commands stand in its tables, every inline code span that is a
//!     `fibril` command is checked the same way.
//!
//! (c) Every relative link and image of README.md and the guide points to
//!     an existing file, and a `#fragment` of a link to a Markdown file to
//!     one of its headings; every chapter is in `SUMMARY.md`.
//!
//! `cargo test --release --test docs` runs it in a few seconds.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIBRIL: &str = env!("CARGO_BIN_EXE_fibril");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

const RUNS_MARK: &str = "<!-- runs in tests -->";
const FAILS_MARK: &str = "<!-- fails in tests -->";

/// Keys the parser still accepts only to say they are gone; the reference
/// mentions each in its prose instead of a table.
const REMOVED_KEYS: &[(&str, &str)] = &[("output", "activation_every_steps")];

fn root() -> PathBuf {
    PathBuf::from(ROOT)
}

fn guide_src() -> PathBuf {
    root().join("docs/guide/src")
}

/// README.md and every chapter of the guide, relative to the root.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![PathBuf::from("README.md")];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(guide_src())
        .expect("docs/guide/src exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(ROOT).unwrap().to_path_buf())
        .collect();
    chapters.sort();
    docs.extend(chapters);
    docs
}

fn read(rel: &Path) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{}: {e}", rel.display()))
}

/// A scratch directory of its own for each caller.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fibril-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fibril(args: &[String], env: &[(String, String)]) -> Output {
    Command::new(FIBRIL)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .current_dir(ROOT)
        .output()
        .expect("run fibril")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// ---------------------------------------------------------------------------
// Markdown

/// A fenced code block: its info string, its lines, the line it starts at
/// and the non-empty line before its fence.
#[derive(Debug, Clone)]
struct Block {
    info: String,
    body: String,
    line: usize,
    before: String,
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut before = String::new();
    let mut open: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(block) = open.as_mut() {
            if trimmed.starts_with("```") {
                out.push(open.take().unwrap());
                before.clear();
            } else {
                block.body.push_str(line);
                block.body.push('\n');
            }
            continue;
        }
        if let Some(info) = trimmed.strip_prefix("```") {
            open = Some(Block {
                info: info.trim().to_string(),
                body: String::new(),
                line: i + 1,
                before: before.clone(),
            });
        } else if !trimmed.is_empty() {
            before = trimmed.to_string();
        }
    }
    assert!(open.is_none(), "an unclosed code block");
    out
}

/// The lines of `markdown`, each `None` where it is a fence or inside a
/// fenced code block.
fn unfenced_lines(markdown: &str) -> impl Iterator<Item = Option<&str>> {
    let mut fenced = false;
    markdown.lines().map(move |line| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some(line)
    })
}

/// The text outside fenced code blocks, with inline code spans blanked.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    for line in unfenced_lines(markdown) {
        let Some(line) = line else {
            out.push('\n');
            continue;
        };
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                out.push(' ');
            } else {
                out.push(if in_code { ' ' } else { c });
            }
        }
        out.push('\n');
    }
    out
}

/// The inline code spans outside fenced blocks (a span may run over a
/// line break, as in a paragraph).
fn code_spans(markdown: &str) -> Vec<String> {
    let mut text = String::new();
    for line in unfenced_lines(markdown) {
        text.push_str(line.unwrap_or(""));
        text.push('\n');
    }
    text.split('`').skip(1).step_by(2).map(|s| s.replace('\n', " ")).collect()
}

/// mdBook's (and GitHub's) id of a heading.
fn slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

fn headings(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced && line.starts_with('#') {
            out.push(line.trim_start_matches('#').trim().to_string());
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Shell

/// One simple command of a `sh` block: the environment it sets and its
/// words.
#[derive(Debug, Clone)]
struct ShellCommand {
    env: Vec<(String, String)>,
    words: Vec<String>,
}

/// Splits a `sh` block into simple commands (see the module doc).
fn shell_commands(body: &str) -> Vec<ShellCommand> {
    let joined = body.replace("\\\n", " ");
    let mut commands = Vec::new();
    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    for line in joined.lines() {
        // Words and separators, quotes honoured.
        let mut segments: Vec<Vec<String>> = vec![Vec::new()];
        let mut word = String::new();
        let mut in_word = false;
        let mut chars = line.chars().peekable();
        let mut quote: Option<char> = None;
        while let Some(c) = chars.next() {
            if let Some(q) = quote {
                if c == q {
                    quote = None;
                } else {
                    word.push(c);
                }
                continue;
            }
            match c {
                '\'' | '"' => {
                    quote = Some(c);
                    in_word = true;
                }
                '#' if !in_word => break,
                ' ' | '\t' => {
                    if in_word {
                        segments.last_mut().unwrap().push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                ';' | '&' | '|' => {
                    if in_word {
                        segments.last_mut().unwrap().push(std::mem::take(&mut word));
                        in_word = false;
                    }
                    if chars.peek() == Some(&c) {
                        chars.next();
                    }
                    segments.push(Vec::new());
                }
                _ => {
                    word.push(c);
                    in_word = true;
                }
            }
        }
        assert!(quote.is_none(), "an unclosed quote in {line:?}");
        if in_word {
            segments.last_mut().unwrap().push(word);
        }
        for mut words in segments {
            if words.first().is_some_and(|w| w == "do") {
                words.remove(0);
            }
            if words.first().is_some_and(|w| w == "for") {
                assert!(words.len() >= 4 && words[2] == "in", "a for loop the test cannot read: {words:?}");
                vars.insert(words[1].clone(), words[3].clone());
                continue;
            }
            if words.is_empty() {
                continue;
            }
            let mut env = Vec::new();
            while let Some(w) = words.first() {
                let Some((k, v)) = w.split_once('=') else { break };
                if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    break;
                }
                env.push((k.to_string(), v.to_string()));
                words.remove(0);
            }
            let args: Option<Vec<String>> = if let Some(i) = words.iter().position(|w| w == "fibril") {
                Some(words[i + 1..].to_vec())
            } else if let Some(i) =
                words.windows(3).position(|w| w[0] == "cargo" && w[1] == "run" && w[2] == "--release")
                && !words.iter().any(|w| w == "--example")
            {
                // `cargo run --release --example NAME` runs an example, not
                // the binary: CI builds every example with the tests.
                let dash = words[i..].iter().position(|w| w == "--").expect("cargo run ... -- ARGS");
                Some(words[i + dash + 1..].to_vec())
            } else {
                None
            };
            let Some(args) = args else { continue };
            let args = args
                .into_iter()
                .map(|a| match a.strip_prefix('$') {
                    Some(name) => vars
                        .get(name)
                        .cloned()
                        .unwrap_or_else(|| panic!("${name} is not a loop variable of the block")),
                    None => a,
                })
                .collect();
            commands.push(ShellCommand { env, words: args });
        }
    }
    commands
}

/// The long options a command's help lists.
fn help_options(subcommand: &str) -> BTreeSet<String> {
    let out = fibril(&[subcommand.to_string(), "--help".to_string()], &[]);
    assert!(out.status.success());
    long_options(&text(&out.stdout))
}

/// Asserts that every `--option` of `args` is one `fibril SUBCOMMAND
/// --help` lists (for the commands a reader runs on their own files).
fn assert_options_listed(subcommand: &str, args: &[String], place: &str, shown: &str) {
    let known = help_options(subcommand);
    for option in args.iter().filter(|a| a.starts_with("--")) {
        let name = option.split('=').next().unwrap();
        assert!(known.contains(name), "{place}: `{shown}` uses {name}, which `--help` does not list");
    }
}

fn long_options(s: &str) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    let bytes = s.as_bytes();
    let mut i = 0;
    while let Some(k) = s[i..].find("--") {
        let start = i + k;
        let mut end = start + 2;
        while end < bytes.len()
            && (bytes[end].is_ascii_lowercase() || bytes[end].is_ascii_digit() || bytes[end] == b'-')
        {
            end += 1;
        }
        let preceded_ok =
            start == 0 || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'-');
        if end > start + 2 && bytes[start + 2].is_ascii_lowercase() && preceded_ok {
            set.insert(s[start..end].to_string());
        }
        i = end.max(start + 2);
    }
    set
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Mode {
    /// `fibril run` with `--print-config`.
    Parse,
    /// `fibril run` for real, into temporary directories.
    Runs,
    /// As `Runs`, the last command failing with the message shown.
    Fails,
}

/// What was checked, so that the test can tell it checked something.
#[derive(Default, Debug)]
struct Tally {
    parsed: usize,
    ran: usize,
    failed_as_shown: usize,
    benches: usize,
    models_info: usize,
}

/// Rewrites a real run's `--out` directories (and the arguments under
/// them) to directories under `tmp`; `map` keeps the block's choices.
fn relocate(args: &mut Vec<String>, tmp: &Path, map: &mut Vec<(String, String)>) {
    let mut i = 0;
    let mut has_out = false;
    while i < args.len() {
        let value_at = if args[i] == "--out" {
            Some(i + 1)
        } else if let Some(v) = args[i].strip_prefix("--out=").map(String::from) {
            args[i] = "--out".into();
            args.insert(i + 1, v);
            Some(i + 1)
        } else {
            None
        };
        if let Some(j) = value_at {
            has_out = true;
            let original = args[j].clone();
            if !map.iter().any(|(o, _)| *o == original) {
                let mapped = tmp.join(format!("out{}-{}", map.len(), original.replace(['/', '.'], "_")));
                map.push((original, mapped.to_string_lossy().into_owned()));
            }
            i = j + 1;
            continue;
        }
        i += 1;
    }
    for a in args.iter_mut() {
        for (original, mapped) in map.iter() {
            if a == original {
                *a = mapped.clone();
            } else if let Some(rest) = a.strip_prefix(&format!("{original}/")) {
                *a = format!("{mapped}/{rest}");
            }
        }
    }
    if !has_out && !args.iter().any(|a| a == "--resume" || a.starts_with("--resume=")) {
        let mapped = tmp.join(format!("out{}-default", map.len()));
        map.push((String::new(), mapped.to_string_lossy().into_owned()));
        args.push("--out".into());
        args.push(mapped.to_string_lossy().into_owned());
    }
}

/// Checks the commands of one block (or one inline command); `expected`
/// holds a failing block's message.
fn check_commands(
    place: &str,
    commands: &[ShellCommand],
    mode: Mode,
    expected: Option<&str>,
    tmp: &Path,
    bench_options: &BTreeSet<String>,
    tally: &mut Tally,
) {
    let mut map: Vec<(String, String)> = Vec::new();
    assert!(mode == Mode::Parse || !commands.is_empty(), "{place}: a marked block without fibril commands");
    for (n, command) in commands.iter().enumerate() {
        let last = n + 1 == commands.len();
        let mut args = command.words.clone();
        let shown = format!("fibril {}", args.join(" "));
        let sub = args.first().cloned().unwrap_or_default();
        match sub.as_str() {
            "bench" => {
                for option in args.iter().filter(|a| a.starts_with("--")) {
                    let name = option.split('=').next().unwrap();
                    assert!(
                        bench_options.contains(name),
                        "{place}: `{shown}` uses {name}, which `fibril bench --help` does not list"
                    );
                }
                tally.benches += 1;
            }
            "import-cellml" => {
                // With a file of the repository it imports for real with
                // --check (writes nothing); otherwise (a file the reader
                // downloads) its options must be ones `--help` lists.
                let file = args.get(1).map(|f| root().join(f));
                if file.as_ref().is_some_and(|f| f.is_file()) {
                    let mut checked = args.clone();
                    checked.retain(|a| a != "--check");
                    checked.push("--check".into());
                    let out = fibril(&checked, &command.env);
                    assert!(out.status.success(), "{place}: `{shown}` failed:\n{}", text(&out.stderr));
                } else {
                    assert_options_listed("import-cellml", &args, place, &shown);
                }
                tally.models_info += 1;
            }
            "models" | "info" => {
                let out = fibril(&args, &command.env);
                assert!(out.status.success(), "{place}: `{shown}` failed:\n{}", text(&out.stderr));
                tally.models_info += 1;
            }
            "run" if mode == Mode::Parse => {
                if !args.iter().any(|a| a == "--print-config") {
                    args.push("--print-config".into());
                }
                // Finding the S2 time simulates the S1 wave in a column of
                // the grid (seconds for the ionic models): give it instead.
                if args.windows(2).any(|w| w[0] == "--protocol" && w[1] == "scroll")
                    && !args.iter().any(|a| a.starts_with("--s2-ms"))
                {
                    args.extend(["--s2-ms".into(), "1".into()]);
                }
                let out = fibril(&args, &command.env);
                assert!(
                    out.status.success(),
                    "{place}: `{shown} --print-config` exited with {}:\n{}",
                    out.status,
                    text(&out.stderr)
                );
                assert!(text(&out.stdout).contains("[grid]"), "{place}: `{shown}` printed no configuration");
                tally.parsed += 1;
            }
            "run" => {
                relocate(&mut args, tmp, &mut map);
                let out = fibril(&args, &command.env);
                let stderr = text(&out.stderr);
                if mode == Mode::Fails && last {
                    assert!(
                        !out.status.success(),
                        "{place}: `{shown}` should fail as the doc shows, but ran"
                    );
                    let mut message =
                        expected.unwrap_or_else(|| panic!("{place}: no ```text block follows")).to_string();
                    for (original, mapped) in &map {
                        if !original.is_empty() {
                            message = message.replace(&format!("{original}/"), &format!("{mapped}/"));
                        }
                    }
                    for line in message.lines().filter(|l| !l.trim().is_empty()) {
                        assert!(
                            stderr.contains(line.trim_end()),
                            "{place}: `{shown}` failed, but its message lacks the doc's line\n  {line}\nstderr:\n{stderr}"
                        );
                    }
                    tally.failed_as_shown += 1;
                } else {
                    assert!(out.status.success(), "{place}: `{shown}` exited with {}:\n{stderr}", out.status);
                    tally.ran += 1;
                }
            }
            "cv" | "cycle-length" | "movie" | "restitution" if mode == Mode::Parse => {
                // Analyses of a run the reader made: their options must be
                // ones `--help` lists.
                assert_options_listed(&sub, &args, place, &shown);
                tally.models_info += 1;
            }
            "cv" | "cycle-length" | "movie" | "restitution" => {
                // After the block's runs: on their (relocated) directories.
                relocate(&mut args, tmp, &mut map);
                let out = fibril(&args, &command.env);
                assert!(
                    out.status.success(),
                    "{place}: `{shown}` exited with {}:\n{}",
                    out.status,
                    text(&out.stderr)
                );
                tally.ran += 1;
            }
            other => panic!("{place}: `{shown}`: the test knows no fibril command {other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------
// (b) Commands

#[test]
fn every_command_shown_in_the_docs_runs_as_shown() {
    let bench_options = help_options("bench");
    let tmp = scratch("commands");
    let docs = documents();
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = docs
            .iter()
            .enumerate()
            .map(|(d, doc)| {
                let (tmp, bench_options) = (&tmp, &bench_options);
                s.spawn(move || {
                    let markdown = read(doc);
                    let all = blocks(&markdown);
                    let mut tally = Tally::default();
                    for (b, block) in all.iter().enumerate() {
                        let mode = match block.before.as_str() {
                            RUNS_MARK => Mode::Runs,
                            FAILS_MARK => Mode::Fails,
                            _ => Mode::Parse,
                        };
                        if block.info != "sh" {
                            assert!(
                                mode == Mode::Parse,
                                "{}:{}: a mark before a non-sh block",
                                doc.display(),
                                block.line
                            );
                            continue;
                        }
                        let place = format!("{}:{}", doc.display(), block.line);
                        let expected = (mode == Mode::Fails).then(|| {
                            let next =
                                all.get(b + 1).unwrap_or_else(|| panic!("{place}: no ```text block follows"));
                            assert_eq!(
                                next.info, "text",
                                "{place}: a failing block is followed by its message in ```text"
                            );
                            next.body.as_str()
                        });
                        let dir = tmp.join(format!("doc{d}-block{b}"));
                        std::fs::create_dir_all(&dir).unwrap();
                        let commands = shell_commands(&block.body);
                        check_commands(&place, &commands, mode, expected, &dir, bench_options, &mut tally);
                    }
                    if doc.ends_with("performance.md") {
                        for (n, span) in code_spans(&markdown).iter().enumerate() {
                            let commands = shell_commands(span);
                            if commands.is_empty() {
                                continue;
                            }
                            let place = format!("{} (inline `{span}`)", doc.display());
                            let dir = tmp.join(format!("doc{d}-span{n}"));
                            check_commands(
                                &place,
                                &commands,
                                Mode::Parse,
                                None,
                                &dir,
                                bench_options,
                                &mut tally,
                            );
                        }
                    }
                    tally
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a document's check")).collect()
    });
    let total = tallies.iter().fold(Tally::default(), |mut t, x| {
        t.parsed += x.parsed;
        t.ran += x.ran;
        t.failed_as_shown += x.failed_as_shown;
        t.benches += x.benches;
        t.models_info += x.models_info;
        t
    });
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!("docs: {total:?}");
    // The docs show commands of every kind; finding none would mean the
    // test read nothing.
    assert!(total.parsed >= 20, "too few `fibril run` commands found: {total:?}");
    assert!(total.ran >= 3, "too few commands run for real: {total:?}");
    assert!(total.failed_as_shown >= 3, "too few failing commands checked: {total:?}");
    assert!(total.benches >= 10, "too few `fibril bench` commands found: {total:?}");
    assert!(total.models_info >= 2, "too few `fibril models`/`info` commands found: {total:?}");
}

#[test]
fn shell_commands_are_split_as_a_shell_would() {
    let c = shell_commands(
        "rustup toolchain install && cargo run --release -- run --size 96 --out runs/planar\n\
         FOO=1 mpirun -np 2 fibril run --stimulus '{region = \"box\", x = [0, 3]}' \\\n    --out a # a comment\n\
         for r in 0 1; do fibril run --rank $r --out b & done; wait\n\
         cargo test --workspace\n",
    );
    let words: Vec<Vec<&str>> = c.iter().map(|c| c.words.iter().map(String::as_str).collect()).collect();
    assert_eq!(
        words,
        vec![
            vec!["run", "--size", "96", "--out", "runs/planar"],
            vec!["run", "--stimulus", "{region = \"box\", x = [0, 3]}", "--out", "a"],
            vec!["run", "--rank", "0", "--out", "b"],
        ]
    );
    assert_eq!(c[1].env, vec![("FOO".to_string(), "1".to_string())]);
    let mut args: Vec<String> =
        ["run", "--out", "runs/ck", "--resume", "runs/ck/checkpoint.fibril"].map(String::from).to_vec();
    let mut map = Vec::new();
    relocate(&mut args, Path::new("/t"), &mut map);
    assert_eq!(args[2], "/t/out0-runs_ck");
    assert_eq!(args[4], "/t/out0-runs_ck/checkpoint.fibril");
}

// ---------------------------------------------------------------------------
// (a) The configuration reference

/// The keys each section's table documents, by section (`grid`,
/// `model.parameters`, `stimulus`, `tissue.region`, ...), and the options
/// the tables name.
fn documented_keys(reference: &str) -> (BTreeMap<String, BTreeSet<String>>, BTreeSet<String>) {
    let mut sections: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut options = BTreeSet::new();
    let mut current: Option<String> = None;
    let mut fenced = false;
    for line in reference.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if line.starts_with('#') {
            let title = line.trim_start_matches('#').trim();
            current = title
                .strip_prefix("`[")
                .and_then(|t| t.strip_suffix("]`"))
                .map(|t| t.trim_start_matches('[').trim_end_matches(']').to_string());
            if let Some(name) = &current {
                sections.entry(name.clone()).or_default();
            }
            continue;
        }
        if !line.starts_with('|') {
            continue;
        }
        options.extend(long_options(line));
        let Some(section) = &current else { continue };
        let first = line.trim_start_matches('|').split('|').next().unwrap_or("").trim();
        if let Some(key) = first.strip_prefix('`').and_then(|k| k.strip_suffix('`')) {
            sections.get_mut(section).unwrap().insert(key.to_string());
        }
    }
    (sections, options)
}

/// The keys a printed configuration sets, by section; a table inside a
/// section is a section of its own (`model.parameters`), and so is an
/// array of tables (`stimulus`, `tissue.region`).
fn keys_of(table: &toml::Table, prefix: &str, into: &mut BTreeMap<String, BTreeSet<String>>) {
    for (key, value) in table {
        let name = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        match value {
            // Tables of free keys (parameter names) that the reference
            // documents as one key of their section.
            toml::Value::Table(_)
                if [
                    "tissue.parameter_fields",
                    "tissue.region.parameters",
                    "mesh.parameter_fields",
                    "mesh.region.parameters",
                ]
                .contains(&name.as_str()) =>
            {
                into.entry(prefix.to_string()).or_default().insert(key.clone());
            }
            toml::Value::Table(t) => {
                into.entry(name.clone()).or_default();
                keys_of(t, &name, into);
            }
            toml::Value::Array(items) if !items.is_empty() && items.iter().all(toml::Value::is_table) => {
                into.entry(name.clone()).or_default();
                for item in items {
                    keys_of(item.as_table().unwrap(), &name, into);
                }
            }
            _ => {
                into.entry(prefix.to_string()).or_default().insert(key.clone());
            }
        }
    }
}

fn print_config(args: &[&str]) -> toml::Table {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let out = fibril(&args, &[]);
    assert!(out.status.success(), "fibril {args:?} failed:\n{}", text(&out.stderr));
    text(&out.stdout).parse().unwrap_or_else(|e| panic!("fibril {args:?} printed no TOML: {e}"))
}

/// The keys the parser accepts in `section`, from the error an unknown key
/// gets (`expected one of `a`, `b`` or `expected `a` or `b``).
fn accepted_keys(section: &str, dir: &Path) -> BTreeSet<String> {
    let header = if section.is_empty() { String::new() } else { format!("{section}\n") };
    let file = dir.join(format!("unknown-{}.toml", section.replace(['[', ']', '.'], "")));
    std::fs::write(&file, format!("{header}zzz_not_a_key = 1\n")).unwrap();
    let out = fibril(&["run".into(), file.to_string_lossy().into_owned(), "--print-config".into()], &[]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "an unknown key in {section} was accepted");
    let list =
        stderr.split("expected").nth(1).unwrap_or_else(|| panic!("no list of keys for {section}:\n{stderr}"));
    list.split('`').skip(1).step_by(2).map(String::from).collect()
}

#[test]
fn the_configuration_reference_documents_every_key_and_its_examples_are_accepted() {
    let reference = read(Path::new("docs/guide/src/configuration.md"));
    let (documented, options) = documented_keys(&reference);
    let dir = scratch("reference");

    // Every section and key the parser accepts has its heading and row.
    let top = accepted_keys("", &dir);
    assert!(top.len() >= 8, "too few sections found: {top:?}");
    let mut accepted: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for section in &top {
        assert!(
            documented.contains_key(section),
            "the reference has no heading `[{section}]` or `[[{section}]]`"
        );
        let header = if ["stimulus", "electrode"].contains(&section.as_str()) {
            format!("[[{section}]]")
        } else {
            format!("[{section}]")
        };
        let mut keys = accepted_keys(&header, &dir);
        for key in keys.clone() {
            let nested = format!("{section}.{key}");
            if documented.contains_key(&nested) {
                keys.remove(&key);
                if nested != "model.parameters" {
                    let header = if ["tissue.region", "mesh.region"].contains(&nested.as_str()) {
                        format!("[[{nested}]]")
                    } else {
                        format!("[{nested}]")
                    };
                    accepted.insert(nested, accepted_keys(&header, &dir));
                }
            }
        }
        accepted.insert(section.clone(), keys);
    }
    assert!(
        accepted.contains_key("tissue.region"),
        "[[tissue.region]] is documented as a section of its own"
    );
    for (section, keys) in &accepted {
        for key in keys {
            if REMOVED_KEYS.contains(&(section.as_str(), key.as_str())) {
                assert!(reference.contains(&format!("`{key}`")), "the reference does not say {key} is gone");
                continue;
            }
            assert!(
                documented[section].contains(key),
                "the parser accepts {key} in [{section}], but the reference's table has no row for it"
            );
        }
    }

    // Every key `--print-config` prints is documented, with options and
    // files that make every section appear.
    let tissue_file = dir.join("tissue-file.toml");
    std::fs::write(
        &tissue_file,
        "[tissue]\ngeometry = \"file\"\nmask = \"heart.vti\"\nmask_array = \"labels\"\nfibres = \"fibres.vti\"\n\
         fibres_array = \"fibres\"\nd_fibre = 0.3\nd_cross = 0.05\nd_sheet = 0.02\nlayout = \"dense\"\n\
         weights = \"per-cell\"\n[[tissue.region]]\nlabel = 2\nd_fibre = 0.1\nd_cross = 0.02\nd_sheet = 0.01\n",
    )
    .unwrap();
    let cylinder = dir.join("cylinder.toml");
    std::fs::write(
        &cylinder,
        "[grid]\nsize = 32\n[tissue]\ngeometry = \"cylinder\"\nhole = 3.0\nfibre = [1.0, 0.0, 0.0]\n\
         sheet = [0.0, 1.0, 0.0]\nd_fibre = 1.0\nd_cross = 0.25\nd_sheet = 0.1\n",
    )
    .unwrap();
    let (tissue_file, cylinder) =
        (tissue_file.to_string_lossy().into_owned(), cylinder.to_string_lossy().into_owned());
    let everything: &[&str] = &[
        "run",
        "--print-config",
        "--nx",
        "40",
        "--ny",
        "32",
        "--nz",
        "24",
        "--dx",
        "0.5",
        "--dt",
        "0.02",
        "--diffusion",
        "0.8",
        "--preset",
        "breakup",
        "--param",
        "gamma=1.5",
        "--exact-math",
        "--kernel",
        "tune",
        "--retune",
        "--block",
        "32x8",
        "--z-chunk",
        "4",
        "--steps-per-pass",
        "2",
        "--device",
        "0",
        "--gpus",
        "1",
        "--gpu-ids",
        "0,0",
        "--exchange",
        "host",
        "--no-overlap",
        "--no-graphs",
        "--no-pdl",
        "--steps",
        "100",
        "--init",
        "planar",
        "--protocol",
        "scroll",
        "--s2-ms",
        "1",
        "--check-every-steps",
        "100",
        "--checkpoint-every-ms",
        "1",
        "--out",
        "o",
        "--overwrite",
        "--snapshot-every-ms",
        "1",
        "--save",
        "U,v",
        "--save-v",
        "--format",
        "npy,vti,png",
        "--activation-map",
        "--activation-threshold",
        "1",
        "--apd-map",
        "--repolarisation-threshold",
        "0.5",
        "--beats",
        "2",
        "--tips-every-ms",
        "1",
        "--ecg-every-ms",
        "1",
        "--quiet",
        "--stimulus",
        "{region = \"box\", x = [0, 3], y = [0, 3], z = [0, 3], at_ms = 1, duration_ms = 1, value = 3, period_ms = 1, count = 2}",
        "--stimulus",
        "{region = \"sphere\", center = [8, 8, 8], radius = 2, current = 1}",
        "--stimulus",
        "{region = \"cross-field\", x_frac = [0, 0.5], z_frac = [0, 0.5]}",
        "--stimulus",
        "{region = \"mask\", file = \"m.npy\"}",
        "--stimulus",
        "{region = \"planar\"}",
        "--electrode",
        "{name = \"V1\", position = [1, 2, 30]}",
    ];
    let printed_sets = [
        print_config(everything),
        print_config(&[
            "run",
            "--print-config",
            "--model",
            "ten_tusscher_2006",
            "--sigma",
            "0.1334",
            "--chi",
            "140",
            "--cm",
            "1",
            "--rate-tables",
            "--precision",
            "f32",
            "--backend",
            "cpu",
            "--gpus",
            "all",
            "--stimulus",
            "{region = \"box\", x = [0, 2], current_density = 50000, duration_ms = 2}",
        ]),
        print_config(&["run", "configs/niederer.toml", "--print-config"]),
        print_config(&["run", "configs/shell.toml", "--print-config"]),
        print_config(&["run", &tissue_file, "--print-config"]),
        print_config(&["run", &cylinder, "--print-config"]),
        print_config(&["run", "examples/lv/lv.toml", "--print-config"]),
    ];
    let mut printed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for table in &printed_sets {
        keys_of(table, "", &mut printed);
    }
    for section in [
        "grid",
        "model",
        "model.parameters",
        "compute",
        "run",
        "output",
        "stimulus",
        "electrode",
        "tissue",
        "tissue.region",
        "mesh",
    ] {
        assert!(printed.contains_key(section), "no invocation printed [{section}]: {printed:?}");
    }
    for (section, keys) in &printed {
        assert!(
            documented.contains_key(section),
            "--print-config prints [{section}], which the reference lacks"
        );
        if section == "model.parameters" {
            continue; // the model's own parameters: `fibril models NAME` documents them
        }
        for key in keys {
            assert!(
                documented[section].contains(key),
                "--print-config prints {key} in [{section}], but the reference's table has no row for it"
            );
        }
    }

    // The examples: each accepted, and together setting exactly the keys
    // the tables document.
    let examples: Vec<Block> = blocks(&reference).into_iter().filter(|b| b.info == "toml").collect();
    assert!(examples.len() >= 5, "too few ```toml examples in the reference");
    let mut set: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (n, example) in examples.iter().enumerate() {
        let file = dir.join(format!("example{n}.toml"));
        std::fs::write(&file, &example.body).unwrap();
        let out = fibril(&["run".into(), file.to_string_lossy().into_owned(), "--print-config".into()], &[]);
        assert!(
            out.status.success(),
            "configuration.md:{}: the example is refused:\n{}",
            example.line,
            text(&out.stderr)
        );
        let table: toml::Table = example.body.parse().unwrap();
        keys_of(&table, "", &mut set);
    }
    // The keys of `a` that `b` lacks, as `[section] key` (model parameters
    // are each model's own).
    let lacking = |a: &BTreeMap<String, BTreeSet<String>>, b: &BTreeMap<String, BTreeSet<String>>| {
        let mut out = Vec::new();
        for (section, keys) in a.iter().filter(|(section, _)| *section != "model.parameters") {
            let known = b.get(section);
            out.extend(
                keys.iter()
                    .filter(|k| !known.is_some_and(|b| b.contains(*k)))
                    .map(|k| format!("[{section}] {k}")),
            );
        }
        out
    };
    let unset = lacking(&documented, &set);
    assert!(unset.is_empty(), "the reference documents {unset:?}, but no ```toml example sets them");
    let undocumented = lacking(&set, &documented);
    assert!(
        undocumented.is_empty(),
        "examples set {undocumented:?}, which the reference's tables do not document"
    );

    // The options the tables name exist.
    let mut known = help_options("run");
    known.extend(help_options("bench"));
    for option in &options {
        assert!(known.contains(option), "the reference names {option}, which no --help lists");
    }
    assert!(options.len() >= 40, "too few options found in the reference's tables: {options:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_toml_example_of_the_docs_is_accepted() {
    let dir = scratch("toml");
    let mut count = 0;
    for doc in documents() {
        for (n, block) in blocks(&read(&doc)).into_iter().enumerate() {
            if block.info != "toml" {
                continue;
            }
            let file = dir.join(format!("{}-{n}.toml", doc.file_stem().unwrap().to_string_lossy()));
            std::fs::write(&file, &block.body).unwrap();
            let out =
                fibril(&["run".into(), file.to_string_lossy().into_owned(), "--print-config".into()], &[]);
            assert!(
                out.status.success(),
                "{}:{}: the example is refused:\n{}",
                doc.display(),
                block.line,
                text(&out.stderr)
            );
            count += 1;
        }
    }
    assert!(count >= 15, "too few ```toml blocks found ({count})");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// (c) Links

/// The targets of the Markdown links and images of `markdown`.
fn link_targets(markdown: &str) -> Vec<String> {
    let text = prose(markdown);
    let mut targets = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("").to_string();
        targets.push(target);
        rest = &after[end..];
    }
    targets
}

#[test]
fn every_relative_link_points_to_an_existing_file_and_heading() {
    let mut checked = 0;
    for doc in documents() {
        let markdown = read(&doc);
        let base = root().join(&doc).parent().unwrap().to_path_buf();
        for target in link_targets(&markdown) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() { root().join(&doc) } else { base.join(path) };
            assert!(
                file.exists(),
                "{}: the link {target} points to {}, which does not exist",
                doc.display(),
                file.display()
            );
            if let Some(fragment) = fragment
                && file.extension().is_some_and(|e| e == "md")
            {
                let ids: Vec<String> =
                    headings(&std::fs::read_to_string(&file).unwrap()).iter().map(|h| slug(h)).collect();
                assert!(
                    ids.iter().any(|id| id == fragment),
                    "{}: the link {target} names no heading of {} (its ids: {ids:?})",
                    doc.display(),
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "too few links found ({checked})");

    // Every chapter is in the summary, and the README stays a front page.
    let summary = read(Path::new("docs/guide/src/SUMMARY.md"));
    let listed: BTreeSet<String> = link_targets(&summary).into_iter().collect();
    for doc in documents().iter().filter(|d| d.starts_with("docs/guide/src")) {
        let name = doc.file_name().unwrap().to_string_lossy().into_owned();
        if name != "SUMMARY.md" {
            assert!(listed.contains(&name), "{name} is not in SUMMARY.md");
        }
    }
    let readme_lines = read(Path::new("README.md")).lines().count();
    assert!(readme_lines <= 250, "README.md has {readme_lines} lines; the manual belongs in the guide");
}

#[test]
fn slugs_are_those_of_mdbook() {
    assert_eq!(slug("`[[stimulus]]`"), "stimulus");
    assert_eq!(slug("Rate tables: faster, within 5e-5"), "rate-tables-faster-within-5e-5");
    assert_eq!(slug("2. Reading its files"), "2-reading-its-files");
}
