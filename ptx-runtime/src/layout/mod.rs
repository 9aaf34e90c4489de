//! Array data layouts (`#pragma ptxcc trans` / `#pragma acc trans`): the runtime side.
//!
//! The compiler turns a `trans` block into `__ptxcc_layout_begin(a, elem, desc)` … block …
//! `__ptxcc_layout_end(a, desc)` in host code, and rewrites the device address computations
//! of the kernels launched inside the block (passes/src/layout/). This module keeps the
//! promise those kernels rely on: **while a layout is active, every device copy of the array's
//! bytes is in the permuted layout**; host memory always has the original layout.
//!
//! * `begin`: the layout becomes active; if the array already has a device copy (a `trans`
//!   inside a data region), it is permuted in device memory.
//! * Every transfer into or out of the array's bytes converts on the device (`Mapper::copy_in`
//!   / `copy_out` call `convert_in` / `convert_out`): host→device copies land in a scratch
//!   buffer and a conversion kernel writes them into the permuted copy; device→host copies are
//!   converted back into a scratch buffer first. The conversion kernels are the tiled
//!   shared-memory transpose of `transpose_ptx.rs` on CUDA (and ptxsim), the same walk on the
//!   emulator (`plan.rs`). A sub-section (`update` of `a[2:3]…`) converts the whole array
//!   back into scratch, moves the section there and (for `to`) converts the whole array again:
//!   correct, at the price of two conversions of the whole array.
//! * `end`: a device copy that is still there is converted back in device memory, and the
//!   layout is no longer active.
//! * A kernel launch checks its pointer parameters: a pointer into a permuted device copy must
//!   be one the compiler rewrote for that layout (`__ptxcc_layout_expect`, emitted before the
//!   launch) and must point at the copy's first byte; anything else (a kernel launched from a
//!   function the block calls, another pointer into the array) stops with an error instead of
//!   computing wrong addresses.
//! * A layout `-fptxcc-layout=auto` chose (the user asked for none) never stops a correct
//!   program: a kernel that was not compiled for it and gets a pointer into the copy (one the
//!   compiler's analysis could not see: a function of another file finding the array through
//!   a global) runs on the copy converted back to the original layout, and a kernel compiled
//!   for the layout converts it again (`check_launch` says what a launch needs, `settle` makes
//!   it so and keeps it while the kernel runs; `Active::in_original`). Correct, at two
//!   conversions per switch; `PTXRT_DEBUG` reports each. Two auto layouts of the same bytes in
//!   the same layout (`f(p, p)` to read-only `restrict` parameters) share one conversion.
//! * `acc_deviceptr(a)` / `omp_get_mapped_ptr` / `use_device_ptr` give the address of the
//!   permuted copy: element (i,j,k) of a `transpose(a[0:I][0:J][0:K], [1,3,2])` is at element
//!   offset `(i*K + k)*J + j` from it, as in the kernels of the block.
//!
//! A trans whose kernels never touch the array gets element size 0 from the compiler: nothing
//! is converted (no device code could see the difference).
//!
//! Run-time extents (`transpose(a[0:nx][0:ny][0:4], …)`, `?` in the description): the begin
//! call passes every extent's value, computed once at the block's start, and the address of
//! the layout's extents global (a `declare target` global the compiler made, `[rank x i64]`).
//! `begin` checks the values (each positive), writes the run-time ones into the global and into
//! its copy on every device (the rewritten kernels read them there), and converts with them.
//! Two active layouts sharing one extents global (the same directive, entered again while
//! active, by recursion or from another thread) must have the same extents: else an error.
//!
//! Host threads: the active layouts are the process's. A launch holds `STATES` shared from
//! before it chooses a version until its kernel has run (`hold`); `begin`, `end` and a switch
//! of auto's state hold it alone, so no conversion or extents write overlaps a kernel on the
//! copy, and the check of the active list and the push of the new layout are one step. An
//! instance of auto's entered while another layout holds its bytes or its region's extents
//! global (another thread in the same region with another array or length) keeps the
//! original layout (element size 0, with a `PTXRT_DEBUG` line); the same layout of the same
//! bytes is shared. A block's end is its own thread's instance.
pub mod cuda_kernels;
pub mod plan;
pub mod transpose_ptx;
pub mod tune;

use crate::device::{Device, QueueHandle, SYNC_QUEUE};
use crate::errors::{fatal, DeviceError, MapError};
use crate::mapping::Mapper;
use crate::present_table::{DevAddr, Entry, Lookup, PresentTable};
use crate::runtime;
use crate::source_info::VarName;
use plan::PermutePlan;
use std::cell::RefCell;
use std::ffi::{c_char, c_void, CStr};
use std::sync::{Mutex, RwLock};

/// One active layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Active {
    pub host: usize,
    pub bytes: u64,
    pub elem: u64,
    pub dims: Vec<u64>,
    /// Position p of the device layout holds dimension `order[p]` (0-based).
    pub order: Vec<usize>,
    pub name: String,
    /// `file:line:col` of the directive.
    pub loc: String,
    /// The extents global the kernels read run-time extents from (host address; 0: none).
    pub ext_global: usize,
    /// The alignment of the device copy's start the kernels assume (`Desc::start_align`).
    pub start_align: u64,
    /// -fptxcc-layout=auto chose the layout (no directive the user wrote).
    pub by_auto: bool,
    /// This instance of the layout (each `begin` makes one; `tune.rs` keeps the savings of
    /// one instance apart from the next's).
    pub serial: u64,
    /// The device copies hold the original layout for now: a launch needed auto's layout
    /// undone (`check_launch`), until a kernel compiled for it runs again. Never set for a
    /// layout the user asked for.
    pub in_original: bool,
    /// No device held a copy of the array when the block began: the region's own data
    /// clauses make the copy (and free it at its end; `way_back_free`).
    pub arrived_with_region: bool,
    /// The host thread that began this instance: its end is that thread's (another thread may
    /// have the same region active at the same time).
    pub thread: std::thread::ThreadId,
}

/// What the compiler's description string says: `name;d0,d1,…;p0,p1,…;file:line:col` (the
/// permutation 1-based, as the user wrote it: where each dimension goes), the permutation
/// followed by `@N` when the kernels assume more alignment than the element's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Desc {
    pub name: String,
    /// None: a run-time extent (`?`).
    pub dims: Vec<Option<u64>>,
    pub order: Vec<usize>,
    pub loc: String,
    /// `@N`: the rewritten kernels read the device copy in N-byte vectors, so its start must
    /// be on an N-byte boundary (passes/src/layout/align.rs); 1 without it.
    pub start_align: u64,
    /// `~` before the permutation: -fptxcc-layout=auto chose it (passes/src/layout/desc.rs).
    pub by_auto: bool,
}

impl Desc {
    pub fn parse(s: &str) -> Option<Desc> {
        let mut parts = s.splitn(4, ';');
        let name = parts.next()?.to_string();
        let dims: Vec<Option<u64>> = parts
            .next()?
            .split(',')
            .map(|d| match d {
                "?" => Some(None),
                n => n.parse().ok().filter(|&n| n > 0).map(Some),
            })
            .collect::<Option<_>>()?;
        // The permutation says where each dimension goes (1-based): dimension d of the
        // array is dimension goes_to[d] of the device layout.
        let field = parts.next()?;
        let (by_auto, field) = match field.strip_prefix('~') {
            Some(f) => (true, f),
            None => (false, field),
        };
        let (perm, start_align) = match field.split_once('@') {
            Some((p, a)) => (p, a.parse().ok().filter(|a: &u64| a.is_power_of_two())?),
            None => (field, 1),
        };
        // `soa` is left for the compiler to resolve: it reaches the runtime only when no
        // kernel uses the array (element size 0), when nothing is converted.
        // `auto` is the compiler's to decide; it reaches the runtime as chosen (or as the
        // identity with element size 0).
        let identity: String = (1..=dims.len())
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(",");
        // (`auto:N`: an auto description of a pointer section, left as it is.)
        let perm = match perm {
            "soa" => "1",
            "auto" => identity.as_str(),
            p if p.starts_with("auto:") => identity.as_str(),
            p => p,
        };
        let goes_to: Vec<usize> = perm
            .split(',')
            .map(|p| p.parse::<usize>().ok().and_then(|p| p.checked_sub(1)))
            .collect::<Option<_>>()?;
        let mut order = vec![usize::MAX; goes_to.len()];
        for (d, &g) in goes_to.iter().enumerate() {
            if g >= order.len() || order[g] != usize::MAX {
                return None;
            }
            order[g] = d;
        }
        if dims.len() != order.len() {
            return None;
        }
        let loc = parts.next()?.to_string();
        Some(Desc {
            name,
            dims,
            order,
            loc,
            start_align,
            by_auto,
        })
    }
}

impl Active {
    /// What laid the array out, for messages: `the trans at x.c:9:1`, or auto's choice.
    fn origin(&self) -> String {
        if self.by_auto {
            format!(
                "the layout -fptxcc-layout=auto chose for the data region at {}",
                self.loc
            )
        } else {
            format!("the trans at {}", self.loc)
        }
    }

    /// What the user can do when a launch cannot reach the converted copy.
    fn remedy(&self, directive: &str) -> String {
        if self.by_auto {
            "-fptxcc-layout=auto should have kept this array's layout (please report the program); compile \
             without it, or with -fptxcc-info to see its decisions"
                .into()
        } else {
            directive.into()
        }
    }

    /// The same bytes in the same layout.
    fn same_layout(&self, other: &Active) -> bool {
        (self.host, self.bytes, self.elem, &self.dims, &self.order)
            == (
                other.host,
                other.bytes,
                other.elem,
                &other.dims,
                &other.order,
            )
    }

    /// The plan to the device layout (`forward`) or back from it.
    fn plan(&self, forward: bool) -> Option<PermutePlan> {
        if forward {
            self.plan_forward()
        } else {
            self.plan_backward()
        }
    }

    fn plan_forward(&self) -> Option<PermutePlan> {
        PermutePlan::new(&self.dims, &self.order, self.elem)
    }

    /// From the device layout back to the original one.
    fn plan_backward(&self) -> Option<PermutePlan> {
        let new_dims: Vec<u64> = self.order.iter().map(|&o| self.dims[o]).collect();
        let mut inverse = vec![0usize; self.order.len()];
        for (p, &o) in self.order.iter().enumerate() {
            inverse[o] = p;
        }
        PermutePlan::new(&new_dims, &inverse, self.elem)
    }

    fn end(&self) -> usize {
        self.host + self.bytes as usize
    }
}

static ACTIVE: Mutex<Vec<Active>> = Mutex::new(Vec::new());

thread_local! {
    /// (parameter index, host address of the array) of the next launch on this thread.
    static EXPECT: RefCell<Vec<(u32, usize)>> = const { RefCell::new(Vec::new()) };
    /// The layout versions the next launch on this thread offers (`__ptxcc_layout_variant`).
    static VARIANTS: RefCell<Vec<Variant>> = const { RefCell::new(Vec::new()) };
}

/// One array a layout version of a kernel is compiled for (passes/src/layout/versions.rs).
#[derive(Clone, Debug)]
struct Variant {
    /// Region ids (host addresses) of the kernel and of its version.
    kernel: usize,
    version: usize,
    param: u32,
    host: usize,
    /// The layout's description (a string the compiler made), read only when a layout is
    /// active: most launches that offer versions run outside every region.
    desc: *const c_char,
    /// 0: the version was left as the kernel is for this array (nothing to check).
    elem: u64,
}

fn active() -> std::sync::MutexGuard<'static, Vec<Active>> {
    ACTIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Is any array converted now (an active layout with an element size)?
pub fn any_converted() -> bool {
    active().iter().any(|l| l.elem > 0)
}

/// The active layout (with an element size) that overlaps `[begin, begin+bytes)`.
pub fn find(begin: usize, bytes: u64) -> Option<Active> {
    let end = begin.saturating_add(bytes.max(1) as usize);
    active()
        .iter()
        .find(|l| l.elem > 0 && !l.in_original && l.host < end && begin < l.end())
        .cloned()
}

fn describe(s: *const c_char) -> Desc {
    let text = if s.is_null() {
        None
    } else {
        // SAFETY: the compiler passes a NUL-terminated string literal.
        unsafe { CStr::from_ptr(s) }.to_str().ok()
    };
    match text.and_then(Desc::parse) {
        Some(d) => d,
        None => fatal(&format!(
            "a trans directive's description {:?} is malformed (a compiler bug: rebuild with the same ptxcc as libptxrt)",
            text.unwrap_or("")
        )),
    }
}

/// Runs `plan` from `src` to `dst` (both device memory of the layout's size) on `q` and waits.
fn run_plan(
    device: &dyn Device,
    q: QueueHandle,
    plan: &PermutePlan,
    dst: DevAddr,
    src: DevAddr,
) -> Result<(), DeviceError> {
    device.permute_on(q, dst, src, plan)?;
    device.queue_synchronize(q)
}

/// Permutes the device copy at `dev` in place (through scratch memory).
fn convert_in_place(
    device: &dyn Device,
    l: &Active,
    dev: DevAddr,
    forward: bool,
) -> Result<(), DeviceError> {
    let Some(plan) = l.plan(forward) else {
        return Err(DeviceError::Unsupported(format!(
            "the layout of '{}' ({}) cannot be converted (more than 8 dimensions?)",
            l.name, l.loc
        )));
    };
    let tmp = device.alloc(l.bytes)?;
    let r = run_plan(device, SYNC_QUEUE, &plan, tmp, dev)
        .and_then(|()| device.copy_within_device(dev, tmp, l.bytes));
    let f = device.free(tmp);
    r.and(f)
}

/// The device copy of the whole layout in `table`: Ok(None) when absent, an error when a
/// device copy covers part of it only.
fn device_copy(table: &PresentTable, l: &Active) -> Result<Option<DevAddr>, String> {
    match table.lookup(l.host, l.bytes) {
        Lookup::Contained(k) => Ok(table.get(k).map(|e| e.device_addr_of(l.host))),
        Lookup::Overlaps(k) => {
            let what = table
                .get(k)
                .map(|e| format!("{} ({} bytes)", e.name, e.bytes()))
                .unwrap_or_default();
            Err(format!(
                "{}: the device copy of {what} covers only part of '{}', which the trans directive lays out as a whole; \
                 map the whole array (all {} bytes) or none of it while the trans block runs",
                l.loc, l.name, l.bytes
            ))
        }
        Lookup::Absent => Ok(None),
    }
}

/// A device copy that a conversion moved to new device memory (`convert_by_moving`): a launch
/// whose parameters were computed before (`settle`) must point them at the new place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    pub from: DevAddr,
    pub to: DevAddr,
    pub bytes: u64,
}

impl Moved {
    /// `p` after this move: an address into the old copy becomes one into the new.
    pub fn follow(&self, p: u64) -> u64 {
        if p >= self.from && p < self.from + self.bytes {
            p - self.from + self.to
        } else {
            p
        }
    }
}

/// The moves a launch may still have to follow, in order (appended with the device's table
/// locked). Only launches between `moves_mark` and `follow_moves` need them, so the log keeps
/// the moves since the oldest mark still held and nothing when none is: a long run that
/// converts at every launch does not grow it.
#[derive(Debug, Default)]
struct MoveLog {
    /// The number of moves ever made before `moves[0]`.
    first: usize,
    moves: std::collections::VecDeque<Moved>,
    /// The marks launches hold (a position in the log of every move ever made), and how many
    /// launches hold each.
    held: std::collections::BTreeMap<usize, usize>,
}

impl MoveLog {
    const fn new() -> Self {
        MoveLog {
            first: 0,
            moves: std::collections::VecDeque::new(),
            held: std::collections::BTreeMap::new(),
        }
    }

    fn end(&self) -> usize {
        self.first + self.moves.len()
    }

    fn push(&mut self, m: Moved) {
        if self.held.is_empty() {
            // No launch computed its parameters before this move: none follows it.
            self.first += 1;
        } else {
            self.moves.push_back(m);
        }
    }

    fn hold(&mut self) -> usize {
        let at = self.end();
        *self.held.entry(at).or_default() += 1;
        at
    }

    fn release(&mut self, at: usize) {
        if let Some(n) = self.held.get_mut(&at) {
            *n -= 1;
            if *n == 0 {
                self.held.remove(&at);
            }
        }
        let keep_from = self.held.keys().next().copied().unwrap_or(self.end());
        while self.first < keep_from && self.moves.pop_front().is_some() {
            self.first += 1;
        }
    }

    fn since(&self, at: usize) -> impl Iterator<Item = &Moved> {
        self.moves.iter().skip(at.saturating_sub(self.first))
    }
}

static MOVES: Mutex<MoveLog> = Mutex::new(MoveLog::new());

fn move_log() -> std::sync::MutexGuard<'static, MoveLog> {
    MOVES.lock().unwrap_or_else(|p| p.into_inner())
}

/// Where the log of moves stood when a launch computed its parameters; the moves since are
/// kept until it is dropped.
#[derive(Debug)]
pub struct MovesMark(usize);

impl Drop for MovesMark {
    fn drop(&mut self) {
        move_log().release(self.0)
    }
}

/// Takes a mark in the log of moves: take it with the table locked where a launch computes its
/// parameters.
pub fn moves_mark() -> MovesMark {
    MovesMark(move_log().hold())
}

/// A launch's parameters (`pointer[i]`: parameter i is an address), computed when the log stood
/// at `mark`, made to follow every move since: call it once the launch holds its layouts
/// (`settle`'s guard), when no more can move.
pub fn follow_moves(mark: &MovesMark, params: &mut [u64], pointer: &[bool]) {
    let log = move_log();
    for m in log.since(mark.0) {
        for (i, p) in params.iter_mut().enumerate() {
            if pointer.get(i).copied().unwrap_or(false) {
                *p = m.follow(*p);
            }
        }
    }
}

/// Converts every device copy of `l` to the layout (`forward`) or back, and records the new
/// state (`record`: the active list's change) while the last device's table is still locked.
/// The data clauses' transfers (`convert_in`/`convert_out`, `find`) read the state under that
/// lock, so none of them, on another host thread, sees a copy in one layout and the state of
/// the other (an `end` that let go of the layout before its conversion back had finished gave
/// a concurrent copy-out the converted bytes as they were). `users`: the launches that may use
/// the copy now (1 for the launch `settle` converts for, 0 elsewhere); a copy with more is
/// converted in place, never moved (`convert_by_moving`). (With copies on several devices the
/// state changes with the last one's.)
fn convert_devices(l: &Active, forward: bool, users: u32, record: impl FnOnce()) {
    let rt = runtime::get();
    let mut spent = None;
    let mut record = Some(record);
    let last = rt.devices.len().saturating_sub(1);
    for (i, dev) in rt.devices.iter().enumerate() {
        dev.settle_spread();
        let mut table = dev.lock_table();
        let copy = match device_copy(&table, l) {
            Ok(c) => c,
            Err(m) => fatal(&m),
        };
        if let Some(addr) = copy {
            let device = dev.device.as_ref();
            let (r, s) = tune::timed(device, || {
                if let Some(r) = convert_by_moving(&mut table, device, l, addr, forward, users) {
                    return r.map(|m| move_log().push(m));
                }
                convert_in_place(device, l, addr, forward)
            });
            if let Err(e) = r {
                fatal(&format!(
                    "{}: device {} failed converting the layout of '{}': {e}",
                    l.loc,
                    dev.label(),
                    l.name
                ));
            }
            *spent.get_or_insert(0.0) += s.seconds;
        }
        if i == last {
            if let Some(r) = record.take() {
                r();
            }
        }
    }
    if let Some(r) = record.take() {
        r();
    }
    if let (true, Some(s)) = (l.by_auto, spent) {
        tune::conversion(&l.loc, &l.name, s);
    }
}

/// Converts the device copy of a layout (auto's, or the directive's at a block's start and end
/// inside a data region) at `dev` into new device memory and makes the entry own that instead:
/// one pass over the array where `convert_in_place` makes two (the transpose into scratch, and
/// the copy back). Only where nothing else can hold the old address: the entry is exactly the
/// array in an allocation of its own (at the same offset in the new one; not a block shared
/// with other small mappings), the program was never given its device address
/// (`Entry::exposed`) and no kernel may have stored it in device memory
/// (`registry::kernels_keep_pointers`), no attached pointer points into it or sits in it, no
/// queue has work on it, and no launch but the one being settled (at most `users`) uses it;
/// launches follow the move (`follow_moves`). None where that does not hold.
fn convert_by_moving(
    table: &mut PresentTable,
    device: &dyn Device,
    l: &Active,
    dev: DevAddr,
    forward: bool,
    users: u32,
) -> Option<Result<Moved, DeviceError>> {
    let Lookup::Contained(key) = table.lookup(l.host, l.bytes) else {
        return None;
    };
    let e = table.get(key)?;
    let whole = e.host_begin == l.host && e.host_end == l.end() && e.device_begin == dev;
    // Where the copy starts in its allocation (a section keeps its host offset modulo 64).
    let offset = match e.storage {
        crate::present_table::Storage::Owned { alloc_base }
            if alloc_base <= dev
                && dev - alloc_base < 256
                && !table.is_shared_block(alloc_base) =>
        {
            dev - alloc_base
        }
        _ => return None,
    };
    if !whole
        || e.exposed
        || crate::registry::kernels_keep_pointers()
        || !e.shadows.is_empty()
        || !e.queues.is_empty()
        || e.users > users
        || attached_into(table, dev, l).is_some()
    {
        return None;
    }
    let plan = l.plan(forward)?;
    let base = device.alloc(offset + l.bytes).ok()?;
    let to = base + offset;
    if let Err(err) = run_plan(device, SYNC_QUEUE, &plan, to, dev) {
        let _ = device.free(base);
        return Some(Err(err));
    }
    if let Err(err) = device.free(dev - offset) {
        return Some(Err(err));
    }
    let e = table.get_mut(key)?;
    e.device_begin = to;
    e.storage = crate::present_table::Storage::Owned { alloc_base: base };
    Some(Ok(Moved {
        from: dev,
        to,
        bytes: l.bytes,
    }))
}

/// The extents of `d`: its constants and, for each `?`, the value the program passed
/// (`values[dim]`, `values` NULL when every extent is a constant). Err: the message.
///
/// # Safety
/// `values` must be NULL or point at one value per dimension of the directive.
unsafe fn extents(d: &Desc, values: *const u64) -> Result<Vec<u64>, String> {
    let mut out = Vec::with_capacity(d.dims.len());
    for (i, e) in d.dims.iter().enumerate() {
        match e {
            Some(n) => out.push(*n),
            None if values.is_null() => {
                return Err(format!(
                    "{}: the trans of '{}' has run-time extents but no values reached libptxrt (a compiler bug: \
                     rebuild with the same ptxcc as libptxrt)",
                    d.loc, d.name
                ))
            }
            None => {
                let v = *values.add(i);
                if v == 0 || v > i64::MAX as u64 {
                    return Err(format!(
                        "{}: extent {} of '{}' in the trans directive is {} at run time; every extent must be positive",
                        d.loc,
                        i + 1,
                        d.name,
                        v as i64
                    ));
                }
                out.push(v);
            }
        }
    }
    let total = out
        .iter()
        .try_fold(1u64, |acc, &n| acc.checked_mul(n))
        .filter(|&n| n <= i64::MAX as u64);
    if total.is_none() {
        return Err(format!(
            "{}: the trans directive's extents of '{}' ({:?}) overflow 64 bits",
            d.loc, d.name, out
        ));
    }
    Ok(out)
}

/// Writes the run-time extents of `l` into its extents global and into the global's copy on
/// every device (where the image holding the layout's kernels put it).
fn publish_extents(l: &Active, d: &Desc) {
    if l.ext_global == 0 {
        return;
    }
    // Only the run-time extents: `?` at index i is element i of the global.
    let runtime: Vec<usize> = (0..d.dims.len()).filter(|&i| d.dims[i].is_none()).collect();
    let Some(&last) = runtime.last() else {
        return;
    };
    for &i in &runtime {
        // SAFETY: the compiler's global has one i64 per dimension of the directive.
        unsafe { *(l.ext_global as *mut u64).add(i) = l.dims[i] };
    }
    let bytes = 8 * (last as u64 + 1);
    let rt = runtime::get();
    for dev in &rt.devices {
        // The images (and the global's device copy) may not be loaded before the first launch.
        dev.ensure_loaded();
        let table = dev.lock_table();
        let addr = match table.lookup(l.ext_global, bytes) {
            Lookup::Contained(k) => table.get(k).map(|e| e.device_addr_of(l.ext_global)),
            _ => None,
        };
        let Some(addr) = addr else {
            continue;
        };
        // SAFETY: the entry holds `bytes` bytes from `addr` on the device.
        let r = unsafe {
            dev.device
                .copy_to_device(addr, l.ext_global as *const u8, bytes)
        };
        if let Err(e) = r {
            fatal(&format!(
                "{}: device {} failed receiving the run-time extents of '{}': {e}",
                l.loc,
                dev.label(),
                l.name
            ));
        }
    }
}

/// Start of a `trans` block: `host` is the array, `elem` its element size (0: no kernel of the
/// block uses it), `desc` the compiler's description, `values` the extents (NULL when all are
/// constants), `ext_global` the compiler's extents global (NULL when all are constants).
///
/// # Safety
/// `desc` must be NULL or a NUL-terminated string; `values` NULL or one value per dimension of
/// the directive; `ext_global` NULL or the compiler's extents global.
#[no_mangle]
pub unsafe extern "C" fn __ptxcc_layout_begin(
    host: *const c_void,
    elem: u64,
    desc: *const c_char,
    values: *const u64,
    ext_global: *mut u64,
) {
    let d = describe(desc);
    // No launch runs while the active list, the extents global or a copy changes.
    let _alone = hold_alone();
    let dims = match extents(&d, values) {
        Ok(v) => v,
        // No kernel uses the array (or -fptxcc-layout=auto left an empty section as it is):
        // nothing is converted, so no extent needs checking.
        Err(_) if elem == 0 => d.dims.iter().map(|e| e.unwrap_or(0)).collect(),
        Err(m) => fatal(&m),
    };
    let count: u64 = dims.iter().product();
    let l = Active {
        host: host as usize,
        bytes: count.saturating_mul(elem),
        elem,
        dims,
        order: d.order.clone(),
        name: d.name.clone(),
        loc: d.loc.clone(),
        ext_global: ext_global as usize,
        start_align: d.start_align,
        by_auto: d.by_auto,
        serial: tune::next_instance(),
        in_original: false,
        arrived_with_region: false,
        thread: std::thread::current().id(),
    };
    if host.is_null() && elem > 0 {
        fatal(&format!(
            "{}: the array '{}' of the trans directive is a null pointer",
            l.loc, l.name
        ));
    }
    let mut l = l;
    {
        let act = active();
        let overlapping = act
            .iter()
            .find(|o| o.elem > 0 && l.elem > 0 && o.host < l.end() && l.host < o.end());
        // Only kernels compiled for a layout read its extents global.
        let other_extents = act.iter().find(|o| {
            o.elem > 0
                && l.elem > 0
                && l.ext_global != 0
                && o.ext_global == l.ext_global
                && o.dims != l.dims
        });
        let conflict = match (overlapping, other_extents) {
            (Some(o), _) => Some((o, true)),
            (None, Some(o)) => Some((o, false)),
            (None, None) => None,
        };
        if let Some((o, overlaps)) = conflict {
            // Auto's layout of bytes already in that very layout (one array passed for two
            // read-only `restrict` parameters, `f(p, p)`): its kernels expect the converted
            // copy at that address, which they get; there is nothing more to convert.
            if l.by_auto && overlaps && o.same_layout(&l) {
                drop(act);
                // Its kernels read its own run-time extents.
                publish_extents(&l, &d);
                l.elem = 0;
                active().push(l);
                return;
            }
            // Auto's layout the user never asked for, entered while another layout holds
            // these bytes or the region's extents (a host thread, or recursion, entering the
            // region with other extents): this instance stays in the original layout. Its
            // kernels run as compiled without it (`choose_version` offers no version for an
            // inactive layout), and a launch reaching the other layout's copy gets the state
            // it needs from `check_launch`/`settle` (or its error, for the directive's).
            if l.by_auto {
                if runtime::debug_enabled() {
                    let (what, with) = if overlaps {
                        (
                            format!("the layout of '{}' ({})", o.name, o.origin()),
                            "overlapping bytes".to_string(),
                        )
                    } else {
                        (
                            "the same region".to_string(),
                            format!("extents {:?}, not {:?}", o.dims, l.dims),
                        )
                    };
                    eprintln!(
                        "ptxrt: {}: '{}' keeps its original layout here: {what} is active with {with}",
                        l.loc, l.name
                    );
                }
                drop(act);
                l.elem = 0;
                active().push(l);
                return;
            }
            if overlaps {
                fatal(&format!(
                    "{}: '{}' overlaps '{}', whose layout {} already changes; a nested or overlapping trans of \
                     the same bytes is not supported",
                    l.loc,
                    l.name,
                    o.name,
                    o.origin()
                ));
            }
            fatal(&format!(
                "{}: the trans of '{}' is entered with extents {:?} while it is active with {:?} (recursion or \
                 another thread): its kernels read one set of run-time extents; finish the first block before \
                 entering it again",
                l.loc, l.name, l.dims, o.dims
            ));
        }
    }
    if l.elem > 0 {
        l.arrived_with_region = runtime::get()
            .devices
            .iter()
            .all(|dev| matches!(dev.lock_table().lookup(l.host, l.bytes), Lookup::Absent));
        publish_extents(&l, &d);
        // Auto's layouts start unconverted: the first launch that runs a kernel compiled for
        // one converts it, if the tuning chooses to (`tune.rs`).
        if l.by_auto && tune::policy() != tune::Policy::Always {
            l.in_original = true;
        } else {
            let pushed = l.clone();
            convert_devices(&l, true, 0, || active().push(pushed));
            return;
        }
    }
    active().push(l);
}

/// End of a `trans` block.
///
/// # Safety
/// `desc` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn __ptxcc_layout_end(host: *const c_void, desc: *const c_char) {
    let d = describe(desc);
    let _alone = hold_alone();
    let l = {
        let act = active();
        let this_thread = std::thread::current().id();
        let here = |l: &Active| l.host == host as usize && l.loc == d.loc;
        match act
            .iter()
            .rposition(|l| here(l) && l.thread == this_thread)
            // A task that ended on another thread than it began on.
            .or_else(|| act.iter().rposition(here))
        {
            Some(i) => act[i].clone(),
            None => fatal(&format!(
                "{}: the end of the trans block of '{}' has no matching start (the pointer changed inside the block?)",
                d.loc, d.name
            )),
        }
    };
    // The layout leaves the active list as its copies are converted back, not before.
    let leave = || active().retain(|a| a.serial != l.serial);
    if l.elem > 0 && !l.in_original {
        convert_devices(&l, false, 0, leave);
    } else {
        leave();
    }
}

/// Before a launch inside a `trans` block: parameter `index` of the next kernel this thread
/// launches was compiled for the layout of the array at `host`.
#[no_mangle]
pub extern "C" fn __ptxcc_layout_expect(index: u32, host: *const c_void) {
    EXPECT.with(|e| e.borrow_mut().push((index, host as usize)));
}

/// Before a launch of the kernel with region id `kernel`: its layout version `version` is
/// compiled for the array at `host`, laid out as `desc` says, in parameter `index` (element size
/// `elem`; 0: left as it is). libptxrt launches the version when every array it is compiled for
/// is the device copy that layout keeps converted (`choose_version`).
///
/// # Safety
/// `desc` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn __ptxcc_layout_variant(
    kernel: *const c_void,
    version: *const c_void,
    index: u32,
    host: *const c_void,
    desc: *const c_char,
    elem: u64,
) {
    VARIANTS.with(|v| {
        v.borrow_mut().push(Variant {
            kernel: kernel as usize,
            version: version as usize,
            param: index,
            host: host as usize,
            desc,
            elem,
        })
    });
}

/// The layout versions offered for this thread's next launch (`__ptxcc_layout_variant`).
#[derive(Clone, Debug, Default)]
pub struct Offers(Vec<Variant>);

/// Takes this thread's offers, for its launch (`choose_version`, once or again after
/// `Rechoose`).
pub fn take_offers() -> Offers {
    Offers(VARIANTS.with(|v| std::mem::take(&mut *v.borrow_mut())))
}

/// What `choose_version` decided for a launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    /// The region id of the layout version to launch in the kernel's place.
    pub version: Option<usize>,
    /// The launch chose between the kernel and a version for auto's layouts (by the policy,
    /// `tune.rs`): time it for the tuning and the profile.
    pub trial: Option<tune::Trial>,
}

/// The layout version to launch in place of kernel `kernel` (its parameters `params`, device
/// addresses; `pointer[i]`: parameter i is an address), if one offered before this launch fits:
/// each array it is compiled for reaches it as the start of the device copy of an active layout
/// (converted now, or one of auto's, which `settle` converts), and no other pointer parameter
/// points into that copy (the version reads it in the new layout only through the array's own
/// parameter). For auto's layouts `tune.rs` decides whether the version runs. The chosen
/// version's arrays are expected by the launch check. `offers`: this thread's (`take_offers`).
pub fn choose_version(
    table: &PresentTable,
    params: &[u64],
    pointer: &[bool],
    kernel: usize,
    bandwidth: Option<f64>,
    offers: &Offers,
) -> Choice {
    let offers = &offers.0;
    let layouts: Vec<Active> = active()
        .iter()
        .filter(|l| l.elem > 0 && (l.by_auto || !l.in_original))
        .cloned()
        .collect();
    if layouts.is_empty() {
        return Choice::default();
    }
    let mut versions: Vec<usize> = offers
        .iter()
        .filter(|o| o.kernel == kernel)
        .map(|o| o.version)
        .collect();
    versions.dedup();
    // The layout an offer is compiled for, if the launch passes the start of its device copy
    // and nothing else points into it.
    let layout_of = |o: &Variant| -> Option<&Active> {
        let d = describe(o.desc);
        layouts.iter().find(|l| {
            if l.host != o.host || l.name != d.name || l.loc != d.loc {
                return false;
            }
            let Ok(Some(dev)) = device_copy(table, l) else {
                return false;
            };
            params.get(o.param as usize) == Some(&dev)
                && params
                    .iter()
                    .enumerate()
                    .all(|(i, &p)| i == o.param as usize || !points_into(pointer, i, p, dev, l))
        })
    };
    let fits = |o: &Variant| o.elem == 0 || layout_of(o).is_some();
    // Of the versions that fit, the one compiled for the most arrays (a call inside nested
    // blocks passes several converted copies).
    let Some(chosen) = versions
        .into_iter()
        .filter_map(|v| {
            let mut its = offers
                .iter()
                .filter(|o| o.kernel == kernel && o.version == v);
            let converted = its.clone().filter(|o| o.elem > 0).count();
            (converted > 0 && its.all(fits)).then_some((converted, v))
        })
        .max_by_key(|&(converted, _)| converted)
        .map(|(_, v)| v)
    else {
        return Choice::default();
    };
    let its: Vec<&Variant> = offers
        .iter()
        .filter(|o| o.version == chosen && o.elem > 0)
        .collect();
    let needed: Vec<&Active> = its.iter().filter_map(|o| layout_of(o)).collect();
    let converted = needed.iter().all(|l| !l.in_original);
    // The directive's layouts are always converted; only auto's are a choice.
    let (run_it, trial) = if !needed.iter().all(|l| l.by_auto) {
        (true, None)
    } else {
        let ran_version = match tune::policy() {
            tune::Policy::Always => true,
            // Converted already (a kernel compiled only for it ran): no conversion back.
            tune::Policy::Never => converted,
            tune::Policy::Tune => {
                let layouts: Vec<(&Active, bool)> = needed
                    .iter()
                    .map(|&l| (l, way_back_free(table, l)))
                    .collect();
                tune::choose(kernel, chosen, &layouts, bandwidth)
            }
        };
        (
            ran_version,
            Some(tune::Trial {
                kernel,
                version: chosen,
                ran_version,
            }),
        )
    };
    if !run_it {
        return Choice {
            version: None,
            trial,
        };
    }
    EXPECT.with(|e| {
        let mut e = e.borrow_mut();
        for o in &its {
            e.push((o.param, o.host));
        }
    });
    Choice {
        version: Some(chosen),
        trial,
    }
}

/// Whether the device copy of `l`, once converted, dies converted: the region's own data
/// clauses made it (`Active::arrived_with_region`) without asking for it back (`copies_out`),
/// so the region's end frees it without converting it back (`tune::choose` then counts no way
/// back). A reference taken inside the region (`enter data`) would keep it longer, to be
/// converted back at the block's end: the tuning then switched a little early, nothing worse.
fn way_back_free(table: &PresentTable, l: &Active) -> bool {
    if !l.arrived_with_region {
        return false;
    }
    let Lookup::Contained(k) = table.lookup(l.host, l.bytes) else {
        return false;
    };
    table.get(k).is_some_and(|e| !e.copies_out)
}

/// The entry one of whose attached pointers (its device copy's) points into the device copy of
/// `l` at `dev`.
fn attached_into<'t>(table: &'t PresentTable, dev: DevAddr, l: &Active) -> Option<&'t Entry> {
    table.iter().find(|e| {
        e.shadows
            .iter()
            .any(|s| s.device_value >= dev && s.device_value < dev + l.bytes)
    })
}

/// Whether launch parameter `i` (value `p`; `pointer[i]`: it is an address) points into the
/// device copy of `l` at `dev`.
fn points_into(pointer: &[bool], i: usize, p: u64, dev: DevAddr, l: &Active) -> bool {
    pointer.get(i).copied().unwrap_or(false) && p >= dev && p < dev + l.bytes
}

/// What a launch needs of a layout -fptxcc-layout=auto chose (`check_launch`, `settle`): the
/// device copies of the array of the layout instance `serial` (`Active::serial`) in that
/// layout (`chosen`: a kernel compiled for it) or in the original one (a kernel that was not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Need {
    serial: u64,
    chosen: bool,
}

/// Checks the parameters of a launch against the active layouts (see the module comment);
/// `pointer[i]` says whether parameter i is an address (not a by-value scalar). Takes the
/// expectations of this thread's launch. Ok: what the launch needs of the layouts
/// -fptxcc-layout=auto chose (a kernel not compiled for such a layout gets the array in its
/// original layout, converted back, and a kernel compiled for it gets it converted again;
/// `settle` makes it so). Err: the message.
pub fn check_launch(
    table: &PresentTable,
    params: &[u64],
    pointer: &[bool],
    kernel: &str,
    source: &str,
) -> Result<Vec<Need>, String> {
    let expected: Vec<(u32, usize)> = EXPECT.with(|e| std::mem::take(&mut *e.borrow_mut()));
    let layouts: Vec<Active> = active().iter().filter(|l| l.elem > 0).cloned().collect();
    let mut needs = Vec::new();
    for l in &layouts {
        let Ok(Some(dev)) = device_copy(table, l) else {
            continue;
        };
        // What the kernel was compiled for: the parameters the compiler rewrote for the
        // layout must be the converted copy's start.
        let mut wants_chosen = false;
        for (i, &p) in params.iter().enumerate() {
            if !expected.contains(&(i as u32, l.host)) {
                continue;
            }
            if p != dev {
                return Err(format!(
                    "kernel '{kernel}' ({source}) was compiled for the layout of '{}' ({}) but gets an address {} \
                     bytes into its device copy instead of its start; the pointer changed inside the trans block",
                    l.name,
                    l.origin(),
                    p.wrapping_sub(dev) as i64
                ));
            }
            if dev % l.start_align != 0 {
                return Err(misaligned(kernel, source, l, dev));
            }
            wants_chosen = true;
        }
        // What reaches the copy unrewritten: a device pointer attached into it (a struct member
        // mapped with its array, say), another pointer parameter into it.
        let attached = attached_into(table, dev, l);
        let stray = params.iter().enumerate().position(|(i, &p)| {
            points_into(pointer, i, p, dev, l) && !expected.contains(&(i as u32, l.host))
        });
        let wants_original = attached.is_some() || stray.is_some();
        // Auto's layout follows the launches (both at once cannot be).
        if l.by_auto && !(wants_chosen && wants_original) {
            if wants_chosen || wants_original {
                needs.push(Need {
                    serial: l.serial,
                    chosen: wants_chosen,
                });
            }
            continue;
        }
        // The directive's layout, or auto's needed both ways by one launch: an error.
        if let Some(e) = attached {
            return Err(format!(
                "kernel '{kernel}' ({source}) is launched while a pointer in the device copy of {} points into the \
                 device copy of '{}', which {} keeps in another layout; kernels reach a transposed array only \
                 through its name. {}",
                e.name,
                l.name,
                l.origin(),
                l.remedy("Detach the pointer (or map it after the trans block)")
            ));
        }
        if let Some(i) = stray {
            return Err(format!(
                "kernel '{kernel}' ({source}) gets a pointer (parameter {i}) into the device copy of '{}', which {} \
                 keeps in another layout, but the kernel was not compiled for it: only target regions written \
                 inside the trans block, or in functions it calls that launch them, using the array by its name \
                 or the start of its copy, are. {}",
                l.name,
                l.origin(),
                l.remedy(
                    "Move the region into the block or into a function it calls, pass the array's start, or end \
                     the trans block before it"
                )
            ));
        }
    }
    Ok(needs)
}

/// Launches hold this shared from before they choose a layout version until their kernel has
/// run (`hold`); what changes the layouts' state holds it alone: `settle` switching one of
/// auto's, and a layout's `begin` and `end` (which convert, publish run-time extents and
/// change the active list that launches decide by). So a launch never runs on a copy another
/// host thread converts, and never runs a version whose layout ended after it chose it.
static STATES: RwLock<()> = RwLock::new(());

/// What a launch holds from before `choose_version` until its kernel has run (see `STATES`).
/// Take it before any device's table is locked.
pub type Hold = std::sync::RwLockReadGuard<'static, ()>;

pub fn hold() -> Hold {
    STATES.read().unwrap_or_else(|p| p.into_inner())
}

fn hold_alone() -> std::sync::RwLockWriteGuard<'static, ()> {
    STATES.write().unwrap_or_else(|p| p.into_inner())
}

/// `settle` could not keep what the launch chose: a layout it needs ended (on another host
/// thread) while the launch waited to switch it. Take a new `hold` and choose again.
#[derive(Debug, PartialEq, Eq)]
pub struct Rechoose;

/// Puts the layouts `needs` names in the state the launch of `kernel` (`source`) needs, and
/// returns the launch's hold (`held`, taken before it chose) once they are: keep it until the
/// kernel has run. A switch converts every device copy of the array in device memory (the
/// tiled transpose) and records the copies' layout, so that transfers and the region's end
/// follow it; it lets the hold go to switch alone, so launches on other host threads that need
/// the other state wait. Call it without a device's table locked.
pub fn settle(needs: &[Need], held: Hold, kernel: &str, source: &str) -> Result<Hold, Rechoose> {
    // The instance `n` names, when it is active (with an element size) and not in the state
    // `n` needs (Err: it is gone).
    let wrong = |n: &Need| -> Result<Option<Active>, Rechoose> {
        let act = active();
        let l = act
            .iter()
            .find(|l| l.serial == n.serial && l.elem > 0)
            .ok_or(Rechoose)?;
        Ok((l.in_original == n.chosen).then(|| l.clone()))
    };
    let mut shared = held;
    loop {
        let mut all_hold = true;
        for n in needs {
            all_hold &= wrong(n)?.is_none();
        }
        if all_hold {
            return Ok(shared);
        }
        drop(shared);
        {
            let _alone = hold_alone();
            for n in needs {
                let Some(l) = wrong(n)? else {
                    continue;
                };
                if runtime::debug_enabled() {
                    eprintln!(
                        "ptxrt: layout: kernel '{kernel}' ({source}) {}",
                        if n.chosen {
                            format!(
                                "was compiled for {}: converting the device copy of '{}' to it",
                                l.origin(),
                                l.name
                            )
                        } else {
                            format!(
                                "was not compiled for {}: converting the device copy of '{}' back to the original \
                                 layout until a kernel compiled for it runs",
                                l.origin(),
                                l.name
                            )
                        }
                    );
                }
                convert_devices(&l, n.chosen, 1, || {
                    if let Some(a) = active().iter_mut().find(|a| a.serial == n.serial) {
                        a.in_original = !n.chosen;
                    }
                });
            }
        }
        shared = hold();
    }
}

/// The launch check's message for a converted copy that does not start where the kernels
/// assume (`Desc::start_align`).
fn misaligned(kernel: &str, source: &str, l: &Active, dev: DevAddr) -> String {
    format!(
        "kernel '{kernel}' ({source}) reads the device copy of '{}' (laid out by {}) in {n}-byte \
         vectors, but the copy starts {} bytes past a {n}-byte boundary: its data clause maps it at that offset \
         in a larger object (a struct member, a section that does not start the allocation). Align it (C11 \
         _Alignas({n}) on the member or array), or map it as an object of its own",
        l.name,
        l.origin(),
        dev % l.start_align,
        n = l.start_align
    )
}

/// The device address of `l`'s first byte inside the entry (host_begin, host_end, device
/// address of host_begin), or an error when the entry does not hold the whole array.
fn layout_in_entry(
    l: &Active,
    entry: (usize, usize, DevAddr),
    var: &VarName,
) -> Result<DevAddr, MapError> {
    let (hb, he, db) = entry;
    if hb <= l.host && l.end() <= he {
        return Ok(db + (l.host - hb) as u64);
    }
    Err(MapError::Unsupported {
        var: var.clone(),
        what: format!(
            "a data clause covering other bytes than '{}' (laid out by {}: {} bytes from host {:#x}): {}",
            l.name,
            l.origin(),
            l.bytes,
            l.host,
            l.remedy("map exactly those, in any shape, inside the trans block")
        ),
    })
}

fn dev_err(var: &VarName, error: DeviceError) -> MapError {
    MapError::Device {
        var: var.clone(),
        error,
    }
}

/// Which way a transfer of a laid-out array goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    /// Host (original layout) → device copy (permuted).
    ToDevice,
    /// Device copy → host.
    FromDevice,
}

/// `Mapper::copy_in` of `[begin, begin+bytes)` into the entry `entry` (see `layout_in_entry`),
/// when the range touches an active layout: None when it does not (a plain copy is right).
pub fn convert_in(
    m: &mut Mapper<'_>,
    entry: (usize, usize, DevAddr),
    begin: usize,
    bytes: u64,
    var: &VarName,
) -> Option<Result<(), MapError>> {
    let l = find(begin, bytes)?;
    Some(convert(
        m,
        &l,
        entry,
        (begin, bytes),
        var,
        Direction::ToDevice,
    ))
}

/// `Mapper::copy_out` counterpart of `convert_in`.
pub fn convert_out(
    m: &mut Mapper<'_>,
    entry: (usize, usize, DevAddr),
    begin: usize,
    bytes: u64,
    var: &VarName,
) -> Option<Result<(), MapError>> {
    let l = find(begin, bytes)?;
    Some(convert(
        m,
        &l,
        entry,
        (begin, bytes),
        var,
        Direction::FromDevice,
    ))
}

/// One transfer of `range` (host begin, bytes) that touches layout `l`: the bytes outside the
/// array go as they are; the array's part goes through a scratch buffer of the whole array
/// in the original layout, converted on the device. To the device, a part of the array first
/// converts the current copy back into the scratch buffer so that the rest survives.
fn convert(
    m: &mut Mapper<'_>,
    l: &Active,
    entry: (usize, usize, DevAddr),
    range: (usize, u64),
    var: &VarName,
    dir: Direction,
) -> Result<(), MapError> {
    let dev = layout_in_entry(l, entry, var)?;
    let (fwd, back) = plans(l, var)?;
    let (begin, end) = (range.0, range.0 + range.1 as usize);
    let (hb, _, db) = entry;
    for (lo, hi) in [(begin, l.host.min(end)), (l.end().max(begin), end)] {
        match dir {
            Direction::ToDevice => plain_to(m, lo, hi, hb, db, var)?,
            Direction::FromDevice => plain_from(m, lo, hi, hb, db, var)?,
        }
    }
    let (lo, hi) = (begin.max(l.host), end.min(l.end()));
    let device = m.device;
    let q = m.queue;
    let tmp = device.alloc(l.bytes).map_err(|e| dev_err(var, e))?;
    let at = tmp + (lo - l.host) as u64;
    let n = (hi - lo) as u64;
    let r = (|| {
        let whole = lo == l.host && hi == l.end();
        if dir == Direction::FromDevice || !whole {
            run_plan(device, q, &back, tmp, dev).map_err(|e| dev_err(var, e))?;
        }
        let t = std::time::Instant::now();
        match dir {
            Direction::ToDevice => {
                unsafe { device.copy_to_device_on(q, at, lo as *const u8, n) }
                    .map_err(|e| dev_err(var, e))?;
                m.transfers.to_device(n, t);
                run_plan(device, q, &fwd, dev, tmp).map_err(|e| dev_err(var, e))
            }
            Direction::FromDevice => {
                unsafe { device.copy_from_device_on(q, lo as *mut u8, at, n) }
                    .map_err(|e| dev_err(var, e))?;
                device.queue_synchronize(q).map_err(|e| dev_err(var, e))?;
                m.transfers.from_device(n, t);
                Ok(())
            }
        }
    })();
    let f = device.free(tmp).map_err(|e| dev_err(var, e));
    r.and(f)
}

fn plans(l: &Active, var: &VarName) -> Result<(PermutePlan, PermutePlan), MapError> {
    match (l.plan_forward(), l.plan_backward()) {
        (Some(f), Some(b)) => Ok((f, b)),
        _ => Err(MapError::Unsupported {
            var: var.clone(),
            what: format!(
                "the layout of '{}' ({}): more than 8 dimensions",
                l.name, l.loc
            ),
        }),
    }
}

fn plain_to(
    m: &mut Mapper<'_>,
    lo: usize,
    hi: usize,
    hb: usize,
    db: DevAddr,
    var: &VarName,
) -> Result<(), MapError> {
    if hi <= lo {
        return Ok(());
    }
    unsafe {
        m.device.copy_to_device_on(
            m.queue,
            db + (lo - hb) as u64,
            lo as *const u8,
            (hi - lo) as u64,
        )
    }
    .map_err(|e| dev_err(var, e))
}

fn plain_from(
    m: &mut Mapper<'_>,
    lo: usize,
    hi: usize,
    hb: usize,
    db: DevAddr,
    var: &VarName,
) -> Result<(), MapError> {
    if hi <= lo {
        return Ok(());
    }
    unsafe {
        m.device.copy_from_device_on(
            m.queue,
            lo as *mut u8,
            db + (lo - hb) as u64,
            (hi - lo) as u64,
        )
    }
    .map_err(|e| dev_err(var, e))?;
    m.device
        .queue_synchronize(m.queue)
        .map_err(|e| dev_err(var, e))
}

/// The emulator's conversion: the plan's walk over device memory (host memory there).
///
/// # Safety
/// `dst` and `src` must be emulator device memory of the plan's size, not overlapping.
pub unsafe fn permute_on_host(dst: DevAddr, src: DevAddr, plan: &PermutePlan) {
    let u = plan.unit as usize;
    plan.for_each(|s, d| {
        std::ptr::copy_nonoverlapping(
            (src as usize + s as usize * u) as *const u8,
            (dst as usize + d as usize * u) as *mut u8,
            u,
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_descriptions() {
        let d = Desc::parse("a;8,6,5;1,3,2;x.c:3:9").expect("desc");
        assert_eq!(d.dims, vec![Some(8), Some(6), Some(5)]);
        let r = Desc::parse("a;?,6,?;1,3,2;x.c:3:9").expect("run-time extents");
        assert_eq!(r.dims, vec![None, Some(6), None]);
        let v = [7u64, 6, 5];
        assert_eq!(unsafe { extents(&r, v.as_ptr()) }, Ok(vec![7, 6, 5]));
        let zero = [7u64, 6, 0];
        let e = unsafe { extents(&r, zero.as_ptr()) }.expect_err("zero");
        assert!(
            e.contains("extent 3 of 'a' in the trans directive is 0 at run time"),
            "{e}"
        );
        let neg = [u64::MAX, 6, 5];
        let e = unsafe { extents(&r, neg.as_ptr()) }.expect_err("negative");
        assert!(e.contains("is -1 at run time"), "{e}");
        assert!(unsafe { extents(&r, std::ptr::null()) }.is_err());
        assert!(Desc::parse("a;0,6;1,2;l").is_none());
        assert_eq!(d.order, vec![0, 2, 1]);
        // Dimension 1 goes to 2, 2 to 3, 3 to 1: the device holds [K][I][J].
        let d = Desc::parse("a;8,6,5;2,3,1;x.c:3:9").expect("desc");
        assert_eq!(d.order, vec![2, 0, 1]);
        assert!(Desc::parse("a;8,6;1,1;l").is_none());
        assert!(Desc::parse("a;8,6;1;l").is_none());
        assert_eq!(d.loc, "x.c:3:9");
        assert!(Desc::parse("a;8,x;1,2;l").is_none());
        assert!(Desc::parse("a;8;0;l").is_none());
        assert_eq!(
            Desc::parse("p;?;auto:24;l").expect("auto section").order,
            vec![0]
        );
        assert_eq!(d.start_align, 1);
        let v = Desc::parse("a;4,8;2,1@16;x.c:3:9").expect("a start alignment");
        assert_eq!((v.start_align, v.order.clone()), (16, vec![1, 0]));
        assert!(Desc::parse("a;4,8;2,1@6;l").is_none());
        // `~`: -fptxcc-layout=auto chose it; the messages say so.
        let a = Desc::parse("a;4,8;~2,1@16;x.c:3:9").expect("auto's choice");
        assert!(a.by_auto && !v.by_auto && a.order == v.order && a.start_align == 16);
        assert!(Desc::parse("a;4,8;2,1@;l").is_none());
    }

    #[test]
    fn a_version_runs_only_on_the_converted_copy_it_was_compiled_for() {
        // A host range no other test uses; the active list is shared by the tests.
        let host = 0x7a5e_0000usize;
        let mut table = PresentTable::new();
        table.insert(crate::present_table::Entry::for_test(host, 64, 0x90_0000));
        let layout = Active {
            host,
            bytes: 64,
            elem: 8,
            dims: vec![8],
            order: vec![0],
            name: "p".into(),
            loc: "v.c:9:1".into(),
            ext_global: 0,
            start_align: 1,
            by_auto: false,
            serial: 0,
            in_original: false,
            arrived_with_region: false,
            thread: std::thread::current().id(),
        };
        let offer = |kernel: usize, elem: u64| {
            VARIANTS.with(|v| {
                v.borrow_mut().push(Variant {
                    kernel,
                    version: kernel + 1,
                    param: 1,
                    host,
                    desc: c"p;8;1;v.c:9:1".as_ptr(),
                    elem,
                })
            })
        };
        let take_expect = || EXPECT.with(|e| std::mem::take(&mut *e.borrow_mut()));
        // Both parameters pointers.
        let choose = |params: &[u64], kernel| {
            choose_version(&table, params, &[true, true], kernel, None, &take_offers()).version
        };
        // Not converted now (the function runs outside the region): the kernel.
        offer(100, 8);
        assert_eq!(choose(&[0, 0x90_0000], 100), None);
        active().push(layout.clone());
        // Converted, and parameter 1 is its device copy: the version, expected by the check.
        offer(100, 8);
        assert_eq!(choose(&[0, 0x90_0000], 100), Some(101));
        assert_eq!(take_expect(), vec![(1, host)]);
        // Another array in parameter 1, or an offer for another kernel: the kernel.
        offer(100, 8);
        assert_eq!(choose(&[0, 0x77_0000], 100), None);
        offer(200, 8);
        assert_eq!(choose(&[0, 0x90_0000], 100), None);
        // The offers are taken by every launch.
        assert_eq!(choose(&[0, 0x90_0000], 200), None);
        // A version left as the kernel is (element size 0) is not worth choosing.
        offer(100, 0);
        assert_eq!(choose(&[0, 0x90_0000], 100), None);
        assert!(take_expect().is_empty());
        // Another pointer parameter into the converted copy: the version would read it
        // unrewritten, so the kernel runs (and the check undoes an auto layout for it).
        offer(100, 8);
        assert_eq!(choose(&[0x90_0008, 0x90_0000], 100), None);
        // The same address by value (not a pointer parameter) is no obstacle.
        offer(100, 8);
        assert_eq!(
            choose_version(
                &table,
                &[0x90_0008, 0x90_0000],
                &[false, true],
                100,
                None,
                &take_offers()
            )
            .version,
            Some(101)
        );
        take_expect();
        active().retain(|l| l.host != host);
    }

    #[test]
    fn auto_layouts_start_unconverted_and_the_tuning_chooses_each_launch() {
        // A host range no other test uses; the active list is shared by the tests.
        let host = 0x5c3a_0000usize;
        let mut table = PresentTable::new();
        table.insert(crate::present_table::Entry::for_test(host, 64, 0xb0_0000));
        active().push(Active {
            serial: 7,
            in_original: true,
            ..auto_2x4(host, "q", "t.c:5:1")
        });
        let (kernel, version) = (0x5c3a_1000usize, 0x5c3a_1001usize);
        let launch = |seconds_original: f64, seconds_version: f64| {
            VARIANTS.with(|v| {
                v.borrow_mut().push(Variant {
                    kernel,
                    version,
                    param: 0,
                    host,
                    desc: c"q;2,4;~2,1;t.c:5:1".as_ptr(),
                    elem: 8,
                })
            });
            let c = choose_version(
                &table,
                &[0xb0_0000, 0],
                &[true, false],
                kernel,
                None,
                &take_offers(),
            );
            let trial = c.trial.expect("auto's layout is tuned");
            assert_eq!(trial.ran_version, c.version.is_some());
            EXPECT.with(|e| e.borrow_mut().clear());
            // What settle would do: the state follows the launch.
            active()
                .iter_mut()
                .filter(|l| l.host == host)
                .for_each(|l| l.in_original = !trial.ran_version);
            let s = if trial.ran_version {
                seconds_version
            } else {
                seconds_original
            };
            tune::launched(trial, s);
            trial.ran_version
        };
        // Unconverted: the original is measured first, then the version once.
        assert!(!launch(4.0, 1.0));
        assert!(launch(4.0, 1.0));
        // The version is faster and no conversion was timed: it stays.
        assert!(launch(4.0, 1.0));
        assert!(launch(4.0, 1.0));
        let p = tune::pair(kernel, version).expect("measured");
        assert_eq!((p.original.count(), p.version.count()), (1, 3));
        assert_eq!(p.original.get(), Some(4.0));
        assert_eq!(p.version.get(), Some(1.0));
        active().retain(|l| l.host != host);
    }

    #[test]
    fn settle_asks_again_for_a_layout_that_ended() {
        // A host range and serials no other test uses; the active list is shared by the tests.
        let host = 0x6c2e_0000usize;
        let mut layout = auto_2x4(host, "s", "s.c:1:1");
        layout.serial = 0x5e77_1e00;
        let inert = Active {
            serial: 0x5e77_1e01,
            elem: 0,
            ..layout.clone()
        };
        active().push(layout.clone());
        active().push(inert);
        let need = |serial, chosen| [Need { serial, chosen }];
        // Converted, and the launch needs it converted: it keeps its hold.
        assert!(settle(&need(layout.serial, true), hold(), "k", "s.c:2:1").is_ok());
        // An instance that keeps the original layout (element size 0) is no layout to settle;
        // one that ended neither: choose again.
        assert_eq!(
            settle(&need(0x5e77_1e01, true), hold(), "k", "s.c:2:1").err(),
            Some(Rechoose)
        );
        active().retain(|l| l.host != host);
        assert_eq!(
            settle(&need(layout.serial, true), hold(), "k", "s.c:2:1").err(),
            Some(Rechoose)
        );
        // Nothing needed: nothing to wait for.
        assert!(settle(&[], hold(), "k", "s.c:2:1").is_ok());
    }

    #[test]
    fn auto_layouts_follow_the_launches_and_the_directive_stops_them() {
        // A host range no other test uses; the active list is shared by the tests.
        let host = 0x6b1d_0000usize;
        let mut table = PresentTable::new();
        table.insert(crate::present_table::Entry::for_test(host, 64, 0xa0_0000));
        let mut layout = auto_2x4(host, "p", "w.c:4:1");
        let expect = |i: u32| EXPECT.with(|e| e.borrow_mut().push((i, host)));
        let check = |params: &[u64]| check_launch(&table, params, &[true, true], "k", "w.c:9:1");
        let need = |chosen| Ok(vec![Need { serial: 0, chosen }]);
        active().push(layout.clone());
        // A kernel compiled for the layout, on the copy's start: the layout.
        expect(0);
        assert_eq!(check(&[0xa0_0000, 0]), need(true));
        // A kernel that was not (a pointer into the copy it does not expect): the original
        // layout, whatever the state now.
        assert_eq!(check(&[0xa0_0010, 0]), need(false));
        active()
            .iter_mut()
            .for_each(|l| l.in_original |= l.host == host);
        assert_eq!(check(&[0xa0_0010, 0]), need(false));
        // A kernel compiled for it again; one that does not touch it needs nothing.
        expect(1);
        assert_eq!(check(&[0, 0xa0_0000]), need(true));
        assert_eq!(check(&[0x10, 0x20]), Ok(vec![]));
        // One launch needing both (compiled for it, and another pointer into it): an error.
        expect(1);
        let both = check(&[0xa0_0008, 0xa0_0000]).expect_err("both layouts at once");
        assert!(
            both.contains("parameter 0") && both.contains("-fptxcc-layout=auto"),
            "{both}"
        );
        // A compiled kernel given an address inside the copy: an error, whatever the state.
        expect(0);
        let inside = check(&[0xa0_0008, 0]).expect_err("not the start");
        assert!(inside.contains("8 bytes into"), "{inside}");
        // The directive's layout is never undone: the stray pointer is an error.
        active().retain(|l| l.host != host);
        layout.by_auto = false;
        active().push(layout);
        let directive = check(&[0xa0_0010, 0]).expect_err("the directive's layout");
        assert!(directive.contains("the trans at w.c:4:1"), "{directive}");
        active().retain(|l| l.host != host);
    }

    /// An auto layout of 8 doubles at `host` seen as [2][4], transposed, converted now.
    fn auto_2x4(host: usize, name: &str, loc: &str) -> Active {
        Active {
            host,
            bytes: 64,
            elem: 8,
            dims: vec![2, 4],
            order: vec![1, 0],
            name: name.into(),
            loc: loc.into(),
            ext_global: 0,
            start_align: 1,
            by_auto: true,
            serial: 0,
            in_original: false,
            arrived_with_region: false,
            thread: std::thread::current().id(),
        }
    }

    #[test]
    fn launches_follow_the_copies_conversions_moved() {
        let mark = moves_mark();
        let log = |from, to| {
            move_log().push(Moved {
                from,
                to,
                bytes: 0x100,
            })
        };
        // Moved there and back again elsewhere: a pointer into it follows both, in order; a
        // by-value parameter with the same bits, and a pointer elsewhere, stay.
        log(0xd000_0000, 0xd100_0000);
        let later_mark = moves_mark();
        log(0xd100_0000, 0xd200_0000);
        let mut params = [0xd000_0008, 0xd000_0008, 0xd000_0100];
        follow_moves(&mark, &mut params, &[true, false, true]);
        assert_eq!(params, [0xd200_0008, 0xd000_0008, 0xd000_0100]);
        // Moves before the mark are not followed again.
        let mut later = [0xd100_0010];
        follow_moves(&later_mark, &mut later, &[true]);
        assert_eq!(later, [0xd200_0010]);
    }

    #[test]
    fn the_log_of_moves_keeps_what_held_marks_need() {
        let m = |n: u64| Moved {
            from: n,
            to: n + 1,
            bytes: 1,
        };
        let mut log = MoveLog::new();
        // No launch between its mark and its parameters: nothing is kept.
        log.push(m(1));
        log.push(m(2));
        assert_eq!((log.first, log.moves.len()), (2, 0));
        let a = log.hold();
        log.push(m(3));
        let b = log.hold();
        log.push(m(4));
        assert_eq!(log.since(a).map(|x| x.from).collect::<Vec<_>>(), [3, 4]);
        assert_eq!(log.since(b).map(|x| x.from).collect::<Vec<_>>(), [4]);
        // The older mark released: only what the newer one needs stays.
        log.release(a);
        assert_eq!((log.first, log.moves.len()), (3, 1));
        assert_eq!(log.since(b).map(|x| x.from).collect::<Vec<_>>(), [4]);
        // Two launches at one mark: kept until both are done.
        let c = log.hold();
        let c2 = log.hold();
        assert_eq!(c, c2);
        log.push(m(5));
        log.release(b);
        log.release(c);
        assert_eq!(log.since(c2).map(|x| x.from).collect::<Vec<_>>(), [5]);
        log.release(c2);
        assert!(log.moves.is_empty() && log.held.is_empty());
        assert_eq!(log.end(), 5);
    }

    #[test]
    fn forward_then_backward_is_identity() {
        let l = Active {
            host: 0,
            bytes: 2 * 3 * 4 * 5 * 8,
            elem: 8,
            dims: vec![2, 3, 4, 5],
            order: vec![3, 0, 2, 1],
            name: "a".into(),
            loc: String::new(),
            ext_global: 0,
            start_align: 1,
            by_auto: false,
            serial: 0,
            in_original: false,
            arrived_with_region: false,
            thread: std::thread::current().id(),
        };
        let src: Vec<u64> = (0..120).collect();
        let mut mid = vec![0u64; 120];
        let mut back = vec![0u64; 120];
        unsafe {
            permute_on_host(
                mid.as_mut_ptr() as u64,
                src.as_ptr() as u64,
                &l.plan_forward().unwrap(),
            );
            permute_on_host(
                back.as_mut_ptr() as u64,
                mid.as_ptr() as u64,
                &l.plan_backward().unwrap(),
            );
        }
        assert_eq!(src, back);
        assert_ne!(src, mid);
        // Element (i,j,k,l) lives at [l][i][k][j].
        let (i, j, k, m) = (1, 2, 3, 4);
        let orig = ((i * 3 + j) * 4 + k) * 5 + m;
        let new = ((m * 2 + i) * 4 + k) * 3 + j;
        assert_eq!(mid[new], orig as u64);
    }
}
