//! The crate's modules depend on each other without cycles, as
//! `scripts/module-cycles.py` lists them.

use std::path::Path;
use std::process::Command;

#[test]
fn no_module_depends_on_itself_through_others() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("scripts/module-cycles.py"))
        .arg(root.join("src"))
        .output()
        .expect("python3 runs the listing");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("no cycles among "), "{text}");
}

/// The grader's files form no circle either, counting a child module
/// named without `self::` (as `use cause::X;` in `verdict/mod.rs`).
#[test]
fn the_grader_has_no_circle_of_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("scripts/module-cycles.py"))
        .arg("--strict")
        .arg(root.join("src/grade"))
        .output()
        .expect("python3 runs the listing");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("no cycles among "), "{text}");
}

/// The bug models are the grader's knowledge, not a search of the
/// engine's: they live in `src/grade/models/`.
#[test]
fn the_bug_models_live_with_the_grader() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(!root.join("src/search/bug_models.rs").exists());
    for file in ["textbook.rs", "bug.rs", "convention.rs", "restriction.rs"] {
        assert!(root.join("src/grade/models").join(file).exists(), "{file}");
    }
}
