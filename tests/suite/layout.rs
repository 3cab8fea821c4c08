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
