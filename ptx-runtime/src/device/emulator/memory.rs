//! The emulator's device memory: separate host allocations, poisoned when fresh so that a
//! missing host→device transfer shows up as NaN / huge values instead of the right answer.
//!
//! Each allocation is mapped on its own, between two inaccessible guard pages, and placed so
//! that it ends as close to the upper guard page as its 256-byte alignment allows:
//!
//! ```text
//! | guard | ... slack ... | allocation (rounded up to 256 bytes) | guard |
//! ```
//!
//! A kernel that indexes past the end of an array (by more than the rounding) touches the guard
//! page and faults, which `crash.rs` reports with the kernel and its source line, instead of
//! silently overwriting other data of the process.
//!
//! A freed allocation stays reserved and inaccessible while the next `QUARANTINE` frees happen
//! (its pages given back): a kernel that follows a stale device pointer (to a copy the runtime
//! moved or freed) faults the same way, instead of reading whatever a later allocation placed at
//! the same address.

use crate::errors::DeviceError;
use crate::present_table::DevAddr;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;

/// Fresh device memory is filled with this 32-bit word: as a float or a double it is a NaN,
/// as an int32/int64 a huge positive number, as bytes 0xA5.
pub const POISON_WORD: u32 = 0x7FFF_A5A5;

const ALIGN: usize = 256;

/// How many freed mappings stay reserved (inaccessible, no memory behind them) before the
/// oldest is unmapped: each is one mapping of the process's (Linux allows 65 530 by default).
const QUARANTINE: usize = 256;

/// One mapping: the allocation's size, and the mapped span around it.
#[derive(Clone, Copy)]
struct Mapping {
    size: usize,
    base: usize,
    span: usize,
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as usize
    } else {
        4096
    }
}

pub struct EmuMemory {
    allocs: Mutex<BTreeMap<usize, Mapping>>,
    /// Freed mappings, oldest first, kept inaccessible (`QUARANTINE`).
    freed: Mutex<VecDeque<Mapping>>,
    used: Mutex<u64>,
    limit: u64,
}

/// Fills `bytes` bytes at `p` with the poison pattern (aligned to the word at `p`).
///
/// # Safety
/// `p` must be valid for writing `bytes` bytes and 4-byte aligned.
pub unsafe fn poison(p: *mut u8, bytes: usize) {
    let words = std::slice::from_raw_parts_mut(p as *mut u32, bytes / 4);
    words.fill(POISON_WORD);
    let tail = POISON_WORD.to_le_bytes();
    for i in (bytes / 4) * 4..bytes {
        *p.add(i) = tail[i % 4];
    }
}

impl EmuMemory {
    pub fn new(limit: u64) -> EmuMemory {
        EmuMemory {
            allocs: Mutex::new(BTreeMap::new()),
            freed: Mutex::new(VecDeque::new()),
            used: Mutex::new(0),
            limit,
        }
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    pub fn used(&self) -> u64 {
        *self.used.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn alloc(&self, bytes: u64) -> Result<DevAddr, DeviceError> {
        let bytes = bytes.max(1);
        let mut used = self.used.lock().unwrap_or_else(|p| p.into_inner());
        let free = self.limit.saturating_sub(*used);
        if bytes > free || bytes > isize::MAX as u64 / 2 {
            return Err(DeviceError::OutOfMemory {
                requested: bytes,
                free: Some(free),
            });
        }
        let oom = || DeviceError::OutOfMemory {
            requested: bytes,
            free: Some(free),
        };
        let page = page_size();
        let data = (bytes as usize).div_ceil(ALIGN) * ALIGN;
        let span = data.div_ceil(page) * page + 2 * page;
        // SAFETY: an anonymous private mapping; the guard pages are made inaccessible.
        let base = unsafe {
            let b = libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if b == libc::MAP_FAILED {
                return Err(oom());
            }
            libc::mprotect(b, page, libc::PROT_NONE);
            libc::mprotect(
                (b as *mut u8).add(span - page) as *mut libc::c_void,
                page,
                libc::PROT_NONE,
            );
            b as usize
        };
        let p = base + span - page - data;
        // SAFETY: [p, p + bytes) lies in the writable part of the mapping.
        unsafe { poison(p as *mut u8, bytes as usize) };
        *used += bytes;
        self.allocs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(
                p,
                Mapping {
                    size: bytes as usize,
                    base,
                    span,
                },
            );
        Ok(p as DevAddr)
    }

    /// Is `addr` inside one of the live allocations?
    pub fn contains(&self, addr: DevAddr) -> bool {
        let allocs = self.allocs.lock().unwrap_or_else(|p| p.into_inner());
        allocs
            .range(..=addr as usize)
            .next_back()
            .is_some_and(|(&p, m)| (addr as usize) < p + m.size)
    }

    pub fn free(&self, addr: DevAddr) -> Result<(), DeviceError> {
        let mapping = self
            .allocs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&(addr as usize));
        let Some(m) = mapping else {
            return Err(DeviceError::Launch {
                message: format!("{addr:#x} is not the start of an emulator device allocation (double free, or a host pointer?)"),
            });
        };
        let mut used = self.used.lock().unwrap_or_else(|p| p.into_inner());
        *used = used.saturating_sub(m.size as u64);
        drop(used);
        // SAFETY: mapped in `alloc` with this span; nothing of the runtime's refers to it now.
        let old = unsafe {
            let base = m.base as *mut libc::c_void;
            libc::madvise(base, m.span, libc::MADV_DONTNEED);
            libc::mprotect(base, m.span, libc::PROT_NONE);
            let mut freed = self.freed.lock().unwrap_or_else(|p| p.into_inner());
            freed.push_back(m);
            if freed.len() > QUARANTINE {
                freed.pop_front()
            } else {
                None
            }
        };
        if let Some(o) = old {
            // SAFETY: mapped in `alloc` with this span, quarantined since.
            unsafe { libc::munmap(o.base as *mut libc::c_void, o.span) };
        }
        Ok(())
    }
}

impl Drop for EmuMemory {
    fn drop(&mut self) {
        let allocs = std::mem::take(&mut *self.allocs.lock().unwrap_or_else(|p| p.into_inner()));
        let freed = std::mem::take(&mut *self.freed.lock().unwrap_or_else(|p| p.into_inner()));
        for m in allocs.values().chain(freed.iter()) {
            // SAFETY: mapped in `alloc` with this span.
            unsafe { libc::munmap(m.base as *mut libc::c_void, m.span) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn fresh_memory_is_poisoned_and_limited() {
        let m = EmuMemory::new(1 << 20);
        let a = m.alloc(64).unwrap();
        let f = unsafe { *(a as *const f32) };
        let d = unsafe { *(a as *const f64) };
        let i = unsafe { *(a as *const i32) };
        assert!(f.is_nan() && d.is_nan());
        assert!(i > 2_000_000_000);
        assert_eq!(m.used(), 64);
        assert!(
            matches!(m.alloc(2 << 20), Err(DeviceError::OutOfMemory { free: Some(f), .. }) if f == (1 << 20) - 64)
        );
        assert!(m.contains(a) && m.contains(a + 63) && !m.contains(a + 64));
        assert_eq!(a % ALIGN as u64, 0);
        // The allocation ends within 256 bytes of the guard page above it.
        assert_eq!((a as usize + ALIGN) % page_size(), 0);
        m.free(a).unwrap();
        assert!(!m.contains(a), "freed memory is not device memory");
        assert!(m.free(a).is_err(), "double free is reported");
        assert_eq!(m.used(), 0);
    }

    /// Whether reading the byte at `addr` faults (in a child process, which the fault kills).
    fn read_faults(addr: usize) -> bool {
        // SAFETY: the child only reads and exits; the parent waits for it.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                std::hint::black_box(std::ptr::read_volatile(addr as *const u8));
                libc::_exit(0);
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            libc::WIFSIGNALED(status)
        }
    }

    #[test]
    fn freed_memory_faults_and_is_not_handed_out_again_at_once() {
        let m = EmuMemory::new(1 << 24);
        let a = m.alloc(1 << 16).unwrap();
        assert!(!read_faults(a as usize));
        m.free(a).unwrap();
        // The next allocations of the same size land elsewhere, and the stale address faults.
        let later: Vec<DevAddr> = (0..8).map(|_| m.alloc(1 << 16).unwrap()).collect();
        assert!(!later.contains(&a), "a freed range was reused at once");
        assert!(
            read_faults(a as usize),
            "reading freed device memory did not fault"
        );
        // The quarantine is bounded: the oldest freed mappings are unmapped.
        for p in later {
            m.free(p).unwrap();
        }
        for _ in 0..QUARANTINE + 4 {
            let p = m.alloc(64).unwrap();
            m.free(p).unwrap();
        }
        assert_eq!(m.freed.lock().unwrap().len(), QUARANTINE);
    }
}
