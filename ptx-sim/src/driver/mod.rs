//! The CUDA driver API over the simulator: the calls libptxrt makes (and the ones around them a
//! CUDA program commonly makes), exported with C linkage so that `libptxsim.so` can be loaded
//! in place of `libcuda.so`.
//!
//! `PTXSIM_DEVICES` devices (default 1), each a `Machine` with its own memory, its primary
//! context and contexts made with cuCtxCreate (`context.rs`); device memory of one device is
//! reachable from another by copies only (`cuMemcpyPeer`, or `cuMemcpy`/`cuMemcpyDtoD` between
//! their addresses, unified addressing): a kernel touching another device's memory faults, as
//! it does on a GPU without peer access, even after `cuCtxEnablePeerAccess` (not modelled); modules from PTX text or from the JIT linker (`modules.rs`, `linker.rs`,
//! GCC's offloading links several PTX inputs). Handles are pointers to boxes this module owns, checked
//! against its registries, so a stale or foreign handle gives CUDA_ERROR_INVALID_HANDLE rather
//! than a crash. A kernel fault is reported on stderr with where it happened, and becomes the
//! context's sticky error, as on a GPU.
//!
//! Configuration (environment):
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `PTXSIM_DEVICES` | how many devices (1 to 16), all alike | 1 |
//! | `PTXSIM_ARCH` | the device's architecture, `sm_NN` | `sm_90` |
//! | `PTXSIM_SM_COUNT` | multiprocessors (occupancy API, `%nsmid`) | 132 |
//! | `PTXSIM_MEMORY` | device memory, bytes (`K`/`M`/`G` suffixes) | 16G |
//! | `PTXSIM_THREADS` | host threads running blocks | the host's cores |
//! | `PTXSIM_STREAM_DELAY_US` | wait before each job of a stream (shows missing synchronisation) | 0 |
//! | `PTXSIM_STATS` | `1`: per-kernel counters and estimated times at exit, on stderr; `json:PATH`: as JSON | off |
//! | `PTXSIM_PROFILE` | `PATH`: each kernel's basic blocks by the warp instructions they issued, written at exit (`stats::profile`) | off |
//! | `PTXSIM_MODEL` | the GPU the times are estimated for (`stats::model`) | `h100-sxm` |
//! | `PTXSIM_RACECHECK` | `1`: a data race in shared memory is a kernel fault | off |
//! | `PTXSIM_LOCKSTEP` | `1`/`0`: warps run in lockstep / independently, whatever the target | by target |
//!
//! One call is ptxsim's own: `ptxsimModeledTime(device, &seconds)` gives the device's modelled
//! clock, the estimated time of every launch it ran and of its copies within device memory
//! (bytes read and written at the model's DRAM bandwidth), with `PTXSIM_STATS` (otherwise
//! CUDA_ERROR_NOT_SUPPORTED). libptxrt times with it what it tunes on ptxsim (auto's layouts),
//! as it would time a GPU's kernels.

pub mod api;
pub mod context;
pub mod linker;
pub mod modules;
pub mod peer;
pub mod result;
pub mod stream;

use crate::machine::{Config, Machine, Module};
use crate::program::Program;
use crate::stats::model::{DeviceModel, DEFAULT_MODEL};
use crate::stats::report::{self, KernelRecord};
use crate::stats::LaunchStats;
use result::CUresult;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use stream::{ErrorSink, Stream};

pub struct ModuleHandle {
    pub module: Module,
    /// The device it was loaded on.
    pub device: usize,
    /// Functions handed out, by name (stable addresses for `CUfunction`).
    functions: Mutex<HashMap<String, Box<FunctionHandle>>>,
}

pub struct FunctionHandle {
    pub program: Arc<Program>,
    pub kernel: usize,
    /// The device of its module, where it runs.
    pub device: usize,
}

pub struct EventHandle {
    /// The stream and its position when the event was last recorded (None: complete).
    recorded: Mutex<Option<(Arc<Stream>, u64)>>,
    /// When the stream reached the event (cuEventElapsedTime); None before.
    time: Arc<Mutex<Option<std::time::Instant>>>,
    /// CU_EVENT_DISABLE_TIMING and the other flags of cuEventCreate.
    flags: u32,
}

/// Most devices `PTXSIM_DEVICES` may ask for.
pub const MAX_DEVICES: usize = 16;

pub struct Driver {
    /// The devices, by ordinal.
    machines: Vec<Machine>,
    initialized: AtomicBool,
    sticky: AtomicI32,
    modules: Mutex<HashSet<usize>>,
    functions: Mutex<HashSet<usize>>,
    streams: Mutex<HashMap<usize, Arc<Stream>>>,
    events: Mutex<HashSet<usize>>,
    /// Contexts made by cuCtxCreate (the primary contexts are not in it), with their device.
    contexts: Mutex<HashMap<usize, usize>>,
    /// Peer access enabled (`cuCtxEnablePeerAccess`): (device of the context, peer device).
    peer_access: Mutex<HashSet<(usize, usize)>>,
    /// Link states (cuLinkCreate).
    links: Mutex<HashSet<usize>>,
    stream_delay: std::time::Duration,
    /// Each kernel's launches, counted (PTXSIM_STATS), and where they go at exit.
    stats: Option<Mutex<Vec<KernelRecord>>>,
    /// Each device's modelled clock (PTXSIM_STATS): the estimated seconds of every launch it
    /// ran and every copy within its memory, summed (`ptxsimModeledTime`).
    modeled: Option<Mutex<HashMap<usize, f64>>>,
    /// The copies within device memory, for the report (PTXSIM_STATS).
    copies: Mutex<report::DeviceCopies>,
    stats_output: Option<report::Output>,
    /// Where the profile goes at exit (PTXSIM_PROFILE).
    profile_output: Option<std::path::PathBuf>,
}

struct Sticky;

impl ErrorSink for Sticky {
    fn failed(&self) -> bool {
        driver().sticky.load(Ordering::SeqCst) != result::SUCCESS
    }

    fn fail(&self, r: CUresult) {
        driver().fail(r);
    }
}

static DRIVER: OnceLock<Driver> = OnceLock::new();

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    let (digits, scale) = match v.chars().last()?.to_ascii_uppercase() {
        'K' => (&v[..v.len() - 1], 1u64 << 10),
        'M' => (&v[..v.len() - 1], 1 << 20),
        'G' => (&v[..v.len() - 1], 1 << 30),
        _ => (v, 1),
    };
    digits.parse::<u64>().ok().map(|n| n.saturating_mul(scale))
}

pub fn driver() -> &'static Driver {
    DRIVER.get_or_init(|| {
        let mut config = Config::default();
        if let Some(n) = env_u64("PTXSIM_SM_COUNT") {
            config.sm_count = n.clamp(1, 1024) as u32;
        }
        if let Some(n) = env_u64("PTXSIM_MEMORY") {
            config.memory_bytes = n;
        }
        if let Some(n) = env_u64("PTXSIM_THREADS") {
            config.workers = n.clamp(1, 256) as usize;
        }
        if let Some(cc) = std::env::var("PTXSIM_ARCH")
            .ok()
            .and_then(|a| parse_arch(&a))
        {
            config.compute_capability = cc;
            config.name = format!("ptxsim (simulated sm_{}{})", cc.0, cc.1);
        }
        config.racecheck = std::env::var("PTXSIM_RACECHECK").is_ok_and(|v| v == "1");
        config.lockstep = match std::env::var("PTXSIM_LOCKSTEP").as_deref() {
            Ok("1") => Some(true),
            Ok("0") => Some(false),
            _ => None,
        };
        let settings = report::Output::parse(std::env::var("PTXSIM_STATS").ok().as_deref())
            .and_then(|o| {
                let name = std::env::var("PTXSIM_MODEL").unwrap_or_else(|_| DEFAULT_MODEL.into());
                Ok((o, DeviceModel::named(&name)?))
            });
        let (stats_output, model) = match settings {
            Ok(s) => s,
            Err(e) => {
                // A setting that cannot be honoured: say so rather than run without it.
                eprintln!("ptxsim: error: {e}");
                std::process::exit(1);
            }
        };
        let profile_output = std::env::var_os("PTXSIM_PROFILE")
            .filter(|p| !p.is_empty())
            .map(std::path::PathBuf::from);
        let stats = stats_output.is_some() || profile_output.is_some();
        if stats {
            config.model = Some(model);
            config.profile = profile_output.is_some();
            extern "C" fn report() {
                driver().print_stats();
            }
            // SAFETY: registers a plain function to run at exit.
            unsafe { libc::atexit(report) };
        }
        let devices = match std::env::var("PTXSIM_DEVICES") {
            Err(_) => 1,
            Ok(v) => match v.trim().parse::<usize>() {
                Ok(n) if (1..=MAX_DEVICES).contains(&n) => n,
                _ => {
                    eprintln!(
                        "ptxsim: PTXSIM_DEVICES={v:?} is not a number of devices from 1 to {MAX_DEVICES}; using 1"
                    );
                    1
                }
            },
        };
        Driver {
            machines: (0..devices).map(|_| Machine::new(config.clone())).collect(),
            initialized: AtomicBool::new(false),
            sticky: AtomicI32::new(result::SUCCESS),
            modules: Mutex::new(HashSet::new()),
            functions: Mutex::new(HashSet::new()),
            streams: Mutex::new(HashMap::new()),
            events: Mutex::new(HashSet::new()),
            contexts: Mutex::new(HashMap::new()),
            peer_access: Mutex::new(HashSet::new()),
            links: Mutex::new(HashSet::new()),
            stream_delay: std::time::Duration::from_micros(
                env_u64("PTXSIM_STREAM_DELAY_US").unwrap_or(0),
            ),
            stats: stats.then(|| Mutex::new(Vec::new())),
            modeled: stats.then(|| Mutex::new(HashMap::new())),
            copies: Mutex::new(report::DeviceCopies::default()),
            stats_output,
            profile_output,
        }
    })
}

/// "sm_90", "sm_90a", "compute_80" → (9, 0), (8, 0).
pub fn parse_arch(s: &str) -> Option<(i32, i32)> {
    let digits: String = s
        .trim()
        .trim_start_matches("sm_")
        .trim_start_matches("compute_")
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let n: i32 = digits.parse().ok()?;
    Some((n / 10, n % 10))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Driver {
    pub fn device_count(&self) -> usize {
        self.machines.len()
    }

    /// The device of the calling thread's current context (device 0 when it has none).
    pub fn machine(&self) -> &Machine {
        &self.machines[context::current_device().min(self.machines.len() - 1)]
    }

    /// Device `dev`, if it exists.
    pub fn device(&self, dev: usize) -> Option<&Machine> {
        self.machines.get(dev)
    }

    /// The device whose memory (device, pinned or module memory) holds `addr`, with its ordinal.
    pub fn owner(&self, addr: u64) -> Option<(usize, &Machine)> {
        self.machines
            .iter()
            .enumerate()
            .find(|(_, m)| m.memory.lookup(addr).is_some())
    }

    /// Frees a module's memory on the device that holds it.
    pub fn unload(&self, m: Module) {
        match m.allocations().first().and_then(|&a| self.owner(a)) {
            Some((_, machine)) => machine.unload(m),
            None => self.machines[0].unload(m),
        }
    }

    fn fail(&self, r: CUresult) {
        if result::is_sticky(r) {
            let _ = self.sticky.compare_exchange(
                result::SUCCESS,
                r,
                Ordering::SeqCst,
                Ordering::SeqCst,
            );
        }
    }

    /// The sticky error, if a kernel faulted.
    fn sticky(&self) -> CUresult {
        self.sticky.load(Ordering::SeqCst)
    }

    fn streams(&self) -> Vec<Arc<Stream>> {
        lock(&self.streams).values().cloned().collect()
    }

    /// What the legacy default stream does before each of its operations: waits for all work
    /// on the (blocking) streams.
    fn legacy_barrier(&self) {
        for s in self.streams() {
            s.synchronize();
        }
    }

    /// Waits for the work of stream `h` (for the legacy stream: of every blocking stream) and
    /// answers as cuStreamSynchronize does: the sticky error if a kernel faulted, meanwhile or
    /// before.
    fn synchronize_stream(&self, h: usize) -> CUresult {
        match self.stream(h) {
            Err(e) => return e,
            Ok(Some(s)) => s.synchronize(),
            Ok(None) => self.legacy_barrier(),
        }
        self.sticky()
    }

    /// The stream a handle names: None for the legacy default stream (NULL, CU_STREAM_LEGACY,
    /// CU_STREAM_PER_THREAD — per-thread default streams are treated as the legacy one).
    fn stream(&self, h: usize) -> Result<Option<Arc<Stream>>, CUresult> {
        if h <= 2 {
            return Ok(None);
        }
        lock(&self.streams)
            .get(&h)
            .cloned()
            .map(Some)
            .ok_or(result::INVALID_HANDLE)
    }

    fn create_stream(&self) -> usize {
        static STICKY: Sticky = Sticky;
        let s = Stream::new(&STICKY, self.stream_delay);
        let h = Arc::as_ptr(&s) as usize;
        lock(&self.streams).insert(h, s);
        h
    }

    /// Runs `job` on stream `h` (after the legacy barrier, synchronously, on the legacy stream).
    fn submit(&'static self, h: usize, job: stream::Job) -> CUresult {
        match self.stream(h) {
            Err(e) => e,
            Ok(Some(s)) => {
                s.enqueue(job);
                result::SUCCESS
            }
            Ok(None) => {
                self.legacy_barrier();
                let r = job();
                if r != result::SUCCESS {
                    self.fail(r);
                }
                // A kernel fault is reported by the next synchronising call, as on a GPU.
                if result::is_sticky(r) {
                    result::SUCCESS
                } else {
                    r
                }
            }
        }
    }

    fn function(&self, h: usize) -> Result<&'static FunctionHandle, CUresult> {
        if !lock(&self.functions).contains(&h) {
            return Err(result::INVALID_HANDLE);
        }
        // SAFETY: registered handles point to live boxes owned by their module handle.
        Ok(unsafe { &*(h as *const FunctionHandle) })
    }

    fn module(&self, h: usize) -> Result<&'static ModuleHandle, CUresult> {
        if !lock(&self.modules).contains(&h) {
            return Err(result::INVALID_HANDLE);
        }
        // SAFETY: registered handles point to live boxes (freed only by cuModuleUnload, which
        // unregisters them first).
        Ok(unsafe { &*(h as *const ModuleHandle) })
    }

    fn record_launch(
        &self,
        program: &Program,
        name: &str,
        device: usize,
        launch: Option<&LaunchStats>,
        seconds: f64,
    ) {
        if let Some(launch) = launch {
            self.advance_clock(device, launch.estimate.time_s);
        }
        if let (Some(stats), Some(launch)) = (&self.stats, launch) {
            let mut s = lock(stats);
            let i = match s.iter().position(|k| k.name == name && k.device == device) {
                Some(i) => i,
                None => {
                    s.push(KernelRecord {
                        name: name.to_string(),
                        device,
                        spans: if self.profile_output.is_some() {
                            crate::stats::profile::spans(program)
                        } else {
                            Vec::new()
                        },
                        ..KernelRecord::default()
                    });
                    s.len() - 1
                }
            };
            let k = &mut s[i];
            k.stats.add(launch, k.launches);
            k.launches += 1;
            k.sim_seconds += seconds;
        }
    }

    /// A copy of `bytes` within the device that holds `dst` moves on its modelled clock by
    /// what reading and writing them costs at the model's DRAM bandwidth.
    pub(super) fn model_copy(&self, dst: u64, bytes: usize) {
        if self.modeled.is_none() {
            return;
        }
        let Some((device, m)) = self.owner(dst) else {
            return;
        };
        if let Some(model) = m.config.model {
            let seconds = 2.0 * bytes as f64 / model.dram_bw;
            self.advance_clock(device, seconds);
            let mut c = lock(&self.copies);
            c.count += 1;
            c.bytes += bytes as u64;
            c.est_time_s += seconds;
        }
    }

    /// Moves device `device`'s modelled clock on by `seconds` (nothing without PTXSIM_STATS).
    fn advance_clock(&self, device: usize, seconds: f64) {
        if let Some(clock) = &self.modeled {
            *lock(clock).entry(device).or_insert(0.0) += seconds;
        }
    }

    /// Device `device`'s modelled clock: None without PTXSIM_STATS (no launch is estimated).
    pub(super) fn modeled_time(&self, device: usize) -> Option<f64> {
        let clock = self.modeled.as_ref()?;
        Some(lock(clock).get(&device).copied().unwrap_or(0.0))
    }

    fn print_stats(&self) {
        let (Some(stats), Some(model)) = (&self.stats, self.machines[0].config.model) else {
            return;
        };
        let kernels = lock(stats);
        if let Some(output) = &self.stats_output {
            if let Err(e) = output.write(model, &kernels, &lock(&self.copies)) {
                eprintln!("ptxsim: error: {e}");
            }
        }
        if let Some(path) = &self.profile_output {
            let text = crate::stats::profile::render(model.name, &kernels);
            if let Err(e) = std::fs::write(path, text) {
                eprintln!(
                    "ptxsim: error: cannot write PTXSIM_PROFILE to {}: {e}",
                    path.display()
                );
            }
        }
    }
}
