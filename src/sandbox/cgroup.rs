//! A cgroup of each run, under the grader's own, where cgroup v1's memory
//! and pids controllers are mounted and writable (as root on most Linux
//! machines with cgroup v1): the kernel then holds the whole run to its
//! memory (killing it past the limit, and counting the kill) and to its
//! number of processes (refusing the fork past it, and counting that).
//!
//! cgroup v2 is not used: a cgroup of its own under the grader's needs the
//! controllers enabled in the grader's cgroup, which v2 allows only for a
//! cgroup without processes of its own, and the grader is in it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::LimitHit;

/// The grader's own cgroups, under which the runs' are made.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parents {
    /// The memory controller's, if writable.
    pub(crate) memory: Option<PathBuf>,
    /// The pids controller's, if writable.
    pub(crate) pids: Option<PathBuf>,
}

impl Parents {
    /// The grader's cgroups of each controller, kept where a child cgroup
    /// can be made in them.
    pub(crate) fn find() -> Parents {
        let own = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let mounts = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
        Parents {
            memory: parent(&own, &mounts, "memory").filter(|p| writable(p)),
            pids: parent(&own, &mounts, "pids").filter(|p| writable(p)),
        }
    }
}

/// The folder of this process's cgroup v1 of `controller`, from
/// `/proc/self/cgroup` (`4:memory:/path`) and the mount table.
fn parent(own: &str, mounts: &str, controller: &str) -> Option<PathBuf> {
    let path = own.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
        names.split(',').any(|n| n == controller).then_some(path)
    })?;
    mounts.lines().find_map(|line| {
        // id parent major:minor root mount-point options ... - type source super-options
        let (left, right) = line.split_once(" - ")?;
        let fields: Vec<&str> = left.split(' ').collect();
        let mut right = right.split(' ');
        let (kind, _, options) = (right.next()?, right.next()?, right.next()?);
        if kind != "cgroup" || !options.split(',').any(|o| o == controller) {
            return None;
        }
        let (root, point) = (fields.get(3)?, fields.get(4)?);
        let inside = path.strip_prefix(root.trim_end_matches('/'))?;
        Some(Path::new(point).join(inside.trim_start_matches('/')))
    })
}

/// True when a cgroup can be made (and removed) in `dir`.
fn writable(dir: &Path) -> bool {
    let test = dir.join(format!("stakeraid-probe-{}", std::process::id()));
    let made = fs::create_dir(&test).is_ok();
    made && fs::remove_dir(&test).is_ok()
}

/// A run's cgroups, removed when dropped.
#[derive(Debug)]
pub(crate) struct RunCgroups {
    memory: Option<(PathBuf, u64)>,
    pids: Option<(PathBuf, u32)>,
}

impl RunCgroups {
    /// New cgroups under `parents` holding a run to `memory_mb` MiB and
    /// `processes` processes and threads (one more for the run's init).
    pub(crate) fn new(parents: &Parents, memory_mb: u64, processes: u32) -> io::Result<RunCgroups> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "stakeraid-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut made = RunCgroups {
            memory: None,
            pids: None,
        };
        if let Some(parent) = &parents.memory {
            let dir = parent.join(&name);
            fs::create_dir(&dir)?;
            made.memory = Some((dir.clone(), memory_mb));
            let bytes = (memory_mb << 20).to_string();
            fs::write(dir.join("memory.limit_in_bytes"), &bytes)?;
            // Without it the run could go on in swap; absent where the
            // kernel does not account swap.
            let swap = dir.join("memory.memsw.limit_in_bytes");
            if swap.exists() {
                fs::write(swap, &bytes)?;
            }
        }
        if let Some(parent) = &parents.pids {
            let dir = parent.join(&name);
            fs::create_dir(&dir)?;
            made.pids = Some((dir.clone(), processes));
            fs::write(dir.join("pids.max"), (u64::from(processes) + 1).to_string())?;
        }
        Ok(made)
    }

    /// Puts process `pid` (and so everything it will start) in them.
    pub(crate) fn add(&self, pid: libc::pid_t) -> io::Result<()> {
        for dir in self.dirs() {
            fs::write(dir.join("cgroup.procs"), pid.to_string())?;
        }
        Ok(())
    }

    /// The limit the run went past, as the kernel counted: a kill by the
    /// memory controller, or a fork the pids controller refused.
    pub(crate) fn hit(&self) -> Option<LimitHit> {
        let count = |file: PathBuf, key: &str| {
            let text = fs::read_to_string(file).unwrap_or_default();
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        if let Some((dir, mb)) = &self.memory {
            if count(dir.join("memory.oom_control"), "oom_kill ") > 0 {
                return Some(LimitHit::Memory { mb: *mb });
            }
        }
        if let Some((dir, max)) = &self.pids {
            if count(dir.join("pids.events"), "max ") > 0 {
                return Some(LimitHit::Processes { max: *max });
            }
        }
        None
    }

    fn dirs(&self) -> impl Iterator<Item = &PathBuf> {
        self.memory
            .iter()
            .map(|(d, _)| d)
            .chain(self.pids.iter().map(|(d, _)| d))
    }
}

impl Drop for RunCgroups {
    fn drop(&mut self) {
        for dir in self.dirs() {
            // The run's processes are all reaped by now; a cgroup whose
            // last one is still being torn down refuses for a moment.
            for _ in 0..200 {
                if fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_controllers_folder_comes_from_the_mount_table() {
        let own = "5:devices:/\n4:memory:/process_api/abc\n8:pids:/\n0::/\n";
        let mounts = "\
35 24 0:30 / /sys/fs/cgroup/memory rw,relatime shared:12 - cgroup cgroup rw,memory
36 24 0:31 / /sys/fs/cgroup/pids rw,relatime shared:13 - cgroup cgroup rw,pids
37 24 0:32 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
        assert_eq!(
            parent(own, mounts, "memory"),
            Some(PathBuf::from("/sys/fs/cgroup/memory/process_api/abc"))
        );
        assert_eq!(
            parent(own, mounts, "pids"),
            Some(PathBuf::from("/sys/fs/cgroup/pids"))
        );
        assert_eq!(parent(own, mounts, "cpu"), None);
    }
}
