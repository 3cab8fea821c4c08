//! Starting a run in its namespaces.
//!
//! The grader is threaded, so the new process is made by the raw `clone`
//! system call (no `fork` handlers, no allocation after it): a copy of the
//! calling thread in new user, mount, PID, network, IPC, UTS and cgroup
//! namespaces, which becomes the PID namespace's init. It waits until the
//! grader has written its user and group maps and put it in the run's
//! cgroups, builds the new root ([`Layout`]), pivots into it, and starts
//! the program's shell as its one child: in a session of its own, as the
//! program's user, in the case's folder, with the resource limits, unable
//! to gain privileges, its own capabilities dropped by `execve`. When that
//! shell exits, the init writes its wait status to a pipe and exits, and
//! the kernel kills everything left in the namespace. Every step that can
//! fail reports which one it was, through the same pipe.
//!
//! The case's folder the program sees is the quota's tmpfs, not the
//! folder on the machine: the init copies the files of the machine's
//! folder into it before the program starts, and copies them back after
//! everything in the namespace is dead (`output.txt` and its first MiB
//! only, unless the run keeps its files from run to run, as a referee's
//! program keeps its notes from move to move). Only regular files at the
//! top of the folder make the trip; a symbolic link, a pipe or a folder
//! does not. A run that filled the quota at any look (every
//! [`DISK_LOOK_NS`], and at the end) is reported so.
//!
//! Everything the two processes use is made before the `clone`, in
//! [`Child`]: paths as C strings, the argument and environment arrays.

use std::ffi::{CStr, CString};
use std::fmt;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use libc::{c_char, c_int, c_ulong, pid_t};

use super::capabilities::Limiter;
use super::cgroup::RunCgroups;
use super::layout::{BindMode, Step, StepKind};
use super::{LimitHit, Ready};

/// Resource limits set on the program's shell (and so on everything it
/// starts).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Rlimits {
    /// `RLIMIT_CPU`, seconds.
    pub(crate) cpu: Option<u64>,
    /// `RLIMIT_FSIZE`, bytes.
    pub(crate) file: Option<u64>,
}

/// The stages of a run's start that are not layout steps, as reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Step(StepKind),
    Private,
    Root,
    Pivot,
    Fork,
    Ids,
    Chdir,
    Limits,
    Exec,
}

impl Stage {
    const ALL: [Stage; 15] = [
        Stage::Step(StepKind::Mkdir),
        Stage::Step(StepKind::File),
        Stage::Step(StepKind::Symlink),
        Stage::Step(StepKind::Bind),
        Stage::Step(StepKind::Tmpfs),
        Stage::Step(StepKind::Proc),
        Stage::Step(StepKind::ReadOnly),
        Stage::Private,
        Stage::Root,
        Stage::Pivot,
        Stage::Fork,
        Stage::Ids,
        Stage::Chdir,
        Stage::Limits,
        Stage::Exec,
    ];

    fn code(self) -> u32 {
        Stage::ALL.iter().position(|s| *s == self).unwrap_or(0) as u32
    }

    fn describe(self) -> &'static str {
        match self {
            Stage::Step(kind) => kind.describe(),
            Stage::Private => "making the mounts private",
            Stage::Root => "mounting the new root",
            Stage::Pivot => "pivoting into the new root",
            Stage::Fork => "starting the program's shell",
            Stage::Ids => "taking the program's user and group",
            Stage::Chdir => "entering the case's folder",
            Stage::Limits => "setting the resource limits",
            Stage::Exec => "running sh",
        }
    }
}

/// A run that could not be started in its box, and where it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SetupError {
    /// The layout step, when it was one.
    pub(crate) step: Option<StepKind>,
    what: String,
    pub(crate) errno: i32,
}

impl From<SetupError> for super::capabilities::Unavailable {
    fn from(e: SetupError) -> Self {
        super::capabilities::Unavailable::Refused {
            what: e.what,
            errno: e.errno,
        }
    }
}

impl SetupError {
    /// A failure of the grader's own side.
    pub(crate) fn io(what: &str, e: &io::Error) -> SetupError {
        SetupError {
            step: None,
            what: what.to_owned(),
            errno: e.raw_os_error().unwrap_or(0),
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} refused: {}",
            self.what,
            super::capabilities::errno_text(self.errno)
        )
    }
}

impl From<SetupError> for io::Error {
    fn from(e: SetupError) -> io::Error {
        io::Error::other(format!("sandbox: {e}"))
    }
}

/// The signal that tells a run's init to stop it: kill everything in the
/// namespace, reap it (so that its CPU time is counted) and exit.
pub(crate) const STOP: c_int = libc::SIGUSR1;

/// Record tags on the status pipe.
const SETUP_FAILED: u32 = 1;
const EXITED: u32 = 2;
const DISK_FULL: u32 = 3;
const OUTPUT_SIZE: u32 = 4;

/// How often the init looks at the quota while the run lasts, in
/// nanoseconds. A tmpfs keeps no record of its highest use, and a write
/// refused for want of space leaves none either, so a run that fills its
/// quota is seen full at one of these looks (or at the last, once every
/// process is dead). Only a run that takes the last of its quota and
/// frees it again between two looks, within a millisecond, goes unseen.
/// A look is one `fstatfs`.
const DISK_LOOK_NS: libc::c_long = 1_000_000;

/// The most of `output.txt` copied back: what the grader reads of it.
const OUTPUT_BYTES: u64 = crate::play::referee::MAX_OUTPUT + 1;

/// A run started in its box.
#[derive(Debug)]
pub(crate) struct Spawned {
    /// The init's pid (and process group), outside.
    pub(crate) pid: pid_t,
    /// The program's standard output, if kept.
    pub(crate) stdout: Option<File>,
    /// Its standard error.
    pub(crate) stderr: Option<File>,
    status: File,
    cgroups: Option<RunCgroups>,
    /// The quota, in MiB, and whether the run filled it.
    disk: (u64, bool),
    /// The size of the `output.txt` the run left in the box, of which only
    /// the start comes back.
    output_size: Option<u64>,
    /// The folder the new root is mounted on (in the run's namespace only).
    _root: crate::scratch::Scratch,
}

/// How a started run ended, as its init reported.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The shell's wait status.
    Exited(c_int),
    /// The box could not be built.
    Setup(SetupError),
    /// Nothing reported: the init was killed (the wall clock).
    Killed,
}

impl Spawned {
    /// What the init reported, once it has been reaped.
    pub(crate) fn outcome(&mut self) -> Outcome {
        let mut bytes = Vec::new();
        let _ = (&mut self.status).take(1 << 10).read_to_end(&mut bytes);
        let mut exited = None;
        for record in bytes.chunks_exact(12) {
            let word = |i: usize| {
                let mut b = [0u8; 4];
                b.copy_from_slice(&record[4 * i..4 * i + 4]);
                u32::from_ne_bytes(b)
            };
            match word(0) {
                SETUP_FAILED => {
                    let stage = Stage::ALL
                        .get(word(1) as usize)
                        .copied()
                        .unwrap_or(Stage::Exec);
                    return Outcome::Setup(SetupError {
                        step: match stage {
                            Stage::Step(kind) => Some(kind),
                            _ => None,
                        },
                        what: stage.describe().to_owned(),
                        errno: word(2) as i32,
                    });
                }
                EXITED => exited = Some(word(1) as c_int),
                DISK_FULL => self.disk.1 = true,
                OUTPUT_SIZE => {
                    self.output_size = Some(u64::from(word(1)) | u64::from(word(2)) << 32)
                }
                _ => {}
            }
        }
        exited.map_or(Outcome::Killed, Outcome::Exited)
    }

    /// The limit the run went past, as its cgroups counted, or the quota
    /// it filled (known once [`Spawned::outcome`] has read the report).
    pub(crate) fn hit(&self) -> Option<LimitHit> {
        self.cgroups
            .as_ref()
            .and_then(RunCgroups::hit)
            .or_else(|| self.disk.1.then_some(LimitHit::Disk { mb: self.disk.0 }))
    }

    /// The size of the `output.txt` the run left, whole (known once
    /// [`Spawned::outcome`] has read the report).
    pub(crate) fn output_size(&self) -> Option<u64> {
        self.output_size
    }

    /// For the probe: waits for the run and says whether the box was built
    /// and `sh` ran.
    pub(crate) fn wait_probe(mut self) -> Result<(), SetupError> {
        let mut status = 0;
        // SAFETY: waits for the child this process started.
        unsafe { libc::waitpid(self.pid, &mut status, 0) };
        match self.outcome() {
            Outcome::Exited(0) => Ok(()),
            Outcome::Setup(e) => Err(e),
            _ => Err(SetupError {
                step: None,
                what: "a first sandboxed run".into(),
                errno: libc::EIO,
            }),
        }
    }
}

/// Starts `sh -c command` in `dir` in the box `ready` describes; the
/// files it leaves at the top of its folder come back to `dir` whole when
/// `keep_files`, else only `output.txt` (its first MiB) and the others'
/// names.
pub(crate) fn spawn(
    ready: &Ready,
    command: &str,
    dir: &Path,
    keep_stdout: bool,
    keep_files: bool,
    limits: &Rlimits,
) -> io::Result<Spawned> {
    let ns = ready.how.ns.clone().map_err(io::Error::other)?;
    let (uid, gid) = ns.program_ids();
    let real_dir = OwnedFd::from(
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
            .open(dir)?,
    );
    let root = crate::scratch::Scratch::new("stakeraid-root-")?;
    let case_steps = ready.layout.case_steps(dir);
    let text = |p: &Path| CString::new(p.as_os_str().as_encoded_bytes()).map_err(io::Error::other);
    let (root_c, case_c) = (text(root.path())?, text(dir)?);
    let argv_c = [c"sh".to_owned(), c"-c".to_owned(), CString::new(command)?];
    let argv: Vec<*const c_char> = argv_c
        .iter()
        .map(|a| a.as_ptr())
        .chain([std::ptr::null()])
        .collect();
    let envp: Vec<*const c_char> = ready
        .layout
        .env
        .iter()
        .map(|a| a.as_ptr())
        .chain([std::ptr::null()])
        .collect();
    let (go_r, go_w) = pipe()?;
    let (status_r, status_w) = pipe()?;
    let (err_r, err_w) = pipe()?;
    let out = if keep_stdout { Some(pipe()?) } else { None };
    let settings = &ready.settings;
    let cgroups = if ready.how.memory == Limiter::Cgroup || ready.how.processes == Limiter::Cgroup {
        Some(RunCgroups::new(
            &ready.how.cgroups,
            settings.memory_mb,
            settings.processes,
        )?)
    } else {
        None
    };
    let child = Child {
        keep: [
            go_r.as_raw_fd(),
            status_w.as_raw_fd(),
            err_w.as_raw_fd(),
            out.as_ref().map_or(-1, |(_, w)| w.as_raw_fd()),
            real_dir.as_raw_fd(),
        ],
        real_dir: real_dir.as_raw_fd(),
        others_bytes: if keep_files { u64::MAX } else { 0 },
        go: go_r.as_raw_fd(),
        status: status_w.as_raw_fd(),
        err: err_w.as_raw_fd(),
        out: out.as_ref().map_or(-1, |(_, w)| w.as_raw_fd()),
        root: &root_c,
        steps: [&ready.layout.steps, &case_steps, &ready.layout.finish],
        as_root: ns.as_root,
        uid,
        gid,
        case: &case_c,
        sh: &ready.layout.sh,
        argv: argv.as_ptr(),
        envp: envp.as_ptr(),
        cpu: limits.cpu,
        file: limits.file,
        data: (ready.how.memory == Limiter::Rlimit).then_some(settings.memory_mb << 20),
        // One more for the init, which is the program's user when the
        // grader is not root.
        nproc: (ready.how.processes == Limiter::Rlimit)
            .then_some(u64::from(settings.processes) + 1),
        own_words: own_words(),
    };
    let mut flags = libc::CLONE_NEWNS
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS
        | libc::CLONE_NEWCGROUP;
    if ns.user {
        flags |= libc::CLONE_NEWUSER;
    }
    // SAFETY: a fork-like clone (no new stack: the child runs on a copy of
    // this one). The child only runs `init`, which makes system calls on
    // memory prepared above and never returns.
    let pid = unsafe { raw_clone(flags as c_ulong | libc::SIGCHLD as c_ulong) };
    if pid == 0 {
        // SAFETY: in the new process, as above.
        unsafe { init(&child) }
    }
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    drop((go_r, status_w, err_w));
    let out = out.map(|(r, w)| {
        drop(w);
        File::from(r)
    });
    let started = (|| -> io::Result<()> {
        // SAFETY: sets the group of the child just made (it does the same,
        // whichever comes first).
        unsafe { libc::setpgid(pid, pid) };
        if ns.user {
            write_maps(pid, ns.as_root, uid, gid)?;
        }
        if let Some(cgroups) = &cgroups {
            cgroups.add(pid)?;
        }
        File::from(go_w).write_all(b"g")
    })();
    if let Err(e) = started {
        // SAFETY: the child this function made, not reaped yet.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        return Err(e);
    }
    Ok(Spawned {
        pid,
        stdout: out,
        stderr: Some(File::from(err_r)),
        status: File::from(status_r),
        cgroups,
        disk: (settings.disk_mb, false),
        output_size: None,
        _root: root,
    })
}

/// The maps of the run's user namespace. As root: its root is root (to
/// build the new root, reading what root reads) and `nobody` is `nobody`
/// (the program). Else the user is the user; groups cannot be changed,
/// which an unprivileged map requires.
fn write_maps(pid: pid_t, as_root: bool, uid: u32, gid: u32) -> io::Result<()> {
    let proc = format!("/proc/{pid}");
    let (uid_map, gid_map) = if as_root {
        let both = format!("0 0 1\n{uid} {uid} 1\n");
        (
            both.clone(),
            both.replace(&uid.to_string(), &gid.to_string()),
        )
    } else {
        std::fs::write(format!("{proc}/setgroups"), "deny")?;
        (format!("{uid} {uid} 1\n"), format!("{gid} {gid} 1\n"))
    };
    std::fs::write(format!("{proc}/uid_map"), uid_map)?;
    std::fs::write(format!("{proc}/gid_map"), gid_map)
}

/// A pipe, both ends close-on-exec, neither among the standard three.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: fills in two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let high = |fd: c_int| -> io::Result<OwnedFd> {
        // SAFETY: `fd` was just made and is owned here.
        let owned = unsafe { OwnedFd::from_raw_fd(fd) };
        if fd > 2 {
            return Ok(owned);
        }
        // SAFETY: duplicates a descriptor owned here.
        let moved = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3) };
        if moved < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: as above.
        Ok(unsafe { OwnedFd::from_raw_fd(moved) })
    };
    Ok((high(fds[0])?, high(fds[1])?))
}

/// `clone` as `fork` does it, with namespace flags.
unsafe fn raw_clone(flags: c_ulong) -> pid_t {
    libc::syscall(
        libc::SYS_clone,
        flags,
        0 as c_ulong,
        0 as c_ulong,
        0 as c_ulong,
        0 as c_ulong,
    ) as pid_t
}

/// Everything the new processes use, made before the clone.
struct Child<'a> {
    keep: [c_int; 5],
    /// The case's folder on the machine.
    real_dir: c_int,
    /// The most copied back of each file but `output.txt`.
    others_bytes: u64,
    go: c_int,
    status: c_int,
    err: c_int,
    out: c_int,
    root: &'a CStr,
    steps: [&'a [Step]; 3],
    as_root: bool,
    uid: u32,
    gid: u32,
    case: &'a CStr,
    sh: &'a CStr,
    argv: *const *const c_char,
    envp: *const *const c_char,
    cpu: Option<u64>,
    file: Option<u64>,
    data: Option<u64>,
    nproc: Option<u64>,
    own_words: [(usize, usize); 2],
}

/// Where this process's command line and environment are in its memory
/// (`/proc/self/stat`, read once): the init wipes its copies, since the
/// program can read its namespace's init's `/proc/1/cmdline`, and the
/// grader's command line names the answer key.
fn own_words() -> [(usize, usize); 2] {
    static WORDS: std::sync::OnceLock<[(usize, usize); 2]> = std::sync::OnceLock::new();
    *WORDS.get_or_init(|| {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        // Fields 48 to 51 (arg_start, arg_end, env_start, env_end); the
        // text after the name starts at field 3.
        let f: Vec<usize> = after
            .split_whitespace()
            .skip(45)
            .take(4)
            .map(|w| w.parse().unwrap_or(0))
            .collect();
        match f[..] {
            [a, b, c, d] if a <= b && c <= d && b - a < 1 << 20 && d - c < 1 << 20 => {
                [(a, b), (c, d)]
            }
            _ => [(0, 0); 2],
        }
    })
}

/// The run's init. Only system calls from here on: the process is a copy
/// of one thread of a threaded program.
unsafe fn init(ch: &Child) -> ! {
    close_others(&ch.keep);
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as c_ulong, 0, 0, 0);
    libc::prctl(libc::PR_SET_NAME, c"init".as_ptr() as c_ulong, 0, 0, 0);
    for (start, end) in ch.own_words {
        if start > 0 && end > start {
            // SAFETY: this process's own argument and environment area,
            // mapped writable, as the kernel reports it.
            std::ptr::write_bytes(start as *mut u8, 0, end - start);
        }
    }
    if let Some((start, _)) = ch.own_words.first().copied().filter(|(s, e)| e - s >= 5) {
        std::ptr::copy_nonoverlapping(c"init".as_ptr().cast::<u8>(), start as *mut u8, 5);
    }
    let mut go = 0u8;
    loop {
        let n = libc::read(ch.go, (&mut go as *mut u8).cast(), 1);
        if n == 1 {
            break;
        }
        if n < 0 && errno() == libc::EINTR {
            continue;
        }
        libc::_exit(1);
    }
    libc::close(ch.go);
    // Only now: a process that cannot be dumped has its /proc files owned
    // by root, and the grader, unless root, could not have written its
    // maps.
    libc::prctl(libc::PR_SET_DUMPABLE, 0 as c_ulong, 0, 0, 0);
    libc::setpgid(0, 0);
    let none: *const c_char = std::ptr::null();
    check(
        ch,
        Stage::Private,
        libc::mount(
            none,
            c"/".as_ptr(),
            none,
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ),
    );
    check(
        ch,
        Stage::Root,
        libc::mount(
            c"tmpfs".as_ptr(),
            ch.root.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            c"mode=0755,size=4m".as_ptr().cast(),
        ),
    );
    check(ch, Stage::Root, libc::chdir(ch.root.as_ptr()));
    for steps in ch.steps {
        for step in steps {
            if let Err(e) = apply(step) {
                fail(ch, Stage::Step(step.kind()), e);
            }
        }
    }
    let dot = c".".as_ptr();
    check(
        ch,
        Stage::Pivot,
        libc::syscall(libc::SYS_pivot_root, dot, dot) as c_int,
    );
    check(ch, Stage::Pivot, libc::umount2(dot, libc::MNT_DETACH));
    check(ch, Stage::Pivot, libc::chdir(c"/".as_ptr()));
    let case = libc::open(
        ch.case.as_ptr(),
        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
    );
    check(ch, Stage::Chdir, case);
    if ch.as_root {
        check(ch, Stage::Ids, libc::fchown(case, ch.uid, ch.gid));
    }
    let owner = ch.as_root.then_some((ch.uid, ch.gid));
    copy_files(ch.real_dir, case, &|_| u64::MAX, owner);
    if let Err(e) = read_only(c"/") {
        fail(ch, Stage::Step(StepKind::ReadOnly), e);
    }
    loopback_up();
    // SIGCHLD and the grader's STOP signal are waited for, not handled.
    let mut waited: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut waited);
    libc::sigaddset(&mut waited, libc::SIGCHLD);
    libc::sigaddset(&mut waited, STOP);
    libc::sigprocmask(libc::SIG_BLOCK, &waited, std::ptr::null_mut());
    let shell = raw_clone(libc::SIGCHLD as c_ulong);
    if shell == 0 {
        program(ch);
    }
    if shell < 0 {
        fail(ch, Stage::Fork, errno());
    }
    // Reap what exits until the shell does, or the grader says stop;
    // between signals, look at the quota every DISK_LOOK.
    let mut status = None;
    let mut stopped = false;
    let mut filled = false;
    let look = libc::timespec {
        tv_sec: 0,
        tv_nsec: DISK_LOOK_NS,
    };
    'run: loop {
        filled = filled || quota_full(case);
        loop {
            let mut st = 0;
            let r = libc::waitpid(-1, &mut st, libc::WNOHANG | libc::__WALL);
            if r == shell {
                status = Some(st);
                break 'run;
            }
            if r < 0 && errno() == libc::ECHILD {
                break 'run;
            }
            if r <= 0 {
                break;
            }
        }
        if libc::sigtimedwait(&waited, std::ptr::null_mut(), &look) == STOP {
            stopped = true;
            break;
        }
    }
    // Everything left is killed and reaped here, so that its CPU time is
    // the run's (the kernel would kill it too, but reap it uncounted).
    libc::kill(-1, libc::SIGKILL);
    loop {
        let r = libc::waitpid(-1, std::ptr::null_mut(), libc::__WALL);
        if r < 0 && errno() != libc::EINTR {
            break;
        }
    }
    if filled || quota_full(case) {
        report(ch, [DISK_FULL, 0, 0]);
    }
    // Only the start of output.txt comes back: its size, for the report.
    let mut st: libc::stat = std::mem::zeroed();
    if libc::fstatat(
        case,
        c"output.txt".as_ptr(),
        &mut st,
        libc::AT_SYMLINK_NOFOLLOW,
    ) == 0
        && (st.st_mode & libc::S_IFMT) == libc::S_IFREG
    {
        let size = st.st_size as u64;
        report(ch, [OUTPUT_SIZE, size as u32, (size >> 32) as u32]);
    }
    remove_files(ch.real_dir);
    let others = ch.others_bytes;
    copy_files(
        case,
        ch.real_dir,
        &|name| {
            if name.to_bytes() == b"output.txt" {
                OUTPUT_BYTES
            } else {
                others
            }
        },
        None,
    );
    if let (Some(st), false) = (status, stopped) {
        report(ch, [EXITED, st as u32, 0]);
    }
    libc::_exit(0);
}

/// Whether the quota's tmpfs, which holds the folder `case`, has no block
/// or no file left.
unsafe fn quota_full(case: c_int) -> bool {
    let mut fs: libc::statfs = std::mem::zeroed();
    libc::fstatfs(case, &mut fs) == 0 && (fs.f_bfree == 0 || fs.f_ffree == 0)
}

/// The program's shell, in the new root.
unsafe fn program(ch: &Child) -> ! {
    libc::setsid();
    // Raw system calls: glibc's own wrappers would signal every thread
    // the grader had, which this copy of one of them does not have, and
    // wait for them for ever.
    let (uid, gid) = (ch.uid as c_ulong, ch.gid as c_ulong);
    if ch.as_root && libc::syscall(libc::SYS_setgroups, 0 as c_ulong, 0 as c_ulong) != 0 {
        fail(ch, Stage::Ids, errno());
    }
    check(
        ch,
        Stage::Ids,
        libc::syscall(libc::SYS_setresgid, gid, gid, gid) as c_int,
    );
    check(
        ch,
        Stage::Ids,
        libc::syscall(libc::SYS_setresuid, uid, uid, uid) as c_int,
    );
    check(ch, Stage::Chdir, libc::chdir(ch.case.as_ptr()));
    let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
    check(ch, Stage::Chdir, null);
    let out = if ch.out >= 0 { ch.out } else { null };
    for (from, to) in [(null, 0), (out, 1), (ch.err, 2)] {
        check(ch, Stage::Exec, libc::dup2(from, to));
    }
    let set = |resource, value: Option<u64>, extra: u64| -> c_int {
        match value {
            None => 0,
            Some(v) => {
                let limit = libc::rlimit {
                    rlim_cur: v as libc::rlim_t,
                    rlim_max: v.saturating_add(extra) as libc::rlim_t,
                };
                libc::setrlimit(resource, &limit)
            }
        }
    };
    check(ch, Stage::Limits, set(libc::RLIMIT_CPU, ch.cpu, 1));
    check(ch, Stage::Limits, set(libc::RLIMIT_FSIZE, ch.file, 0));
    check(ch, Stage::Limits, set(libc::RLIMIT_DATA, ch.data, 0));
    check(ch, Stage::Limits, set(libc::RLIMIT_NPROC, ch.nproc, 0));
    libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1 as c_ulong, 0, 0, 0);
    // As a program started by this one would have them: no signal
    // blocked, SIGPIPE's default action (Rust's runtime ignores it).
    let mut none: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut none);
    libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
    libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    libc::execve(ch.sh.as_ptr(), ch.argv, ch.envp);
    fail(ch, Stage::Exec, errno());
}

/// One layout step; the error number if it failed.
unsafe fn apply(step: &Step) -> Result<(), c_int> {
    let none: *const c_char = std::ptr::null();
    let ok = |r: c_int| if r == 0 { Ok(()) } else { Err(errno()) };
    let made = |r: c_int| match ok(r) {
        Err(libc::EEXIST) => Ok(()),
        other => other,
    };
    match step {
        Step::Mkdir(path, mode) => made(libc::mkdir(path.as_ptr(), *mode)),
        Step::File(path) => {
            let fd = libc::open(
                path.as_ptr(),
                libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                0o644,
            );
            if fd < 0 {
                return Err(errno());
            }
            libc::close(fd);
            Ok(())
        }
        Step::Symlink { target, path } => made(libc::symlink(target.as_ptr(), path.as_ptr())),
        Step::Bind { src, dst, mode } => {
            ok(libc::mount(
                src.as_ptr(),
                dst.as_ptr(),
                none,
                libc::MS_BIND | libc::MS_REC,
                std::ptr::null(),
            ))?;
            match mode {
                BindMode::Device => Ok(()),
                BindMode::Read => read_only(dst),
                BindMode::Write => remount(dst, 0),
            }
        }
        // Best effort: a mount whose flags the kernel keeps as they are
        // stays so.
        Step::Submount(path) => {
            let _ = read_only(path);
            Ok(())
        }
        Step::Tmpfs { dst, data } => ok(libc::mount(
            c"tmpfs".as_ptr(),
            dst.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            data.as_ptr().cast(),
        )),
        Step::Proc(path) => ok(libc::mount(
            c"proc".as_ptr(),
            path.as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            std::ptr::null(),
        )),
        Step::ReadOnly(path) => read_only(path),
        Step::Chmod(path, mode) => ok(libc::chmod(path.as_ptr(), *mode)),
        Step::Detach(path) => {
            ok(libc::umount2(path.as_ptr(), libc::MNT_DETACH))?;
            ok(libc::rmdir(path.as_ptr()))
        }
    }
}

/// Calls `each` with the name of every regular file at the top of the
/// folder `dir` (read from its start), without allocating.
unsafe fn each_file(dir: c_int, each: &mut dyn FnMut(&CStr)) {
    let mut buf = [0u8; 4096];
    libc::lseek(dir, 0, libc::SEEK_SET);
    loop {
        let n = libc::syscall(
            libc::SYS_getdents64,
            dir,
            buf.as_mut_ptr(),
            buf.len() as c_ulong,
        );
        if n <= 0 {
            return;
        }
        let mut at = 0usize;
        while at + 19 < n as usize {
            // struct linux_dirent64: ino (8), off (8), reclen (2), type
            // (1), the name NUL-terminated.
            let reclen = u16::from_ne_bytes([buf[at + 16], buf[at + 17]]) as usize;
            if reclen == 0 {
                return;
            }
            let name = CStr::from_ptr(buf.as_ptr().add(at + 19).cast());
            let mut st: libc::stat = std::mem::zeroed();
            let regular = name.to_bytes() != b"."
                && name.to_bytes() != b".."
                && libc::fstatat(dir, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) == 0
                && st.st_mode & libc::S_IFMT == libc::S_IFREG;
            if regular {
                each(name);
            }
            at += reclen;
        }
    }
}

/// Removes the regular files at the top of `dir`.
unsafe fn remove_files(dir: c_int) {
    // Names are gathered a buffer at a time, so removing them does not
    // change what is still to be read: each pass removes what it saw,
    // until a pass sees none.
    loop {
        let mut removed = 0;
        each_file(dir, &mut |name| {
            if libc::unlinkat(dir, name.as_ptr(), 0) == 0 {
                removed += 1;
            }
        });
        if removed == 0 {
            return;
        }
    }
}

/// Copies the regular files at the top of `from` into `to`, at most
/// `cap(name)` bytes of each, owned by `owner` when given. A file that
/// cannot be read or written is left out.
unsafe fn copy_files(
    from: c_int,
    to: c_int,
    cap: &dyn Fn(&CStr) -> u64,
    owner: Option<(u32, u32)>,
) {
    each_file(from, &mut |name| {
        let src = libc::openat(
            from,
            name.as_ptr(),
            libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC,
        );
        if src < 0 {
            return;
        }
        let dst = libc::openat(
            to,
            name.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            0o644 as libc::c_uint,
        );
        if dst >= 0 {
            if let Some((uid, gid)) = owner {
                libc::fchown(dst, uid, gid);
            }
            let mut left = cap(name);
            let mut buf = [0u8; 16 << 10];
            while left > 0 {
                let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
                let n = libc::read(src, buf.as_mut_ptr().cast(), want);
                if n <= 0 || libc::write(dst, buf.as_ptr().cast(), n as usize) != n {
                    break;
                }
                left -= n as u64;
            }
            libc::close(dst);
        }
        libc::close(src);
    });
}

unsafe fn read_only(path: &CStr) -> Result<(), c_int> {
    remount(path, libc::MS_RDONLY)
}

/// Remounts the mount at `path` `nosuid`, `nodev` and with `extra`,
/// keeping the flags it has that a user namespace may not drop.
unsafe fn remount(path: &CStr, extra: c_ulong) -> Result<(), c_int> {
    // glibc's statvfs takes the flags from statfs (kernels since 2.6.36).
    let mut fs: libc::statvfs = std::mem::zeroed();
    if libc::statvfs(path.as_ptr(), &mut fs) != 0 {
        return Err(errno());
    }
    let has = |flag: c_ulong| (fs.f_flag as c_ulong) & flag != 0;
    let mut flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_NOSUID | libc::MS_NODEV | extra;
    for (st, ms) in [
        (libc::ST_RDONLY, libc::MS_RDONLY),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ] {
        if has(st as c_ulong) {
            flags |= ms;
        }
    }
    let none: *const c_char = std::ptr::null();
    if libc::mount(none, path.as_ptr(), none, flags, std::ptr::null()) != 0 {
        return Err(errno());
    }
    Ok(())
}

/// Brings up the namespace's own loopback, for programs that talk to
/// themselves through it (a failure only leaves it down).
unsafe fn loopback_up() {
    #[repr(C)]
    struct IfReq {
        name: [u8; 16],
        flags: libc::c_short,
        pad: [u8; 22],
    }
    let fd = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
    if fd < 0 {
        return;
    }
    let mut req = IfReq {
        name: [0; 16],
        flags: 0,
        pad: [0; 22],
    };
    req.name[..2].copy_from_slice(b"lo");
    if libc::ioctl(fd, libc::SIOCGIFFLAGS as _, &mut req) == 0 {
        req.flags |= (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
        libc::ioctl(fd, libc::SIOCSIFFLAGS as _, &req);
    }
    libc::close(fd);
}

/// Closes every descriptor but the standard three and `keep`.
unsafe fn close_others(keep: &[c_int; 5]) {
    let mut sorted = *keep;
    sorted.sort_unstable();
    let mut low: c_int = 3;
    for &fd in &sorted {
        if fd < low {
            continue;
        }
        if fd > low {
            close_range(low, fd - 1);
        }
        low = fd + 1;
    }
    close_range(low, c_int::MAX);
}

unsafe fn close_range(first: c_int, last: c_int) {
    if libc::syscall(libc::SYS_close_range, first as u32, last as u32, 0u32) == 0 {
        return;
    }
    // Kernels before 5.9: one by one, up to the descriptor limit.
    let mut limit: libc::rlimit = std::mem::zeroed();
    libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
    let top = (limit.rlim_cur.min(1 << 20) as c_int).min(last);
    for fd in first..=top {
        libc::close(fd);
    }
}

fn errno() -> c_int {
    io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

/// Ends the process, reporting `stage` failed with `code`, if `r` is
/// negative.
unsafe fn check(ch: &Child, stage: Stage, r: c_int) {
    if r < 0 {
        fail(ch, stage, errno());
    }
}

unsafe fn fail(ch: &Child, stage: Stage, code: c_int) -> ! {
    report(ch, [SETUP_FAILED, stage.code(), code as u32]);
    libc::_exit(127);
}

unsafe fn report(ch: &Child, words: [u32; 3]) {
    let mut bytes = [0u8; 12];
    for (i, w) in words.iter().enumerate() {
        bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_ne_bytes());
    }
    libc::write(ch.status, bytes.as_ptr().cast(), bytes.len());
}
