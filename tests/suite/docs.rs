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
