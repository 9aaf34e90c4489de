//! The process-wide runtime: offload policy (OMP_TARGET_OFFLOAD), device selection
//! (PTXRT_DEVICE), the devices with their present tables and lazily loaded images.

use crate::coherence::present::{HostAccess, PresentSpread, Settled};
use crate::device::cuda;
use crate::device::emulator::EmulatorDevice;
use crate::device::{Device, LoadedImage, LoadedKernel};
use crate::errors::{fatal, fatal_at, warn};
use crate::launch_config::Overrides;
use crate::mapping::MapItem;
use crate::present_table::{DevAddr, Entry, Lookup, PresentTable, RefCount, Storage};
use crate::queues::Queues;
use crate::registry::{self, Kernel};
use crate::source_info::{SourceLoc, VarName};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};

/// `target-offload-var` (OpenMP 5.2 §2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffloadPolicy {
    Mandatory,
    Disabled,
    Default,
}

impl OffloadPolicy {
    pub fn parse(v: Option<&str>) -> Result<OffloadPolicy, String> {
        match v.map(|s| s.trim().to_ascii_uppercase()) {
            None => Ok(OffloadPolicy::Default),
            Some(s) if s.is_empty() || s == "DEFAULT" => Ok(OffloadPolicy::Default),
            Some(s) if s == "MANDATORY" => Ok(OffloadPolicy::Mandatory),
            Some(s) if s == "DISABLED" => Ok(OffloadPolicy::Disabled),
            Some(s) => Err(format!(
                "OMP_TARGET_OFFLOAD={s:?} is not MANDATORY, DISABLED or DEFAULT; using DEFAULT"
            )),
        }
    }
}

/// `PTXRT_DEVICE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceChoice {
    /// CUDA when a GPU answers, else the emulator.
    Auto,
    Cuda,
    Emulator,
    /// No device: every construct runs on the host.
    Host,
}

impl DeviceChoice {
    pub fn parse(v: Option<&str>) -> Result<DeviceChoice, String> {
        match v.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
            None | Some("") | Some("auto") => Ok(DeviceChoice::Auto),
            Some("cuda") | Some("gpu") | Some("nvidia") => Ok(DeviceChoice::Cuda),
            Some("emu") | Some("emulator") | Some("cpu") => Ok(DeviceChoice::Emulator),
            Some("host") | Some("none") => Ok(DeviceChoice::Host),
            Some(other) => Err(format!(
                "PTXRT_DEVICE={other:?} is not one of cuda, emu, host (or auto); set PTXRT_DEVICE=cuda for the GPU or emu for the CPU emulator"
            )),
        }
    }
}

/// Bytes a copy out takes from another device than the one its data is present on: that
/// device's current copy at `addr`, for the host bytes `[host, host + bytes)`.
#[derive(Clone, Copy)]
pub struct DirectCopy {
    pub host: usize,
    pub bytes: u64,
    pub device: &'static dyn Device,
    /// The device's number, for the profile (None: the host part of hybrid loops).
    pub number: Option<i32>,
    pub addr: DevAddr,
}

/// The copies out of a data operation that come straight from other devices
/// (`DeviceState::settle_spread_for`), with the lock that keeps their windows where they are
/// until the operation is done.
#[derive(Default)]
pub struct DirectCopies<'a> {
    pub copies: Vec<DirectCopy>,
    _spread: Option<MutexGuard<'a, PresentSpread>>,
}

/// One offload device with its data environment.
pub struct DeviceState {
    pub number: i32,
    pub device: Box<dyn Device>,
    pub table: Mutex<PresentTable>,
    /// Notified (with `table`) when kernels stop using entries (`Entry::users`).
    released: Condvar,
    /// Asynchronous queues (CUDA streams).
    pub queues: Queues,
    images: Mutex<Vec<LoadedImage>>,
    loaded: AtomicUsize,
    label: String,
    /// Arrays of this device's present table spread over other devices by split launches
    /// (`coherence/present.rs`); locked before `table`.
    pub spread: Mutex<PresentSpread>,
    /// `spread` tracks something: operations on this device settle it first.
    spread_live: AtomicBool,
}

impl DeviceState {
    fn new(number: i32, device: Box<dyn Device>) -> DeviceState {
        let label = format!("{number} ({})", device.description());
        // Nothing is loaded yet: the device only records the number.
        if let Err(e) = device.set_number(number) {
            fatal(&format!("device {label}: {e}"));
        }
        let queues = Queues::new(device.as_ref());
        DeviceState {
            number,
            device,
            table: Mutex::new(PresentTable::new()),
            released: Condvar::new(),
            queues,
            images: Mutex::new(Vec::new()),
            loaded: AtomicUsize::new(0),
            label,
            spread: Mutex::new(PresentSpread::new()),
            spread_live: AtomicBool::new(false),
        }
    }

    /// "cuda", "emulator": what kind of device it is (its description's first word).
    pub fn kind(&self) -> &str {
        let label = self.label.split_once(" (").map_or("", |(_, d)| d);
        label.split(':').next().unwrap_or("")
    }

    /// "0 (cuda: NVIDIA H100 ...)", for messages.
    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn lock_spread(&self) -> MutexGuard<'_, PresentSpread> {
        let mut s = self.spread.lock().unwrap_or_else(|p| p.into_inner());
        s.set_host_place(get().devices.len());
        s
    }

    /// After a split launch changed `spread`: whether operations must settle it.
    pub fn spread_changed(&self, spread: &PresentSpread) {
        self.spread_live
            .store(!spread.is_empty(), Ordering::Release);
    }

    /// Before anything but a split launch uses this device: the bytes of its present data that
    /// a split launch left newer on other devices come home, and those devices' copies are
    /// marked stale (`coherence/present.rs`). Nothing to do (one atomic load) when no split
    /// launch ran on data present here.
    pub fn settle_spread(&self) {
        drop(self.settle_spread_for(None))
    }

    /// `settle_spread` for a data operation that only reads or overwrites the host ranges
    /// `uses` (`coherence::present::data_op_uses`): only those are settled, and the other
    /// devices keep what stays current (None: everything, as `settle_spread`). The bytes its
    /// copies out take from other devices are in the result ([`DirectCopies`]), which holds the
    /// lock that keeps those devices' windows in place: pass it to the mapper and drop it after
    /// the operation.
    pub fn settle_spread_for(&self, uses: Option<&[HostAccess]>) -> DirectCopies<'_> {
        if !self.spread_live.load(Ordering::Acquire) {
            return DirectCopies::default();
        }
        let rt = get();
        let devices =
            crate::coherence::present::places(rt.devices.iter().map(|d| d.device.as_ref()));
        let mut spread = self.lock_spread();
        let table = self.lock_table();
        // SAFETY: the devices are the runtime's; the table is this device's, whose entries the
        // spread arrays' homes are.
        let settled = unsafe {
            match uses {
                None => spread.settle(&devices, &table).map(|moved| Settled {
                    moved,
                    direct: Vec::new(),
                }),
                Some(uses) => spread.settle_ranges(&devices, &table, uses),
            }
        };
        drop(table);
        let direct = match settled {
            Ok(s) => {
                crate::profile::spread(self.number, &s.moved);
                s.direct
            }
            Err(e) => fatal(&format!(
                "device {}: bringing home the data a loop split over the devices left on them: {e}",
                self.label
            )),
        };
        self.spread_changed(&spread);
        if direct.is_empty() {
            return DirectCopies::default();
        }
        let copies = direct
            .iter()
            .map(|d| DirectCopy {
                host: d.host as usize,
                bytes: d.bytes,
                device: devices[d.place],
                // The host part's place is host memory: no device's link carries it.
                number: rt.devices.get(d.place).map(|s| s.number),
                addr: d.addr,
            })
            .collect();
        DirectCopies {
            copies,
            _spread: Some(spread),
        }
    }

    pub fn lock_table(&self) -> MutexGuard<'_, PresentTable> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Locks the table once no running kernel uses an entry that `items` name: the end of a data
    /// region (and `exit data`, `acc_copyout`...) waits for the kernels still using its data, e.g.
    /// `nowait` target tasks or OpenACC `async` constructs, before it copies out or frees it.
    pub fn lock_table_unused(&self, items: &[MapItem]) -> MutexGuard<'_, PresentTable> {
        let mut t = self.lock_table();
        loop {
            let busy = items.iter().any(|it| {
                !it.ty.is_unmapped()
                    && match t.lookup(it.begin, it.bytes) {
                        Lookup::Contained(k) | Lookup::Overlaps(k) => {
                            t.get(k).is_some_and(|e| e.users > 0)
                        }
                        Lookup::Absent => false,
                    }
            });
            if !busy {
                return t;
            }
            t = self.released.wait(t).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Counts a running kernel as a user of `keys` (call with the table locked).
    pub fn add_users(table: &mut PresentTable, keys: &[usize]) {
        for &k in keys {
            if let Some(e) = table.get_mut(k) {
                e.users = e.users.saturating_add(1);
            }
        }
    }

    /// Ends what `add_users` started and wakes the data-region ends waiting for it.
    pub fn remove_users(&self, table: &mut PresentTable, keys: &[usize]) {
        for &k in keys {
            if let Some(e) = table.get_mut(k) {
                e.users = e.users.saturating_sub(1);
            }
        }
        if !keys.is_empty() {
            self.released.notify_all();
        }
    }

    /// Loads images registered since the last call (PTX JIT, globals into the present table);
    /// an image the device cannot load is fatal.
    pub fn ensure_loaded(&self) {
        if let Err(e) = self.load_registered() {
            fatal(&e);
        }
    }

    /// Loads images registered since the last call; the first one the device cannot load stops
    /// it, with a message naming the image and the device.
    fn load_registered(&self) -> Result<(), String> {
        let registered = registry::image_count();
        if self.loaded.load(Ordering::Acquire) >= registered {
            return Ok(());
        }
        let mut images = self.images.lock().unwrap_or_else(|p| p.into_inner());
        for image in registry::images_from(images.len()) {
            let loaded = match self.device.load_image(&image) {
                Ok(l) => l,
                Err(e) => {
                    return Err(format!(
                        "{}: cannot load the device code on device {}: {e}",
                        image.source_file, self.label
                    ))
                }
            };
            let mut table = self.lock_table();
            for (g, &dev) in image.globals.iter().zip(&loaded.globals) {
                if g.size == 0 {
                    continue;
                }
                if let Lookup::Absent = table.lookup(g.host_addr, g.size) {
                    table.insert(Entry {
                        host_base: g.host_addr,
                        host_begin: g.host_addr,
                        host_end: g.host_addr + g.size as usize,
                        device_begin: dev,
                        storage: Storage::Borrowed,
                        dynamic_refs: RefCount::Infinite,
                        hold_refs: 0,
                        name: VarName {
                            expr: g.name.clone(),
                            decl: SourceLoc::default(),
                        },
                        shadows: Vec::new(),
                        users: 0,
                        queues: Vec::new(),
                        exposed: false,
                        copies_out: false,
                    });
                }
            }
            images.push(loaded);
        }
        self.loaded.store(images.len(), Ordering::Release);
        Ok(())
    }

    /// The device address of global `index` of image `image`, once loaded.
    pub fn loaded_global(
        &self,
        image: usize,
        index: usize,
    ) -> Option<crate::present_table::DevAddr> {
        self.ensure_loaded();
        let images = self.images.lock().unwrap_or_else(|p| p.into_inner());
        images
            .get(image)
            .and_then(|i| i.globals.get(index))
            .copied()
    }

    pub fn loaded_kernel(&self, k: &Kernel) -> Option<LoadedKernel> {
        self.ensure_loaded();
        let images = self.images.lock().unwrap_or_else(|p| p.into_inner());
        images
            .get(k.image)
            .and_then(|i| i.kernels.get(k.index))
            .cloned()
    }
}

pub struct Runtime {
    pub policy: OffloadPolicy,
    pub devices: Vec<DeviceState>,
    /// Why there is no device, when there is none.
    pub no_device_reason: Option<String>,
    pub default_device: AtomicI32,
    /// How the default device was chosen at start-up (`default_device.rs`): the split launch
    /// leaves a rank's device alone when an MPI launcher bound it.
    pub default_choice: crate::default_device::Choice,
    pub overrides: Overrides,
}

/// Where a construct runs.
pub enum Target<'a> {
    Host,
    Device(&'a DeviceState),
}

static RUNTIME: OnceLock<Runtime> = OnceLock::new();

pub fn get() -> &'static Runtime {
    RUNTIME.get_or_init(Runtime::from_env)
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn positive_env(name: &str) -> Option<u32> {
    let v = env(name)?;
    match v.trim().parse::<u32>() {
        Ok(n) if n > 0 => Some(n),
        _ => {
            warn(&format!("{name}={v:?} is not a positive number; ignored"));
            None
        }
    }
}

impl Runtime {
    fn from_env() -> Runtime {
        let policy =
            OffloadPolicy::parse(env("OMP_TARGET_OFFLOAD").as_deref()).unwrap_or_else(|e| {
                warn(&e);
                OffloadPolicy::Default
            });
        let overrides = Overrides {
            block: positive_env("PTXRT_THREADS"),
            grid: positive_env("PTXRT_TEAMS"),
        };
        let (mut devices, mut no_device_reason) = if policy == OffloadPolicy::Disabled {
            (Vec::new(), Some("OMP_TARGET_OFFLOAD=DISABLED".to_string()))
        } else {
            open_devices()
        };
        // A device that cannot load the program's device code (PTX for a newer GPU, a JIT
        // failure) is not available, as libomptarget decides from the images' compatibility
        // before any data moves: under DEFAULT the program runs its target regions on the host
        // (with a warning); under MANDATORY that is the error below.
        if !devices.is_empty() {
            let mut refused = Vec::new();
            devices.retain(|d| match d.load_registered() {
                Ok(()) => true,
                Err(e) => {
                    refused.push(e);
                    false
                }
            });
            if !refused.is_empty() {
                if policy == OffloadPolicy::Mandatory {
                    fatal(&refused.join("\n"));
                }
                let consequence = if devices.is_empty() {
                    "running target regions on the host"
                } else {
                    "leaving that device out"
                };
                for e in &refused {
                    warn(&format!("{consequence}: {e}"));
                }
                if devices.is_empty() {
                    no_device_reason = refused.pop();
                }
            }
            for (i, d) in devices.iter_mut().enumerate() {
                if d.number != i as i32 {
                    if let Err(e) = d.device.set_number(i as i32) {
                        fatal(&format!("device {}: {e}", d.label));
                    }
                }
                d.number = i as i32;
                d.label = format!("{i} ({})", d.device.description());
            }
        }
        if policy == OffloadPolicy::Mandatory && devices.is_empty() {
            fatal(&format!(
                "OMP_TARGET_OFFLOAD=MANDATORY but no offload device is available: {}; set PTXRT_DEVICE=emu to use \
                 the CPU emulator, or unset OMP_TARGET_OFFLOAD to run target regions on the host",
                no_device_reason.as_deref().unwrap_or("unknown reason")
            ));
        }
        if let Some(output) = profile_output() {
            let devices = devices
                .iter()
                .map(|d| (d.label().to_string(), d.kind().to_string()))
                .collect();
            crate::profile::enable(output, devices);
        }
        // ACC_DEVICE_TYPE=host, OMP_DEFAULT_DEVICE, ACC_DEVICE_NUM, an MPI launcher's local rank
        // modulo the devices, else device 0 (`default_device.rs`).
        let default_choice = crate::default_device::choose(&env, devices.len());
        for w in &default_choice.warnings {
            warn(w);
        }
        if debug_enabled() || env("PTXRT_VERBOSE").is_some() {
            let label = devices
                .get(default_choice.number as usize)
                .filter(|_| default_choice.number >= 0)
                .map_or_else(String::new, |d| format!(" = {}", d.label()));
            crate::errors::stderr_line(&format!("ptxrt: {default_choice}{label}\n"));
        }
        Runtime {
            policy,
            devices,
            no_device_reason,
            default_device: AtomicI32::new(default_choice.number),
            default_choice,
            overrides,
        }
    }

    pub fn num_devices(&self) -> i32 {
        self.devices.len() as i32
    }

    /// The host's device number (omp_get_initial_device).
    pub fn initial_device(&self) -> i32 {
        self.num_devices()
    }

    /// Resolves a construct's device number (-1: the default device) as OpenMP 5.2 says; a
    /// device's present data is settled (`DeviceState::settle_spread`) before it is used.
    pub fn target(&self, device_id: i64, loc: &SourceLoc) -> Target<'_> {
        let t = self.target_unsettled(device_id, loc);
        if let Target::Device(d) = t {
            d.settle_spread();
        }
        t
    }

    /// `target` for a kernel launch, which may split (and must then not settle first): it
    /// settles itself when it does not split.
    pub fn target_unsettled(&self, device_id: i64, loc: &SourceLoc) -> Target<'_> {
        let id = if device_id == -1 {
            self.default_device.load(Ordering::Relaxed) as i64
        } else {
            device_id
        };
        if id == self.initial_device() as i64 || self.devices.is_empty() {
            return Target::Host;
        }
        match usize::try_from(id).ok().and_then(|i| self.devices.get(i)) {
            Some(d) => Target::Device(d),
            None => {
                let msg = format!(
                    "device number {id} does not exist ({} device{} available: 0..{}, {} is the host)",
                    self.num_devices(),
                    if self.num_devices() == 1 { "" } else { "s" },
                    self.num_devices() - 1,
                    self.initial_device()
                );
                let hint = self.missing_device_hint();
                if self.policy == OffloadPolicy::Mandatory {
                    fatal_at(
                        loc,
                        &format!(
                            "{msg}; OMP_TARGET_OFFLOAD=MANDATORY forbids running it on the host; {hint}"
                        ),
                    );
                }
                warn(&format!("{loc}: {msg}; running on the host; {hint}"));
                Target::Host
            }
        }
    }

    /// What to do about a device number that does not exist (for the errors that name it).
    pub fn missing_device_hint(&self) -> String {
        crate::default_device::missing_device_hint(
            self.devices.first().map(|d| d.kind()),
            self.default_choice.local_rank.as_ref(),
        )
    }

    /// The MPI rank's own device, when the default device was bound to this process's local rank
    /// and other ranks share the node (None otherwise).
    pub fn rank_bound_device(&self) -> Option<String> {
        self.default_choice.rank_bound().map(|l| {
            format!(
                "the default device is this MPI rank's ({}={})",
                l.variable, l.rank
            )
        })
    }

    /// A device by number for the omp_target_* and acc_* routines (None: the host or out of
    /// range), its present data settled (`DeviceState::settle_spread`).
    pub fn device(&self, device_num: i32) -> Option<&DeviceState> {
        let d = self.device_unsettled(device_num)?;
        d.settle_spread();
        Some(d)
    }

    /// `device` for a routine that settles what it uses itself (`settle_spread_for`).
    pub fn device_unsettled(&self, device_num: i32) -> Option<&DeviceState> {
        usize::try_from(device_num)
            .ok()
            .and_then(|i| self.devices.get(i))
    }
}

/// PTXRT_DEBUG=1: a line on stderr per kernel launch with its configuration and the reasons.
pub fn debug_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        matches!(env("PTXRT_DEBUG").as_deref().map(str::trim), Some(v) if !v.is_empty() && v != "0")
    })
}

/// PTXRT_PROFILE: unset, empty or 0 is off; `json:PATH` is JSON to PATH (`%r`: the MPI rank,
/// `%p`: the process id); anything else text.
fn profile_output() -> Option<crate::profile::Output> {
    let v = env("PTXRT_PROFILE")?;
    if v.trim().is_empty() || v.trim() == "0" {
        return None;
    }
    match crate::profile::Output::parse(&v).unwrap_or_else(|e| fatal(&e)) {
        // One file per MPI rank: `%r` and `%p` in the name (`launcher.rs`).
        crate::profile::Output::Json(path) => {
            let (path, warnings) =
                crate::launcher::per_process_path(&path, &env, std::process::id())
                    .unwrap_or_else(|e| fatal(&e));
            for w in &warnings {
                warn(w);
            }
            Some(crate::profile::Output::Json(path))
        }
        text => Some(text),
    }
}

/// `PTXRT_EMU_DEVICES=N`: how many emulated devices the emulator presents (default 1), each
/// with its own device memory, so that programs using several devices (`device(n)`,
/// `acc_set_device_num`) and the data movement between them are tested without a GPU.
fn emulated_device_count() -> Result<usize, String> {
    match env("PTXRT_EMU_DEVICES") {
        None => Ok(1),
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_EMULATED_DEVICES).contains(&n) => Ok(n),
            _ => Err(format!(
                "PTXRT_EMU_DEVICES={v:?} is not a number of devices from 1 to {MAX_EMULATED_DEVICES}"
            )),
        },
    }
}

/// More emulated devices than this is a typo, not a test.
const MAX_EMULATED_DEVICES: usize = 64;

fn open_emulator() -> Result<Vec<DeviceState>, String> {
    let count = emulated_device_count()?;
    (0..count)
        .map(|i| EmulatorDevice::from_env(i).map(|e| DeviceState::new(i as i32, Box::new(e))))
        .collect()
}

fn open_devices() -> (Vec<DeviceState>, Option<String>) {
    let choice = DeviceChoice::parse(env("PTXRT_DEVICE").as_deref()).unwrap_or_else(|e| fatal(&e));
    match choice {
        DeviceChoice::Host => (Vec::new(), Some("PTXRT_DEVICE=host".into())),
        DeviceChoice::Emulator => match open_emulator() {
            Ok(d) => (d, None),
            Err(e) => fatal(&e),
        },
        DeviceChoice::Cuda => match cuda::open_all() {
            Ok(devs) => (devs.into_iter().enumerate().map(|(i, d)| DeviceState::new(i as i32, Box::new(d))).collect(), None),
            Err(why) => fatal(&format!(
                "PTXRT_DEVICE=cuda but CUDA cannot be used: {why}; unset PTXRT_DEVICE (or set PTXRT_DEVICE=emu) to run \
                 kernels on the CPU emulator"
            )),
        },
        DeviceChoice::Auto => match cuda::open_all() {
            Ok(devs) => (devs.into_iter().enumerate().map(|(i, d)| DeviceState::new(i as i32, Box::new(d))).collect(), None),
            Err(why) => {
                if env("PTXRT_VERBOSE").is_some() {
                    eprintln!("ptxrt: note: no CUDA device ({why}); using the CPU emulator");
                }
                match open_emulator() {
                    Ok(d) => (d, None),
                    Err(e) => fatal(&e),
                }
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn env_values() {
        assert_eq!(OffloadPolicy::parse(None), Ok(OffloadPolicy::Default));
        assert_eq!(
            OffloadPolicy::parse(Some("mandatory")),
            Ok(OffloadPolicy::Mandatory)
        );
        assert_eq!(
            OffloadPolicy::parse(Some(" DISABLED ")),
            Ok(OffloadPolicy::Disabled)
        );
        assert!(OffloadPolicy::parse(Some("yes")).is_err());
        assert_eq!(DeviceChoice::parse(Some("CUDA")), Ok(DeviceChoice::Cuda));
        assert_eq!(DeviceChoice::parse(Some("emu")), Ok(DeviceChoice::Emulator));
        assert_eq!(DeviceChoice::parse(None), Ok(DeviceChoice::Auto));
        assert!(DeviceChoice::parse(Some("tpu"))
            .unwrap_err()
            .contains("PTXRT_DEVICE"));
    }
}
