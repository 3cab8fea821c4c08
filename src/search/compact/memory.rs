//! The table's memory: zeroed by the kernel, and on Linux asked for in huge
//! pages.
//!
//! A deep solve's table is hundreds of MiB read at random, so with 4 KiB
//! pages nearly every probe also misses the TLB, and under a hypervisor a
//! TLB miss walks two page tables. Linux hands out 2 MiB pages for memory
//! advised with `MADV_HUGEPAGE` (the default "transparent huge pages"
//! setting, `madvise`, gives them to no one else): a 256 MiB table is then
//! 128 TLB entries. The mapping is aligned to 2 MiB so that all of it can
//! be huge. Whether the kernel gave huge pages shows as `AnonHugePages` in
//! `/proc/PID/smaps`; if it gives none the table works the same, slower.
//! Pages are still only backed, and zeroed, when first touched.

use std::ops::Deref;
use std::ptr::NonNull;

/// Tables of whole huge pages are mapped in them (tables come in powers of
/// two; smaller ones come from the allocator, which serves them as well).
const HUGE_PAGE: usize = 2 << 20;

/// `count` zeroed values of `T`, on their own pages when large.
pub(super) struct Zeroed<T> {
    ptr: NonNull<T>,
    count: usize,
    /// Whether the memory is a mapping of its own (else the allocator's).
    mapped: bool,
}

// SAFETY: `Zeroed` owns its values as a `Box<[T]>` would.
unsafe impl<T: Send> Send for Zeroed<T> {}
// SAFETY: as above; shared access gives only `&[T]`.
unsafe impl<T: Sync> Sync for Zeroed<T> {}

impl<T> Zeroed<T> {
    /// `count` values of `T` (at least one), all bits zero; `None` if the
    /// memory is not there.
    ///
    /// # Safety
    /// All-zero bits must be a valid `T`.
    pub(super) unsafe fn new(count: usize) -> Option<Zeroed<T>> {
        let layout = std::alloc::Layout::array::<T>(count).ok()?;
        assert!(layout.size() > 0, "a table of no memory");
        #[cfg(target_os = "linux")]
        if layout.size().is_multiple_of(HUGE_PAGE) && layout.align() <= HUGE_PAGE {
            let ptr = map_huge(layout.size())?;
            return Some(Zeroed {
                ptr: ptr.cast(),
                count,
                mapped: true,
            });
        }
        // SAFETY: the layout has a non-zero size.
        let ptr = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        Some(Zeroed {
            ptr: ptr.cast(),
            count,
            mapped: false,
        })
    }
}

impl<T> Deref for Zeroed<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `count` values, zeroed (valid by `new`'s contract), live
        // as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.count) }
    }
}

impl<T> Drop for Zeroed<T> {
    fn drop(&mut self) {
        // Only tables of atomics are made: nothing to drop in place.
        let layout = std::alloc::Layout::array::<T>(self.count).expect("made with this layout");
        if self.mapped {
            #[cfg(target_os = "linux")]
            // SAFETY: the mapping `map_huge` made, of this size, unmapped once.
            unsafe {
                libc::munmap(self.ptr.as_ptr().cast(), layout.size());
            }
        } else {
            // SAFETY: allocated by `alloc_zeroed` with this layout.
            unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), layout) };
        }
    }
}

/// `bytes` (a multiple of [`HUGE_PAGE`]) of fresh anonymous memory starting
/// on a huge page, advised to be backed by huge pages; `None` if the kernel
/// refuses the mapping.
#[cfg(target_os = "linux")]
fn map_huge(bytes: usize) -> Option<NonNull<u8>> {
    // Map one huge page more than needed, then give back the ends that lie
    // outside the aligned span (never touched, so never backed).
    let span = bytes.checked_add(HUGE_PAGE)?;
    // SAFETY: a fresh private anonymous mapping; no existing memory is named.
    let raw = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            span,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return None;
    }
    let raw = raw as usize;
    let start = raw.next_multiple_of(HUGE_PAGE);
    let (head, tail) = (start - raw, raw + span - (start + bytes));
    // SAFETY: both ranges lie inside the mapping just made, outside
    // `start..start + bytes`, and are page-aligned (mmap's address is, and
    // `start` and `bytes` are multiples of `HUGE_PAGE`).
    unsafe {
        if head > 0 {
            libc::munmap(raw as *mut libc::c_void, head);
        }
        if tail > 0 {
            libc::munmap((start + bytes) as *mut libc::c_void, tail);
        }
        // A refusal (no THP in this kernel) leaves small pages: still zeroed.
        libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
    }
    NonNull::new(start as *mut u8)
}
