//! The simulated GPU as a library: device memory, loaded modules and launches. The CUDA driver
//! API (`driver/`) is a thin layer over this; tests use it directly.

use crate::exec::grid::{self, LaunchFault, Outcome};
use crate::exec::heap::{DeviceHeap, DEFAULT_HEAP_BYTES};
use crate::exec::memory::{AllocKind, DeviceMemory, MemError, ModuleMemory};
use crate::program::decode::{self, DecodeError};
use crate::program::Program;
use crate::stats::model::{DeviceModel, Shape};
use crate::stats::LaunchStats;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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
    /// Run warps in lockstep (Some(true)) or independently (Some(false)) whatever the PTX's
    /// target; None: as the target says (`Program::lockstep`). PTXSIM_LOCKSTEP.
    pub lockstep: Option<bool>,
    /// Count what launches do and estimate their time on this GPU (PTXSIM_STATS,
    /// PTXSIM_MODEL); None: no counting.
    pub model: Option<&'static DeviceModel>,
    /// With `model`: count each basic block's executions too (PTXSIM_PROFILE).
    pub profile: bool,
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
            lockstep: None,
            model: None,
            profile: false,
        }
    }
}

pub struct Machine {
    pub config: Config,
    pub memory: DeviceMemory,
    /// The device heap, made at the first launch of a kernel that calls malloc/free.
    heap: Mutex<Option<Arc<DeviceHeap>>>,
    /// Its size (cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE) before it is made).
    heap_bytes: AtomicU64,
}

/// A loaded module: its decoded program and the device memory of its variables.
pub struct Module {
    pub program: Arc<Program>,
    allocations: Vec<u64>,
}

impl Module {
    /// The device memory of its variables (on the machine that loaded it).
    pub fn allocations(&self) -> &[u64] {
        &self.allocations
    }
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
        Machine {
            config,
            memory,
            heap: Mutex::new(None),
            heap_bytes: AtomicU64::new(DEFAULT_HEAP_BYTES),
        }
    }

    /// Loads a module from PTX text.
    pub fn load(&self, ptx: &str) -> Result<Module, DecodeError> {
        let module = crate::ptx::parser::parse(ptx).map_err(|e| DecodeError {
            line: e.line,
            message: e.message,
            input: 0,
        })?;
        self.load_module(&module)
    }

    /// Loads a module already parsed (or linked: `ptx::link`).
    pub fn load_module(&self, module: &crate::ptx::ast::Module) -> Result<Module, DecodeError> {
        let mut mm = ModuleMemory {
            memory: &self.memory,
            allocations: Vec::new(),
        };
        match decode::decode(module, &mut mm) {
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

    /// Frees the module's memory (loaded on this machine).
    pub fn unload(&self, m: Module) {
        for a in m.allocations {
            let _ = self.memory.free(a);
        }
    }

    /// Sets the device heap's size; false once the heap exists (CUDA fixes it at first use).
    pub fn set_heap_bytes(&self, bytes: u64) -> bool {
        let heap = self.heap.lock().unwrap_or_else(|p| p.into_inner());
        if heap.is_some() {
            return false;
        }
        self.heap_bytes.store(bytes, Ordering::SeqCst);
        true
    }

    pub fn heap_bytes(&self) -> u64 {
        self.heap_bytes.load(Ordering::SeqCst)
    }

    /// The device heap, made now if it does not exist yet.
    fn heap(&self) -> Result<Arc<DeviceHeap>, LaunchError> {
        let mut heap = self.heap.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(h) = &*heap {
            return Ok(h.clone());
        }
        let bytes = self.heap_bytes().max(1);
        let base = self
            .memory
            .alloc(bytes, 256, AllocKind::Device)
            .map_err(|_| {
                LaunchError::BadConfiguration(format!(
                    "no device memory for a device heap of {bytes} bytes"
                ))
            })?;
        let h = Arc::new(DeviceHeap::new(base, bytes));
        *heap = Some(h.clone());
        Ok(h)
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
        let heap = if program.uses_heap() {
            Some(self.heap()?)
        } else {
            None
        };
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
            lockstep: self.config.lockstep.unwrap_or(program.lockstep),
            heap,
            count: self.config.model.is_some(),
            profile: self.config.model.is_some() && self.config.profile,
        };
        let mut outcome = grid::run(&launch).map_err(LaunchError::Fault)?;
        if let (Some(model), Some((counters, footprint))) =
            (self.config.model, outcome.counted.as_ref())
        {
            let shape = Shape {
                blocks: grid.iter().map(|d| *d as u64).product(),
                threads_per_block: block.iter().product(),
                shared_per_block: program.dynamic_shared_offset as u64 + dynamic_shared as u64,
            };
            let dram_bytes = model.dram_bytes(&footprint.summary());
            outcome.stats = Some(LaunchStats {
                estimate: model.estimate(counters, dram_bytes, &shape),
                occupancy: model.occupancy(&shape),
                dram_bytes,
                counters: counters.clone(),
            });
        }
        Ok(outcome)
    }
}
