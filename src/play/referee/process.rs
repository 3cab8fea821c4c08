//! Running a program once: `input.txt` in, `output.txt` out, and the CPU
//! time of everything it started, as the operating system counts it.
//!
//! The program is `sh -c COMMAND` in its own process group, so that the
//! whole tree can be killed at once. Its CPU time is the `wait4` resource
//! usage of that shell, which includes every descendant it waited for. On
//! Linux the referee also becomes a "child subreaper": descendants whose
//! parent exited without waiting for them are handed to the referee instead
//! of to `init`, and are reaped (and charged) after the move. Nothing a
//! program starts outlives its move: the group is killed when the shell
//! exits, so work cannot carry on in the background during the opponent's
//! turn. Only a process that leaves the group (`setsid`) escapes both the
//! kill and the charge.

use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

/// Largest `output.txt` read: a 26 x 26 answer is under 1 KB, so anything
/// near this is not an answer, and reading it all would only cost memory.
pub const MAX_OUTPUT: u64 = 1 << 20;

/// How long stragglers killed after a move may take to die before the
/// referee stops waiting to charge them.
const REAP_DEADLINE: Duration = Duration::from_secs(2);

/// How a program run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Exit {
    /// Exited by itself with this code.
    Code(i32),
    /// Died of this signal, not sent by the referee.
    Signal(i32),
    /// Still running at the wall-clock limit; the referee killed it.
    Killed,
}

/// What one run of a program did.
#[derive(Debug)]
pub struct ProgramRun {
    /// CPU seconds (user + system) of the program and its descendants.
    pub cpu: f64,
    /// Wall-clock seconds from start to exit (or to the kill).
    pub wall: f64,
    /// How it ended.
    pub exit: Exit,
    /// The bytes of `output.txt` (at most [`MAX_OUTPUT`] + 1), or why it
    /// could not be read (`NotFound` when the program wrote none).
    pub output: Result<Vec<u8>, io::ErrorKind>,
    /// The end of what the program wrote to standard error (a few lines,
    /// shortened), to explain a crash.
    pub stderr_tail: String,
}

/// Runs `sh -c command` in `dir` with `input` as `dir/input.txt`, and waits
/// for it at most `wall_limit`; a program still running then is killed with
/// its whole process group. Any `output.txt` left from an earlier move is
/// removed first, so only what this run wrote is read. Standard input and
/// output are closed (`/dev/null`); standard error is kept for
/// [`ProgramRun::stderr_tail`].
///
/// The error is the referee's own trouble (writing `input.txt`, starting
/// `sh`), not the program's: everything the program does wrong is in the
/// returned [`ProgramRun`].
///
/// On Linux the first call makes this process a child subreaper (see the
/// module docs); orphans of any child of this process then come here.
pub fn run_program(
    command: &str,
    dir: &Path,
    input: &str,
    wall_limit: Duration,
) -> io::Result<ProgramRun> {
    adopt_orphans();
    fs::write(dir.join("input.txt"), input)?;
    let output_path = dir.join("output.txt");
    match fs::symlink_metadata(&output_path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(&output_path)?,
        Ok(_) => fs::remove_file(&output_path)?,
        Err(_) => {}
    }
    let mut stderr = tempfile::tempfile()?;
    let start = Instant::now();
    let child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr.try_clone()?)
        .process_group(0)
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    // The std handle is not used to wait: `wait4` reaps the child and
    // `Child` neither kills nor waits when dropped.
    drop(child);

    // A blocking wait on a thread, left unreaped (WNOWAIT) so the pid,
    // and with it the process group id, cannot be reused before the
    // group is killed below.
    let (tx, rx) = mpsc::channel::<()>();
    let waiter = std::thread::spawn(move || {
        wait_exited(pid);
        let _ = tx.send(());
    });
    let killed = matches!(
        rx.recv_timeout(wall_limit),
        Err(mpsc::RecvTimeoutError::Timeout)
    );
    let wall = start.elapsed().as_secs_f64();
    // SAFETY: plain system calls on the group and process this function
    // started and has not reaped yet.
    unsafe {
        libc::killpg(pid, libc::SIGKILL);
        if killed {
            // In case the shell left its group.
            libc::kill(pid, libc::SIGKILL);
        }
    }
    let (status, mut cpu) = reap(pid)?;
    let _ = waiter.join();
    cpu += reap_group(pid);

    let exit = if killed {
        Exit::Killed
    } else if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    Ok(ProgramRun {
        cpu,
        wall,
        exit,
        output: read_output(&output_path),
        stderr_tail: stderr_tail(&mut stderr),
    })
}

/// Blocks until `pid` has exited, without reaping it.
fn wait_exited(pid: libc::pid_t) {
    loop {
        // SAFETY: `info` is a plain C struct the call fills in.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// Reaps `pid`: its wait status and CPU seconds, descendants it waited for included.
fn reap(pid: libc::pid_t) -> io::Result<(libc::c_int, f64)> {
    loop {
        let mut status = 0;
        // SAFETY: `usage` is a plain C struct the call fills in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, cpu_seconds(&usage)));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Reaps what is left of process group `pgid` among this process's
/// children (orphans handed here, all killed already) and returns their
/// CPU seconds.
fn reap_group(pgid: libc::pid_t) -> f64 {
    let deadline = Instant::now() + REAP_DEADLINE;
    let mut cpu = 0.0;
    loop {
        let mut status = 0;
        // SAFETY: as in `reap`.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(-pgid, &mut status, libc::WNOHANG, &mut usage) };
        if r > 0 {
            cpu += cpu_seconds(&usage);
        } else if r == 0 {
            // Killed but not dead yet.
            if Instant::now() >= deadline {
                return cpu;
            }
            std::thread::sleep(Duration::from_millis(1));
        } else if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            // ECHILD: none left.
            return cpu;
        }
    }
}

fn cpu_seconds(usage: &libc::rusage) -> f64 {
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

#[cfg(target_os = "linux")]
fn adopt_orphans() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: sets a flag on this process; a failure only means orphans
        // go to init and their CPU time is not charged.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0);
        }
    });
}

#[cfg(not(target_os = "linux"))]
fn adopt_orphans() {}

fn read_output(path: &Path) -> Result<Vec<u8>, io::ErrorKind> {
    let file = File::open(path).map_err(|e| e.kind())?;
    if file.metadata().map_err(|e| e.kind())?.is_dir() {
        return Err(io::ErrorKind::IsADirectory);
    }
    let mut bytes = Vec::new();
    file.take(MAX_OUTPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.kind())?;
    Ok(bytes)
}

/// Non-empty lines kept from the end of a program's standard error: a
/// crash's message is often followed by a line of advice (Rust's
/// `RUST_BACKTRACE` note), so the last line alone may say nothing.
const TAIL_LINES: usize = 3;

/// Characters kept from the end of a program's standard error.
const TAIL_CHARS: usize = 300;

/// The last [`TAIL_LINES`] non-empty lines written to `file`, joined by
/// ` / `, at most [`TAIL_CHARS`] characters (the end kept).
fn stderr_tail(file: &mut File) -> String {
    let mut tail = Vec::new();
    let len = file.seek(SeekFrom::End(0)).unwrap_or(0);
    if file
        .seek(SeekFrom::Start(len.saturating_sub(4096)))
        .is_err()
        || file.read_to_end(&mut tail).is_err()
    {
        return String::new();
    }
    let text = String::from_utf8_lossy(&tail);
    let mut lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .rev()
        .take(TAIL_LINES)
        .collect();
    lines.reverse();
    let joined = lines.join(" / ");
    let count = joined.chars().count();
    if count <= TAIL_CHARS {
        return joined;
    }
    let skip = count - TAIL_CHARS;
    let start = joined.char_indices().nth(skip).map_or(0, |(i, _)| i);
    format!("...{}", &joined[start..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(command: &str, limit: f64) -> ProgramRun {
        let dir = tempfile::tempdir().unwrap();
        run_program(command, dir.path(), "x\n", Duration::from_secs_f64(limit)).unwrap()
    }

    #[test]
    fn exit_codes_signals_and_stderr() {
        let r = run("echo first >&2; echo '  last words  ' >&2; exit 3", 10.0);
        assert_eq!(r.exit, Exit::Code(3));
        assert_eq!(r.stderr_tail, "first / last words");
        let r = run(
            "for i in 1 2 3 4 5; do echo line $i >&2; echo >&2; done",
            10.0,
        );
        assert_eq!(r.stderr_tail, "line 3 / line 4 / line 5");
        let r = run("printf '%0500d' 7 >&2; exit 1", 10.0);
        assert_eq!(r.stderr_tail.chars().count(), TAIL_CHARS + 3);
        assert!(r.stderr_tail.ends_with("0007"), "the end is kept");
        assert_eq!(r.output, Err(io::ErrorKind::NotFound));
        let r = run("kill -SEGV $$", 10.0);
        assert_eq!(r.exit, Exit::Signal(libc::SIGSEGV));
    }

    #[test]
    fn reads_input_writes_output_in_its_own_folder() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("output.txt"), "stale").unwrap();
        let limit = Duration::from_secs(10);
        let r = run_program(
            "cat input.txt input.txt > output.txt",
            dir.path(),
            "hi\n",
            limit,
        )
        .unwrap();
        assert_eq!(r.exit, Exit::Code(0));
        assert_eq!(r.output.unwrap(), b"hi\nhi\n");
        // The stale answer is gone before the next run starts.
        let r = run_program("true", dir.path(), "hi\n", limit).unwrap();
        assert_eq!(r.output, Err(io::ErrorKind::NotFound));
    }

    #[test]
    fn a_hung_tree_is_killed_at_the_limit() {
        let start = Instant::now();
        let r = run("sleep 30 & sleep 30; wait", 0.2);
        assert_eq!(r.exit, Exit::Killed);
        assert!(r.wall >= 0.2 && start.elapsed() < Duration::from_secs(5));
        assert!(r.cpu < 0.2, "sleeping costs no CPU: {}", r.cpu);
    }

    #[test]
    fn cpu_of_a_waited_for_child_is_charged() {
        let r = run(
            "sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'",
            30.0,
        );
        assert_eq!(r.exit, Exit::Code(0));
        assert!(r.cpu > 0.005 && r.cpu <= r.wall + 0.01, "{r:?}");
    }
}
