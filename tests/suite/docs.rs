//! What the README and the guides say of their own examples: the files
//! those examples write are ignored by git, and what they need is named.

use std::path::Path;

/// The README and every guide but the grader's (which has its own tests).
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

/// The README stays short enough to read through: at most 15 KB.
#[test]
fn the_readme_is_at_most_15_kb() {
    let size = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).len();
    assert!(size <= 15_000, "README.md is {size} bytes");
}

/// The README says what its test command costs before anyone runs it.
#[test]
fn the_readme_says_what_the_tests_cost() {
    let readme = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"));
    let quick = &readme[readme
        .find("cargo test --locked && scripts/python-test.sh")
        .unwrap()..];
    let note = &quick[..quick.find("## Commands").unwrap()];
    for says in [
        "about 12 minutes",
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
