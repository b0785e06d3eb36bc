//! Giving freed memory back to the system. glibc's allocator keeps what a large job freed (an
//! ingestion's extraction batches, the index writers' buffers) for later use, so a server that
//! ingested a corpus stays at its peak for good; after such a job it is returned at once.

/// Returns the heap's free memory to the system (glibc on Linux; elsewhere nothing to do).
pub(crate) fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free heap pages; it touches no live allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}
