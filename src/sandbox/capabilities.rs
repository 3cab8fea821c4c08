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

/// How runs are boxed on this machine.
#[derive(Clone, Debug)]
pub(crate) struct Capabilities {
    /// The namespaces, or why there are none.
    pub(crate) ns: Result<Namespaces, String>,
    /// What bounds memory.
    pub(crate) memory: Limiter,
    /// What bounds processes, and why nothing does when nothing does.
    pub(crate) processes: Limiter,
    /// Why processes are not bounded, when they are not.
    pub(crate) processes_missing: Option<String>,
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
    pub(crate) proc: Result<(), String>,
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
