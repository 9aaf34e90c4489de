//! Device memory: host allocations that kernels may touch, in a table that every global access
//! is checked against. An address outside every allocation (a host pointer that was never mapped,
//! a freed buffer, an index past the end) is a fault, as an illegal address is on a GPU.
//!
//! Fresh device memory is filled with a poison pattern (the same as libptxrt's emulator uses), so
//! data that never reached the device reads as NaN or as a large odd integer.

use std::alloc::Layout;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// The poison word of fresh device memory: a NaN as float, as double, 0x7fffa5a5 as int.
pub const POISON_WORD: u32 = 0x7FFF_A5A5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocKind {
    /// `cuMemAlloc`.
    Device,
    /// `cuMemAllocHost`: pinned host memory, which kernels may use as well.
    PinnedHost,
    /// A module's `.global`/`.const` variables.
    Module,
}

#[derive(Debug)]
struct Allocation {
    bytes: u64,
    kind: AllocKind,
    layout: Layout,
}

/// The sorted address ranges kernels may access, as of one launch.
#[derive(Debug, Default)]
pub struct Ranges {
    starts: Vec<u64>,
    ends: Vec<u64>,
}

impl Ranges {
    /// The range containing `[addr, addr + bytes)`, if any.
    #[inline]
    pub fn find(&self, addr: u64, bytes: u64) -> Option<(u64, u64)> {
        let i = self.starts.partition_point(|&s| s <= addr);
        if i == 0 {
            return None;
        }
        let (s, e) = (self.starts[i - 1], self.ends[i - 1]);
        (addr.checked_add(bytes)? <= e).then_some((s, e))
    }
}

struct Inner {
    allocs: BTreeMap<u64, Allocation>,
    /// Bytes of device memory in use (pinned host memory does not count).
    used: u64,
    snapshot: Option<Arc<Ranges>>,
}

pub struct DeviceMemory {
    inner: Mutex<Inner>,
    /// Total device memory.
    capacity: u64,
}

#[derive(Debug, PartialEq, Eq)]
pub enum MemError {
    OutOfMemory,
    /// Not the start of an allocation.
    NotAllocated,
}

/// Fills `bytes` bytes at `p` with the poison pattern.
///
/// # Safety
/// `p` must be valid for writing `bytes` bytes.
pub unsafe fn poison(p: *mut u8, bytes: usize) {
    let word = POISON_WORD.to_le_bytes();
    for i in 0..bytes {
        *p.add(i) = word[i % 4];
    }
}

impl DeviceMemory {
    pub fn new(capacity: u64) -> DeviceMemory {
        DeviceMemory {
            inner: Mutex::new(Inner {
                allocs: BTreeMap::new(),
                used: 0,
                snapshot: None,
            }),
            capacity,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    pub fn used(&self) -> u64 {
        self.lock().used
    }

    /// A new poisoned allocation of `bytes` (> 0) bytes, aligned to at least 256.
    pub fn alloc(&self, bytes: u64, align: u64, kind: AllocKind) -> Result<u64, MemError> {
        let mut inner = self.lock();
        let counts = kind != AllocKind::PinnedHost;
        if counts && inner.used.saturating_add(bytes) > self.capacity {
            return Err(MemError::OutOfMemory);
        }
        let layout = Layout::from_size_align(
            bytes.max(1) as usize,
            align.max(256).next_power_of_two() as usize,
        )
        .map_err(|_| MemError::OutOfMemory)?;
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { std::alloc::alloc(layout) };
        if p.is_null() {
            return Err(MemError::OutOfMemory);
        }
        // SAFETY: p was just allocated with `layout`.
        unsafe { poison(p, layout.size()) };
        inner.allocs.insert(
            p as u64,
            Allocation {
                bytes,
                kind,
                layout,
            },
        );
        if counts {
            inner.used += bytes;
        }
        inner.snapshot = None;
        Ok(p as u64)
    }

    pub fn free(&self, addr: u64) -> Result<AllocKind, MemError> {
        let mut inner = self.lock();
        let a = inner.allocs.remove(&addr).ok_or(MemError::NotAllocated)?;
        if a.kind != AllocKind::PinnedHost {
            inner.used -= a.bytes;
        }
        inner.snapshot = None;
        // SAFETY: allocated in `alloc` with this layout.
        unsafe { std::alloc::dealloc(addr as *mut u8, a.layout) };
        Ok(a.kind)
    }

    /// The allocation containing `addr`: (start, bytes, kind).
    pub fn lookup(&self, addr: u64) -> Option<(u64, u64, AllocKind)> {
        let inner = self.lock();
        let (start, a) = inner.allocs.range(..=addr).next_back()?;
        (addr < start + a.bytes.max(1)).then_some((*start, a.bytes, a.kind))
    }

    /// Whether `[addr, addr + bytes)` lies inside one allocation.
    pub fn contains(&self, addr: u64, bytes: u64) -> bool {
        self.lookup(addr).is_some_and(|(s, n, _)| {
            addr.checked_add(bytes)
                .is_some_and(|end| end <= s + n.max(1))
        })
    }

    /// The ranges kernels may access now.
    pub fn ranges(&self) -> Arc<Ranges> {
        let mut inner = self.lock();
        if let Some(s) = &inner.snapshot {
            return s.clone();
        }
        let mut r = Ranges::default();
        for (s, a) in &inner.allocs {
            r.starts.push(*s);
            r.ends.push(s + a.bytes);
        }
        let r = Arc::new(r);
        inner.snapshot = Some(r.clone());
        r
    }
}

impl Drop for DeviceMemory {
    fn drop(&mut self) {
        let inner = self.inner.get_mut().unwrap_or_else(|p| p.into_inner());
        for (addr, a) in std::mem::take(&mut inner.allocs) {
            // SAFETY: allocated in `alloc` with this layout.
            unsafe { std::alloc::dealloc(addr as *mut u8, a.layout) };
        }
    }
}

/// Allocates a module's variables in device memory (see `program::decode::GlobalMemory`),
/// remembering them so that unloading the module frees them.
pub struct ModuleMemory<'a> {
    pub memory: &'a DeviceMemory,
    pub allocations: Vec<u64>,
}

impl crate::program::decode::GlobalMemory for ModuleMemory<'_> {
    fn alloc(&mut self, bytes: u64, align: u64) -> Result<u64, String> {
        let a = self
            .memory
            .alloc(bytes, align, AllocKind::Module)
            .map_err(|_| format!("out of device memory for a module variable of {bytes} bytes"))?;
        self.allocations.push(a);
        Ok(a)
    }

    fn write(&mut self, addr: u64, data: &[u8]) {
        // SAFETY: `addr` is an allocation of at least data.len() bytes made by `alloc`.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), addr as *mut u8, data.len()) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_poisoned_tracked_and_limited() {
        let m = DeviceMemory::new(1 << 20);
        let a = m.alloc(100, 8, AllocKind::Device).unwrap();
        assert_eq!(a % 256, 0);
        assert_eq!(unsafe { *(a as *const u32) }, POISON_WORD);
        assert!(m.contains(a, 100));
        assert!(!m.contains(a + 96, 8));
        assert!(m.ranges().find(a + 4, 4).is_some());
        assert!(m.ranges().find(a + 100, 1).is_none());
        assert_eq!(
            m.alloc(1 << 20, 8, AllocKind::Device),
            Err(MemError::OutOfMemory)
        );
        assert_eq!(m.free(a + 1), Err(MemError::NotAllocated));
        assert_eq!(m.free(a), Ok(AllocKind::Device));
        assert!(m.ranges().find(a, 4).is_none());
        assert_eq!(m.used(), 0);
    }
}
