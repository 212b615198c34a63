//! The benches' global allocator: the bot binary's own (mimalloc, see `src/main.rs`), wrapped
//! to count the bytes the Rust heap holds, so that the memory figures and the CPU the
//! allocator costs are the binary's. SQLite's own C heap is not counted.

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

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HEAP.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the binary's allocator.
        unsafe { MiMalloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HEAP.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the binary's allocator.
        unsafe { MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        HEAP.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: forwarded unchanged to the binary's allocator.
        unsafe { MiMalloc.realloc(ptr, layout, new_size) }
    }
}
