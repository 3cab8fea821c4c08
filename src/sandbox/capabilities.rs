//! What the probe found this machine allows: the namespaces a run gets
//! and what bounds its memory and processes. Apart from the probe, so that
//! the layout and the spawn read it without depending on how it is found.

use super::cgroup;

/// What bounds a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Limiter {
    /// A cgroup of the run: the kernel kills (memory) or refuses a fork
    /// (processes) at the limit, and says so.
    Cgroup,
    /// A resource limit on each process: allocations or forks past it
    /// fail, and the program reports it as it will.
    Rlimit,
    /// Nothing.
    None,
}

/// Why a protection is missing on this machine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Unavailable {
    /// The sandbox is made of Linux's namespaces.
    #[cfg_attr(target_os = "linux", allow(dead_code))]
    #[error("not Linux")]
    NotLinux,
    /// A step of the first sandboxed run was refused.
    #[error("{what} refused: {}", errno_text(*.errno))]
    Refused {
        /// The step, in a few words.
        what: String,
        /// The system's error number.
        errno: i32,
    },
    /// A fresh `/proc` could not be mounted.
    #[error("mounting proc refused ({})", errno_text(*.errno))]
    Proc {
        /// The system's error number.
        errno: i32,
    },
    /// Without a user namespace, `RLIMIT_NPROC` counts every process of
    /// the user.
    #[error("without a user namespace a process limit would count all of the user's")]
    NoUserNamespace,
    /// No pids cgroup, and `RLIMIT_NPROC` would count every process of
    /// the user on this kernel.
    #[error(
        "no writable pids cgroup, and this kernel is older than {}.{}, whose \
         RLIMIT_NPROC would count every process of the user",
        .0 .0,
        .0 .1
    )]
    OldKernel((u32, u32)),
}

/// The system's words for an error number.
pub(crate) fn errno_text(errno: i32) -> String {
    std::io::Error::from_raw_os_error(errno).to_string()
}

/// How runs are boxed on this machine.
#[derive(Clone, Debug)]
pub(crate) struct Capabilities {
    /// The namespaces, or why there are none.
    pub(crate) ns: Result<Namespaces, Unavailable>,
    /// What bounds memory.
    pub(crate) memory: Limiter,
    /// What bounds processes, and why nothing does when nothing does.
    pub(crate) processes: Limiter,
    /// Why processes are not bounded, when they are not.
    pub(crate) processes_missing: Option<Unavailable>,
    /// The cgroups the runs' own go under.
    pub(crate) cgroups: cgroup::Parents,
}

/// How the namespaces of a run are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Namespaces {
    /// A user namespace is made too (without one, only root can make the
    /// others).
    pub(crate) user: bool,
    /// The grader runs as root: the program then runs as `nobody`, since
    /// root's processes are neither counted by `RLIMIT_NPROC` nor kept out
    /// of files by their permissions.
    pub(crate) as_root: bool,
    /// A fresh `/proc` of the run's PID namespace can be mounted.
    pub(crate) proc: Result<(), Unavailable>,
}

impl Namespaces {
    /// The user and group ids the program runs as, outside its namespace.
    pub(crate) fn program_ids(&self) -> (u32, u32) {
        if self.as_root {
            (NOBODY, NOBODY)
        } else {
            // SAFETY: plain system calls without arguments.
            unsafe { (libc::getuid(), libc::getgid()) }
        }
    }
}

/// The user and group `nobody` (and `nogroup`).
pub(crate) const NOBODY: u32 = 65534;
