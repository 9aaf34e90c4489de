//! PTXRT_PROFILE=1: per kernel (with its source line) launches and time, per data construct
//! bytes and time in each direction, printed to stderr at exit (like nvc's NV_ACC_TIME).

use crate::mapping::Transfers;
use crate::registry::Kernel;
use crate::source_info::SourceLoc;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

#[derive(Default, Clone, Copy)]
struct KernelStat {
    launches: u64,
    total_ns: u64,
    max_ns: u64,
    min_ns: u64,
}

#[derive(Default)]
struct Profile {
    device: Option<String>,
    kernels: BTreeMap<(String, String), KernelStat>,
    data: BTreeMap<(String, String), Transfers>,
}

static ENABLED: AtomicBool = AtomicBool::new(false);
static REPORTED: AtomicBool = AtomicBool::new(false);
static PROFILE: Mutex<Option<Profile>> = Mutex::new(None);

fn lock() -> std::sync::MutexGuard<'static, Option<Profile>> {
    PROFILE.lock().unwrap_or_else(|p| p.into_inner())
}

extern "C" fn report_atexit() {
    report_at_exit();
}

pub fn enable(device: Option<String>) {
    *lock() = Some(Profile {
        device,
        ..Profile::default()
    });
    ENABLED.store(true, Ordering::Release);
    // SAFETY: registering a plain extern "C" function.
    unsafe { libc::atexit(report_atexit) };
}

#[inline]
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

pub fn kernel(k: &Kernel, ns: u64) {
    if !enabled() {
        return;
    }
    if let Some(p) = lock().as_mut() {
        let s = p
            .kernels
            .entry((k.source.clone(), k.name.clone()))
            .or_default();
        s.min_ns = if s.launches == 0 {
            ns
        } else {
            s.min_ns.min(ns)
        };
        s.launches += 1;
        s.total_ns += ns;
        s.max_ns = s.max_ns.max(ns);
    }
}

pub fn data(loc: &SourceLoc, t: &Transfers) {
    if !enabled() || *t == Transfers::default() {
        return;
    }
    if let Some(p) = lock().as_mut() {
        let d = p
            .data
            .entry((loc.to_string(), loc.function.clone()))
            .or_default();
        d.to_device_bytes += t.to_device_bytes;
        d.to_device_ns += t.to_device_ns;
        d.to_device_count += t.to_device_count;
        d.from_device_bytes += t.from_device_bytes;
        d.from_device_ns += t.from_device_ns;
        d.from_device_count += t.from_device_count;
    }
}

fn time(ns: u64) -> String {
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
    let mut out = String::new();
    out.push_str(&format!(
        "ptxrt profile: device {}\n",
        p.device.as_deref().unwrap_or("none (host fallback)")
    ));
    if p.kernels.is_empty() && p.data.is_empty() {
        out.push_str("  no kernels launched, no data moved\n");
    }
    if !p.kernels.is_empty() {
        out.push_str("  kernels:\n");
        for ((source, name), s) in &p.kernels {
            out.push_str(&format!(
                "    {source}: {name}\n      launches: {}  total: {}  mean: {}  min: {}  max: {}\n",
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
        for ((loc, func), d) in &p.data {
            let func = if func.is_empty() {
                String::new()
            } else {
                format!(" ({func})")
            };
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
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(out.as_bytes());
    let _ = err.flush();
}
