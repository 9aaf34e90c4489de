//! The device heap behind `malloc` and `free` in kernels: one region of device memory (8 MiB
//! unless `cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)` says otherwise, as with CUDA), handed out in
//! 16-byte-aligned blocks, first fit. `malloc` returns NULL when it is exhausted, as on a GPU; a
//! `free` of anything `malloc` did not return is a fault.

use super::memory::poison;
use std::collections::BTreeMap;
use std::sync::Mutex;

pub const DEFAULT_HEAP_BYTES: u64 = 8 << 20;
const GRAIN: u64 = 16;

struct Blocks {
    /// Free blocks: offset → length.
    free: BTreeMap<u64, u64>,
    /// Blocks handed out: offset → length.
    used: BTreeMap<u64, u64>,
}

pub struct DeviceHeap {
    /// Device address of the region (an allocation of the machine's device memory).
    pub base: u64,
    pub bytes: u64,
    blocks: Mutex<Blocks>,
}

impl DeviceHeap {
    pub fn new(base: u64, bytes: u64) -> DeviceHeap {
        let mut free = BTreeMap::new();
        free.insert(0, bytes);
        DeviceHeap {
            base,
            bytes,
            blocks: Mutex::new(Blocks {
                free,
                used: BTreeMap::new(),
            }),
        }
    }

    /// A block of at least `bytes` bytes (poisoned), or 0 when none is free.
    pub fn malloc(&self, bytes: u64) -> u64 {
        let want = bytes.max(1).div_ceil(GRAIN) * GRAIN;
        let mut b = self.blocks.lock().unwrap_or_else(|p| p.into_inner());
        let Some((&off, &len)) = b.free.iter().find(|(_, &len)| len >= want) else {
            return 0;
        };
        b.free.remove(&off);
        if len > want {
            b.free.insert(off + want, len - want);
        }
        b.used.insert(off, want);
        let p = self.base + off;
        // SAFETY: the block lies inside the heap's allocation.
        unsafe { poison(p as *mut u8, want as usize) };
        p
    }

    /// Frees a block `malloc` returned; false if `p` is not one (NULL is fine).
    pub fn free(&self, p: u64) -> bool {
        if p == 0 {
            return true;
        }
        let Some(off) = p.checked_sub(self.base) else {
            return false;
        };
        let mut b = self.blocks.lock().unwrap_or_else(|p| p.into_inner());
        let Some(len) = b.used.remove(&off) else {
            return false;
        };
        // Merge with the free neighbours.
        let (mut start, mut end) = (off, off + len);
        if let Some((&prev, &plen)) = b.free.range(..off).next_back() {
            if prev + plen == off {
                b.free.remove(&prev);
                start = prev;
            }
        }
        if let Some(&nlen) = b.free.get(&end) {
            b.free.remove(&end);
            end += nlen;
        }
        b.free.insert(start, end - start);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_reused_and_exhaustible() {
        let mut region = vec![0u8; 256 + 64];
        let base = (region.as_mut_ptr() as u64).next_multiple_of(64);
        let h = DeviceHeap::new(base, 256);
        let a = h.malloc(1);
        let b = h.malloc(100);
        assert_eq!((a - base, b - base), (0, 16));
        assert_eq!(h.malloc(200), 0, "exhausted: NULL");
        assert!(h.free(a) && h.free(b));
        assert!(!h.free(b), "double free");
        assert!(!h.free(base + 8), "not a block");
        // Freed neighbours merge: the whole heap is one block again.
        assert_eq!(h.malloc(256), base);
    }
}
