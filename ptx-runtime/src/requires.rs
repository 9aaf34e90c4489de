//! `#pragma omp requires` and the policy for pointers used in a target region without a map.
//!
//! Clang 19 no longer calls `__tgt_register_requires` from a constructor: it emits the flags as an
//! offload entry (flags `OMP_REGISTER_REQUIRES`, the requirement bits in the `data` field) in the
//! `omp_offloading_entries` section, which libomptarget's linker wrapper reads. ptxcc links no
//! wrapper, so the runtime reads that section itself through the linker-defined
//! `__start_`/`__stop_` symbols. `__tgt_register_requires` is still honoured (older compilers,
//! hand-written callers).

use crate::errors::warn;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::OnceLock;

/// `OMP_REQ_*` bits (libomptarget's `omp_requires_flags`).
pub const REQ_REVERSE_OFFLOAD: i64 = 0x2;
pub const REQ_UNIFIED_ADDRESS: i64 = 0x4;
pub const REQ_UNIFIED_SHARED_MEMORY: i64 = 0x8;
pub const REQ_DYNAMIC_ALLOCATORS: i64 = 0x10;

/// `OMP_REGISTER_REQUIRES` in `__tgt_offload_entry::flags`.
const ENTRY_REGISTER_REQUIRES: i32 = 0x10;

/// clang 19's `__tgt_offload_entry`: `{ ptr addr, ptr name, i64 size, i32 flags, i32 data }`.
#[repr(C)]
struct OffloadEntry {
    addr: *const u8,
    name: *const u8,
    size: u64,
    flags: i32,
    data: i32,
}

/// One all-zero entry of our own in the section, so that it exists in every executable that
/// links libptxrt (the linker then always defines `__start_`/`__stop_`). Flags 0: nobody acts on it.
#[link_section = "omp_offloading_entries"]
#[used]
static EMPTY_ENTRY: [u8; 32] = [0; 32];

extern "C" {
    static __start_omp_offloading_entries: u8;
    static __stop_omp_offloading_entries: u8;
}

/// Flags from `__tgt_register_requires` calls.
static REGISTERED: AtomicI64 = AtomicI64::new(0);

/// Records flags passed to `__tgt_register_requires`.
pub fn register(flags: i64) {
    REGISTERED.fetch_or(flags, Ordering::SeqCst);
}

/// The requirement bits of every `requires` entry linked into the executable.
fn from_entries() -> i64 {
    static FLAGS: OnceLock<i64> = OnceLock::new();
    *FLAGS.get_or_init(|| {
        // SAFETY: the linker defines both symbols around the section, which holds whole entries
        // (clang emits them with alignment 1 and size 32, so they are packed; so is ours).
        unsafe {
            // Keep our entry (and so the section) alive and referenced from this object.
            let _ = std::ptr::read_volatile(EMPTY_ENTRY.as_ptr());
            let start = std::ptr::addr_of!(__start_omp_offloading_entries) as usize;
            let stop = std::ptr::addr_of!(__stop_omp_offloading_entries) as usize;
            let size = std::mem::size_of::<OffloadEntry>();
            if stop <= start || !(stop - start).is_multiple_of(size) {
                return 0;
            }
            let mut flags = 0i64;
            let mut p = start;
            while p < stop {
                let e = std::ptr::read_unaligned(p as *const OffloadEntry);
                if e.flags & ENTRY_REGISTER_REQUIRES != 0 && e.addr.is_null() {
                    flags |= e.data as i64;
                }
                p += size;
            }
            flags
        }
    })
}

/// Every requirement the program declared.
pub fn flags() -> i64 {
    REGISTERED.load(Ordering::SeqCst) | from_entries()
}

pub fn unified_shared_memory() -> bool {
    flags() & REQ_UNIFIED_SHARED_MEMORY != 0
}

/// What to do with a pointer used in a target region (an implicit zero-length map) whose target
/// is not mapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnmappedPointers {
    /// Report it and exit (the default: on separate device memory the host address is useless).
    Error,
    /// Pass the host address (OpenMP 5.1+: the pointer keeps its original value).
    Pass,
}

impl UnmappedPointers {
    pub fn parse(v: Option<&str>) -> Result<Option<UnmappedPointers>, String> {
        match v.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
            None | Some("") => Ok(None),
            Some("error") | Some("0") => Ok(Some(UnmappedPointers::Error)),
            Some("pass") | Some("1") => Ok(Some(UnmappedPointers::Pass)),
            Some(other) => Err(format!(
                "PTXRT_UNMAPPED_POINTERS={other:?} is not 'error' or 'pass'; using 'error' unless the program \
                 requires unified_shared_memory"
            )),
        }
    }
}

/// PTXRT_UNMAPPED_POINTERS, else `pass` under `requires unified_shared_memory`, else `error`.
pub fn unmapped_pointers() -> UnmappedPointers {
    static ENV: OnceLock<Option<UnmappedPointers>> = OnceLock::new();
    let env = *ENV.get_or_init(|| {
        UnmappedPointers::parse(std::env::var("PTXRT_UNMAPPED_POINTERS").ok().as_deref())
            .unwrap_or_else(|e| {
                warn(&e);
                None
            })
    });
    match env {
        Some(p) => p,
        None if unified_shared_memory() => UnmappedPointers::Pass,
        None => UnmappedPointers::Error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn policy_values() {
        assert_eq!(UnmappedPointers::parse(None), Ok(None));
        assert_eq!(
            UnmappedPointers::parse(Some(" PASS ")),
            Ok(Some(UnmappedPointers::Pass))
        );
        assert_eq!(
            UnmappedPointers::parse(Some("error")),
            Ok(Some(UnmappedPointers::Error))
        );
        assert!(UnmappedPointers::parse(Some("maybe")).is_err());
    }

    #[test]
    fn section_scan_sees_only_our_empty_entry_in_unit_tests() {
        // The unit-test binary has no clang entries: only EMPTY_ENTRY, which requires nothing.
        assert_eq!(from_entries() & REQ_UNIFIED_SHARED_MEMORY, 0);
    }
}
