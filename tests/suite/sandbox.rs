//! The sandbox of `stakeraid grade` and `stakeraid referee`: each way out
//! a homework might try (`tests/sandbox-fixtures/`), graded by default,
//! with the verdict it gets and the proof that nothing got out; and honest
//! programs in every language the machine has, graded as before.
//!
//! Where this machine cannot box a program at all (the report's
//! `sandbox.missing` says what), the escape tests say so and pass: what
//! they would test is not there.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{case_folders, normalized};

/// The Python 3 interpreter itself (not a version manager's shim).
fn python() -> &'static str {
    static PYTHON: OnceLock<String> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let out = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 is needed to run the sandbox fixtures");
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    })
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sandbox-fixtures")
        .join(name)
        .display()
        .to_string()
}

/// A grade's outcome: exit code, JSON report, standard error.
struct Graded {
    code: i32,
    report: Value,
    stderr: String,
}

impl Graded {
    /// Each case's failure (`null` for a pass).
    fn failures(&self) -> Vec<Value> {
        self.cases().iter().map(|c| c["failure"].clone()).collect()
    }

    /// What every case wrote to its standard output and error.
    fn said(&self) -> String {
        self.cases()
            .iter()
            .map(|c| {
                format!(
                    "{}{}",
                    c["stdout"].as_str().unwrap(),
                    c["stderr"].as_str().unwrap()
                )
            })
            .collect()
    }

    fn cases(&self) -> &Vec<Value> {
        self.report["cases"].as_array().unwrap()
    }

    /// True (after saying why) when this machine cannot box programs.
    fn unboxed(&self) -> bool {
        let missing = self.report["sandbox"]["missing"].as_array().unwrap();
        if missing.is_empty() {
            return false;
        }
        eprintln!("skipping: this machine cannot sandbox: {missing:?}");
        true
    }
}

/// `stakeraid grade --json - --shrink-runs 0 ARGS -- PROGRAM` in `dir`,
/// with `home` as `HOME`.
fn grade(dir: &Path, home: &Path, args: &[&str], program: &[&str]) -> Graded {
    let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(["grade", "--json", "-", "--shrink-runs", "0"])
        .args(args)
        .arg("--")
        .args(program)
        .current_dir(dir)
        .env("HOME", home)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let report = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("exit {code}: {e}: {stderr}"));
    Graded {
        code,
        report,
        stderr,
    }
}

/// A fixture graded by default on two cases, its arguments after it.
fn escape(name: &str, home: &Path, args: &[&str], program_args: &[&str]) -> Graded {
    let dir = tempfile::tempdir().unwrap();
    let path = fixture(name);
    let mut program = vec![python(), "-B", &path];
    program.extend_from_slice(program_args);
    let mut all = if args.contains(&"--cases") {
        vec![]
    } else {
        vec!["--cases", "2"]
    };
    all.extend_from_slice(args);
    let g = grade(dir.path(), home, &all, &program);
    assert!(g.code == 0 || g.code == 1, "exit {}: {}", g.code, g.stderr);
    g
}

/// The command lines of this machine's processes that hold `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let path = entry.path();
        let Ok(cmdline) = std::fs::read(path.join("cmdline")) else {
            continue;
        };
        let zombie = std::fs::read_to_string(path.join("stat")).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|s| s.trim_start().starts_with('Z'))
        });
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if text.contains(marker) && !zombie {
            found.push(text);
        }
    }
    found
}

/// Waits up to five seconds for no process to hold `marker`, then
/// fails if one still does.
fn assert_none_left(marker: &str) {
    let start = Instant::now();
    while !processes_with(marker).is_empty() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = processes_with(marker);
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn writing_outside_the_case_folder_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let targets = [
        outside.path().join("escaped.txt"),
        home.path().join("escaped.txt"),
    ];
    let names: Vec<String> = targets.iter().map(|t| t.display().to_string()).collect();
    let args: Vec<&str> = names.iter().map(String::as_str).collect();
    let g = escape("write_outside.py", home.path(), &[], &args);
    if g.unboxed() {
        return;
    }
    assert!(g.said().contains("refused"), "{}", g.said());
    assert!(!g.said().contains("WROTE"), "{}", g.said());
    for t in &targets {
        assert!(!t.exists(), "{} was written", t.display());
    }
    // It ended cleanly without an answer: no output, not a crash.
    assert_eq!(g.failures(), vec![Value::from("no_output"); 2]);
}

#[test]
fn the_home_folder_is_not_readable() {
    let home = tempfile::tempdir().unwrap();
    let secret = format!("secret-{}", std::process::id());
    std::fs::write(home.path().join("secret.txt"), &secret).unwrap();
    // The program's HOME is in its box: the grader's is named to it.
    let home_text = home.path().display().to_string();
    let g = escape("read_home.py", home.path(), &[], &[&home_text]);
    if g.unboxed() {
        return;
    }
    assert!(g.said().contains("cannot list"), "{}", g.said());
    assert!(!g.report.to_string().contains(&secret), "{}", g.said());
}

/// `count` small golden cases copied into `key`.
fn answer_key(key: &Path, count: usize) -> bool {
    let mut folders = case_folders();
    if folders.is_empty() {
        return false;
    }
    folders.truncate(60);
    folders.sort_by_key(|f| std::fs::metadata(f.join("input.txt")).unwrap().len());
    for (i, folder) in folders.iter().take(count).enumerate() {
        let to = key.join(format!("case{i}"));
        std::fs::create_dir_all(&to).unwrap();
        for file in ["input.txt", "output.txt"] {
            std::fs::copy(folder.join(file), to.join(file)).unwrap();
        }
    }
    true
}

#[test]
fn the_answer_key_cannot_be_copied() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let key = work.path().join("key");
    if !answer_key(&key, 2) {
        return;
    }
    let key_text = key.display().to_string();
    let cheat = |mode: &str| {
        let dir = tempfile::tempdir().unwrap();
        let path = fixture("cheat.py");
        let args = ["--cases-from", &key_text, "--sandbox", mode];
        grade(
            dir.path(),
            home.path(),
            &args,
            &[python(), "-B", &path, &key_text],
        )
    };
    let boxed = cheat("auto");
    if boxed.unboxed() {
        return;
    }
    assert!(!boxed.said().contains("COPIED"), "{}", boxed.said());
    assert_eq!(boxed.report["strict"]["points"], 0, "{}", boxed.said());
    // Unboxed, the same cheat gets full marks but for the key's line ends.
    let open = cheat("off");
    assert!(open.said().contains("COPIED"), "{}", open.said());
    assert_eq!(open.report["lenient"]["points"], 100, "{}", open.said());
}

#[test]
fn a_loopback_port_of_the_machine_is_unreachable() {
    let home = tempfile::tempdir().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let g = escape("connect.py", home.path(), &[], &[&port]);
    if g.unboxed() {
        return;
    }
    assert!(g.said().contains("cannot connect"), "{}", g.said());
    assert_eq!(
        listener.accept().map(|_| ()).map_err(|e| e.kind()),
        Err(std::io::ErrorKind::WouldBlock),
        "a connection came through"
    );
}

#[test]
fn the_grader_is_not_in_its_proc() {
    let home = tempfile::tempdir().unwrap();
    let g = escape("see_grader.py", home.path(), &[], &[]);
    if g.unboxed() {
        return;
    }
    // The grader's own command line holds its options.
    assert!(!g.said().contains("--shrink-runs"), "{}", g.said());
    let open = escape("see_grader.py", home.path(), &["--sandbox", "off"], &[]);
    assert!(open.said().contains("--shrink-runs"), "{}", open.said());
}

#[test]
fn the_machines_tmp_is_not_listed() {
    let home = tempfile::tempdir().unwrap();
    let marker = tempfile::Builder::new()
        .prefix("stakeraid-marker-")
        .tempfile()
        .unwrap();
    let name = marker
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let tmp = std::env::temp_dir().display().to_string();
    let g = escape("list_tmp.py", home.path(), &[], &[&tmp]);
    if g.unboxed() {
        return;
    }
    assert!(g.said().contains("LISTED /tmp"), "{}", g.said());
    assert!(!g.said().contains(&name), "{}", g.said());
}

#[test]
fn memory_past_the_limit_is_its_own_verdict() {
    let home = tempfile::tempdir().unwrap();
    let g = escape(
        "memory.py",
        home.path(),
        &["--cases", "1", "--memory-mb", "256"],
        &[],
    );
    if g.unboxed() {
        return;
    }
    assert_eq!(
        g.failures(),
        vec![Value::from("memory_limit")],
        "{}",
        g.said()
    );
    assert!(!g.said().contains("ALLOCATED"));
}

#[test]
fn processes_past_the_limit_are_their_own_verdict_and_all_end() {
    let home = tempfile::tempdir().unwrap();
    let marker = format!("processes-marker-{}", std::process::id());
    let g = escape(
        "processes.py",
        home.path(),
        &["--cases", "1", "--processes", "40"],
        &[&marker],
    );
    if g.unboxed() {
        return;
    }
    assert_eq!(
        g.failures(),
        vec![Value::from("too_many_processes")],
        "{}",
        g.said()
    );
    assert!(!g.said().contains("STARTED"));
    assert_none_left(&marker);
}

#[test]
fn a_daemon_does_not_outlive_its_run() {
    let home = tempfile::tempdir().unwrap();
    let marker = format!("daemon-marker-{}", std::process::id());
    let g = escape("daemon.py", home.path(), &[], &[&marker]);
    if g.unboxed() {
        return;
    }
    assert!(g.said().contains("DAEMON LEFT"), "{}", g.said());
    assert_none_left(&marker);
}

#[test]
fn a_referee_side_cannot_write_outside_either() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("escaped.txt");
    let side = format!(
        "cmd:{} -B {} {}",
        python(),
        fixture("write_outside.py"),
        target.display()
    );
    let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(["referee", &side, "greedy", "--boards", "1", "--size", "3"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = text.lines().next().unwrap_or_default();
    assert!(first.starts_with("Sandbox: "), "{text}");
    if first.contains("MISSING") {
        eprintln!("skipping: {first}");
        return;
    }
    assert!(
        !target.exists(),
        "a referee side wrote {}",
        target.display()
    );
}

/// Grades `program` (run in `student`, its folder) on the smallest golden
/// case, whose expected output.txt it is given as `answer.txt` in its
/// folder; it must pass.
fn honest(student: &Path, program: &[&str]) {
    let work = tempfile::tempdir().unwrap();
    let key = work.path().join("key");
    if !answer_key(&key, 1) {
        return;
    }
    let expected = std::fs::read_to_string(key.join("case0/output.txt")).unwrap();
    std::fs::write(student.join("answer.txt"), normalized(&expected)).unwrap();
    let home = tempfile::tempdir().unwrap();
    let key_text = key.display().to_string();
    let g = grade(student, home.path(), &["--cases-from", &key_text], program);
    assert_eq!(g.failures(), vec![Value::Null], "{program:?}: {}", g.said());
    assert_eq!(g.code, 0);
}

#[test]
fn python_3_runs_in_the_sandbox_as_before() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let textbook = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/grade-fixtures/textbook.py")
        .display()
        .to_string();
    // The interpreter itself, the system's, and through PATH (a version
    // manager's shim, where there is one).
    let mut pythons = vec![python().to_owned(), "python3".to_owned()];
    if Path::new("/usr/bin/python3").exists() {
        pythons.push("/usr/bin/python3".into());
    }
    for p in &pythons {
        let g = grade(
            dir.path(),
            home.path(),
            &["--cases", "2"],
            &[p, "-B", &textbook],
        );
        assert_eq!(g.failures(), vec![Value::Null; 2], "{p}: {}", g.said());
    }
}

#[test]
fn a_program_under_tmp_or_dev_shm_runs_in_the_sandbox() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let textbook = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grade-fixtures/textbook.py");
    for place in [std::env::temp_dir(), PathBuf::from("/dev/shm")] {
        if !place.is_dir() {
            eprintln!("skipped: no {}", place.display());
            continue;
        }
        // Named with its folder, and alone in the folder itself.
        let folder = tempfile::tempdir_in(&place).unwrap();
        for path in [
            folder.path().join("homework.py"),
            place.join(format!("homework-{}.py", std::process::id())),
        ] {
            std::fs::copy(&textbook, &path).unwrap();
            let g = grade(
                dir.path(),
                home.path(),
                &["--cases", "2"],
                &[python(), "-B", &path.display().to_string()],
            );
            let _ = std::fs::remove_file(&path);
            if g.unboxed() {
                return;
            }
            assert_eq!(
                g.failures(),
                vec![Value::Null; 2],
                "{}: {}",
                path.display(),
                g.said()
            );
        }
    }
}

/// The first of `candidates` that runs `args`, if any.
fn first_that_runs(candidates: &[PathBuf], args: &[&str]) -> Option<PathBuf> {
    candidates
        .iter()
        .find(|c| {
            Command::new(c)
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .cloned()
}

#[test]
fn python_2_runs_in_the_sandbox() {
    let mut candidates = vec![PathBuf::from("python2")];
    let pyenv = std::env::var_os("PYENV_ROOT").map(PathBuf::from);
    if let Some(versions) = pyenv.map(|r| r.join("versions")) {
        for entry in std::fs::read_dir(versions).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().starts_with("2.") {
                candidates.push(entry.path().join("bin/python2"));
            }
        }
    }
    let Some(python2) = first_that_runs(&candidates, &["-c", "print 1"]) else {
        eprintln!("skipping: no Python 2 on this machine");
        return;
    };
    let student = tempfile::tempdir().unwrap();
    let copy = student.path().join("copy.py");
    std::fs::write(
        &copy,
        "import os, shutil\n\
         shutil.copy(os.path.join(os.path.dirname(__file__), 'answer.txt'), 'output.txt')\n",
    )
    .unwrap();
    honest(student.path(), &[&python2.display().to_string(), "copy.py"]);
}

/// Compiles, in `dir`, a Java class `class` that copies the file its first
/// argument names to `output.txt`; false (said on standard error) where
/// this machine has no `javac`.
fn java_copy(dir: &Path, class: &str) -> bool {
    std::fs::write(
        dir.join(format!("{class}.java")),
        format!(
            "import java.nio.file.*;\n\
             public class {class} {{\n\
                 public static void main(String[] args) throws Exception {{\n\
                     Files.copy(Paths.get(args[0]), Paths.get(\"output.txt\"));\n\
                 }}\n\
             }}\n"
        ),
    )
    .unwrap();
    let compiled = Command::new("javac")
        .arg(format!("{class}.java"))
        .current_dir(dir)
        .status();
    let ok = compiled.is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipping: no javac on this machine");
    }
    ok
}

#[test]
fn java_runs_in_the_sandbox() {
    let student = tempfile::tempdir().unwrap();
    if !java_copy(student.path(), "Copy") {
        return;
    }
    let folder = student.path().display().to_string();
    honest(
        student.path(),
        &["java", "-cp", &folder, "Copy", "answer.txt"],
    );
}

#[test]
fn a_compiled_binary_in_the_students_folder_runs_in_the_sandbox() {
    let student = tempfile::tempdir().unwrap();
    std::fs::write(
        student.path().join("copy.c"),
        "#include <stdio.h>\n\
         int main(int argc, char **argv) {\n\
             FILE *in = fopen(argv[1], \"rb\"), *out = fopen(\"output.txt\", \"wb\");\n\
             int c;\n\
             if (!in || !out) return 1;\n\
             while ((c = fgetc(in)) != EOF) fputc(c, out);\n\
             return fclose(out) != 0;\n\
         }\n",
    )
    .unwrap();
    let compiled = Command::new("cc")
        .args(["-O", "-o", "a.out", "copy.c"])
        .current_dir(student.path())
        .status();
    if !compiled.is_ok_and(|s| s.success()) {
        eprintln!("skipping: no C compiler on this machine");
        return;
    }
    honest(student.path(), &["./a.out", "answer.txt"]);
}

#[test]
fn a_missing_script_or_class_is_refused_before_the_first_case() {
    let dir = tempfile::tempdir().unwrap();
    for (program, word) in [
        (&["python3", "typo.py"][..], "typo.py does not exist"),
        (&["java", "Missing"][..], "Missing is looked for"),
        (&["./a.out"][..], "does not exist"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
            .args(["grade", "--cases", "1", "--"])
            .args(program)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{program:?}: {err}");
        assert!(
            err.contains(word) && err.lines().count() == 1,
            "{program:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "no case was run: {program:?}");
    }
}

/// True when the tests run as root (the program then runs as `nobody`).
fn as_root() -> bool {
    // SAFETY: a plain system call without arguments.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn the_graders_environment_does_not_reach_the_program_or_any_report() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let name = "STAKERAID_TEST_TOKEN";
    let secret = format!("token-{}-abc", std::process::id());
    let (json, results) = (dir.path().join("r.json"), dir.path().join("results.json"));
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
            .args(["grade", "--cases", "2", "--shrink-runs", "0", "--json"])
            .arg(&json)
            .arg("--gradescope")
            .arg(&results)
            .args(extra)
            .args(["--", python(), "-B", &fixture("environment.py"), name])
            .current_dir(dir.path())
            .env("HOME", home.path())
            .env(name, &secret)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let json = std::fs::read_to_string(&json).unwrap();
        let results = std::fs::read_to_string(&results).unwrap();
        (text, json, results)
    };
    let (text, json_text, results_text) = run(&[]);
    let report: Value = serde_json::from_str(&json_text).unwrap();
    let line = text.lines().nth(1).unwrap_or_default();
    assert!(line.contains("environment: cleared ("), "{text}");
    for (what, body) in [
        ("the text report", &text),
        ("the JSON", &json_text),
        ("results.json", &results_text),
    ] {
        assert!(!body.contains(&secret), "the secret is in {what}: {body}");
    }
    // The program ran, and said what it was given.
    let said = report["cases"][0]["stderr"].as_str().unwrap();
    assert!(said.contains(&format!("{name}=(not given)")), "{said}");
    let output = report["cases"][0]["output"].as_str().unwrap();
    assert!(output.contains("LANG=C.UTF-8"), "{output}");
    assert!(!output.contains("\nSHELL="), "{output}");
    // Passed on purpose, it is there: the check above can fail.
    let (_, json_text, _) = run(&["--env", name]);
    assert!(json_text.contains(&secret), "{json_text}");
    let (_, json_text, _) = run(&["--env", &format!("{name}=given")]);
    assert!(json_text.contains(&format!("{name}=given")) && !json_text.contains(&secret));
}

#[test]
fn a_referee_side_gets_none_of_the_graders_environment() {
    let dir = tempfile::tempdir().unwrap();
    let name = "STAKERAID_TEST_TOKEN";
    let secret = format!("token-{}-xyz", std::process::id());
    let side = format!("cmd:{} -B {} {name}", python(), fixture("environment.py"));
    let json = dir.path().join("match.json");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
            .args(["referee", &side, "greedy", "--boards", "1", "--size", "3"])
            .arg("--json")
            .arg(&json)
            .args(extra)
            .current_dir(dir.path())
            .env(name, &secret)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (text, std::fs::read_to_string(&json).unwrap())
    };
    let (text, json_text) = run(&[]);
    assert!(text.contains("environment: cleared ("), "{text}");
    assert!(!text.contains(&secret), "{text}");
    assert!(!json_text.contains(&secret), "{json_text}");
    assert!(json_text.contains("(not given)"), "{json_text}");
    // Given on purpose, the side sees it (and its forfeit says so).
    let (_, json_text) = run(&["--env", name]);
    assert!(json_text.contains(&secret), "{json_text}");
}

/// The free bytes of the file system `path` is on.
fn free_bytes(path: &Path) -> u64 {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `st` is a plain C struct the call fills in.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::statvfs(c.as_ptr(), &mut st) }, 0);
    st.f_bavail as u64 * st.f_frsize as u64
}

#[test]
fn two_gib_of_files_stop_at_the_disk_quota() {
    let home = tempfile::tempdir().unwrap();
    let tmp = std::env::temp_dir();
    let before = free_bytes(&tmp);
    // The least free space seen while the program writes and waits.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let done = done.clone();
        let tmp = tmp.clone();
        std::thread::spawn(move || {
            let mut least = u64::MAX;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                least = least.min(free_bytes(&tmp));
                std::thread::sleep(Duration::from_millis(20));
            }
            least
        })
    };
    let g = escape(
        "disk.py",
        home.path(),
        &["--cases", "1", "--disk-mb", "128"],
        &[],
    );
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let least = watcher.join().unwrap();
    if g.unboxed() {
        return;
    }
    assert_eq!(
        g.failures(),
        vec![Value::from("disk_limit")],
        "{}",
        g.said()
    );
    let said = g.said();
    assert!(said.contains("STOPPED after"), "{said}");
    let written: u64 = said
        .split("STOPPED after ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(
        written <= 128 << 20,
        "{written} bytes written past the quota"
    );
    // Others build on this machine: a margin, far below what got out
    // before the quota (2 GiB).
    let margin = 768 << 20;
    assert!(
        least + margin >= before,
        "the machine's free space fell by {} MiB",
        (before - least) >> 20
    );
    let line = g.report["sandbox"]["enforced"].to_string();
    assert!(line.contains("disk 128 MiB"), "{line}");
}

#[test]
fn ten_thousand_files_stop_at_the_quota_of_files() {
    let home = tempfile::tempdir().unwrap();
    let g = escape("files.py", home.path(), &["--cases", "1"], &[]);
    if g.unboxed() {
        return;
    }
    assert_eq!(
        g.failures(),
        vec![Value::from("disk_limit")],
        "{}",
        g.said()
    );
    assert!(g.said().contains("STOPPED after"), "{}", g.said());
    // Only the names come back out of the box, and only those kept.
    let files = g.cases()[0]["files"].as_array().unwrap().len();
    assert!(files <= 20, "{files} names kept");
}

/// A run that filled its quota is `disk_limit` even when it deletes what
/// it wrote and then writes the right answer.
#[test]
fn a_run_that_filled_its_quota_and_cleaned_up_is_at_the_disk_limit() {
    let home = tempfile::tempdir().unwrap();
    let textbook = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grade-fixtures/textbook.py");
    let textbook = textbook.display().to_string();
    let g = escape(
        "fill_then_clean.py",
        home.path(),
        &["--cases", "1", "--disk-mb", "128"],
        &[&textbook],
    );
    if g.unboxed() {
        return;
    }
    let said = g.said();
    assert!(said.contains("FILLED 2 files of 64 MiB"), "{said}");
    // It cleaned up and answered right: only the quota fails it.
    for case in g.cases() {
        assert_eq!(case["output"], case["expected"], "{said}");
    }
    assert_eq!(g.failures(), vec![Value::from("disk_limit")], "{said}");
    assert_eq!(g.report["strict"]["points"], 49, "{said}");
}

#[test]
fn a_note_left_by_one_case_is_not_found_by_the_next() {
    let home = tempfile::tempdir().unwrap();
    let student = tempfile::tempdir().unwrap();
    let note = student.path().join("note.py");
    std::fs::copy(fixture("note.py"), &note).unwrap();
    let tag = format!("NOTE_TAG={}", std::process::id());
    let dir = tempfile::tempdir().unwrap();
    let g = grade(
        dir.path(),
        home.path(),
        &["--cases", "3", "--jobs", "1", "--env", &tag],
        &[python(), "-B", &note.display().to_string()],
    );
    if g.unboxed() {
        return;
    }
    let said = g.said();
    assert!(!said.contains("FOUND"), "{said}");
    // Each case could leave its note in /tmp and /dev/shm, its own.
    assert!(
        said.contains("LEFT /tmp/") && said.contains("LEFT /dev/shm/"),
        "{said}"
    );
    // Its own folder is read-only, and nothing is left on the machine.
    assert!(!said.contains(&format!("LEFT {}", student.path().display())));
    let name = format!("stakeraid-note-{}.txt", std::process::id());
    for folder in [student.path(), &std::env::temp_dir(), Path::new("/dev/shm")] {
        assert!(
            !folder.join(&name).exists(),
            "a note in {}",
            folder.display()
        );
    }
}

#[test]
fn a_root_grader_runs_a_program_in_a_closed_folder() {
    if !as_root() {
        eprintln!("skipping: only a root grader runs the program as nobody");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    // Mode 700, as mktemp -d makes it.
    let student = tempfile::tempdir().unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(student.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grade-fixtures/textbook.py"),
        student.path().join("textbook.py"),
    )
    .unwrap();
    let g = grade(
        student.path(),
        home.path(),
        &["--cases", "2"],
        &[python(), "-B", "textbook.py"],
    );
    if g.unboxed() {
        return;
    }
    assert_eq!(g.failures(), vec![Value::Null; 2], "{}", g.said());
    assert_eq!(g.report["strict"]["points"], 100);
}

#[test]
fn a_hidden_interpreter_is_named_at_the_top_and_read_shows_it() {
    let interpreter = PathBuf::from(python());
    let system = ["/usr", "/bin", "/lib", "/opt", "/nix"];
    if system.iter().any(|s| interpreter.starts_with(s)) {
        eprintln!("skipping: the interpreter is in a system folder the box shows");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let student = tempfile::tempdir().unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grade-fixtures/textbook.py"),
        student.path().join("textbook.py"),
    )
    .unwrap();
    let wrapper = student.path().join("run.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec {} -B \"$(dirname \"$0\")/textbook.py\"\n",
            interpreter.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args([
            "grade",
            "--cases",
            "2",
            "--shrink-runs",
            "0",
            "--",
            "./run.sh",
        ])
        .current_dir(student.path())
        .env("HOME", home.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    if text.contains("MISSING: files") {
        eprintln!("skipping: this machine cannot sandbox");
        return;
    }
    let notes: Vec<&str> = text.lines().filter(|l| l.starts_with("NOTE: ")).collect();
    assert_eq!(notes.len(), 1, "{text}");
    assert!(
        notes[0].contains(&interpreter.display().to_string()),
        "{text}"
    );
    let root = notes[0]
        .split("--read ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no --read in {}", notes[0]));
    assert!(interpreter.starts_with(root), "{root}");
    let g = grade(
        student.path(),
        home.path(),
        &["--cases", "2", "--read", root],
        &["./run.sh"],
    );
    assert_eq!(g.failures(), vec![Value::Null; 2], "{}", g.said());
    assert!(g.report.get("sandbox_note").is_none());
}

/// A program that prints its environment (into `output.txt`, and on
/// standard error) names paths the box hides, but fails for its output,
/// not for them: no `--read` note.
#[test]
fn a_path_the_program_printed_gets_no_read_note() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let student = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(["grade", "--json", "-", "--cases", "2", "--shrink-runs", "0"])
        .args(["--env", "HIDDEN_DATA", "cmd:env > output.txt; env >&2"])
        .current_dir(student.path())
        .env("HOME", home.path())
        .env("HIDDEN_DATA", &data)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let g = Graded {
        code: out.status.code().unwrap(),
        report,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    if g.unboxed() {
        return;
    }
    assert_eq!(g.code, 1, "{}", g.stderr);
    assert_eq!(g.failures(), vec![Value::from("malformed"); 2]);
    assert!(
        g.said().contains(&data.display().to_string()),
        "{}",
        g.said()
    );
    assert!(
        g.report.get("sandbox_note").is_none_or(Value::is_null),
        "{}",
        g.report["sandbox_note"]
    );
}

#[test]
fn java_run_from_the_class_folder_scores_in_the_sandbox() {
    let student = tempfile::tempdir().unwrap();
    if !java_copy(student.path(), "homework") {
        return;
    }
    honest(student.path(), &["java", "homework", "answer.txt"]);
}

#[test]
fn malformed_box_options_are_refused_before_the_first_case() {
    let dir = tempfile::tempdir().unwrap();
    for (args, word) in [
        (&["--env", "1BAD"][..], "--env"),
        (&["--env", "=x"][..], "--env"),
        (&["--disk-mb", "0"][..], "--disk-mb"),
        (&["--read", "/no/such/path"][..], "/no/such/path"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
            .args(["grade", "--cases", "1"])
            .args(args)
            .args(["--", "/bin/true"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(word) && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "no case was run: {args:?}");
    }
}
