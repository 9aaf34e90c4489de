//! The emulator's device memory: separate host allocations, poisoned when fresh so that a
//! missing host→device transfer shows up as NaN / huge values instead of the right answer.

use crate::errors::DeviceError;
use crate::present_table::DevAddr;
use std::alloc::{alloc, dealloc, Layout};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Fresh device memory is filled with this 32-bit word: as a float or a double it is a NaN,
/// as an int32/int64 a huge positive number, as bytes 0xA5.
pub const POISON_WORD: u32 = 0x7FFF_A5A5;

const ALIGN: usize = 256;

pub struct EmuMemory {
    allocs: Mutex<BTreeMap<usize, usize>>,
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
        let layout = Layout::from_size_align(bytes as usize, ALIGN).map_err(|_| {
            DeviceError::OutOfMemory {
                requested: bytes,
                free: Some(free),
            }
        })?;
        // SAFETY: layout has a non-zero size.
        let p = unsafe { alloc(layout) };
        if p.is_null() {
            return Err(DeviceError::OutOfMemory {
                requested: bytes,
                free: Some(free),
            });
        }
        unsafe { poison(p, bytes as usize) };
        *used += bytes;
        self.allocs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(p as usize, bytes as usize);
        Ok(p as DevAddr)
    }

    /// Is `addr` inside one of the live allocations?
    pub fn contains(&self, addr: DevAddr) -> bool {
        let allocs = self.allocs.lock().unwrap_or_else(|p| p.into_inner());
        allocs
            .range(..=addr as usize)
            .next_back()
            .is_some_and(|(&p, &size)| (addr as usize) < p + size)
    }

    pub fn free(&self, addr: DevAddr) -> Result<(), DeviceError> {
        let size = self
            .allocs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&(addr as usize));
        let Some(size) = size else {
            return Err(DeviceError::Launch {
                message: format!("{addr:#x} is not the start of an emulator device allocation (double free, or a host pointer?)"),
            });
        };
        let mut used = self.used.lock().unwrap_or_else(|p| p.into_inner());
        *used = used.saturating_sub(size as u64);
        // SAFETY: allocated above with this layout.
        unsafe {
            dealloc(
                addr as *mut u8,
                Layout::from_size_align_unchecked(size, ALIGN),
            )
        };
        Ok(())
    }
}

impl Drop for EmuMemory {
    fn drop(&mut self) {
        let allocs = std::mem::take(&mut *self.allocs.lock().unwrap_or_else(|p| p.into_inner()));
        for (p, size) in allocs {
            unsafe { dealloc(p as *mut u8, Layout::from_size_align_unchecked(size, ALIGN)) };
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
        m.free(a).unwrap();
        assert!(!m.contains(a), "freed memory is not device memory");
        assert!(m.free(a).is_err(), "double free is reported");
        assert_eq!(m.used(), 0);
    }
}
