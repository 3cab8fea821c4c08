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
//! Blocks of 32 MiB or more (the transposition tables) are mapped from the
//! kernel directly, with huge pages asked for, and unmapped when freed,
//! whichever allocator serves the rest: a table freed goes back to the
//! system at once, and a new one asked for zeroed (the compact search's) is
//! fresh zero pages, touched as the search uses them. Through an allocator,
//! a freed table was kept for reuse and the next one zeroed by hand, every
//! page at once: `serve` stopping a search of a 256 MiB table and starting
//! others peaked at 444 MiB resident against a 256 MiB table budget
//! (`scripts/throughput.sh`, `profiles/2026-12-02-vm/throughput.txt`).
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

/// The size from which blocks are mapped directly (see the module's text).
const MAPPED: usize = 32 << 20;

/// Whether a block of `layout` is mapped directly: large, and aligned no
/// more than a page, as a mapping is.
#[inline]
fn mapped(layout: Layout) -> bool {
    layout.size() >= MAPPED && layout.align() <= 4096
}

/// A fresh mapping of `size` zero bytes, huge pages asked for; null if
/// the memory is not there.
unsafe fn map(size: usize) -> *mut u8 {
    let ptr = libc::mmap(
        std::ptr::null_mut(),
        size,
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
        -1,
        0,
    );
    if ptr == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    // Only advice: without huge pages the block works the same, slower.
    libc::madvise(ptr, size, libc::MADV_HUGEPAGE);
    ptr.cast()
}

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

// SAFETY: a block of a mapped layout (by its size, which its free and
// resize repeat) is a mapping of its own, made and unmapped here; every
// other call goes to the allocator latched by the first one, which never
// changes, so each block is freed, grown or shrunk by what made it; both
// allocators uphold GlobalAlloc's contract, and a mapping is page-aligned
// and zero.
unsafe impl GlobalAlloc for Chosen {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if mapped(layout) {
            map(layout.size())
        } else if Self::system() {
            System.alloc(layout)
        } else {
            mimalloc::MiMalloc.alloc(layout)
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if mapped(layout) {
            map(layout.size())
        } else if Self::system() {
            System.alloc_zeroed(layout)
        } else {
            mimalloc::MiMalloc.alloc_zeroed(layout)
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if mapped(layout) {
            libc::munmap(ptr.cast(), layout.size());
        } else if Self::system() {
            System.dealloc(ptr, layout)
        } else {
            mimalloc::MiMalloc.dealloc(ptr, layout)
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        if mapped(layout) || mapped(new_layout) {
            // Across the line, or a mapping: moved, as GlobalAlloc's own
            // realloc does.
            let new = self.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        } else if Self::system() {
            System.realloc(ptr, layout, new_size)
        } else {
            mimalloc::MiMalloc.realloc(ptr, layout, new_size)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_blocks_are_mapped_zeroed_and_move_across_the_line() {
        let a = Chosen;
        unsafe {
            let big = Layout::from_size_align(MAPPED, 64).unwrap();
            let p = a.alloc_zeroed(big);
            assert!(!p.is_null());
            assert!((0..MAPPED).step_by(4093).all(|i| *p.add(i) == 0));
            *p.add(7) = 42;
            // Shrunk below the line: moved to the allocator, contents kept.
            let q = a.realloc(p, big, 4096);
            assert_eq!(*q.add(7), 42);
            let small = Layout::from_size_align(4096, 64).unwrap();
            // Grown past it: mapped again.
            let r = a.realloc(q, small, MAPPED * 2);
            assert_eq!(*r.add(7), 42);
            a.dealloc(r, Layout::from_size_align(MAPPED * 2, 64).unwrap());
        }
    }

    #[test]
    fn a_block_beyond_the_memory_there_is_refused() {
        // Where the kernel is told to grant every mapping, none is refused.
        let policy = std::fs::read_to_string("/proc/sys/vm/overcommit_memory");
        if policy.is_ok_and(|p| p.trim() == "1") {
            eprintln!("skipped: vm.overcommit_memory is 1, every mapping granted");
            return;
        }
        // 64 TiB: more than any test machine's memory and swap, within
        // its address space.
        let huge = Layout::from_size_align(1 << 46, 64).unwrap();
        let p = unsafe { Chosen.alloc_zeroed(huge) };
        assert!(p.is_null(), "a 64 TiB block was handed out");
    }
}
