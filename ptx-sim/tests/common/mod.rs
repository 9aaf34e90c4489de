// Shared by several test crates, each of which uses part of it.
#![allow(dead_code)]
//! Helpers the simulator's integration tests share: a small machine, and device memory filled
//! from and read back into host vectors.

use ptxsim::machine::{Config, Machine};

/// A machine with 1 GiB of device memory and two host threads running blocks.
pub fn machine() -> Machine {
    Machine::new(Config {
        memory_bytes: 1 << 30,
        workers: 2,
        ..Config::default()
    })
}

/// Device memory holding `data`.
pub fn upload<T: Copy>(m: &Machine, data: &[T]) -> u64 {
    let bytes = std::mem::size_of_val(data) as u64;
    let p = m.alloc(bytes.max(1)).expect("device allocation");
    // SAFETY: `p` is a fresh allocation of at least `bytes` bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(data.as_ptr() as *const u8, p as *mut u8, bytes as usize)
    };
    p
}

/// `n` values of type T read from device memory at `p`.
pub fn download<T: Copy + Default>(p: u64, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // SAFETY: the tests read back what they allocated with at least `n` elements.
    unsafe {
        std::ptr::copy_nonoverlapping(
            p as *const u8,
            v.as_mut_ptr() as *mut u8,
            n * std::mem::size_of::<T>(),
        )
    };
    v
}
