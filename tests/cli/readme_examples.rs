//! Examples in README.md and every docs/*.md page marked `<!-- checked -->` are run and
//! must print exactly what the page shows. The line after the marker opens a code block;
//! each of its lines that begins with `$ ` is a command, and the lines after it, up to the
//! next command or the end of the block, are that command's expected stdout.
//!
//! Each block runs in a fresh temporary directory (so a `sweep` writes its report there
//! and a later command of the same block can read it); each command runs through `sh -c`
//! with the `volley` under test first on `PATH`, without `VOLLEY_LOADOUTS` or
//! `VOLLEY_RULESET`, and must exit 0. `VOLLEY_UPDATE_DOCS=1` rewrites the stale blocks
//! with what the commands print now (check the diff before committing it).
//!
//! A code block whose first line is a `$ volley` command and which shows any output must
//! be checked: a block of commands alone need not be.

use super::*;

use std::path::{Path, PathBuf};
use std::process::Command as Process;

/// One checked block: the line of its first command (0-based index into the page's
/// lines), the line of its closing fence, and its commands with their expected stdout.
struct Block {
    first: usize,
    end: usize,
    commands: Vec<(String, String)>,
}

/// Every checked block of `page`.
fn blocks(page: &str) -> Vec<Block> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() != "<!-- checked -->" {
            continue;
        }
        assert_eq!(lines.get(i + 1).map(|l| l.trim()), Some("```"), "line {}: a code block follows the marker", i + 2);
        let first = i + 2;
        let end = (first..lines.len()).find(|&k| lines[k].trim() == "```").expect("the block is closed");
        let mut commands: Vec<(String, String)> = Vec::new();
        for (k, line) in lines.iter().enumerate().take(end).skip(first) {
            match line.strip_prefix("$ ") {
                Some(command) => commands.push((command.to_string(), String::new())),
                None => {
                    let (_, expected) = commands
                        .last_mut()
                        .unwrap_or_else(|| panic!("line {}: a block starts with `$ COMMAND`", k + 1));
                    expected.push_str(line);
                    expected.push('\n');
                }
            }
        }
        assert!(!commands.is_empty(), "line {}: an empty checked block", first + 1);
        out.push(Block { first, end, commands });
    }
    out
}

/// The lines (1-based) of code blocks that show a `$ volley` command with output but are
/// not marked `<!-- checked -->`.
fn unchecked_examples(page: &str) -> Vec<usize> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].trim_start().starts_with("```") {
            i += 1;
            continue;
        }
        let end = (i + 1..lines.len()).find(|&k| lines[k].trim_start().starts_with("```")).unwrap_or(lines.len());
        let body = &lines[i + 1..end];
        let checked = i > 0 && lines[i - 1].trim() == "<!-- checked -->";
        let shows_volley = body.first().is_some_and(|l| l.starts_with("$ volley"));
        let has_output = body.iter().any(|l| !l.starts_with("$ ") && !l.trim().is_empty());
        if shows_volley && has_output && !checked {
            out.push(i + 2);
        }
        i = end + 1;
    }
    out
}

/// README.md and every Markdown page under docs/.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    let mut pages = vec![root.join("README.md")];
    pages.extend(docs);
    pages
}

/// `command` run by `sh -c` in `dir` with the binary under test first on `PATH`.
fn run(command: &str, dir: &Path) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("volley");
    let mut path = vec![bin.parent().unwrap().to_path_buf()];
    path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    Process::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(path).unwrap())
        .env_remove("VOLLEY_LOADOUTS")
        .env_remove("VOLLEY_RULESET")
        .output()
        .unwrap()
}

#[test]
fn blocks_split_commands_from_their_output() {
    let page =
        "text\n<!-- checked -->\n```\n$ volley a \"b c\"\none\n$ head x\ntwo\nthree\n```\n```\n$ volley x\n```\n";
    let b = blocks(page);
    assert_eq!(b.len(), 1);
    assert_eq!((b[0].first, b[0].end), (3, 8));
    assert_eq!(
        b[0].commands,
        [("volley a \"b c\"".to_string(), "one\n".to_string()), ("head x".to_string(), "two\nthree\n".to_string())]
    );
    // A command alone needs no check; a command with output does.
    assert!(unchecked_examples(page).is_empty());
    assert_eq!(unchecked_examples("```\n$ volley x\nout\n```\n"), [2]);
}

#[test]
fn every_example_with_output_is_checked() {
    let mut missing = Vec::new();
    for page in pages() {
        for line in unchecked_examples(&fs::read_to_string(&page).unwrap()) {
            missing.push(format!("{}:{line}", page.display()));
        }
    }
    assert!(missing.is_empty(), "examples with output but no `<!-- checked -->` marker: {missing:?}");
}

#[test]
fn checked_examples_print_what_the_pages_show() {
    let update = std::env::var_os("VOLLEY_UPDATE_DOCS").is_some();
    let mut checked = 0;
    let mut stale = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        // Later blocks first, so that a rewritten block does not move the earlier ones.
        for block in blocks(&text).into_iter().rev() {
            let dir = tempfile::tempdir().unwrap();
            let mut fresh = Vec::new();
            let mut ok = true;
            for (command, expected) in &block.commands {
                let out = run(command, dir.path());
                let got = String::from_utf8_lossy(&out.stdout).to_string();
                checked += 1;
                fresh.push(format!("$ {command}"));
                fresh.extend(got.lines().map(str::to_string));
                if out.status.success() && got == *expected {
                    continue;
                }
                if !out.status.success() || !update {
                    ok = false;
                    stale.push(format!(
                        "{}:{}: `{command}` printed (exit {:?}):\n{got}{}",
                        page.display(),
                        block.first + 1,
                        out.status.code(),
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
            }
            if update && ok {
                lines.splice(block.first..block.end, fresh);
            }
        }
        if update {
            fs::write(&page, lines.join("\n") + "\n").unwrap();
        }
    }
    assert!(checked > 0, "no checked example found");
    assert!(stale.is_empty(), "stale examples:\n{}", stale.join("\n"));
}
