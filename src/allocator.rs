//! The global allocator: the system's for the run with no arguments (the
//! way a grader and a tournament run the program, one process per answer
//! or move), mimalloc for every command.
//!
//! Why two: a tournament charges each move the whole process's CPU time,
//! start-up included, and with a few hundredths of a second left start-up
//! is most of the move. Measured on the 2-core VM
//! (`profiles/2026-11-26-vm/startup.txt`), a move with no time to search
//! costs 1.74 ms of CPU with mimalloc and 1.53 ms with the system
//! allocator (medians of 1000 runs; `/bin/true`: 0.50 ms): mimalloc's
//! start (its options read from the environment, a 1 GiB arena reserved
//! and advised for huge pages, two 2 MiB pages zeroed) is a fifth of such
//! a move, and its rare stalls (16 ms, about one run in 500) are what a
//! tiny budget cannot absorb.
//! Searches lose nothing by it there: a one-thread COMPETITION search on
//! 8x8 costs the same, on 26x26 the same nodes cost 0.9 s of CPU with the
//! system allocator against 0.9 s or 1.7 s with mimalloc, and a two-thread
//! exact solve 0.97 s against 0.98 s. The commands keep mimalloc, whose
//! per-thread heaps serve the match driver's and the servers' threads.
//!
//! Either way, the tables are mapped directly (`stakeraid::mapped`, which
//! `main.rs` wraps around this one).
//!
//! The choice is made once, before the first allocation: glibc hands the
//! program's arguments to the functions of `.init_array`, which run before
//! `main` and before the Rust runtime allocates, and the first allocation
//! latches whatever was chosen by then (mimalloc when nothing was), so a
//! block is always freed by the allocator that made it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Not chosen yet: the next allocation latches [`WANTED`].
const OPEN: u8 = 0;
/// mimalloc, for good.
const MIMALLOC: u8 = 1;
/// The system allocator, for good.
const SYSTEM: u8 = 2;

/// What the arguments asked for, before the first allocation.
static WANTED: AtomicU8 = AtomicU8::new(MIMALLOC);
/// The allocator in use once the first allocation is made.
static CHOSEN: AtomicU8 = AtomicU8::new(OPEN);

/// Reads the argument count before `main`, as glibc passes it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[link_section = ".init_array"]
static CHOOSE: extern "C" fn(libc::c_int, *const *const u8, *const *const u8) = choose;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" fn choose(argc: libc::c_int, _argv: *const *const u8, _env: *const *const u8) {
    if argc <= 1 {
        WANTED.store(SYSTEM, Relaxed);
    }
}

/// The allocator behind every Rust allocation of the binary.
pub struct Chosen;

impl Chosen {
    /// The allocator in use, latched on the first call.
    #[inline]
    fn system() -> bool {
        match CHOSEN.load(Relaxed) {
            OPEN => {
                let wanted = WANTED.load(Relaxed);
                // Two threads cannot race here (the first allocation comes
                // before any thread is started), but the exchange keeps
                // one answer even so.
                match CHOSEN.compare_exchange(OPEN, wanted, Relaxed, Relaxed) {
                    Ok(_) => wanted == SYSTEM,
                    Err(latched) => latched == SYSTEM,
                }
            }
            latched => latched == SYSTEM,
        }
    }
}

// SAFETY: every call goes to the allocator latched by the first one,
// which never changes, so each block is freed, grown or shrunk by what
// made it; both allocators uphold GlobalAlloc's contract.
unsafe impl GlobalAlloc for Chosen {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if Self::system() {
            System.alloc(layout)
        } else {
            mimalloc::MiMalloc.alloc(layout)
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if Self::system() {
            System.alloc_zeroed(layout)
        } else {
            mimalloc::MiMalloc.alloc_zeroed(layout)
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if Self::system() {
            System.dealloc(ptr, layout)
        } else {
            mimalloc::MiMalloc.dealloc(ptr, layout)
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if Self::system() {
            System.realloc(ptr, layout, new_size)
        } else {
            mimalloc::MiMalloc.realloc(ptr, layout, new_size)
        }
    }
}
