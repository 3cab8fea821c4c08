//! What README.md says a fresh clone needs before its test command runs:
//! the Rust version the crate declares (and its locked dependencies ask
//! for no newer), and the other prerequisites, in the paragraph under
//! "Run the tests".

use std::path::Path;

/// `1.89` as `(1, 89)`; a third part is ignored.
fn version(text: &str) -> (u32, u32) {
    let mut parts = text.trim().split('.').map(|p| p.parse::<u32>().unwrap());
    (parts.next().unwrap(), parts.next().unwrap_or(0))
}

/// The value of `key = "..."` in a manifest's text, if it has one.
fn manifest_value<'a>(manifest: &'a str, key: &str) -> Option<&'a str> {
    manifest.lines().find_map(|line| {
        let rest = line
            .trim()
            .strip_prefix(key)?
            .trim_start()
            .strip_prefix('=')?;
        Some(rest.trim().trim_matches('"'))
    })
}

#[test]
fn the_readme_names_the_prerequisites_and_the_rust_the_crate_declares() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let declared = manifest_value(&manifest, "rust-version").expect(
        "Cargo.toml declares no rust-version: a too old toolchain fails deep in a dependency",
    );
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let setup = readme
        .split("Run the tests")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("README.md has a \"Run the tests\" section");
    let setup = setup.split_whitespace().collect::<Vec<_>>().join(" ");
    for needed in [
        format!("Rust {declared} or later").as_str(),
        "C compiler",
        "python3-venv",
        "network",
        "minutes",
        "GB",
    ] {
        assert!(
            setup.contains(needed),
            "README.md's set-up paragraph does not say {needed:?}: {setup}"
        );
    }
    // Where cargo keeps the sources of the locked dependencies, none asks
    // for a newer Rust than the crate declares.
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(registry) = home.map(|h| h.join("registry/src")) else {
        return;
    };
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
    let indexes: Vec<_> = std::fs::read_dir(&registry)
        .map(|dirs| dirs.filter_map(|d| Some(d.ok()?.path())).collect())
        .unwrap_or_default();
    let mut newest = ((0, 0), String::new());
    for package in lock.split("[[package]]").skip(1) {
        let (Some(name), Some(v)) = (
            manifest_value(package, "name"),
            manifest_value(package, "version"),
        ) else {
            continue;
        };
        for index in &indexes {
            let Ok(text) = std::fs::read_to_string(index.join(format!("{name}-{v}/Cargo.toml")))
            else {
                continue;
            };
            if let Some(asked) = manifest_value(&text, "rust-version") {
                newest = newest.max((version(asked), format!("{name} {v}")));
            }
        }
    }
    assert!(
        newest.0 <= version(declared),
        "{} asks for Rust {:?}, newer than the {declared} Cargo.toml declares",
        newest.1,
        newest.0
    );
}
