//! The simulated GPU as a library: device memory, loaded modules and launches. The CUDA driver
//! API (`driver/`) is a thin layer over this; tests use it directly.

use crate::exec::grid::{self, LaunchFault, Outcome};
use crate::exec::memory::{AllocKind, DeviceMemory, MemError, ModuleMemory};
use crate::program::decode::{self, DecodeError};
use crate::program::Program;
use std::sync::Arc;

/// What the simulated device is like.
#[derive(Clone, Debug)]
pub struct Config {
    pub name: String,
    /// Streaming multiprocessors (what the occupancy API and `%nsmid` report).
    pub sm_count: u32,
    pub memory_bytes: u64,
    /// Host threads that run blocks.
    pub workers: usize,
    pub compute_capability: (i32, i32),
    /// Check every kernel's shared memory for data races (PTXSIM_RACECHECK).
    pub racecheck: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            name: "ptxsim (simulated sm_90)".into(),
            sm_count: 132,
            memory_bytes: 16 << 30,
            workers: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            compute_capability: (9, 0),
            racecheck: false,
        }
    }
}

pub struct Machine {
    pub config: Config,
    pub memory: DeviceMemory,
}

/// A loaded module: its decoded program and the device memory of its variables.
pub struct Module {
    pub program: Arc<Program>,
    allocations: Vec<u64>,
}

/// One kernel argument: its bytes as the host passes them.
pub type Arg<'a> = &'a [u8];

#[derive(Debug)]
pub enum LaunchError {
    NoSuchKernel(String),
    /// Grid or block dimensions the device cannot run.
    BadConfiguration(String),
    Fault(LaunchFault),
}

impl Machine {
    pub fn new(config: Config) -> Machine {
        let memory = DeviceMemory::new(config.memory_bytes);
        Machine { config, memory }
    }

    pub fn load(&self, ptx: &str) -> Result<Module, DecodeError> {
        let mut mm = ModuleMemory {
            memory: &self.memory,
            allocations: Vec::new(),
        };
        match decode::load(ptx, &mut mm) {
            Ok(p) => Ok(Module {
                program: Arc::new(p),
                allocations: mm.allocations,
            }),
            Err(e) => {
                for a in mm.allocations {
                    let _ = self.memory.free(a);
                }
                Err(e)
            }
        }
    }

    pub fn unload(&self, m: Module) {
        for a in m.allocations {
            let _ = self.memory.free(a);
        }
    }

    pub fn alloc(&self, bytes: u64) -> Result<u64, MemError> {
        self.memory.alloc(bytes, 256, AllocKind::Device)
    }

    /// The kernel's parameter area filled from `args` (each at least as long as its parameter).
    pub fn parameters(program: &Program, kernel: usize, args: &[Arg]) -> Result<Vec<u8>, String> {
        let f = &program.functions[kernel];
        if args.len() != f.params.len() {
            return Err(format!(
                "kernel {} takes {} parameters, got {}",
                f.name,
                f.params.len(),
                args.len()
            ));
        }
        let mut buf = vec![0u8; f.param_bytes as usize];
        for (k, (off, bytes)) in f.params.iter().enumerate() {
            let (off, bytes) = (*off as usize, *bytes as usize);
            let n = bytes.min(args[k].len());
            buf[off..off + n].copy_from_slice(&args[k][..n]);
        }
        Ok(buf)
    }

    /// Whether the device can run `kernel` with this configuration (what cuLaunchKernel refuses
    /// with CUDA_ERROR_INVALID_VALUE).
    pub fn check_launch(
        &self,
        program: &Program,
        kernel: usize,
        grid: [u32; 3],
        block: [u32; 3],
        dynamic_shared: u32,
    ) -> Result<(), String> {
        let f = &program.functions[kernel];
        if !f.is_entry {
            return Err(format!("{} is a .func, not an .entry", f.name));
        }
        let threads = block.iter().map(|d| *d as u64).product::<u64>();
        if grid.contains(&0)
            || block.contains(&0)
            || threads > 1024
            || block[2] > 64
            || grid[0] > i32::MAX as u32
            || grid[1] > 65535
            || grid[2] > 65535
        {
            return Err(format!(
                "grid {grid:?} and block {block:?} are outside the device's limits"
            ));
        }
        if let Some(m) = f.reqntid.or(f.maxntid) {
            let most = m.iter().map(|d| *d as u64).product::<u64>();
            if (f.reqntid.is_some() && block != m) || threads > most {
                return Err(format!(
                    "block {block:?}, but the kernel's .maxntid/.reqntid is {m:?}"
                ));
            }
        }
        let shared = program.dynamic_shared_offset as u64 + dynamic_shared as u64;
        if shared > 227 << 10 {
            return Err(format!(
                "{shared} bytes of shared memory per block (at most {})",
                227 << 10
            ));
        }
        Ok(())
    }

    /// Runs `kernel` to completion.
    pub fn launch(
        &self,
        program: &Program,
        kernel: &str,
        grid: [u32; 3],
        block: [u32; 3],
        dynamic_shared: u32,
        params: &[u8],
    ) -> Result<Outcome, LaunchError> {
        let k = *program
            .function_index
            .get(kernel)
            .ok_or_else(|| LaunchError::NoSuchKernel(kernel.into()))?;
        self.check_launch(program, k, grid, block, dynamic_shared)
            .map_err(LaunchError::BadConfiguration)?;
        let launch = grid::Launch {
            program,
            kernel: k,
            params,
            grid,
            block,
            dynamic_shared,
            ranges: self.memory.ranges(),
            sm_count: self.config.sm_count,
            workers: self.config.workers,
            racecheck: self.config.racecheck,
        };
        grid::run(&launch).map_err(LaunchError::Fault)
    }
}
