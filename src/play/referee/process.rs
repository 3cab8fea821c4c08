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
//!
//! [`RunLimits`] bound a run further, as a grader needs: a CPU-time limit
//! and a largest file size on every process of the tree (`setrlimit` in
//! the child before it starts the command), and standard output kept.
//!
//! [`run_sandboxed`] runs the command in a [`Sandbox`] instead: the shell
//! is then the only child of a PID namespace's init, which this process
//! started as its own process group; killing that group kills the whole
//! namespace, and the shell's exit ends it too, so that nothing the
//! program started, daemons included, outlives the run.
//! Standard output and error are read through pipes as they come, keeping
//! only their start and end ([`Captured`]), so a program that floods them
//! costs memory and disk nothing beyond that.

use std::fs::{self, File};
use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::sandbox::{LimitHit, Sandbox};

/// Largest `output.txt` read: a 26 x 26 answer is under 1 KB, so anything
/// near this is not an answer, and reading it all would only cost memory.
pub const MAX_OUTPUT: u64 = 1 << 20;

/// How long stragglers killed after a move may take to die before the
/// referee stops waiting to charge them.
const REAP_DEADLINE: Duration = Duration::from_secs(2);

/// How long the streams may stay open once the group is dead: only a
/// process that left the group (`setsid`) can still hold them, and what it
/// writes after this is not read.
const STREAM_DEADLINE: Duration = Duration::from_millis(500);

/// Process groups of the runs going on, so that a signal handler can kill
/// them ([`kill_running`]); 0 marks a free slot. More runs at once than
/// slots are only not killed that way.
static RUNNING: [AtomicI32; 256] = [const { AtomicI32::new(0) }; 256];

/// Set by [`kill_running`]: the program is ending, and a run listed from
/// now on is killed as it is listed.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Kills the process group of every run going on, and of every run listed
/// after. Async-signal-safe (it writes and reads atomics and calls
/// `killpg`): a program's Ctrl-C handler calls it so that no program it
/// started outlives it, even one whose run was being started meanwhile.
pub fn kill_running() {
    // Before the slots are read: a run listed after this sees it (both
    // sequentially consistent), and a run listed before is in a slot.
    ENDING.store(true, Ordering::SeqCst);
    for slot in &RUNNING {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: a plain system call; the group is one this process
            // started and has not reaped yet.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
    }
}

/// A run's process group listed in [`RUNNING`] while it lives.
struct Listed(Option<&'static AtomicI32>);

impl Listed {
    fn new(pgid: libc::pid_t) -> Listed {
        let listed = Listed(RUNNING.iter().find(|slot| {
            slot.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::Relaxed)
                .is_ok()
        }));
        if ENDING.load(Ordering::SeqCst) {
            // SAFETY: a plain system call on the group this process has
            // just started.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
        listed
    }
}

impl Drop for Listed {
    fn drop(&mut self) {
        if let Some(slot) = self.0 {
            slot.store(0, Ordering::Relaxed);
        }
    }
}

/// Bytes kept from the start, and from the end, of each stream.
pub const CAPTURE_BYTES: usize = 8 << 10;

/// The limits of one run, and whether its standard output is kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunLimits {
    /// Wall-clock time before the whole process group is killed.
    pub wall: Duration,
    /// CPU time each process of the tree may use (`RLIMIT_CPU`, in whole
    /// seconds rounded up): the kernel stops a process spinning past it
    /// (SIGXCPU, then SIGKILL a second later). The tree's total is
    /// [`ProgramRun::cpu`], for the caller to compare.
    pub cpu: Option<Duration>,
    /// The largest file any process of the tree may write (`RLIMIT_FSIZE`):
    /// a write past it fails (SIGXFSZ), so that no file fills the disk.
    pub file_bytes: Option<u64>,
    /// Keep the start and end of standard output in
    /// [`ProgramRun::stdout`]; otherwise it goes to `/dev/null`.
    pub keep_stdout: bool,
    /// In a sandbox, keep every file the run leaves in its folder for the
    /// next run (a referee's program keeps notes from move to move);
    /// otherwise only `output.txt` comes out of the box, the other files
    /// by name.
    pub keep_files: bool,
}

impl RunLimits {
    /// A wall-clock limit only, standard output not kept: a referee's move.
    pub fn wall(wall: Duration) -> RunLimits {
        RunLimits {
            wall,
            cpu: None,
            file_bytes: None,
            keep_stdout: false,
            keep_files: true,
        }
    }
}

/// What a program wrote to one stream: its first and last
/// [`CAPTURE_BYTES`] bytes and how many there were in all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// The first bytes.
    pub head: Vec<u8>,
    /// The last bytes after `head` (empty when everything fit in `head`).
    pub tail: Vec<u8>,
    /// Bytes written in all.
    pub total: u64,
}

impl Captured {
    fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = CAPTURE_BYTES - self.head.len();
        let take = room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        bytes = &bytes[take..];
        if bytes.len() >= CAPTURE_BYTES {
            self.tail.clear();
            self.tail
                .extend_from_slice(&bytes[bytes.len() - CAPTURE_BYTES..]);
        } else {
            let over = (self.tail.len() + bytes.len()).saturating_sub(CAPTURE_BYTES);
            self.tail.drain(..over);
            self.tail.extend_from_slice(bytes);
        }
    }

    /// The bytes left out between `head` and `tail`.
    pub fn left_out(&self) -> u64 {
        self.total - (self.head.len() + self.tail.len()) as u64
    }

    /// The text kept (invalid UTF-8 replaced), with a line saying how many
    /// bytes were left out between the start and the end.
    pub fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if self.left_out() > 0 {
            text.push_str(&format!("\n[... {} bytes left out ...]\n", self.left_out()));
        }
        text.push_str(&String::from_utf8_lossy(&self.tail));
        text
    }
}

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
    /// The size of the `output.txt` it left, whole (0 when none), of which
    /// `output` holds the start.
    pub output_size: u64,
    /// The end of what the program wrote to standard error (a few lines,
    /// shortened), to explain a crash.
    pub stderr_tail: String,
    /// Standard output (empty unless [`RunLimits::keep_stdout`]).
    pub stdout: Captured,
    /// Standard error.
    pub stderr: Captured,
    /// The sandbox's limit the run went past, if it did.
    pub limit: Option<LimitHit>,
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
    run_limited(command, dir, input, &RunLimits::wall(wall_limit))
}

/// [`run_program`] under `limits`: the wall clock, and where set, the CPU
/// time and file size of every process, standard output kept.
pub fn run_limited(
    command: &str,
    dir: &Path,
    input: &str,
    limits: &RunLimits,
) -> io::Result<ProgramRun> {
    run(command, dir, input, limits, None)
}

/// [`run_limited`] in `sandbox` (see the module docs). The error is also
/// the sandbox's own trouble: a box that could not be built.
pub fn run_sandboxed(
    command: &str,
    dir: &Path,
    input: &str,
    limits: &RunLimits,
    sandbox: &Sandbox,
) -> io::Result<ProgramRun> {
    run(command, dir, input, limits, Some(sandbox))
}

/// A program started, by `sh` directly or through a sandbox's init.
struct Started {
    pid: libc::pid_t,
    stdout: Option<File>,
    stderr: Option<File>,
    #[cfg(target_os = "linux")]
    boxed: Option<crate::sandbox::Spawned>,
}

impl Started {
    /// `sh -c command` as this process's child in its own process group,
    /// with `rlimits` set on it.
    fn plain(
        command: &str,
        dir: &Path,
        keep_stdout: bool,
        rlimits: Rlimits,
        env: Option<Vec<(std::ffi::OsString, std::ffi::OsString)>>,
    ) -> io::Result<Started> {
        let stdout = if keep_stdout {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg(command)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(env) = env {
            sh.env_clear().envs(env);
        }
        // SAFETY: the closure only calls setrlimit, which is async-signal-safe,
        // on values copied in before the fork.
        unsafe {
            sh.pre_exec(move || set_rlimits(rlimits));
        }
        let mut child = sh.spawn()?;
        // The std handle is not used to wait: `wait4` reaps the child and
        // `Child` neither kills nor waits when dropped.
        Ok(Started {
            pid: child.id() as libc::pid_t,
            stdout: child.stdout.take().map(|s| File::from(OwnedFd::from(s))),
            stderr: child.stderr.take().map(|s| File::from(OwnedFd::from(s))),
            #[cfg(target_os = "linux")]
            boxed: None,
        })
    }

    /// How the run ended, from the wait status of the process started (or
    /// what the sandbox's init reported) and whether it was killed at the
    /// wall clock; the error: the sandbox could not be built.
    fn exit(&mut self, status: libc::c_int, killed: bool) -> io::Result<Exit> {
        #[cfg(target_os = "linux")]
        let status = match self.boxed.as_mut().map(|b| b.outcome()) {
            None => status,
            Some(crate::sandbox::Outcome::Exited(s)) => s,
            Some(crate::sandbox::Outcome::Setup(e)) => return Err(e.into()),
            Some(crate::sandbox::Outcome::Killed) => {
                return Ok(if killed {
                    Exit::Killed
                } else {
                    Exit::Signal(libc::SIGKILL)
                })
            }
        };
        Ok(if killed {
            Exit::Killed
        } else if libc::WIFSIGNALED(status) {
            Exit::Signal(libc::WTERMSIG(status))
        } else {
            Exit::Code(libc::WEXITSTATUS(status))
        })
    }
}

fn run(
    command: &str,
    dir: &Path,
    input: &str,
    limits: &RunLimits,
    sandbox: Option<&Sandbox>,
) -> io::Result<ProgramRun> {
    adopt_orphans();
    fs::write(dir.join("input.txt"), input)?;
    let output_path = dir.join("output.txt");
    match fs::symlink_metadata(&output_path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(&output_path)?,
        Ok(_) => fs::remove_file(&output_path)?,
        Err(_) => {}
    }
    let rlimits = Rlimits {
        cpu: limits.cpu.map(cpu_rlimit),
        file: limits.file_bytes,
        data: sandbox.and_then(Sandbox::plain_memory_limit),
    };
    // No program starts once the program is ending: one started as it
    // raises its signal would outlive it (one that gets past this is
    // killed as it is listed).
    if ENDING.load(Ordering::SeqCst) {
        return Err(io::Error::other("the program is ending"));
    }
    let start = Instant::now();
    let mut started = start_run(command, dir, limits, rlimits, sandbox)?;
    let pid = started.pid;
    let listed = Listed::new(pid);
    let out_stream = started.stdout.take().map(read_stream);
    let err_stream = started.stderr.take().map(read_stream);

    // A blocking wait on a thread, left unreaped (WNOWAIT) so the pid,
    // and with it the process group id, cannot be reused before the
    // group is killed below.
    let (tx, rx) = mpsc::channel::<()>();
    let waiter = std::thread::spawn(move || {
        wait_exited(pid);
        let _ = tx.send(());
    });
    let killed = matches!(
        rx.recv_timeout(limits.wall),
        Err(mpsc::RecvTimeoutError::Timeout)
    );
    let wall = start.elapsed().as_secs_f64();
    #[cfg(target_os = "linux")]
    if killed && started.boxed.is_some() {
        // The sandbox's init kills and reaps its namespace, counting the
        // CPU time of every process in it; killed itself, it would not.
        // SAFETY: a signal to the process this function started and has
        // not reaped yet.
        unsafe {
            libc::kill(pid, crate::sandbox::STOP);
        }
        let _ = rx.recv_timeout(REAP_DEADLINE);
    }
    // SAFETY: plain system calls on the group and process this function
    // started and has not reaped yet.
    unsafe {
        libc::killpg(pid, libc::SIGKILL);
        if killed {
            // In case the shell left its group.
            libc::kill(pid, libc::SIGKILL);
        }
    }
    // Reaped, the pid could be reused: out of the list first.
    drop(listed);
    let (status, mut cpu) = reap(pid)?;
    let _ = waiter.join();
    cpu += reap_group(pid);
    let exit = started.exit(status, killed)?;

    let streams_deadline = Instant::now() + STREAM_DEADLINE;
    let stdout = out_stream.map_or_else(Captured::default, |s| s.finish(streams_deadline));
    let stderr = err_stream.map_or_else(Captured::default, |s| s.finish(streams_deadline));
    let stderr_tail = stderr_tail(&stderr);
    #[cfg(target_os = "linux")]
    let counted = started.boxed.as_ref().and_then(|b| b.hit());
    #[cfg(not(target_os = "linux"))]
    let counted = None;
    let limit = counted.or_else(|| {
        let failed = !killed && exit != Exit::Code(0);
        sandbox.and_then(|s| s.guessed_hit(failed, &stderr.text()))
    });
    #[cfg(target_os = "linux")]
    let boxed_size = started.boxed.as_ref().and_then(|b| b.output_size());
    #[cfg(not(target_os = "linux"))]
    let boxed_size = None;
    let output = read_output(&output_path);
    let output_size = boxed_size.unwrap_or_else(|| {
        fs::symlink_metadata(&output_path).map_or(0, |m| if m.is_file() { m.len() } else { 0 })
    });
    Ok(ProgramRun {
        cpu,
        wall,
        exit,
        output,
        output_size,
        stderr_tail,
        stdout,
        stderr,
        limit,
    })
}

/// Starts the run: in the sandbox's namespaces where it has them, else as
/// a plain child.
fn start_run(
    command: &str,
    dir: &Path,
    limits: &RunLimits,
    rlimits: Rlimits,
    sandbox: Option<&Sandbox>,
) -> io::Result<Started> {
    #[cfg(target_os = "linux")]
    if let Some(ready) = sandbox.and_then(Sandbox::boxed) {
        let boxed_limits = crate::sandbox::Rlimits {
            cpu: rlimits.cpu,
            file: rlimits.file,
        };
        let mut spawned = crate::sandbox::spawn(
            ready,
            command,
            dir,
            limits.keep_stdout,
            limits.keep_files,
            &boxed_limits,
        )?;
        return Ok(Started {
            pid: spawned.pid,
            stdout: spawned.stdout.take(),
            stderr: spawned.stderr.take(),
            boxed: Some(spawned),
        });
    }
    let env = sandbox.and_then(|s| s.plain_environment(dir));
    Started::plain(command, dir, limits.keep_stdout, rlimits, env)
}

/// A stream being read on a thread of its own into a [`Captured`].
struct Stream {
    captured: Arc<Mutex<Captured>>,
    done: mpsc::Receiver<()>,
}

/// Reads `pipe` to its end on a new thread, keeping its start and end.
fn read_stream(mut pipe: impl Read + Send + 'static) -> Stream {
    let captured = Arc::new(Mutex::new(Captured::default()));
    let (tx, done) = mpsc::channel();
    let shared = captured.clone();
    std::thread::spawn(move || {
        let mut buf = vec![0; 64 << 10];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => shared
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = tx.send(());
    });
    Stream { captured, done }
}

impl Stream {
    /// What was read by the stream's end, or by `deadline` if a process
    /// outside the group still holds it open (the thread is then left to
    /// end when that process does).
    fn finish(self, deadline: Instant) -> Captured {
        let _ = self
            .done
            .recv_timeout(deadline.saturating_duration_since(Instant::now()));
        let captured = self.captured.lock().unwrap_or_else(|e| e.into_inner());
        captured.clone()
    }
}

/// The `RLIMIT_CPU` of a CPU-time limit: whole seconds, rounded up, at
/// least one.
fn cpu_rlimit(cpu: Duration) -> u64 {
    cpu.as_secs_f64().ceil().max(1.0) as u64
}

/// The resource limits of a plain run.
#[derive(Clone, Copy, Debug)]
struct Rlimits {
    /// CPU seconds (SIGXCPU there, SIGKILL a second later).
    cpu: Option<u64>,
    /// The largest file, bytes.
    file: Option<u64>,
    /// The sandbox's memory limit where it has no namespaces, bytes.
    data: Option<u64>,
}

/// Sets the limits given.
fn set_rlimits(limits: Rlimits) -> io::Result<()> {
    let limit = |soft: u64, hard: u64| libc::rlimit {
        rlim_cur: soft as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct passed and is async-signal-safe.
    let results = unsafe {
        [
            limits
                .cpu
                .map(|s| libc::setrlimit(libc::RLIMIT_CPU, &limit(s, s + 1))),
            limits
                .file
                .map(|b| libc::setrlimit(libc::RLIMIT_FSIZE, &limit(b, b))),
            limits
                .data
                .map(|b| libc::setrlimit(libc::RLIMIT_DATA, &limit(b, b))),
        ]
    };
    if results.iter().any(|r| r.is_some_and(|r| r != 0)) {
        return Err(io::Error::last_os_error());
    }
    Ok(())
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

/// The last [`TAIL_LINES`] non-empty lines of `stderr`, joined by
/// ` / `, at most [`TAIL_CHARS`] characters (the end kept).
fn stderr_tail(stderr: &Captured) -> String {
    let mut kept = stderr.head.clone();
    kept.extend_from_slice(&stderr.tail);
    let text = String::from_utf8_lossy(&kept[kept.len().saturating_sub(4096)..]);
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

    #[test]
    fn captures_keep_the_start_and_the_end() {
        let mut c = Captured::default();
        c.push(b"ab");
        assert_eq!((c.text(), c.left_out()), ("ab".to_owned(), 0));
        let big: Vec<u8> = (0..3 * CAPTURE_BYTES)
            .map(|i| b'a' + (i % 26) as u8)
            .collect();
        for chunk in big.chunks(1000) {
            c.push(chunk);
        }
        c.push(b"end");
        let mut all = b"ab".to_vec();
        all.extend_from_slice(&big);
        all.extend_from_slice(b"end");
        assert_eq!(c.total, all.len() as u64);
        assert_eq!(c.head, all[..CAPTURE_BYTES]);
        assert_eq!(c.tail, all[all.len() - CAPTURE_BYTES..]);
        assert_eq!(c.left_out(), (all.len() - 2 * CAPTURE_BYTES) as u64);
        assert!(c
            .text()
            .contains(&format!("[... {} bytes left out ...]", c.left_out())));
    }

    #[test]
    fn limits_bound_cpu_files_and_floods() {
        let dir = tempfile::tempdir().unwrap();
        let limits = RunLimits {
            wall: Duration::from_secs(30),
            cpu: Some(Duration::from_millis(200)),
            file_bytes: Some(1 << 16),
            keep_stdout: true,
            keep_files: false,
        };
        let run = |command: &str| run_limited(command, dir.path(), "x\n", &limits).unwrap();
        // Spinning is stopped by the CPU limit (1 s), long before the wall clock.
        let r = run("while :; do :; done");
        assert!(
            matches!(r.exit, Exit::Signal(s) if s == libc::SIGXCPU || s == libc::SIGKILL),
            "{r:?}"
        );
        // Stopped at its limit of 1 s; on a loaded machine the usage
        // reported for it read as little as 0.86 s.
        assert!(r.cpu >= 0.5 && r.wall < 10.0, "{r:?}");
        // A flood of output costs only what is kept.
        let r = run("yes | head -c 3000000; echo; echo end; yes 2>/dev/null | head -c 100000 >&2");
        assert_eq!(r.stdout.total, 3_000_005);
        assert_eq!(r.stdout.head.len(), CAPTURE_BYTES);
        assert!(r.stdout.tail.ends_with(b"\nend\n"));
        assert_eq!(r.stderr.total, 100_000);
        // A file past the limit stops at it.
        let r = run("head -c 200000 /dev/zero > output.txt");
        assert_eq!(r.output.unwrap().len(), 1 << 16);
        assert_ne!(r.exit, Exit::Code(0));
    }

    #[test]
    fn a_child_that_outlives_its_parent_is_killed_with_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let command = format!("sleep 30 & echo $! > {}; exit 0", pid_file.display());
        let start = Instant::now();
        let r = run_limited(
            &command,
            dir.path(),
            "x\n",
            &RunLimits::wall(Duration::from_secs(20)),
        )
        .unwrap();
        assert_eq!(r.exit, Exit::Code(0));
        assert!(start.elapsed() < Duration::from_secs(5));
        let pid: libc::pid_t = fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SAFETY: signal 0 only asks whether the process exists.
        assert_ne!(
            unsafe { libc::kill(pid, 0) },
            0,
            "the child {pid} outlived the run"
        );
    }
}
