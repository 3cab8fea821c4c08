//! What the README and the guides say of their own examples: the files
//! those examples write are ignored by git, and what they need is named.

use std::path::{Path, PathBuf};

/// The README and every guide but the grader's (whose examples have their own
/// tests).
fn pages() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![("README.md".to_string(), read(&root.join("README.md")))];
    let mut guides: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("grading.md"))
        .collect();
    guides.sort();
    for path in guides {
        let name = format!("docs/{}", path.file_name().unwrap().to_string_lossy());
        pages.push((name, read(&path)));
    }
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The lines of the page's ```sh blocks.
fn shell_lines(page: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in page.lines() {
        if line.starts_with("```") {
            inside = line == "```sh";
        } else if inside {
            lines.push(line);
        }
    }
    lines
}

/// The files a shell line writes in the folder it runs in (or under
/// `examples/`): after `-o`, `--dot`, `--store` or `>`, a relative name.
fn written(line: &str) -> Vec<&str> {
    let words: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| ["-o", "--dot", "--store", ">"].contains(&w[0]))
        .map(|w| w[1])
        .filter(|name| !name.starts_with(['/', '-', '$', '"']) && name.contains('.'))
        .collect()
}

/// Running the documented examples in the repository (at its top, or in
/// `examples/` as the README's list is) leaves no file git would show as
/// new.
#[test]
fn the_files_the_examples_write_are_ignored() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ignored: Vec<String> = read(&root.join(".gitignore"))
        .lines()
        .map(|l| l.trim_start_matches('/').to_string())
        .collect();
    let mut missing = Vec::new();
    for (name, page) in pages() {
        for line in shell_lines(&page) {
            for file in written(line) {
                let places = if file.contains('/') {
                    vec![file.to_string()]
                } else {
                    vec![file.to_string(), format!("examples/{file}")]
                };
                for place in places {
                    if !ignored.contains(&place) {
                        missing.push(format!("{name}: {place} (from `{line}`)"));
                    }
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in .gitignore:\n{}",
        missing.join("\n")
    );
}

/// A page whose example calls Graphviz's `dot` says that Graphviz is
/// needed and where it comes from.
#[test]
fn graphviz_is_named_where_an_example_needs_it() {
    for (name, page) in pages() {
        if shell_lines(&page).iter().any(|l| l.contains("dot -T")) {
            assert!(page.contains("needs Graphviz"), "{name}");
        }
    }
}

/// The pages held to a size stay short enough to read through: the README
/// at most 15 KB, the performance guide (its tables, the rest in the
/// records it links) 12 KB.
#[test]
fn the_readme_and_the_performance_guide_keep_their_size() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (page, most) in [("README.md", 15_000), ("docs/performance.md", 12_000)] {
        let size = read(&root.join(page)).len();
        assert!(size <= most, "{page} is {size} bytes, past {most}");
    }
}

/// The README says, beside its main job's command, that the first run
/// builds the program first (minutes on a fresh clone).
#[test]
fn the_readme_says_the_main_job_builds_first() {
    let readme = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"));
    let main = &readme[readme.find("\ncargo run --release -- solve").unwrap()..];
    let note = &main[..main.find("Run the tests").unwrap()];
    assert!(
        note.contains("A few minutes the first time, for the build"),
        "the quick start does not say the main job builds first:\n{note}"
    );
}

/// The README says what its test command costs before anyone runs it.
#[test]
fn the_readme_says_what_the_tests_cost() {
    let readme = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"));
    let quick = &readme[readme.find("\nscripts/test.sh\n").unwrap()..];
    let note = &quick[..quick.find("## Commands").unwrap()];
    for says in [
        "about 10 minutes",
        "downloads Python packages",
        "about 2 GB of disk",
    ] {
        assert!(note.contains(says), "the quick start does not say {says:?}");
    }
}

/// `stakeraid --help` and `stakeraid COMMAND --help`, as the binary prints them.
fn help(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands `stakeraid --help` lists, in its order.
fn commands() -> Vec<String> {
    let text = help(&[]);
    text.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// A command's options as its help lists them: `--long`, or `-s` where
/// there is a short form too (either may stand in a synopsis).
fn options(command: &str) -> Vec<Vec<String>> {
    help(&[command])
        .lines()
        .map(str::trim_start)
        // `--long` or `-s, --long`; not a list of values (`- name: ...`).
        .filter(|l| l.starts_with("--") || l.get(2..4) == Some(", "))
        .map(|l| {
            let names = l.split("  ").next().unwrap();
            names
                .split(", ")
                .map(|n| n.split([' ', '=']).next().unwrap().to_string())
                .collect::<Vec<_>>()
        })
        .filter(|names| !names.iter().any(|n| n == "--help" || n == "--version"))
        .collect()
}

/// The README's synopsis lines of each command: the lines of the first
/// text block of "## Commands" that start with `stakeraid COMMAND`, with
/// the indented lines that go on from them.
fn synopses(readme: &str) -> Vec<(String, String)> {
    let section = &readme[readme.find("## Commands").unwrap()..];
    let block = &section[section.find("```text\n").unwrap() + 8..];
    let block = &block[..block.find("```").unwrap()];
    let mut synopses: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        if let Some(rest) = line.strip_prefix("stakeraid ") {
            // The bare `stakeraid` (the grader's run) is no subcommand.
            let command = match rest.starts_with(' ') {
                true => String::new(),
                false => rest.split_whitespace().next().unwrap().to_string(),
            };
            synopses.push((command, line.to_string()));
        } else if line.starts_with(' ') {
            if let Some((_, text)) = synopses.last_mut() {
                text.push_str(line);
            }
        }
    }
    synopses
}

/// The README's synopsis lists the commands in the order `--help` does,
/// each with every option its help lists.
#[test]
fn the_readme_synopsis_follows_the_help() {
    let readme = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"));
    let synopses = synopses(&readme);
    let mut order: Vec<String> = Vec::new();
    for (command, _) in synopses.iter().filter(|(c, _)| !c.is_empty()) {
        if order.last() != Some(command) {
            order.push(command.clone());
        }
    }
    assert_eq!(order, commands(), "the README's commands, against --help");
    let mut missing = Vec::new();
    for command in commands() {
        let text: String = synopses
            .iter()
            .filter(|(c, _)| *c == command)
            .map(|(_, t)| t.as_str())
            .collect();
        for names in options(&command) {
            let shown = names.iter().any(|name| {
                text.match_indices(name.as_str()).any(|(at, _)| {
                    let next = text[at + name.len()..].chars().next();
                    !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
                })
            });
            if !shown {
                missing.push(format!("{command} {}", names.join("/")));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in the README's synopsis: {missing:?}"
    );
    // And the other way: every option a synopsis shows is one its help has.
    let mut unknown = Vec::new();
    for (command, text) in synopses.iter().filter(|(c, _)| !c.is_empty()) {
        let known = options(command).concat();
        for word in text.split(|c: char| c.is_whitespace() || "[]()|".contains(c)) {
            let name = word.split('=').next().unwrap();
            let option = name.starts_with('-')
                && name
                    .trim_start_matches('-')
                    .starts_with(|c: char| c.is_ascii_lowercase());
            if option && !known.iter().any(|k| k == name) {
                unknown.push(format!("{command} {name}"));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "in the README's synopsis, not in --help: {unknown:?}"
    );
}

/// `referee --help` names every built-in agent `match --help` names.
#[test]
fn referee_help_lists_the_agents_match_lists() {
    let matches = help(&["match"]);
    let agents = matches
        .lines()
        .find_map(|l| l.trim().strip_prefix("<A>"))
        .unwrap()
        .trim()
        .trim_start_matches("Agent A: ");
    let referee = help(&["referee"]);
    let names: Vec<&str> = agents
        .split([',', ' '])
        .filter(|w| w.contains(':') || ["random", "greedy"].contains(w))
        .collect();
    assert!(names.len() >= 7, "{agents}");
    for name in names {
        assert!(
            referee.contains(name),
            "referee --help does not list {name}"
        );
    }
}

/// The pages whose links must resolve: the README, every guide, the
/// changelog and the indexes of the records and the scripts.
fn linked_pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<PathBuf> = [
        "README.md",
        "CHANGELOG.md",
        "profiles/README.md",
        "scripts/README.md",
    ]
    .iter()
    .map(|p| root.join(p))
    .collect();
    let mut guides: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    pages.extend(guides);
    pages
}

/// The page without its fenced code blocks and inline code spans, where a
/// `](` is text, not a link.
fn prose(page: &str) -> String {
    let mut text = String::new();
    let mut fenced = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            text.push_str(line);
            text.push('\n');
        }
    }
    // Inline code: a run of backticks up to the same run again.
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let run = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let after = &rest[start + run..];
        match after.find(&"`".repeat(run)) {
            Some(end) => rest = &after[end + run..],
            None => {
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the page's links and images, `[text](target)` and
/// reference definitions `[name]: target`.
fn link_targets(page: &str) -> Vec<String> {
    let text = prose(page);
    let mut targets = Vec::new();
    for (at, _) in text.match_indices("](") {
        let rest = &text[at + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.trim_matches(['<', '>']).to_string());
        }
    }
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix('[') {
            if let Some((_, target)) = rest.split_once("]: ") {
                targets.push(target.split_whitespace().next().unwrap_or("").to_string());
            }
        }
    }
    targets
}

/// The anchors GitHub gives a page's headings: lower case, punctuation
/// but `-` and `_` dropped, spaces made `-`, a repeated one numbered.
fn anchors(page: &str) -> Vec<String> {
    let mut anchors: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || [' ', '-', '_'].contains(c))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let seen = anchors
            .iter()
            .filter(|a| {
                **a == slug
                    || a.strip_prefix(&slug)
                        .is_some_and(|n| n.starts_with('-') && n[1..].parse::<u32>().is_ok())
            })
            .count();
        anchors.push(if seen == 0 {
            slug
        } else {
            format!("{slug}-{seen}")
        });
    }
    anchors
}

/// Every relative link of the README, the guides, the changelog and the
/// two indexes names a file or folder that exists, and every `#anchor`
/// names a heading of its page.
#[test]
fn every_relative_link_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for page in linked_pages() {
        let name = page.strip_prefix(root).unwrap().display().to_string();
        let text = read(&page);
        for target in link_targets(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(path)
            };
            if !file.exists() {
                broken.push(format!("{name}: {target} (no such file)"));
                continue;
            }
            if let Some(anchor) = anchor {
                let is_page = file.extension().is_some_and(|e| e == "md");
                if !is_page || !anchors(&read(&file)).iter().any(|a| a == anchor) {
                    broken.push(format!("{name}: {target} (no such heading)"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that do not resolve:\n{}",
        broken.join("\n")
    );
}

/// The scripts of `files` that the index `readme` gives no line of its own
/// (a list item that links the script by its name).
fn unlisted_scripts(readme: &str, files: &[String]) -> Vec<String> {
    let listed = link_targets(readme);
    files
        .iter()
        .filter(|f| f.as_str() != "README.md" && !listed.contains(f))
        .cloned()
        .collect()
}

/// Every file of `scripts/` has its line in `scripts/README.md`.
#[test]
fn every_script_is_indexed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root.join("scripts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let missing = unlisted_scripts(&read(&root.join("scripts/README.md")), &files);
    assert!(
        missing.is_empty(),
        "scripts/README.md has no line for: {}",
        missing.join(", ")
    );
}

/// A script added without its line is found, and only it.
#[test]
fn an_unindexed_script_is_named() {
    let readme = "- [`ab.sh`](ab.sh): two builds.\n- `bench.sh` in code only\n";
    let files: Vec<String> = ["README.md", "ab.sh", "bench.sh", "new.sh"]
        .iter()
        .map(|f| f.to_string())
        .collect();
    assert_eq!(unlisted_scripts(readme, &files), ["bench.sh", "new.sh"]);
}

/// The anchors are GitHub's, as the pages' own links use them.
#[test]
fn anchors_follow_github() {
    let page = concat!(
        "# Title\n",
        "## input.txt\n",
        "### `--json` on a stored solve\n",
        "## [0.1.0] - 2026-11-28\n",
        "```\n# not a heading\n```\n",
        "## Title\n",
    );
    assert_eq!(
        anchors(page),
        [
            "title",
            "inputtxt",
            "--json-on-a-stored-solve",
            "010---2026-11-28",
            "title-1"
        ]
    );
}

/// `stakeraid --version` names the package's version, and the changelog
/// has a section for it or says what is unreleased since.
#[test]
fn the_version_is_the_package_s_and_the_changelog_knows_it() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("stakeraid {version}\n")
    );
    let changelog = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("CHANGELOG.md"));
    assert!(
        changelog.contains("## [Unreleased]"),
        "CHANGELOG.md has no Unreleased section"
    );
    assert!(
        changelog.contains(&format!("## [{version}] - ")),
        "CHANGELOG.md has no section for {version}"
    );
}

/// The commands of a shell script: its lines but comments, blank lines,
/// the `set` of its options and the `cd` to the repository's top.
fn script_commands(script: &str) -> Vec<&str> {
    script
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| !l.starts_with("set -") && !l.starts_with("cd \"$(dirname"))
        .collect()
}

/// CI runs exactly the test commands the README gives, and nothing else:
/// what CI needs set up, the README's command sets up.
#[test]
fn ci_runs_the_readme_test_command() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = read(&root.join("README.md"));
    let quick = &readme[..readme.find("## Commands").unwrap()];
    let commands: Vec<&str> = shell_lines(quick)
        .into_iter()
        .filter(|l| l.starts_with("scripts/"))
        .collect();
    assert!(
        commands.iter().any(|c| c.starts_with("scripts/test.sh")),
        "no test command in the README's quick start"
    );
    let ci = read(&root.join(".ci/run"));
    assert_eq!(
        script_commands(&ci),
        commands,
        ".ci/run runs other commands than the README's test command"
    );
}

/// The grading guide stays a walk-through a teaching assistant finishes
/// (at most 15 KB), and it and its reference link to each other.
#[test]
fn the_grading_guide_is_short_and_linked_to_its_reference() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let guide = read(&docs.join("grading.md"));
    let reference = read(&docs.join("grading-reference.md"));
    assert!(
        guide.len() <= 15_000,
        "docs/grading.md is {} bytes",
        guide.len()
    );
    let links = |page: &str, to: &str| {
        link_targets(page)
            .iter()
            .any(|t| t.split('#').next() == Some(to))
    };
    assert!(
        links(&guide, "grading-reference.md"),
        "the guide does not link the reference"
    );
    assert!(
        links(&reference, "grading.md"),
        "the reference does not link the guide"
    );
}

/// A script's commands leave out only its comments and its preamble.
#[test]
fn a_script_s_commands_are_found() {
    let script = "#!/usr/bin/env bash\n# why\nset -euo pipefail\n\
                  cd \"$(dirname \"$0\")/..\"\napt-get install x\nscripts/test.sh\n";
    assert_eq!(
        script_commands(script),
        ["apt-get install x", "scripts/test.sh"]
    );
}

/// How far, in lines either way, a speed figure may stand from the command
/// that produced it.
const FIGURE_REACH: usize = 3;

/// Each line of a page as prose and code: the line with its code taken
/// out, and its code (a fenced block's line whole, and each inline span
/// that starts on the line).
fn prose_and_code(page: &str) -> Vec<(String, Vec<String>)> {
    let mut lines: Vec<(String, Vec<String>)> = Vec::new();
    let mut fenced = false;
    // An inline span still open from an earlier line: its backtick run and
    // the line it started on.
    let mut open: Option<(usize, usize)> = None;
    for line in page.lines() {
        let index = lines.len();
        lines.push((String::new(), Vec::new()));
        if open.is_none() && line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            lines[index].1.push(line.to_string());
            continue;
        }
        if line.trim().is_empty() {
            open = None;
        }
        let mut rest = line;
        while !rest.is_empty() {
            match open {
                Some((run, start)) => {
                    let end = rest.find(&"`".repeat(run)).unwrap_or(rest.len());
                    let code = lines[start].1.last_mut().expect("an open span");
                    code.push(' ');
                    code.push_str(&rest[..end]);
                    if end < rest.len() {
                        open = None;
                        rest = &rest[end + run..];
                    } else {
                        rest = "";
                    }
                }
                None => match rest.find('`') {
                    Some(at) => {
                        lines[index].0.push_str(&rest[..at]);
                        lines[index].0.push(' ');
                        let run = rest[at..].len() - rest[at..].trim_start_matches('`').len();
                        lines[index].1.push(String::new());
                        open = Some((run, index));
                        rest = &rest[at + run..];
                    }
                    None => {
                        lines[index].0.push_str(rest);
                        rest = "";
                    }
                },
            }
        }
        if let Some((_, start)) = open {
            if let Some(code) = lines[start].1.last_mut() {
                code.push(' ');
            }
        }
    }
    lines
}

/// Whether a piece of code is a command that measures: `scripts/...`
/// (also through `python3`), `stakeraid ...`, `cargo ...` (after `$ ` or
/// variables set for it).
fn is_command(code: &str) -> bool {
    let mut words = code
        .trim()
        .trim_start_matches("$ ")
        .split_whitespace()
        .skip_while(|w| w.contains('=') && !w.starts_with('-'))
        .peekable();
    if words.peek().is_some_and(|w| w.starts_with("python")) {
        words.next();
        if words.peek() == Some(&"-m") {
            words.next();
        }
    }
    words.next().is_some_and(|w| {
        w.starts_with("scripts/")
            || ["cargo", "stakeraid"].contains(&w)
            || w.ends_with("/stakeraid")
            || w.starts_with("stakeraid.")
    })
}

/// The speed figures of a line of prose: a ratio (`1.9x`, `17x`, not the
/// `5x5` of a board), a number a second (`1.2 G nodes/s`, `3.4 M/s`,
/// `40 positions a second`), or a comparison of speed (`faster than`,
/// `speedup`, ...).
fn speed_figures(prose: &str) -> Vec<String> {
    let words: Vec<&str> = prose.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_end_matches([',', '.', ';', ':', ')', '*'])
            .trim_start_matches(['(', '*', '~'])
            .to_lowercase()
    };
    // A number, perhaps with its unit's prefix: `6`, `1.2`, `37.7M`.
    let number = |w: &str| {
        let w = bare(w);
        let digits = w.trim_end_matches(['k', 'm', 'g']);
        digits.starts_with(|c: char| c.is_ascii_digit())
            && digits
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    };
    let mut figures = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let word = bare(word);
        // A ratio: digits (a decimal point allowed), then `x` or `×`.
        if let Some(digits) = word.strip_suffix('x').or_else(|| word.strip_suffix('×')) {
            if number(digits) && !digits.ends_with(['k', 'm', 'g']) {
                figures.push(word.clone());
            }
        }
        // A rate: `.../s`, or `a second` / `per second` after a plural;
        // the figure from the number among the three words before.
        let end = if word.ends_with("/s") {
            i
        } else if ["a", "per"].contains(&word.as_str())
            && i > 0
            && words[i - 1].ends_with('s')
            && words.get(i + 1).is_some_and(|w| w.starts_with("second"))
        {
            i + 1
        } else {
            continue;
        };
        if let Some(from) = (i.saturating_sub(3)..i).find(|&j| number(words[j])) {
            let figure = words[from..=end].join(" ");
            figures.push(
                figure
                    .trim_end_matches([',', '.', ';', ':', ')'])
                    .to_string(),
            );
        }
    }
    let text = prose.to_lowercase();
    for phrase in [
        "faster than",
        "slower than",
        "times faster",
        "times slower",
        "speedup",
        "speed-up",
    ] {
        if text.contains(phrase) {
            figures.push(phrase.to_string());
        }
    }
    figures
}

/// The speed figures of a page with no command within [`FIGURE_REACH`]
/// lines: `line: figure`, the line counted from 1.
fn figures_without_command(page: &str) -> Vec<String> {
    let lines = prose_and_code(page);
    let commands: Vec<bool> = lines
        .iter()
        .map(|(_, code)| code.iter().any(|c| is_command(c)))
        .collect();
    let mut missing = Vec::new();
    for (i, (prose, _)) in lines.iter().enumerate() {
        let near =
            &commands[i.saturating_sub(FIGURE_REACH)..(i + FIGURE_REACH + 1).min(lines.len())];
        if near.contains(&true) {
            continue;
        }
        for figure in speed_figures(prose) {
            missing.push(format!("{}: `{figure}`", i + 1));
        }
    }
    missing
}

/// Every speed figure of the README and the guides has, within a few
/// lines, the command that produced it in code: `scripts/...`,
/// `stakeraid ...` or `cargo ...`.
#[test]
fn every_speed_figure_names_its_command() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut guides: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    pages.extend(guides);
    let mut missing = Vec::new();
    for page in pages {
        let name = page.strip_prefix(root).unwrap().display().to_string();
        for figure in figures_without_command(&read(&page)) {
            missing.push(format!("{name}:{figure}"));
        }
    }
    assert!(
        missing.is_empty(),
        "speed figures with no command (`scripts/...`, `stakeraid ...` or `cargo ...`, in code) \
         within {FIGURE_REACH} lines:\n{}",
        missing.join("\n")
    );
}

/// What the rule counts as a figure and as its command.
#[test]
fn a_figure_without_its_command_is_named() {
    let page = concat!(
        "A 5x5 board, 26x26 too, and nodes/s in general: no figure.\n",
        "It runs at 1.2 G nodes/s a thread,\n",
        "\n",
        "\n",
        "\n",
        "\n",
        "two threads give 1.9x; `stakeraid --stats` prints it.\n",
        "\n",
        "\n",
        "\n",
        "\n",
        "Its speedup is 40 positions a second, faster than before.\n",
        "```text\n3.4 M/s\n```\n",
        "a figure in `code 3x` is none, and neither is 2x5.\n",
        "```sh\n",
        "scripts/bench.sh\n",
        "```\n",
        "so 17x to 19x here; and `CI=1 cargo bench` measures 6 M elements/s\n",
    );
    assert_eq!(
        figures_without_command(page),
        [
            "2: `1.2 G nodes/s`",
            "12: `40 positions a second`",
            "12: `faster than`",
            "12: `speedup`",
        ]
    );
    assert!(is_command("$ BIN=x scripts/ab.sh OLD"));
    assert!(is_command("python3 -m stakeraid.cluster solve"));
    assert!(!is_command("stakeraid::grade"));
    assert!(!is_command("--threads 2"));
}
