//! `solve --split`: a cut deeper than the solve is refused before any work,
//! and the deepest cut allowed keeps the driver's memory bounded.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{assert_ok, run};

/// A 5x5 position with 20 empty cells, ALPHABETA to the end of the game.
fn twenty_empty(dir: &Path) {
    let out = run(
        dir,
        &[
            "position",
            "--size",
            "5",
            "--fill",
            "0.2",
            "--seed",
            "1",
            "--mode",
            "ALPHABETA",
            "--depth",
            "20",
            "-o",
            "input.txt",
        ],
        b"",
    );
    assert_ok(&out);
}

#[test]
fn a_split_deeper_than_the_solve_is_refused_with_the_range() {
    let dir = tempfile::tempdir().unwrap();
    twenty_empty(dir.path());
    for split in ["20", "30", "4000000000"] {
        let out = run(
            dir.path(),
            &["solve", "--split", split, "-o", "out.txt"],
            b"",
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--split {split}: {err}");
        assert_eq!(err.lines().count(), 1, "--split {split}: {err}");
        assert!(
            err.starts_with("stakeraid: ") && err.contains("1 to 19"),
            "--split {split}: {err}"
        );
        assert!(!dir.path().join("out.txt").exists());
    }
}

/// The peak resident memory of a running process, in KiB.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The deepest cut allowed makes jobs by the million; the driver holding
/// them all grew past 20 GB within a minute. Now it splits a bounded
/// number of tests, so its memory stays near the table's size.
#[test]
fn the_deepest_split_allowed_keeps_the_driver_small() {
    let dir = tempfile::tempdir().unwrap();
    twenty_empty(dir.path());
    let mut child = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args([
            "solve",
            "--split",
            "19",
            "--threads",
            "1",
            "--table-mb",
            "16",
            "-o",
            "out.txt",
        ])
        .current_dir(dir.path())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut peak = 0;
    while start.elapsed() < Duration::from_secs(12) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        peak = peak.max(peak_kib(child.id()).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    child.wait().unwrap();
    // The table (16 MiB), the program and its allocator's slack, and a
    // driver of at most a few hundred MiB.
    assert!(peak > 0, "the solve's memory could not be read");
    assert!(peak < 768 * 1024, "peak resident memory {peak} KiB");
}
