//! One loop kernel split over every device (`-fptxcc-multi-device`, issue 19).
//!
//! The compiler made the kernel splittable (passes `split_range.rs`): it runs the iterations
//! `[lo, hi)` of its loop that its image's global `__ptxcc_split_<kernel>` holds. Here the
//! iterations `[0, tripcount)` are cut into one block per device (`partition`, weighted by
//! `PTXRT_DEVICE_WEIGHTS`), and each device runs its block on its own copy of the data:
//!
//! ```text
//!   for each device d with a part:   copy in every mapped array (to and from items)
//!                                    global := [lo_d, hi_d) ; launch (on d's queue)
//!   wait for all ; global := [0, MAX) on every device
//!   for each from item:              result := host bytes; for each d, the bytes d changed
//!                                    replace them (two devices changing one byte to different
//!                                    values is an error: the iterations were not independent)
//! ```
//!
//! Reductions and atomic updates (`split/combine.rs`) are not merged but combined: each
//! device's copy starts at the operation's identity and the host folds the parts into its
//! value in device order.
//!
//! The merge needs no knowledge of what each part writes: a byte a part did not write is the
//! host's on its device, so the bytes that differ are the part's results (a result equal to the
//! old value is the old value). With the kernel's access ranges (`ranges.rs`, `part_data.rs`)
//! each part moves only the bytes it reads or writes, and only its write ranges are compared.
//!
//! Not split (the kernel runs on the construct's device as before; `PTXRT_DEBUG=1` says why):
//! one device, `PTXRT_SPLIT=off`, an explicit `device(n)`, a default device an MPI launcher
//! bound to this rank (`default_device.rs`), `nowait`, a user-defined mapper, an
//! unknown trip count, map types other than to/from/tofrom/alloc and by-value arguments
//! (`always`, `delete`, `present`, firstprivate aggregates, pointer members), data present
//! on another device than the construct's or partly present, and mapped data without a kernel
//! argument other than bystanders (`bystanders.rs`: present data the kernel cannot reach, left
//! out of the split).
//!
//! Data an enclosing data region mapped (present on the construct's device, the *origin*) is
//! current there, not on the host. When the kernel's access ranges say what each part touches,
//! such data is *spread* (`coherence/present.rs`): the origin's part runs on the present copy
//! itself, every other device's part on its window of the array, which it keeps across launches;
//! before a part runs only the bytes its window lacks are copied in (peer copies: from the
//! device that holds them, else from the present copy), and nothing is merged: each byte a part
//! wrote is current on that device only, until a later part reads it or anything else uses the
//! origin device (which first brings every such byte home). A Jacobi iterated in a data region
//! therefore moves halo rows per sweep. Spread data needs the parts' write ranges to be
//! disjoint, and its own present entry (no other item of the construct in it); otherwise, under
//! `PTXRT_DEBUG=1` (which checks the ranges on whole sections) and with a host part, it is read
//! whole from the origin (after bringing it home) and the merged result is written back there.

use super::bystanders;
use super::combine::Combine;
use super::hybrid::{self, Init, InitSource};
use super::part_data;
use super::ranges::Touched;
use super::spread;
use super::tune;
use super::{align_blocks, parse_weights, partition, round_to, SplitMode};
use crate::abi::KernelArgs;
use crate::coherence::present::PresentSpread;
use crate::coherence::range_set::RangeSet;
use crate::device::{LaunchDims, QueueHandle};
use crate::errors::fatal_at;
use crate::launch_config::{self, Request};
use crate::mapping::{MapItem, Transfers};
use crate::present_table::{DevAddr, Lookup};
use crate::profile;
use crate::registry::Kernel;
use crate::runtime::{self, DeviceState, Runtime};
use crate::source_info::SourceLoc;
use std::ops::Range;
use std::sync::{OnceLock, RwLock, RwLockReadGuard};
use std::time::Instant;

/// A split launch writes the split globals, which the emulator's devices share; launches of
/// splittable kernels that do not split read them. Split launches hold this exclusively.
static SPLIT_GLOBALS: RwLock<()> = RwLock::new(());

/// Held by a launch of a splittable kernel that runs unsplit, so that no split launch changes
/// the range it reads.
pub(crate) fn unsplit_guard(k: &Kernel) -> Option<RwLockReadGuard<'static, ()>> {
    k.split_global
        .map(|_| SPLIT_GLOBALS.read().unwrap_or_else(|p| p.into_inner()))
}

/// `PTXRT_SPLIT`, read once.
fn split_mode(loc: &SourceLoc) -> SplitMode {
    static MODE: OnceLock<Result<SplitMode, String>> = OnceLock::new();
    match MODE.get_or_init(|| SplitMode::parse(std::env::var("PTXRT_SPLIT").ok().as_deref())) {
        Ok(m) => *m,
        Err(e) => fatal_at(loc, e),
    }
}

/// `PTXRT_DEVICE_WEIGHTS`, read once.
fn weights(loc: &SourceLoc, devices: usize) -> Vec<u64> {
    static WEIGHTS: OnceLock<Result<Vec<u64>, String>> = OnceLock::new();
    match WEIGHTS.get_or_init(|| {
        parse_weights(
            std::env::var("PTXRT_DEVICE_WEIGHTS").ok().as_deref(),
            devices,
        )
    }) {
        Ok(w) => w.clone(),
        Err(e) => fatal_at(loc, e),
    }
}

/// What a construct asks for, as far as the split decides.
pub(crate) struct Construct<'a> {
    pub loc: &'a SourceLoc,
    /// The construct's device (the default device): its copies of data already present are
    /// the current ones, and the parts' results go back to them.
    pub origin: &'a DeviceState,
    pub kernel: &'a Kernel,
    pub device_id: i64,
    pub nowait: bool,
    pub user_mappers: bool,
    pub num_teams: i32,
    pub thread_limit: i32,
    pub args: &'a KernelArgs,
    /// The kernel's parameters' items, in order (clang's map list).
    pub items: &'a [MapItem],
}

/// The items, with each pointer that reaches the construct without an extent (a zero-length
/// section: a pointer into data an enclosing data region mapped) given the extent of the
/// present section it points into: the kernel can reach no other bytes through it.
fn widen(c: &Construct<'_>) -> Vec<MapItem> {
    let table = c.origin.lock_table();
    c.items
        .iter()
        .map(|it| {
            if it.ty.literal() || it.bytes != 0 {
                return it.clone();
            }
            match table.lookup(it.begin, 0) {
                Lookup::Contained(k) => match table.get(k) {
                    Some(e) => MapItem {
                        begin: e.host_begin,
                        bytes: (e.host_end - e.host_begin) as u64,
                        ..it.clone()
                    },
                    None => it.clone(),
                },
                _ => it.clone(),
            }
        })
        .collect()
}

/// Why a splittable kernel runs on one device this time, or None when it can split.
fn why_not(rt: &Runtime, c: &Construct<'_>, host_part: bool) -> Option<String> {
    c.kernel.split_global?;
    if rt.devices.len() < 2 && !host_part {
        return Some("one device".into());
    }
    if split_mode(c.loc) == SplitMode::Off {
        return Some("PTXRT_SPLIT=off".into());
    }
    if c.device_id != -1 {
        return Some(format!("the construct names device {}", c.device_id));
    }
    if let Some(why) = rt.rank_bound_device() {
        return Some(why);
    }
    if c.nowait {
        return Some("nowait".into());
    }
    if c.user_mappers {
        return Some("a user-defined mapper".into());
    }
    if c.args.tripcount == 0 {
        return Some("the loop's trip count is not known at the launch".into());
    }
    if let Some(why) = super::access_maps::overlapping(c.items) {
        return Some(why);
    }
    for (i, it) in c.items.iter().enumerate() {
        if combine_of(c.kernel, i).is_some() && it.ty.literal() {
            return Some(format!("{} is combined but passed by value", it.name));
        }
        if it.ty.literal()
            && i < 64
            && c.kernel.ptr_params & (1 << i) != 0
            && !super::access_maps::never_dereferenced(c.kernel, c.items, c.args.tripcount, i)
        {
            return Some(format!(
                "{} is a pointer passed by value (is_device_ptr, deviceptr): it points into one device's memory",
                it.name
            ));
        }
        if !it.ty.target_param() {
            return Some(format!(
                "{} is mapped without being a kernel argument",
                it.name
            ));
        }
        if it.ty.literal() {
            continue;
        }
        let t = it.ty;
        if t.always()
            || t.delete()
            || t.ptr_and_obj()
            || t.private()
            || t.non_contiguous()
            || t.member_of().is_some()
            || t.return_param()
        {
            return Some(format!(
                "{} has a map type the split does not take",
                it.name
            ));
        }
        if it.bytes == 0 {
            return Some(format!("{} has no mapped extent", it.name));
        }
        if let Some(k) = combine_of(c.kernel, i) {
            if !(it.bytes as usize).is_multiple_of(k.elem.bytes()) {
                return Some(format!(
                    "{} is combined by {}-byte elements but maps {} bytes",
                    it.name,
                    k.elem.bytes(),
                    it.bytes
                ));
            }
        }
        // `present` (OpenACC's present clause, a data region's arrays): the construct's device
        // must hold the whole item, as the present table below says for it; else the launch
        // stays whole, where the missing data is the error it must be.
        if t.present()
            && !matches!(
                c.origin.lock_table().lookup(it.begin, it.bytes),
                Lookup::Contained(_)
            )
        {
            return Some(format!(
                "{} is map(present) but not present on the construct's device {}",
                it.name, c.origin.number
            ));
        }
        for d in &rt.devices {
            let table = d.lock_table();
            match table.lookup(it.begin, it.bytes) {
                Lookup::Absent => {}
                Lookup::Contained(k) if std::ptr::eq(d, c.origin) => {
                    if table
                        .get(k)
                        .is_some_and(|e| e.shadows_in(it.begin, it.bytes).next().is_some())
                    {
                        return Some(format!(
                            "{} holds pointers attached to device {}'s memory",
                            it.name, d.number
                        ));
                    }
                }
                Lookup::Contained(_) => {
                    return Some(format!(
                        "{} is present on device {}, not on the construct's device {}",
                        it.name, d.number, c.origin.number
                    ))
                }
                Lookup::Overlaps(_) => {
                    return Some(format!(
                        "{} is partly present on device {} (a section that overlaps a mapped one)",
                        it.name, d.number
                    ))
                }
            }
        }
    }
    None
}

/// How the parts of parameter `param` are combined, when they are.
pub(crate) fn combine_of(k: &Kernel, param: usize) -> Option<Combine> {
    k.combines.iter().find(|c| c.param == param).copied()
}

/// Where an argument's current bytes are, and where the parts' result goes.
enum Source {
    /// Host memory: the item's own bytes (mapped by this construct).
    Host,
    /// The origin device's copy of data an enclosing data region mapped, at this address; the
    /// bytes are read once, before the parts start.
    Present { addr: DevAddr, bytes: Vec<u8> },
    /// Data an enclosing data region mapped, spread over the devices (`coherence/present.rs`):
    /// the origin's part runs on its present copy, the others on their windows, and nothing is
    /// merged (`SpreadItems` says where the item is in its array).
    Spread,
}

impl Source {
    /// The item's current bytes (None: spread, no single place holds them).
    ///
    /// # Safety
    /// For `Host`, the item's extent must be valid host memory.
    unsafe fn bytes<'b>(&'b self, it: &MapItem) -> Option<&'b [u8]> {
        match self {
            Source::Host => Some(std::slice::from_raw_parts(
                it.begin as *const u8,
                it.bytes as usize,
            )),
            Source::Present { bytes, .. } => Some(bytes),
            Source::Spread => None,
        }
    }
}

/// The source of each item (None: a by-value argument), the present ones read from the
/// construct's device (after bringing home what a spread array holds elsewhere), except the
/// spread ones.
fn sources(
    rt: &Runtime,
    c: &Construct<'_>,
    spread_items: &spread::SpreadItems,
    spread: &mut PresentSpread,
    transfers: &mut Transfers,
) -> Vec<Option<Source>> {
    let mut out = Vec::with_capacity(c.items.len());
    for (i, it) in c.items.iter().enumerate() {
        if it.ty.literal() {
            out.push(None);
            continue;
        }
        if spread_items[i].is_some() {
            out.push(Some(Source::Spread));
            continue;
        }
        let key = {
            let table = c.origin.lock_table();
            match table.lookup(it.begin, it.bytes) {
                Lookup::Contained(k) => table
                    .get(k)
                    .map(|e| e.device_begin + (it.begin - e.host_begin) as DevAddr),
                _ => None,
            }
        };
        let Some(addr) = key else {
            out.push(Some(Source::Host));
            continue;
        };
        // A tracked array whose item is not spread this time: its home copy first.
        let array = spread.data().directory().array_at(it.begin as u64);
        if let Some(array) = array {
            // SAFETY: the runtime's devices; the array's home is the origin's present copy.
            match unsafe { spread.settle_array(&spread::place_refs(rt), array) } {
                Ok(m) => profile::spread(c.origin.number, &m),
                Err(e) => device_fatal(c, c.origin, &format!("to bring {} home", it.name), e),
            }
        }
        let mut bytes = vec![0u8; it.bytes as usize];
        let t = Instant::now();
        // SAFETY: the buffer holds the item's bytes; the device range is the present entry's.
        unsafe {
            c.origin
                .device
                .copy_from_device(bytes.as_mut_ptr(), addr, it.bytes)
        }
        .unwrap_or_else(|e| device_fatal(c, c.origin, &format!("to read {}", it.name), e));
        transfers.from_device(it.bytes, t);
        out.push(Some(Source::Present { addr, bytes }));
    }
    out
}

/// Writes an item's result where its source is: host memory, or the origin device's copy.
///
/// # Safety
/// For `Host`, the item's extent must be valid host memory.
unsafe fn write_back(
    c: &Construct<'_>,
    it: &MapItem,
    source: &Source,
    result: &[u8],
    changed: &RangeSet,
    t: &mut Transfers,
) {
    match source {
        Source::Host => {
            std::ptr::copy_nonoverlapping(result.as_ptr(), it.begin as *mut u8, result.len())
        }
        // Only the spans the parts may have changed: the rest is the device's already.
        Source::Present { addr, .. } => {
            part_data::copy_in(c.origin.device.as_ref(), *addr, result, changed, t).unwrap_or_else(
                |e| device_fatal(c, c.origin, &format!("to write {} back", it.name), e),
            );
        }
        // Current where each part wrote it (merge_results skips it).
        Source::Spread => {}
    }
}

/// One device's part while it runs.
struct Part<'a> {
    dev: &'a DeviceState,
    iters: Range<u64>,
    /// The device copy of each item (None: a by-value argument).
    copies: Vec<Option<DevAddr>>,
    queue: QueueHandle,
    global: DevAddr,
    transfers: Transfers,
    started: Instant,
    /// What the part reads and writes of each item (access ranges); None: whole sections.
    touched: Option<Vec<Touched>>,
}

/// Runs the construct split over every device when it can; false: run it as usual.
///
/// # Safety
/// The items must describe host memory that is valid for their extents (clang's map arrays).
pub(crate) unsafe fn try_split(rt: &Runtime, c: &Construct<'_>) -> bool {
    if c.kernel.split_global.is_none() {
        return false;
    }
    // With one device and no host part nothing splits: no need to look up the items (every
    // launch comes here).
    let widened;
    let c = if rt.devices.len() > 1 || c.kernel.host_part.is_some() {
        let items = widen(c);
        // What the kernel cannot reach stays out of the split (`bystanders.rs`).
        let kept = bystanders::without_bystanders(&items, &c.origin.lock_table());
        widened = kept.unwrap_or(items);
        &Construct {
            items: &widened,
            ..*c
        }
    } else {
        c
    };
    let host_part = c
        .kernel
        .host_part
        .filter(|_| split_mode(c.loc) == SplitMode::On);
    if let Some(why) = why_not(rt, c, host_part.is_some()) {
        if c.kernel.split_global.is_some() && runtime::debug_enabled() {
            eprintln!(
                "ptxrt: split {}: kernel '{}' runs on one device: {why}",
                c.loc, c.kernel.name
            );
        }
        return false;
    }
    let Some(global_index) = c.kernel.split_global else {
        return false;
    };
    let trips = c.args.tripcount;
    // The host's share (hybrid.rs, tune.rs): the last `host_n` iterations.
    let (share, tuned) = match host_part {
        Some(_) => hybrid::share(c.kernel, c.loc, rt.devices.len()),
        None => (0.0, false),
    };
    // Parts of a collapsed loop start at whole planes of its outer index where they can: their
    // write ranges then share no plane (and spread data needs disjoint writes).
    let plane = c
        .kernel
        .accesses
        .as_ref()
        .and_then(|t| t.outer_divisor(&part_data::arguments(c.items)))
        .unwrap_or(1);
    let host_n = tune::host_iterations(trips, share);
    // The devices' share ends at a plane too, when that leaves both sides some.
    let host_n = match round_to(trips - host_n, plane) {
        aligned if plane > 1 && host_n > 0 && aligned > 0 && aligned < trips => trips - aligned,
        _ => host_n,
    };
    let host_part = host_part.filter(|_| host_n > 0);
    if host_part.is_none() && rt.devices.len() < 2 {
        if runtime::debug_enabled() {
            eprintln!(
                "ptxrt: split {}: kernel '{}' runs on one device: the host's share of {trips} iterations is none",
                c.loc, c.kernel.name
            );
        }
        return false;
    }
    let device_trips = trips - host_n;
    let _exclusive = SPLIT_GLOBALS.write().unwrap_or_else(|p| p.into_inner());
    // An unsplit launch of a kernel of the same image may still be queued (`nowait`): it reads
    // the split global when it runs, so it must have run before the global changes.
    for d in &rt.devices {
        d.device
            .synchronize()
            .unwrap_or_else(|e| device_fatal(c, d, "finishing its queued work", e));
    }
    let mut origin_transfers = Transfers::default();
    let blocks = align_blocks(
        partition(device_trips, &weights(c.loc, rt.devices.len())),
        plane,
    );
    let origin = rt
        .devices
        .iter()
        .position(|d| std::ptr::eq(d, c.origin))
        .unwrap_or(0);
    // What each place's part touches: the devices' blocks, then the host part's.
    let host_iters = device_trips..trips;
    let touched: Vec<Option<Vec<Touched>>> = blocks
        .iter()
        .map(|b| (!b.is_empty()).then_some(b.clone()))
        .chain(std::iter::once(host_part.and(Some(host_iters.clone()))))
        .map(|b| b.and_then(|b| part_data::touched(c.kernel, c.items, b)))
        .collect();
    if runtime::debug_enabled() {
        if let Some(table) = &c.kernel.accesses {
            let args = part_data::arguments(c.items);
            for b in blocks
                .iter()
                .filter(|b| !table.exact_over(&args, (*b).clone()))
            {
                eprintln!(
                    "ptxrt: split {}: kernel '{}', iterations [{}, {}): an int value of its \
                     subscripts may leave its range there: its accesses are whole sections",
                    c.loc, c.kernel.name, b.start, b.end
                );
            }
        }
    }
    // Data present on the origin stays spread over the places between launches when each part
    // says what it touches. PTXRT_DEBUG=1 merges whole sections, to check the compiler's
    // ranges: then the present data is settled first and merged as before.
    let coherent = !runtime::debug_enabled() && touched.iter().flatten().count() > 0;
    if !coherent {
        c.origin.settle_spread();
    }
    let mut spread_guard = coherent.then(|| c.origin.lock_spread());
    let mut none = PresentSpread::new();
    let (spread_items, sources, bases) = {
        let sp = spread_guard.as_deref_mut().unwrap_or(&mut none);
        let items = if coherent {
            spread::spread_items(rt, c, origin, &touched, sp)
        } else {
            vec![None; c.items.len()]
        };
        let sources = sources(rt, c, &items, sp, &mut origin_transfers);
        // Every part's spread data is in place before any part runs.
        let bases = spread::prepare(rt, c, origin, &touched, &items, sp);
        (items, sources, bases)
    };
    // Not held while the parts run: the host part runs the program's host code.
    drop(spread_guard);
    let started = Instant::now();
    // The host part runs on the runtime's worker thread while this one drives the devices.
    // SAFETY: the sources it copies from (host memory, `sources`) and its spread windows
    // outlive the wait below.
    let host_run = host_part.map(|part| {
        let inits = host_inits(c, &sources, &bases[rt.devices.len()]);
        hybrid::start(&part, inits, host_iters.clone())
    });
    let mut parts: Vec<Part<'_>> = Vec::new();
    for (di, (dev, iters)) in rt.devices.iter().zip(blocks).enumerate() {
        if iters.is_empty() {
            continue;
        }
        parts.push(start_part(
            c,
            dev,
            iters,
            global_index,
            &sources,
            touched[di].clone(),
            &bases[di],
        ));
    }
    if runtime::debug_enabled() {
        let list: Vec<String> = parts
            .iter()
            .map(|p| {
                format!(
                    "[{}, {}) on device {}",
                    p.iters.start, p.iters.end, p.dev.number
                )
            })
            .collect();
        let host = match &host_run {
            Some(h) => format!(
                "{}[{}, {}) on the host",
                if list.is_empty() { "" } else { ", " },
                h.iters.start,
                h.iters.end
            ),
            None => String::new(),
        };
        eprintln!(
            "ptxrt: split {}: kernel '{}', {trips} iterations: {}{host}",
            c.loc,
            c.kernel.name,
            list.join(", ")
        );
    }
    for p in &mut parts {
        finish_part(c, p);
    }
    let device_time = started.elapsed();
    let host_done = host_run.map(|h| (h.iters.clone(), h.wait(c.loc, c.kernel)));
    if coherent {
        let mut sp = c.origin.lock_spread();
        spread::record_writes(c, origin, &touched, &spread_items, &mut sp);
        c.origin.spread_changed(&sp);
    }
    if let Some((iters, done)) = &host_done {
        hybrid::record(
            c.kernel,
            tuned,
            share,
            tune::Sample {
                host_iters: iters.end - iters.start,
                host_s: done.elapsed.as_secs_f64(),
                device_iters: device_trips,
                device_s: device_time.as_secs_f64(),
            },
        );
    }
    let host_touched = touched.last().and_then(|t| t.as_ref());
    merge_results(
        c,
        &mut parts,
        host_done.as_ref().map(|(_, d)| (d, host_touched)),
        &sources,
        &mut origin_transfers,
    );
    for p in parts {
        for a in p.copies.into_iter().flatten() {
            if let Err(e) = p.dev.device.free(a) {
                crate::errors::warn(&format!(
                    "{}: could not free a split copy on device {}: {e}",
                    c.loc,
                    p.dev.label()
                ));
            }
        }
        profile::data(c.loc, p.dev.number, &p.transfers);
    }
    profile::data(c.loc, c.origin.number, &origin_transfers);
    true
}

pub(crate) fn device_fatal(
    c: &Construct<'_>,
    dev: &DeviceState,
    what: &str,
    e: impl std::fmt::Display,
) -> ! {
    fatal_at(
        c.loc,
        &format!(
            "kernel '{}' split over devices: device {} failed {what}: {e} (run with PTXRT_SPLIT=off to use one device)",
            c.kernel.name,
            dev.label()
        ),
    )
}

/// Copies the part's data in, sets its range and launches it on `dev`.
unsafe fn start_part<'a>(
    c: &Construct<'_>,
    dev: &'a DeviceState,
    iters: Range<u64>,
    global_index: usize,
    sources: &[Option<Source>],
    touched: Option<Vec<Touched>>,
    spread_at: &[Option<DevAddr>],
) -> Part<'a> {
    let Some(lk) = dev.loaded_kernel(c.kernel) else {
        device_fatal(
            c,
            dev,
            "to load the kernel",
            "it is missing from the device's image",
        )
    };
    let Some(global) = dev.loaded_global(c.kernel.image, global_index) else {
        device_fatal(
            c,
            dev,
            "to find the loop's split range",
            "the image has no such global",
        )
    };
    let d = dev.device.as_ref();
    let mut transfers = Transfers::default();
    // PTXRT_DEBUG=1: whole sections in, so that merge_results can check the write ranges.
    let check = runtime::debug_enabled();
    let mut copies = Vec::with_capacity(c.items.len());
    let mut params = Vec::with_capacity(c.items.len());
    for (i, it) in c.items.iter().enumerate() {
        if it.ty.literal() {
            copies.push(None);
            params.push(it.base as u64);
            continue;
        }
        if let Some(at) = spread_at[i] {
            // Spread data: the part runs on the origin's present copy or its window of it.
            copies.push(None);
            params.push(at.wrapping_add((it.base as u64).wrapping_sub(it.begin as u64)));
            continue;
        }
        let a = d
            .alloc(it.bytes)
            .unwrap_or_else(|e| device_fatal(c, dev, &format!("to allocate {}", it.name), e));
        copies.push(Some(a));
        if let Some(k) = combine_of(c.kernel, i) {
            // A combined argument starts at the identity: the part computes its own share.
            let fill: Vec<u8> = k.identity().repeat(it.bytes as usize / k.elem.bytes());
            let t = Instant::now();
            d.copy_to_device(a, fill.as_ptr(), it.bytes)
                .unwrap_or_else(|e| device_fatal(c, dev, &format!("to copy {} in", it.name), e));
            transfers.to_device(it.bytes, t);
        } else if let Some(source) = sources[i]
            .as_ref()
            .filter(|s| matches!(s, Source::Present { .. }) || it.ty.to() || it.ty.from())
        {
            // `from` items too: the bytes the part does not write must read as the source's.
            // With access ranges, only the spans the part reads or writes.
            let spans = match &touched {
                Some(t) if !check => t[i].needed(),
                _ => part_data::whole(it),
            };
            let Some(bytes) = source.bytes(it) else {
                device_fatal(
                    c,
                    dev,
                    &format!("to copy {} in", it.name),
                    "internal error: a spread item has no single source",
                )
            };
            part_data::copy_in(d, a, bytes, &spans, &mut transfers)
                .unwrap_or_else(|e| device_fatal(c, dev, &format!("to copy {} in", it.name), e));
        }
        params.push(a.wrapping_add((it.base as u64).wrapping_sub(it.begin as u64)));
    }
    let range = [iters.start, iters.end];
    d.copy_to_device(global, range.as_ptr() as *const u8, 16)
        .unwrap_or_else(|e| device_fatal(c, dev, "to set the loop's split range", e));
    let a = c.args;
    let mut req = Request::new(
        c.num_teams,
        c.thread_limit,
        a.num_teams[0],
        a.thread_limit[0],
        iters.end - iters.start,
        a.dyn_cgroup_mem,
    );
    req.resident_threads = lk
        .suggested_block
        .zip(lk.resident_blocks)
        .map(|(b, n)| b as u64 * n as u64);
    let limits = d.limits();
    let rt = runtime::get();
    let choice = launch_config::choose_explained(
        c.kernel.exec_mode,
        &req,
        lk.suggested_block,
        &limits,
        &rt.overrides,
    );
    let dims: LaunchDims = choice.dims;
    let queue = dev.queues.thread_queue(d);
    let started = Instant::now();
    d.launch_on(queue, &lk, &params, &dims)
        .unwrap_or_else(|e| device_fatal(c, dev, "to launch its part", e));
    Part {
        dev,
        iters,
        copies,
        queue,
        global,
        transfers,
        started,
        touched,
    }
}

/// Waits for the part and gives its device back the whole-loop range.
fn finish_part(c: &Construct<'_>, p: &mut Part<'_>) {
    let d = p.dev.device.as_ref();
    d.queue_synchronize(p.queue)
        .unwrap_or_else(|e| device_fatal(c, p.dev, "running its part", e));
    profile::kernel(
        c.kernel,
        p.dev.number,
        p.started.elapsed().as_nanos() as u64,
    );
    let whole = [0u64, u64::MAX];
    // SAFETY: the global is 16 bytes of device memory (split_range::GLOBAL_BYTES).
    unsafe { d.copy_to_device(p.global, whole.as_ptr() as *const u8, 16) }
        .unwrap_or_else(|e| device_fatal(c, p.dev, "to reset the loop's split range", e));
}

/// Reads part `p`'s copy of item `i` into `buf` (its size); false: the part has no copy.
fn read_copy(c: &Construct<'_>, p: &mut Part<'_>, i: usize, buf: &mut [u8]) -> bool {
    let Some(a) = p.copies[i] else { return false };
    let it = &c.items[i];
    let t = Instant::now();
    // SAFETY: `buf` holds the item's bytes; `a` is the part's device copy of that size.
    unsafe { p.dev.device.copy_from_device(buf.as_mut_ptr(), a, it.bytes) }
        .unwrap_or_else(|e| device_fatal(c, p.dev, &format!("to copy {} out", it.name), e));
    p.transfers.from_device(it.bytes, t);
    true
}

/// The host part's copies of the items: by-value arguments as they are, combined ones at the
/// identity, the others copied from their source (host memory, or the origin device's bytes).
fn host_inits(
    c: &Construct<'_>,
    sources: &[Option<Source>],
    spread_at: &[Option<DevAddr>],
) -> Vec<Init> {
    c.items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let offset = (it.base as u64).wrapping_sub(it.begin as u64);
            let source = match (&sources[i], combine_of(c.kernel, i)) {
                (None, _) => InitSource::Value(it.base as u64),
                (Some(_), Some(k)) => InitSource::Fill {
                    element: k.identity(),
                    bytes: it.bytes as usize,
                },
                (Some(Source::Host), None) => InitSource::Copy {
                    from: it.begin,
                    bytes: it.bytes as usize,
                },
                (Some(Source::Present { bytes, .. }), None) => InitSource::Copy {
                    from: bytes.as_ptr() as usize,
                    bytes: bytes.len(),
                },
                // Spread data: the host part's window of it, in host memory.
                (Some(Source::Spread), None) => match spread_at[i] {
                    Some(at) => InitSource::Direct(at),
                    None => fatal_at(
                        c.loc,
                        &format!(
                            "internal error: kernel '{}': the host part has no window of {}; \
                             please report this. Run with PTXRT_SPLIT=off to use one device",
                            c.kernel.name, it.name
                        ),
                    ),
                },
            };
            Init { source, offset }
        })
        .collect()
}

/// A part's results, as the merge reads them: a device's copies, or the host part's.
enum PartCopy<'p, 'a> {
    Device(&'p mut Part<'a>),
    /// The host part's copies, and what it touches (None: whole sections).
    Host(&'p hybrid::Finished, Option<&'p Vec<Touched>>),
}

impl PartCopy<'_, '_> {
    /// Reads the part's copy of item `i` into `buf`; false: it has none.
    fn read(&mut self, c: &Construct<'_>, i: usize, buf: &mut [u8]) -> bool {
        match self {
            PartCopy::Device(p) => read_copy(c, p, i, buf),
            PartCopy::Host(h, _) => match h.copies.get(i).and_then(|c| c.as_ref()) {
                Some(copy) if copy.len() == buf.len() => {
                    buf.copy_from_slice(copy);
                    true
                }
                _ => false,
            },
        }
    }

    /// Reads the spans the part may have written of item `i` into `buf` and returns them (its
    /// access ranges, or the whole section); None: the part has no copy. The host part's copy
    /// is whole and in host memory: all of it is compared.
    fn read_written(
        &mut self,
        c: &Construct<'_>,
        i: usize,
        buf: &mut [u8],
        host: &[u8],
    ) -> Option<RangeSet> {
        let it = &c.items[i];
        match self {
            PartCopy::Device(p) => {
                let written = match &p.touched {
                    Some(t) => t[i].written.clone(),
                    None => part_data::whole(it),
                };
                read_written(c, p, i, buf, &written, host).then_some(written)
            }
            PartCopy::Host(_, touched) => {
                // Its access ranges, except under PTXRT_DEBUG=1 (whole copies compared).
                let written = match touched {
                    Some(t) if !runtime::debug_enabled() => t[i].written.clone(),
                    _ => part_data::whole(it),
                };
                self.read(c, i, buf).then_some(written)
            }
        }
    }

    fn number(&self) -> Option<i32> {
        match self {
            PartCopy::Device(p) => Some(p.dev.number),
            PartCopy::Host(..) => None,
        }
    }
}

/// "devices 0 and 1", "device 0 and the host".
fn two_parts(a: Option<i32>, b: Option<i32>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!("devices {a} and {b}"),
        (Some(d), None) | (None, Some(d)) => format!("device {d} and the host"),
        (None, None) => "the host".into(),
    }
}

/// Brings every `from` item back: the host's bytes, with each part's changes laid over them,
/// or, for a combined argument, the host's value folded with every part's in device order
/// (the host part, which holds the last iterations, last).
///
/// # Safety
/// As `try_split`.
unsafe fn merge_results(
    c: &Construct<'_>,
    parts: &mut [Part<'_>],
    host: Option<(&hybrid::Finished, Option<&Vec<Touched>>)>,
    sources: &[Option<Source>],
    origin_transfers: &mut Transfers,
) {
    let mut all: Vec<PartCopy<'_, '_>> = parts
        .iter_mut()
        .map(PartCopy::Device)
        .chain(host.map(|(h, t)| PartCopy::Host(h, t)))
        .collect();
    for (i, it) in c.items.iter().enumerate() {
        let Some(source) = &sources[i] else { continue };
        // A present item's copy is the construct's data whatever the map type says.
        if matches!(source, Source::Host) && !it.ty.from() {
            continue;
        }
        let n = it.bytes as usize;
        // Spread data is current where each part wrote it: nothing to merge.
        let Some(host) = source.bytes(it) else {
            continue;
        };
        if let Some(k) = combine_of(c.kernel, i) {
            let mut acc = host.to_vec();
            let mut buf = vec![0u8; n];
            for p in all.iter_mut() {
                if p.read(c, i, &mut buf) {
                    k.fold(&mut acc, &buf);
                }
            }
            write_back(c, it, source, &acc, &part_data::whole(it), origin_transfers);
            continue;
        }
        let mut result = host.to_vec();
        // Which part changed each byte so far (for the message when two disagree).
        let mut owner: Vec<u16> = vec![u16::MAX; n];
        let mut buf = vec![0u8; n];
        let numbers: Vec<Option<i32>> = all.iter().map(PartCopy::number).collect();
        let mut changed = RangeSet::new();
        for (pi, p) in all.iter_mut().enumerate() {
            let Some(written) = p.read_written(c, i, &mut buf, host) else {
                continue;
            };
            changed = changed.union(&written);
            let bytes = written
                .spans()
                .iter()
                .flat_map(|s| s.start as usize..s.end as usize);
            for j in bytes {
                let (b, h) = (buf[j], host[j]);
                if b == h {
                    continue;
                }
                if owner[j] != u16::MAX && result[j] != b {
                    fatal_at(
                        c.loc,
                        &format!(
                            "kernel '{}' split over devices: {} wrote different values to byte {j} \
                             of {}: the loop's iterations are not independent. Run it on one device \
                             (PTXRT_SPLIT=off, or compile without -fptxcc-multi-device)",
                            c.kernel.name,
                            two_parts(numbers[owner[j] as usize], numbers[pi]),
                            it.name
                        ),
                    );
                }
                result[j] = b;
                owner[j] = pi as u16;
            }
        }
        write_back(c, it, source, &result, &changed, origin_transfers);
    }
}

/// Reads the spans `written` of part `p`'s copy of item `i` into the same places of `buf`;
/// false: the part has no copy. With `PTXRT_DEBUG=1` (the whole section went in) it reads the
/// whole copy and a byte changed outside `written` is an internal error: the compiler's access
/// ranges missed a write.
fn read_written(
    c: &Construct<'_>,
    p: &mut Part<'_>,
    i: usize,
    buf: &mut [u8],
    written: &RangeSet,
    host: &[u8],
) -> bool {
    let Some(a) = p.copies[i] else { return false };
    let it = &c.items[i];
    let check = p.touched.is_some() && runtime::debug_enabled();
    let spans = if check {
        part_data::whole(it)
    } else {
        written.clone()
    };
    // SAFETY: `buf` holds the item's bytes; `a` is the part's device copy of that size.
    unsafe { part_data::copy_out(p.dev.device.as_ref(), a, buf, &spans, &mut p.transfers) }
        .unwrap_or_else(|e| device_fatal(c, p.dev, &format!("to copy {} out", it.name), e));
    if check {
        if let Some(j) = part_data::changed_outside(buf, host, written) {
            fatal_at(
                c.loc,
                &format!(
                    "internal error: kernel '{}' split over devices: device {} changed byte {j} of {}, outside \
                     the ranges the compiler's access analysis says iterations [{}, {}) write ({written}); \
                     please report this. Run with PTXRT_SPLIT=off to use one device",
                    c.kernel.name,
                    p.dev.number,
                    it.name,
                    p.iters.start,
                    p.iters.end
                ),
            );
        }
    }
    true
}
