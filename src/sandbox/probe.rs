//! What this machine lets the sandbox do, found once per process: whether
//! namespaces can be made (by a first sandboxed run of `exit 0`), whether a
//! fresh `/proc` can be mounted in them, and whether cgroups of the runs
//! can be made to limit memory and processes.

use std::sync::OnceLock;

use super::capabilities::{Capabilities, Limiter, Namespaces, Unavailable};
use super::cgroup;
use super::{Protections, SandboxMode, SandboxSettings};

/// The first kernel whose `RLIMIT_NPROC` counts a user namespace's own
/// processes, not every process of the user.
const NPROC_PER_NAMESPACE: (u32, u32) = (5, 14);

/// The protections of "off".
pub(crate) fn off() -> Protections {
    Protections {
        mode: SandboxMode::Off,
        enforced: Vec::new(),
        missing: Vec::new(),
    }
}

/// This machine's capabilities, found on the first call.
fn found() -> &'static Capabilities {
    static FOUND: OnceLock<Capabilities> = OnceLock::new();
    FOUND.get_or_init(find)
}

/// The capabilities runs with `settings` use; `None` when off.
pub(crate) fn capabilities(settings: &SandboxSettings) -> Option<Capabilities> {
    (settings.mode != SandboxMode::Off).then(|| found().clone())
}

/// What `settings` enforce on this machine.
pub(crate) fn protections(settings: &SandboxSettings) -> Protections {
    let Some(how) = capabilities(settings) else {
        return off();
    };
    let mut enforced = vec![format!(
        "environment: cleared ({} passed)",
        super::environment::passed(&settings.env).len()
    )];
    let mut missing = Vec::new();
    match &how.ns {
        Ok(ns) => {
            enforced.push(
                "files (reads the system and its own program, writes only its case folder, \
                 private /tmp)"
                    .to_owned(),
            );
            enforced.push(format!(
                "disk {} MiB, {} files (one tmpfs: case folder, /tmp, /dev/shm)",
                settings.disk_mb,
                super::DISK_FILES
            ));
            enforced.push("no network (own network namespace)".to_owned());
            enforced.push("own PID namespace (nothing it starts outlives the run)".to_owned());
            if let Err(why) = &ns.proc {
                missing.push(format!("/proc: {why}, so the program sees an empty /proc"));
            }
            if ns.as_root {
                enforced.push("runs as nobody".to_owned());
            }
        }
        Err(why) => {
            missing.push(format!("files, network and processes are not boxed: {why}"));
            missing
                .push("disk: not limited but for each file's size (no mount namespace)".to_owned());
        }
    }
    let by = |l: Limiter| match l {
        Limiter::Cgroup => "cgroup",
        _ => "rlimit",
    };
    match how.memory {
        Limiter::None => missing.push("memory: not limited (not Linux)".to_owned()),
        l => enforced.push(format!("memory {} MiB ({})", settings.memory_mb, by(l))),
    }
    match how.processes {
        Limiter::None => missing.push(format!(
            "processes: not limited ({})",
            how.processes_missing
                .as_ref()
                .map_or_else(|| "no way to count them".to_owned(), ToString::to_string)
        )),
        l => enforced.push(format!("{} processes ({})", settings.processes, by(l))),
    }
    Protections {
        mode: settings.mode,
        enforced,
        missing,
    }
}

#[cfg(target_os = "linux")]
fn find() -> Capabilities {
    let cgroups = cgroup::Parents::find();
    let ns = namespaces();
    let memory = if ns.is_ok() && cgroups.memory.is_some() {
        Limiter::Cgroup
    } else {
        Limiter::Rlimit
    };
    let (processes, processes_missing) = match &ns {
        Err(_) => (Limiter::None, Some(Unavailable::NoUserNamespace)),
        Ok(_) if cgroups.pids.is_some() => (Limiter::Cgroup, None),
        Ok(ns) if !ns.user || kernel_at_least(NPROC_PER_NAMESPACE) => (Limiter::Rlimit, None),
        Ok(_) => (
            Limiter::None,
            Some(Unavailable::OldKernel(NPROC_PER_NAMESPACE)),
        ),
    };
    Capabilities {
        ns,
        memory,
        processes,
        processes_missing,
        cgroups,
    }
}

#[cfg(not(target_os = "linux"))]
fn find() -> Capabilities {
    Capabilities {
        ns: Err(Unavailable::NotLinux),
        memory: Limiter::None,
        processes: Limiter::None,
        processes_missing: Some(Unavailable::NotLinux),
        cgroups: cgroup::Parents::default(),
    }
}

/// Namespaces as this machine allows them: with a user namespace, else
/// (as root) without, and with a fresh `/proc` if it can be mounted.
#[cfg(target_os = "linux")]
fn namespaces() -> Result<Namespaces, Unavailable> {
    // SAFETY: a plain system call without arguments.
    let as_root = unsafe { libc::geteuid() } == 0;
    let mut tries = vec![true];
    if as_root {
        tries.push(false);
    }
    let mut why = None;
    for user in tries {
        let ns = Namespaces {
            user,
            as_root,
            proc: Ok(()),
        };
        match try_run(&ns) {
            Ok(()) => return Ok(ns),
            Err(e) if e.step == Some(super::layout::StepKind::Proc) => {
                let without = Namespaces {
                    proc: Err(Unavailable::Proc { errno: e.errno }),
                    ..ns.clone()
                };
                if try_run(&without).is_ok() {
                    return Ok(without);
                }
            }
            Err(e) => {
                why.get_or_insert(Unavailable::from(e));
            }
        }
    }
    Err(why.unwrap_or(Unavailable::Refused {
        what: "a first sandboxed run".into(),
        errno: libc::EIO,
    }))
}

/// One sandboxed run of `exit 0` in a temporary folder.
#[cfg(target_os = "linux")]
fn try_run(ns: &Namespaces) -> Result<(), super::spawn::SetupError> {
    use super::spawn::{Rlimits, SetupError};
    let settings = SandboxSettings::default();
    let how = Capabilities {
        ns: Ok(ns.clone()),
        memory: Limiter::Rlimit,
        processes: Limiter::None,
        processes_missing: None,
        cgroups: cgroup::Parents::default(),
    };
    let ready = super::Ready {
        layout: super::layout::Layout::new(
            &Default::default(),
            &Default::default(),
            &[],
            &how,
            &settings,
        ),
        how,
        settings,
        shown: Default::default(),
        _staged: None,
    };
    let dir = crate::scratch::Scratch::new("stakeraid-probe-")
        .map_err(|e| SetupError::io("a temporary folder", &e))?;
    let spawned = super::spawn(
        &ready,
        "exit 0",
        dir.path(),
        false,
        false,
        &Rlimits::default(),
    )
    .map_err(|e| SetupError::io("starting the first sandboxed run", &e))?;
    spawned.wait_probe()
}

/// True when the running kernel's version is at least `(major, minor)`.
#[cfg(target_os = "linux")]
fn kernel_at_least(want: (u32, u32)) -> bool {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let mut parts = release
        .trim()
        .split(|c: char| !c.is_ascii_digit())
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let major = parts.next().unwrap_or(0);
    let minor = parts.next().unwrap_or(0);
    (major, minor) >= want
}
