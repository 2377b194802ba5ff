//! Examples in README.md and docs/*.md marked `<!-- checked -->` are run and must print
//! exactly what the page shows: the line after the marker opens a code block whose first
//! line is `$ volley ARGS` (arguments split as a shell would, with double quotes) and
//! whose other lines are the expected stdout. `VOLLEY_UPDATE_DOCS=1` rewrites the stale
//! blocks with what the commands print now (check the diff before committing it).

use super::*;

use std::path::Path;

/// `text` split into arguments: whitespace separates, double quotes group.
fn shell_words(text: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

/// Every checked example of `page`: (line of the command, arguments, expected stdout).
fn examples(page: &str) -> Vec<(usize, Vec<String>, String)> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() != "<!-- checked -->" {
            continue;
        }
        assert_eq!(lines.get(i + 1).map(|l| l.trim()), Some("```"), "line {}: a code block follows the marker", i + 2);
        let command =
            lines[i + 2].strip_prefix("$ volley ").unwrap_or_else(|| panic!("line {}: `$ volley ...`", i + 3));
        let end = (i + 3..lines.len()).find(|&k| lines[k].trim() == "```").expect("the block is closed");
        let expected: String = lines[i + 3..end].iter().map(|l| format!("{l}\n")).collect();
        out.push((i + 3, shell_words(command), expected));
    }
    out
}

#[test]
fn shell_words_group_quotes() {
    assert_eq!(
        shell_words(r#"meta "Lance Group" x  --range 12 """#),
        ["meta", "Lance Group", "x", "--range", "12", ""]
    );
}

#[test]
fn checked_examples_print_what_the_pages_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var_os("VOLLEY_UPDATE_DOCS").is_some();
    let mut pages = vec![root.join("README.md")];
    pages.extend(
        fs::read_dir(root.join("docs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "md")),
    );
    let mut checked = 0;
    let mut stale = Vec::new();
    for page in pages {
        let text = fs::read_to_string(&page).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        // Later blocks first, so that a rewritten block does not move the earlier ones.
        for (line, args, expected) in examples(&text).into_iter().rev() {
            let out = volley().args(&args).output().unwrap();
            let got = String::from_utf8_lossy(&out.stdout).to_string();
            checked += 1;
            if out.status.success() && got == expected {
                continue;
            }
            if update && out.status.success() {
                let end = line + expected.lines().count();
                lines.splice(line..end, got.lines().map(str::to_string));
                continue;
            }
            stale.push(format!(
                "{}:{line}: `volley {}` printed (exit {:?}):\n{got}{}",
                page.display(),
                args.join(" "),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        if update {
            fs::write(&page, lines.join("\n") + "\n").unwrap();
        }
    }
    assert!(checked > 0, "no checked example found");
    assert!(stale.is_empty(), "stale examples:\n{}", stale.join("\n"));
}
