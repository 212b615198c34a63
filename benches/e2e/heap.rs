//! The global allocator of the benches and of the soak test: the bot binary's own (mimalloc,
//! see `src/main.rs`), wrapped to count the bytes the Rust heap holds, so that the memory
//! figures and the CPU the allocator costs are the binary's. SQLite's own C heap is not
//! counted.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicIsize, Ordering};

use mimalloc::MiMalloc;

/// Counts the bytes live in the Rust heap.
pub struct Counting;

static HEAP: AtomicIsize = AtomicIsize::new(0);

/// Bytes the Rust heap holds now.
pub fn heap_bytes() -> isize {
    HEAP.load(Ordering::Relaxed)
}

// SAFETY: every call is passed to the binary's allocator unchanged; only a counter is kept,
// and only for calls that succeeded.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the allocator's.
        let p = unsafe { MiMalloc.alloc(layout) };
        if !p.is_null() {
            HEAP.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { MiMalloc.dealloc(ptr, layout) };
        HEAP.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }

    // Forwarded rather than left to the default (alloc, then zero): mimalloc hands out fresh
    // pages already zeroed.
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            HEAP.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `alloc` with `layout`.
        let p = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            HEAP.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        p
    }
}
