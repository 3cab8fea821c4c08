//! Tells the tests whether the golden case corpus is beside the crate, so
//! that its test is reported as ignored (with the reason) rather than
//! passing on nothing when it is not.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(golden_cases)");
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let cases = Path::new(&root).join("../shared/cases");
    println!("cargo::rerun-if-changed={}", cases.display());
    if cases.is_dir() {
        println!("cargo::rustc-cfg=golden_cases");
    }
}
