//! A global allocator that maps large blocks, the transposition tables,
//! from the kernel directly: [`Mapped`], around whatever allocator serves
//! the rest (the command's, the Python module's).
//!
//! Blocks of 32 MiB or more are mapped with huge pages asked for, and
//! unmapped when freed: a table freed goes back to the system at once, and
//! a new one asked for zeroed (the compact search's) is fresh zero pages,
//! touched as the search uses them. Through an allocator, a freed table
//! was kept for reuse and the next one zeroed by hand, every page at once:
//! `serve` stopping a search of a 256 MiB table and starting others peaked
//! at 444 MiB resident against a 256 MiB table budget
//! (`scripts/throughput.sh`, `profiles/2026-12-02-vm/throughput.txt`), and
//! in Python a second time-limited `analyse` spent its first seconds
//! zeroing the 1 GiB table the first had freed, and answered at depth 1.

use std::alloc::{GlobalAlloc, Layout};

/// `A`, but for blocks of 32 MiB or more, which are mappings of their own.
///
/// ```
/// use stakeraid::mapped::Mapped;
/// #[global_allocator]
/// static GLOBAL: Mapped<std::alloc::System> = Mapped(std::alloc::System);
/// ```
pub struct Mapped<A>(pub A);

/// The size from which blocks are mapped directly.
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

// SAFETY: a block of a mapped layout (by its size, which its free and
// resize repeat) is a mapping of its own, made and unmapped here; every
// other call goes to `A`, which upholds GlobalAlloc's contract; a mapping
// is page-aligned and zero.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Mapped<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if mapped(layout) {
            map(layout.size())
        } else {
            self.0.alloc(layout)
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if mapped(layout) {
            map(layout.size())
        } else {
            self.0.alloc_zeroed(layout)
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if mapped(layout) {
            libc::munmap(ptr.cast(), layout.size());
        } else {
            self.0.dealloc(ptr, layout)
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
        } else {
            self.0.realloc(ptr, layout, new_size)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_blocks_are_mapped_zeroed_and_move_across_the_line() {
        let a = Mapped(std::alloc::System);
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
        let p = unsafe { Mapped(std::alloc::System).alloc_zeroed(huge) };
        assert!(p.is_null(), "a 64 TiB block was handed out");
    }
}
