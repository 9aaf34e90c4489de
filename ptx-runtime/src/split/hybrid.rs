//! The host's part of a hybrid loop (`-fptxcc-hybrid`, issue 20).
//!
//! A kernel compiled with `-fptxcc-hybrid` has a host part (passes `host_part.rs`): the
//! region's host version, run for the iterations `[lo, hi)` of its split loop by the host's
//! OpenMP threads. `launch.rs` gives the host the last block of the iterations (its share, see
//! `tune.rs`) and the devices the rest. The host part works like one more device whose memory
//! is host memory: it gets its own copy of every mapped item (as each device does), runs on a
//! worker thread of the runtime while the calling thread drives the devices, and its results
//! are merged like a device's. So a `map(to:)` array the loop writes stays untouched on the
//! host, as it would be with devices only. Data an enclosing data region keeps on a device is
//! spread (`coherence/present.rs`): the host part is one more place of the directory, runs on
//! its window of the array in host memory (`InitSource::Direct`), kept between launches, and
//! only the bytes it lacks are copied in. The worker thread is one per process, so the OpenMP runtime keeps one
//! team of host threads for it.
//!
//! A loop that takes a pointer by value (`is_device_ptr`, OpenACC `deviceptr`) is not split at
//! all (`launch.rs`): the pointer is valid on one device only, and not on the host.

use super::tune::{self, Sample, Tuning};
use crate::errors::fatal_at;
use crate::registry::{HostPart, Kernel};
use crate::source_info::SourceLoc;
use std::collections::HashMap;
use std::ffi::c_void;
use std::ops::Range;
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// `PTXRT_CPU_WEIGHT`, read once.
fn cpu_weight(loc: &SourceLoc) -> Option<f64> {
    static W: OnceLock<Result<Option<f64>, String>> = OnceLock::new();
    match W
        .get_or_init(|| tune::parse_cpu_weight(std::env::var("PTXRT_CPU_WEIGHT").ok().as_deref()))
    {
        Ok(w) => *w,
        Err(e) => fatal_at(loc, e),
    }
}

/// `PTXRT_TEST_HOST_DELAY_NS`: nanoseconds the host part sleeps per iteration it runs, a test
/// hook that makes the host look slower than it is (the tuning tests).
fn test_delay_ns() -> u64 {
    static D: OnceLock<u64> = OnceLock::new();
    *D.get_or_init(|| {
        std::env::var("PTXRT_TEST_HOST_DELAY_NS")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    })
}

/// Every hybrid loop's tuning, by kernel name (with its source, for the tuning file).
struct Tunings {
    loops: HashMap<String, (Tuning, String)>,
    /// Shares read from PTXRT_TUNING_FILE for loops not run yet.
    loaded: HashMap<String, Tuning>,
}

fn tunings() -> &'static Mutex<Tunings> {
    static T: OnceLock<Mutex<Tunings>> = OnceLock::new();
    T.get_or_init(|| {
        let loaded = match tuning_file() {
            Some(path) => match std::fs::read_to_string(&path) {
                Ok(text) => match tune::parse_file(&text) {
                    Ok(list) => list.into_iter().collect(),
                    Err(e) => {
                        crate::errors::warn(&format!(
                            "PTXRT_TUNING_FILE={path}: {e}; starting without it (delete the file to silence this)"
                        ));
                        HashMap::new()
                    }
                },
                // Not there yet: this run writes it.
                Err(_) => HashMap::new(),
            },
            None => HashMap::new(),
        };
        if tuning_file().is_some() {
            extern "C" fn save_atexit() {
                save_tuning_file();
            }
            // SAFETY: registering a plain extern "C" function.
            unsafe { libc::atexit(save_atexit) };
        }
        Mutex::new(Tunings {
            loops: HashMap::new(),
            loaded,
        })
    })
}

fn tuning_file() -> Option<String> {
    std::env::var("PTXRT_TUNING_FILE")
        .ok()
        .filter(|p| !p.trim().is_empty())
}

fn save_tuning_file() {
    let Some(path) = tuning_file() else { return };
    let t = tunings().lock().unwrap_or_else(|p| p.into_inner());
    let mut lines: Vec<String> = t
        .loops
        .iter()
        .map(|(k, (tuning, source))| tune::format_line(k, tuning, source))
        .collect();
    // Loops of the file this run did not reach keep their lines.
    for (k, tuning) in &t.loaded {
        if !t.loops.contains_key(k) {
            lines.push(tune::format_line(k, tuning, "-"));
        }
    }
    lines.sort();
    let text = format!(
        "# ptxcc hybrid tuning: kernel, host share, runs measured, source\n{}\n",
        lines.join("\n")
    );
    if let Err(e) = std::fs::write(&path, text) {
        crate::errors::warn(&format!("PTXRT_TUNING_FILE: cannot write {path}: {e}"));
    }
}

/// The host's share of `k`'s next run, and whether it is tuned (not fixed by PTXRT_CPU_WEIGHT).
pub(crate) fn share(k: &Kernel, loc: &SourceLoc, devices: usize) -> (f64, bool) {
    if let Some(w) = cpu_weight(loc) {
        return (w, false);
    }
    let mut t = tunings().lock().unwrap_or_else(|p| p.into_inner());
    let loaded = t.loaded.remove(&k.name);
    let entry = t.loops.entry(k.name.clone()).or_insert_with(|| {
        (
            loaded.unwrap_or_else(|| Tuning::first(devices)),
            k.source.clone(),
        )
    });
    (entry.0.share, true)
}

/// Learns from one run of `k` (when its share is tuned) and reports it to the profile.
pub(crate) fn record(k: &Kernel, tuned: bool, share: f64, s: Sample) {
    let (share, runs) = if tuned {
        let mut t = tunings().lock().unwrap_or_else(|p| p.into_inner());
        match t.loops.get_mut(&k.name) {
            Some((tuning, _)) => {
                tuning.record(s);
                (tuning.share, tuning.runs)
            }
            None => (share, 0),
        }
    } else {
        (share, 0)
    };
    crate::profile::hybrid(k, share, runs, &s);
}

/// The host part's copy of one item.
pub(crate) struct Init {
    pub source: InitSource,
    /// What the argument points to, as an offset from the start of the copy (the item's base
    /// pointer minus its first mapped byte).
    pub offset: u64,
}

/// Where a host part's copy of an item comes from.
pub(crate) enum InitSource {
    /// A by-value argument: the value itself.
    Value(u64),
    /// Copy these bytes (a host address, or a buffer the caller keeps alive).
    Copy { from: usize, bytes: usize },
    /// Fill with this element (a combined argument starts at the operation's identity).
    Fill { element: Vec<u8>, bytes: usize },
    /// No copy: the item's first byte is here, in host memory the caller keeps (the host
    /// part's window of data spread over the devices, `coherence/present.rs`).
    Direct(u64),
}

/// The host part while it runs.
pub(crate) struct Running {
    pub iters: Range<u64>,
    done: mpsc::Receiver<Finished>,
}

/// The host part after it ran: its copy of each item (None: by value) and its time.
pub(crate) struct Finished {
    pub copies: Vec<Option<Vec<u8>>>,
    pub elapsed: Duration,
}

type Job = Box<dyn FnOnce() + Send>;

/// The runtime's host worker: one thread, so that the OpenMP runtime keeps one root (and one
/// team of host threads) for every host part.
fn worker() -> &'static Mutex<mpsc::Sender<Job>> {
    static W: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    W.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        if let Err(e) = std::thread::Builder::new()
            .name("ptxrt-host-part".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            })
        {
            crate::errors::fatal(&format!(
                "cannot start the thread that runs host parts of hybrid loops: {e} (run with PTXRT_CPU_WEIGHT=0)"
            ));
        }
        Mutex::new(tx)
    })
}

/// Makes the host part's copies and runs the host version on them, for `iters` (on the worker).
fn run(
    entry: crate::abi::HostPartEntry,
    inits: Vec<Init>,
    iters: Range<u64>,
    delay_ns: u64,
) -> Finished {
    let started = Instant::now();
    let mut copies: Vec<Option<Vec<u8>>> = Vec::with_capacity(inits.len());
    let mut values: Vec<u64> = Vec::with_capacity(inits.len());
    for init in &inits {
        match &init.source {
            InitSource::Value(v) => {
                copies.push(None);
                values.push(*v);
            }
            InitSource::Copy { from, bytes } => {
                // SAFETY: `start`'s caller keeps the source valid until the part is waited for.
                let src = unsafe { std::slice::from_raw_parts(*from as *const u8, *bytes) };
                copies.push(Some(src.to_vec()));
                values.push(0);
            }
            InitSource::Fill { element, bytes } => {
                copies.push(Some(element.repeat(bytes / element.len().max(1))));
                values.push(0);
            }
            InitSource::Direct(at) => {
                copies.push(None);
                values.push(at.wrapping_add(init.offset));
            }
        }
    }
    // Each pointer argument points into the part's copy as it pointed into the item.
    for ((c, v), init) in copies.iter_mut().zip(values.iter_mut()).zip(&inits) {
        if let Some(c) = c {
            *v = (c.as_mut_ptr() as u64).wrapping_add(init.offset);
        }
    }
    let mut ptrs: Vec<*mut c_void> = values
        .iter_mut()
        .map(|v| v as *mut u64 as *mut c_void)
        .collect();
    // SAFETY: the entry takes one pointer per parameter, each at an 8-byte value: a by-value
    // argument or a pointer into the part's own copy of the item.
    unsafe { entry(ptrs.as_mut_ptr(), iters.start, iters.end) };
    if delay_ns > 0 {
        std::thread::sleep(Duration::from_nanos(
            delay_ns.saturating_mul(iters.end - iters.start),
        ));
    }
    Finished {
        copies,
        elapsed: started.elapsed(),
    }
}

/// Starts the host part of `part` for `iters` on the worker.
///
/// # Safety
/// Every `InitSource::Copy` source must stay valid and unchanged until `wait` returns, and
/// every `InitSource::Direct` memory valid and used by nothing else.
pub(crate) unsafe fn start(part: &HostPart, inits: Vec<Init>, iters: Range<u64>) -> Running {
    let (tx, rx) = mpsc::channel();
    let entry = part.entry;
    let delay = test_delay_ns();
    let range = iters.clone();
    let job: Job = Box::new(move || {
        let _ = tx.send(run(entry, inits, range, delay));
    });
    let sent = worker().lock().unwrap_or_else(|p| p.into_inner()).send(job);
    if sent.is_err() {
        crate::errors::fatal(
            "the thread that runs host parts of hybrid loops has stopped (run with PTXRT_CPU_WEIGHT=0)",
        );
    }
    Running { iters, done: rx }
}

impl Running {
    /// Waits for the host part.
    pub(crate) fn wait(self, loc: &SourceLoc, kernel: &Kernel) -> Finished {
        self.done.recv().unwrap_or_else(|_| {
            fatal_at(
                loc,
                &format!(
                    "the host part of kernel '{}' did not finish (its thread stopped); run with PTXRT_CPU_WEIGHT=0 to use the devices alone",
                    kernel.name
                ),
            )
        })
    }
}
