//! PTXRT_PROFILE=1: per kernel (with its source line) launches and time, per data construct
//! bytes and time in each direction, printed to stderr at exit (like nvc's NV_ACC_TIME).
//! PTXRT_PROFILE=json:PATH writes the same, and per device totals, as JSON to PATH
//! (`profile_json.rs`).

use crate::mapping::Transfers;
use crate::registry::Kernel;
use crate::source_info::SourceLoc;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

#[derive(Default, Clone, Copy)]
pub(crate) struct KernelStat {
    pub(crate) launches: u64,
    pub(crate) total_ns: u64,
    pub(crate) max_ns: u64,
    pub(crate) min_ns: u64,
}

/// Where the profile goes at exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// As text, on stderr (`PTXRT_PROFILE=1`).
    Text,
    /// As JSON, to this file (`PTXRT_PROFILE=json:PATH`).
    Json(String),
}

impl Output {
    /// The value of PTXRT_PROFILE (set, not "0"): `json:PATH`, else text.
    pub fn parse(v: &str) -> Result<Output, String> {
        match v.trim().strip_prefix("json:") {
            None => Ok(Output::Text),
            Some(p) if p.trim().is_empty() => Err(
                "PTXRT_PROFILE=json: needs a file name (PTXRT_PROFILE=json:profile.json)".into(),
            ),
            Some(p) => Ok(Output::Json(p.trim().to_string())),
        }
    }
}

/// One device, as PTXRT_PROFILE=json reports it.
#[derive(Clone, Debug, Default)]
pub struct DeviceStat {
    /// "emulator", "cuda".
    pub kind: String,
    pub label: String,
    pub h2d_bytes: u64,
    pub d2h_bytes: u64,
    /// Bytes this device received from other devices (`omp_target_memcpy` between devices).
    pub peer_bytes: u64,
    pub kernels: u64,
    pub kernel_ns: u64,
}

#[derive(Default)]
pub(crate) struct Profile {
    device: Option<String>,
    pub(crate) devices: Vec<DeviceStat>,
    /// (source, kernel name, device) → launches and times.
    pub(crate) kernels: BTreeMap<(String, String, i32), KernelStat>,
    /// (construct location, function, device) → transfers.
    pub(crate) data: BTreeMap<(String, String, i32), Transfers>,
    /// (source, kernel name) → its hybrid runs (`-fptxcc-hybrid`).
    pub(crate) hybrid: BTreeMap<(String, String), HybridStat>,
    /// (source, kernel name) → its launches the layout tuning chose between the kernel and its
    /// version for -fptxcc-layout=auto's layouts (`layout/tune.rs`).
    pub(crate) layouts: BTreeMap<(String, String), LayoutStat>,
}

/// One kernel whose launches ran in auto's layout or not, as `layout/tune.rs` chose.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LayoutStat {
    /// Launches and seconds in the original layout (the kernel) and in auto's (its version).
    pub(crate) original: (u64, f64),
    pub(crate) layout: (u64, f64),
    /// The seconds are the device's modelled clock (ptxsim), not the host's.
    pub(crate) modeled: bool,
}

/// One hybrid loop: the host's share and its last run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HybridStat {
    /// The host's share for the next run.
    pub(crate) cpu_share: f64,
    /// Runs with a host part.
    pub(crate) runs: u64,
    /// Runs the tuner learned from (0 with PTXRT_CPU_WEIGHT).
    pub(crate) tuned_runs: u64,
    pub(crate) last: crate::split::tune::Sample,
}

static ENABLED: AtomicBool = AtomicBool::new(false);
static REPORTED: AtomicBool = AtomicBool::new(false);
static PROFILE: Mutex<Option<Profile>> = Mutex::new(None);
static OUTPUT: Mutex<Option<Output>> = Mutex::new(None);

fn lock() -> std::sync::MutexGuard<'static, Option<Profile>> {
    PROFILE.lock().unwrap_or_else(|p| p.into_inner())
}

extern "C" fn report_atexit() {
    report_at_exit();
}

/// Starts profiling; `devices` are (label, kind) by device number.
pub fn enable(output: Output, devices: Vec<(String, String)>) {
    *lock() = Some(Profile {
        device: devices.first().map(|(label, _)| label.clone()),
        devices: devices
            .into_iter()
            .map(|(label, kind)| DeviceStat {
                kind,
                label,
                ..DeviceStat::default()
            })
            .collect(),
        ..Profile::default()
    });
    *OUTPUT.lock().unwrap_or_else(|p| p.into_inner()) = Some(output);
    ENABLED.store(true, Ordering::Release);
    // SAFETY: registering a plain extern "C" function.
    unsafe { libc::atexit(report_atexit) };
}

#[inline]
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

fn device_stat(p: &mut Profile, device: i32) -> Option<&mut DeviceStat> {
    usize::try_from(device)
        .ok()
        .and_then(|d| p.devices.get_mut(d))
}

/// Adds to the profile, when it is on.
fn record(f: impl FnOnce(&mut Profile)) {
    if !enabled() {
        return;
    }
    if let Some(p) = lock().as_mut() {
        f(p);
    }
}

/// A kernel of `ns` nanoseconds ran on device `device`.
pub fn kernel(k: &Kernel, device: i32, ns: u64) {
    record(|p| {
        if let Some(d) = device_stat(p, device) {
            d.kernels += 1;
            d.kernel_ns += ns;
        }
        let s = p
            .kernels
            .entry((k.source.clone(), k.name.clone(), device))
            .or_default();
        s.min_ns = if s.launches == 0 {
            ns
        } else {
            s.min_ns.min(ns)
        };
        s.launches += 1;
        s.total_ns += ns;
        s.max_ns = s.max_ns.max(ns);
    });
}

/// A run of hybrid loop `k`: `last`; the host's share is now `cpu_share`, learned from
/// `tuned_runs` runs.
pub fn hybrid(k: &Kernel, cpu_share: f64, tuned_runs: u64, last: &crate::split::tune::Sample) {
    record(|p| {
        let s = p
            .hybrid
            .entry((k.source.clone(), k.name.clone()))
            .or_insert(HybridStat {
                cpu_share,
                runs: 0,
                tuned_runs,
                last: *last,
            });
        s.cpu_share = cpu_share;
        s.runs += 1;
        s.tuned_runs = tuned_runs;
        s.last = *last;
    });
}

/// A launch of `k` (the kernel, not its version) the layout tuning chose for: it ran in auto's
/// layout (`in_layout`) or not, taking `elapsed`.
pub fn layout_launch(k: &Kernel, in_layout: bool, elapsed: crate::layout::tune::Elapsed) {
    record(|p| {
        let s = p
            .layouts
            .entry((k.source.clone(), k.name.clone()))
            .or_default();
        let side = if in_layout {
            &mut s.layout
        } else {
            &mut s.original
        };
        side.0 += 1;
        side.1 += elapsed.seconds;
        s.modeled = elapsed.modeled;
    });
}

/// `bytes` copied from another device to device `device`.
pub fn peer(device: i32, bytes: u64) {
    record(|p| {
        if let Some(d) = device_stat(p, device) {
            d.peer_bytes += bytes;
        }
    });
}

/// Copies made for data spread over the devices (`coherence/`), counted in device `device`'s
/// totals: `h2d` and `d2h` between it and the host part's memory, `peer` received from other
/// devices.
pub fn spread(device: i32, moved: &crate::coherence::windows::Moved) {
    if *moved == crate::coherence::windows::Moved::default() {
        return;
    }
    record(|p| {
        if let Some(d) = device_stat(p, device) {
            d.h2d_bytes += moved.h2d;
            d.d2h_bytes += moved.d2h;
            d.peer_bytes += moved.peer;
        }
    });
}

/// The copies a construct at `loc` made between the host and device `device`.
pub fn data(loc: &SourceLoc, device: i32, t: &Transfers) {
    if *t == Transfers::default() {
        return;
    }
    record(|p| {
        if let Some(d) = device_stat(p, device) {
            d.h2d_bytes += t.to_device_bytes;
            d.d2h_bytes += t.from_device_bytes;
        }
        let d = p
            .data
            .entry((loc.to_string(), loc.function.clone(), device))
            .or_default();
        d.to_device_bytes += t.to_device_bytes;
        d.to_device_ns += t.to_device_ns;
        d.to_device_count += t.to_device_count;
        d.from_device_bytes += t.from_device_bytes;
        d.from_device_ns += t.from_device_ns;
        d.from_device_count += t.from_device_count;
    });
}

pub(crate) fn time(ns: u64) -> String {
    if ns < 10_000 {
        format!("{ns} ns")
    } else if ns < 10_000_000 {
        format!("{:.1} us", ns as f64 / 1e3)
    } else if ns < 10_000_000_000 {
        format!("{:.1} ms", ns as f64 / 1e6)
    } else {
        format!("{:.2} s", ns as f64 / 1e9)
    }
}

/// Prints the profile once (at exit, or before an error exit).
pub fn report_at_exit() {
    if !enabled() || REPORTED.swap(true, Ordering::SeqCst) {
        return;
    }
    let Some(p) = lock().take() else { return };
    let output = OUTPUT.lock().unwrap_or_else(|p| p.into_inner()).clone();
    if let Some(Output::Json(path)) = output {
        if let Err(e) = std::fs::write(&path, crate::profile_json::render(&p)) {
            crate::errors::warn(&format!("PTXRT_PROFILE: cannot write {path}: {e}"));
        }
        return;
    }
    let several = p.devices.len() > 1;
    let mut out = String::new();
    if several {
        // Every device, not the first alone: the lines below name the one each entry used.
        let labels: Vec<&str> = p.devices.iter().map(|d| d.label.as_str()).collect();
        out.push_str(&format!(
            "ptxrt profile: {} devices: {}\n",
            labels.len(),
            labels.join(", ")
        ));
    } else {
        out.push_str(&format!(
            "ptxrt profile: device {}\n",
            p.device.as_deref().unwrap_or("none (host fallback)")
        ));
    }
    if p.kernels.is_empty() && p.data.is_empty() && p.hybrid.is_empty() && p.layouts.is_empty() {
        out.push_str("  no kernels launched, no data moved\n");
    }
    if !p.kernels.is_empty() {
        out.push_str("  kernels:\n");
        for ((source, name, device), s) in &p.kernels {
            let on = if several {
                format!(" (device {device})")
            } else {
                String::new()
            };
            out.push_str(&format!(
                "    {source}: {name}{on}\n      launches: {}  total: {}  mean: {}  min: {}  max: {}\n",
                s.launches,
                time(s.total_ns),
                time(s.total_ns / s.launches.max(1)),
                time(s.min_ns),
                time(s.max_ns)
            ));
        }
    }
    if !p.data.is_empty() {
        out.push_str("  data:\n");
        for ((loc, func, device), d) in &p.data {
            let mut func = if func.is_empty() {
                String::new()
            } else {
                format!(" ({func})")
            };
            if several {
                func.push_str(&format!(" (device {device})"));
            }
            out.push_str(&format!(
                "    {loc}{func}\n      host->device: {} bytes in {} copies, {}   device->host: {} bytes in {} copies, {}\n",
                d.to_device_bytes,
                d.to_device_count,
                time(d.to_device_ns),
                d.from_device_bytes,
                d.from_device_count,
                time(d.from_device_ns)
            ));
        }
    }
    if !p.hybrid.is_empty() {
        out.push_str("  hybrid loops (host share of the iterations):\n");
        for ((source, name), h) in &p.hybrid {
            out.push_str(&format!(
                "    {source}: {name}\n      runs: {}  cpu share: {:.3}{}  last run: host {} iterations in {}, devices {} in {}\n",
                h.runs,
                h.cpu_share,
                if h.tuned_runs > 0 {
                    format!(" (tuned over {} runs)", h.tuned_runs)
                } else {
                    " (PTXRT_CPU_WEIGHT)".to_string()
                },
                h.last.host_iters,
                time((h.last.host_s * 1e9) as u64),
                h.last.device_iters,
                time((h.last.device_s * 1e9) as u64)
            ));
        }
    }
    if !p.layouts.is_empty() {
        out.push_str(
            "  auto layouts (launches in the original layout / in auto's, as the tuning chose):\n",
        );
        for ((source, name), l) in &p.layouts {
            let mean = |(n, s): (u64, f64)| {
                if n == 0 {
                    "-".to_string()
                } else {
                    time((s / n as f64 * 1e9) as u64)
                }
            };
            out.push_str(&format!(
                "    {source}: {name}\n      original: {} launches, mean {}   auto's layout: {} launches, mean {}{}\n",
                l.original.0,
                mean(l.original),
                l.layout.0,
                mean(l.layout),
                if l.modeled {
                    " (the device's modelled clock)"
                } else {
                    ""
                }
            ));
        }
    }
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(out.as_bytes());
    let _ = err.flush();
}
