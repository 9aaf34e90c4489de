//! The CPU emulator of a GPU: runs the host code ptxcc generated from the device IR
//! (`emu_entry` functions) with GPU semantics on host threads.
//!
//! Device memory is separate from host memory and poisoned when fresh; blocks run in parallel
//! on a thread pool (PTXRT_EMU_THREADS, default: all cores); see `simt.rs` for threads, barriers
//! and warps.

pub mod memory;
pub mod pool;
pub mod simt;

use crate::device::{Device, DeviceLimits, LaunchDims, LoadedImage, LoadedKernel};
use crate::errors::DeviceError;
use crate::present_table::DevAddr;
use crate::registry::Image;
use memory::EmuMemory;
use pool::Pool;
use std::ffi::c_void;
use std::sync::OnceLock;

pub struct EmulatorDevice {
    /// Which emulated device this is (PTXRT_EMU_DEVICES): the declare-target globals of the
    /// emulator's code exist once in the process, so only device 0 can have them.
    ordinal: usize,
    /// Its OpenMP device number, which its kernels read (`omp_get_device_num()`).
    number: std::sync::atomic::AtomicU32,
    memory: EmuMemory,
    pool: OnceLock<Pool>,
    threads: usize,
    stack_bytes: usize,
}

/// Parses sizes like `65536`, `256K`, `1M`, `2G`.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().last()? {
        (i, 'k' | 'K') => (&s[..i], 1u64 << 10),
        (i, 'm' | 'M') => (&s[..i], 1 << 20),
        (i, 'g' | 'G') => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<u64>().ok()?.checked_mul(mult)
}

fn physical_memory() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    if pages > 0 && size > 0 {
        pages as u64 * size as u64
    } else {
        16 << 30
    }
}

impl EmulatorDevice {
    /// Configured from PTXRT_EMU_THREADS, PTXRT_EMU_STACK and PTXRT_EMU_MEMORY.
    pub fn from_env(ordinal: usize) -> Result<EmulatorDevice, String> {
        let threads = match std::env::var("PTXRT_EMU_THREADS") {
            Ok(v) => match v.trim().parse::<usize>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(format!(
                        "PTXRT_EMU_THREADS={v:?} is not a positive number of threads"
                    ))
                }
            },
            Err(_) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let stack_bytes = match std::env::var("PTXRT_EMU_STACK") {
            Ok(v) => match parse_size(&v) {
                Some(n) if n >= 16 << 10 => n as usize,
                _ => {
                    return Err(format!(
                        "PTXRT_EMU_STACK={v:?} is not a size of at least 16K (e.g. 256K, 1M)"
                    ))
                }
            },
            Err(_) => 256 << 10,
        };
        let limit = match std::env::var("PTXRT_EMU_MEMORY") {
            Ok(v) => parse_size(&v)
                .ok_or_else(|| format!("PTXRT_EMU_MEMORY={v:?} is not a size (e.g. 512M, 4G)"))?,
            Err(_) => physical_memory(),
        };
        let mut device = EmulatorDevice::new(threads, stack_bytes, limit);
        device.ordinal = ordinal;
        Ok(device)
    }

    pub fn new(threads: usize, stack_bytes: usize, memory_limit: u64) -> EmulatorDevice {
        EmulatorDevice {
            ordinal: 0,
            number: std::sync::atomic::AtomicU32::new(0),
            memory: EmuMemory::new(memory_limit),
            pool: OnceLock::new(),
            threads: threads.max(1),
            stack_bytes,
        }
    }

    fn pool(&self) -> &Pool {
        self.pool
            .get_or_init(|| Pool::new(self.threads, crate::crash::install_on_thread))
    }
}

#[derive(Clone, Copy)]
struct Params(*mut *mut c_void);

impl Device for EmulatorDevice {
    fn description(&self) -> String {
        format!(
            "emulator: {} host thread{}",
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }

    fn limits(&self) -> DeviceLimits {
        DeviceLimits {
            max_block: 1024,
            max_grid: i32::MAX as u32,
            // Kernels are grid-stride loops: a few blocks per host thread keep every core busy
            // without paying per-block overhead a million times.
            auto_grid_cap: (self.threads as u32).saturating_mul(8),
            default_grid: (self.threads as u32).saturating_mul(2),
            default_block: 128,
            multiprocessors: (self.threads as u32).max(1),
        }
    }

    fn alloc(&self, bytes: u64) -> Result<DevAddr, DeviceError> {
        self.memory.alloc(bytes)
    }

    fn free(&self, addr: DevAddr) -> Result<(), DeviceError> {
        self.memory.free(addr)
    }

    fn memory_info(&self) -> Option<(u64, u64)> {
        Some((
            self.memory.limit().saturating_sub(self.memory.used()),
            self.memory.limit(),
        ))
    }

    unsafe fn copy_to_device(
        &self,
        dst: DevAddr,
        src: *const u8,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        std::ptr::copy(src, dst as *mut u8, bytes as usize);
        Ok(())
    }

    unsafe fn copy_from_device(
        &self,
        dst: *mut u8,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        std::ptr::copy(src as *const u8, dst, bytes as usize);
        Ok(())
    }

    fn copy_within_device(
        &self,
        dst: DevAddr,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        // SAFETY: both are emulator device addresses (host memory) the caller vouches for.
        unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, bytes as usize) };
        Ok(())
    }

    fn permute_on(
        &self,
        _q: crate::device::QueueHandle,
        dst: DevAddr,
        src: DevAddr,
        plan: &crate::layout::plan::PermutePlan,
    ) -> Result<(), DeviceError> {
        // SAFETY: both are emulator device allocations of the plan's size (layout module).
        unsafe { crate::layout::permute_on_host(dst, src, plan) };
        Ok(())
    }

    fn set_number(&self, number: i32) -> Result<(), DeviceError> {
        let n = u32::try_from(number)
            .map_err(|_| DeviceError::Unsupported(format!("bad device number {number}")))?;
        self.number.store(n, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    fn load_image(&self, image: &Image) -> Result<LoadedImage, DeviceError> {
        let kernels = image
            .kernels
            .iter()
            .map(|k| LoadedKernel {
                kernel: k.clone(),
                handle: 0,
                suggested_block: None,
                resident_blocks: None,
            })
            .collect();
        let mut globals = Vec::with_capacity(image.globals.len());
        for g in &image.globals {
            // A split global (`-fptxcc-multi-device`) is shared: the split launches the
            // emulator's parts one after the other and writes it before each.
            let split = g.name.starts_with(crate::abi::SPLIT_GLOBAL_PREFIX);
            if self.ordinal > 0 && g.size > 0 && !split {
                // The emulator's kernels name the global's one host copy directly: a second
                // emulated device would share it with the first instead of having its own.
                return Err(DeviceError::Unsupported(format!(
                    "emulated device {} cannot have its own copy of the declare-target global '{}' of {} (the \
                     emulator's devices would share it); run with PTXRT_EMU_DEVICES=1, or on ptxsim \
                     (PTXSIM_DEVICES=N) for several devices",
                    self.ordinal, g.name, image.source_file
                )));
            }
            if g.emu_addr == 0 && g.size > 0 {
                return Err(DeviceError::Unsupported(format!(
                    "the device image of {} has no emulator copy of the declare-target global '{}'",
                    image.source_file, g.name
                )));
            }
            globals.push(g.emu_addr as DevAddr);
        }
        Ok(LoadedImage { kernels, globals })
    }

    fn launch(
        &self,
        lk: &LoadedKernel,
        params: &[u64],
        dims: &LaunchDims,
    ) -> Result<(), DeviceError> {
        let k = &*lk.kernel;
        let Some(entry) = k.emu_entry else {
            return Err(DeviceError::Launch {
                message: format!(
                    "kernel '{}' has no emulator code in its image (it was built for the GPU only); run it on a GPU \
                     (PTXRT_DEVICE=cuda) or rebuild with ptxcc's emulator code enabled",
                    k.name
                ),
            });
        };
        let mut values: Vec<u64> = params.to_vec();
        let mut ptrs: Vec<*mut c_void> = values
            .iter_mut()
            .map(|v| v as *mut u64 as *mut c_void)
            .collect();
        if ptrs.is_empty() {
            ptrs.push(std::ptr::null_mut());
        }
        let args = Params(ptrs.as_mut_ptr());
        let ctx = simt::LaunchCtx {
            kernel: k,
            entry,
            args: args.0,
            grid: dims.grid.map(|g| g.max(1)),
            block: dims.block.map(|b| b.max(1)),
            shared_bytes: (k.shared_bytes as usize).div_ceil(16) * 16 + dims.dyn_shared as usize,
            stack_bytes: self.stack_bytes,
            device_num: self.number.load(std::sync::atomic::Ordering::Relaxed),
        };
        let blocks = ctx.grid.iter().map(|&g| g as u64).product::<u64>();
        crate::crash::install_on_thread();
        self.pool().run(blocks, &|b| simt::run_block(&ctx, b));
        drop(ptrs);
        drop(values);
        Ok(())
    }

    fn synchronize(&self) -> Result<(), DeviceError> {
        Ok(())
    }

    fn is_device_pointer(&self, addr: DevAddr) -> bool {
        self.memory.contains(addr)
    }

    fn can_access_host_memory(&self) -> bool {
        true
    }

    fn peer_handle(&self) -> crate::device::PeerHandle {
        crate::device::PeerHandle::HostMemory
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sizes() {
        assert_eq!(parse_size("256K"), Some(256 << 10));
        assert_eq!(parse_size("2g"), Some(2 << 30));
        assert_eq!(parse_size("123"), Some(123));
        assert_eq!(parse_size("x"), None);
        assert_eq!(parse_size(""), None);
    }
}
