//! Map-clause semantics (OpenMP 5.2 §5.8.3, as libomptarget implements them) on top of the
//! present table and a device: `target data` begin/end, `target update`, and the device
//! addresses of kernel parameters.

use crate::device::{Device, QueueHandle, SYNC_QUEUE};
use crate::errors::{DeviceError, MapError};
use crate::map_type::MapType;
use crate::present_table::{
    DevAddr, Entry, EntryKey, Lookup, PresentTable, RefCount, ShadowPointer, Storage,
};
use crate::runtime::DirectCopy;
use crate::source_info::VarName;
use std::time::Instant;

mod extend;

/// One entry of clang's offload arrays.
#[derive(Clone, Debug)]
pub struct MapItem {
    pub base: usize,
    pub begin: usize,
    pub bytes: u64,
    pub ty: MapType,
    pub name: VarName,
}

impl MapItem {
    /// A test's item: `bytes` bytes at `begin` (its base too) with map type bits `ty`.
    #[cfg(test)]
    pub(crate) fn for_test(begin: usize, bytes: u64, ty: u64) -> MapItem {
        MapItem {
            base: begin,
            begin,
            bytes,
            ty: crate::map_type::MapType(ty),
            name: VarName::default(),
        }
    }
}

/// A kernel parameter computed from a map item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// The device address of the item's base.
    Device(u64),
    /// Nothing is mapped there: the host value.
    Unmapped(u64),
}

/// Bytes moved and time spent, for PTXRT_PROFILE.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Transfers {
    pub to_device_bytes: u64,
    pub to_device_ns: u64,
    pub to_device_count: u64,
    pub from_device_bytes: u64,
    pub from_device_ns: u64,
    pub from_device_count: u64,
}

impl Transfers {
    /// One host→device copy of `bytes`, begun at `started`.
    pub fn to_device(&mut self, bytes: u64, started: Instant) {
        self.to_device_bytes += bytes;
        self.to_device_ns += started.elapsed().as_nanos() as u64;
        self.to_device_count += 1;
    }

    /// One device→host copy of `bytes`, begun at `started`.
    pub fn from_device(&mut self, bytes: u64, started: Instant) {
        self.from_device_bytes += bytes;
        self.from_device_ns += started.elapsed().as_nanos() as u64;
        self.from_device_count += 1;
    }
}

/// Host alignment preserved in device copies (so a struct member or a misaligned section keeps the
/// alignment the compiled code assumes): see [`Mapper::allocate`].
const ALIGN_PRESERVE: usize = 64;

/// The bytes a device copy of `[begin, …)` starts after its allocation's (256-byte aligned)
/// start: the section's offset in its object, `begin - base`, modulo [`ALIGN_PRESERVE`]. The
/// object's start is then 64-byte aligned on the device, which is at least its host
/// alignment up to 64, and the section keeps its place relative to it (a struct member, `x[3:n]`
/// of an aligned `x`). A whole object (`begin == base`, `x[0:n]`) starts on the allocation's
/// boundary, so a warp's unit-stride accesses start a 32-byte sector, as `cudaMalloc`'s memory
/// does, whatever the host's `malloc` returned (glibc's large blocks start 16 bytes into a line).
/// A base past the begin (no common object) falls back to the begin's own host alignment.
fn preserved_padding(begin: usize, base: usize) -> u64 {
    let offset = if base <= begin { begin - base } else { begin };
    (offset % ALIGN_PRESERVE) as u64
}

pub struct Mapper<'a> {
    pub device: &'a dyn Device,
    pub table: &'a mut PresentTable,
    pub transfers: Transfers,
    /// Where copies go: `SYNC_QUEUE` (done when the call returns) or a device queue, in which case
    /// entries remember the queue and `finish` waits for it.
    pub queue: QueueHandle,
    /// Copies were enqueued on `queue` since the last `finish`.
    pending: bool,
    /// Entries found or created by `begin` (for counting the kernels that use them).
    pub touched: Vec<EntryKey>,
    /// Host bytes whose current copy is on another device (a split launch left them there):
    /// copies out take them from there, in host address order (`with_direct`).
    direct: &'a [DirectCopy],
    /// The places `pack_small` reserved in one device block for this `begin`'s small
    /// mappings: (host begin, bytes, device address).
    packed: Vec<(usize, u64, DevAddr)>,
    /// That block, and how many entries took their place in it.
    pack_block: Option<(DevAddr, u32)>,
}

/// The largest mapping `Mapper::pack_small` puts in a shared block (a reduction array such
/// as NPB EP's `q[10]` fits).
const PACK_MAX: u64 = 256;

/// Result of finding or creating the device copy of one list item.
#[derive(Clone, Copy, Debug)]
struct Target {
    key: Option<EntryKey>,
    addr: Option<DevAddr>,
    is_new: bool,
}

/// For each item, whether it only attaches a pointer: a zero-length section of a pointer that
/// is itself mapped (`s.p[0:0]`, PTR_AND_OBJ: OpenACC's `attach`/`detach` clauses become such
/// maps), or the struct entry whose every member is one. OpenACC 3.3 (2.7.2) counts attachments
/// apart from the reference counts: attaching must not hold the pointer's target (an
/// `exit data copyout` of it would then copy nothing) and detaching must not release it (it
/// used to free the target before the program's own `copyout`).
fn attach_only(items: &[MapItem]) -> Vec<bool> {
    let zero_ptr = |it: &MapItem| it.ty.ptr_and_obj() && it.bytes == 0;
    let mut only: Vec<bool> = items.iter().map(zero_ptr).collect();
    for (p, slot) in only.iter_mut().enumerate() {
        if items[p].ty.member_of().is_some() || items[p].ty.ptr_and_obj() {
            continue;
        }
        let mut members = items
            .iter()
            .filter(|m| m.ty.member_of() == Some(p))
            .peekable();
        *slot = members.peek().is_some() && members.all(zero_ptr);
    }
    only
}

fn dev_err(var: &VarName, error: DeviceError) -> MapError {
    MapError::Device {
        var: var.clone(),
        error,
    }
}

impl<'a> Mapper<'a> {
    pub fn new(device: &'a dyn Device, table: &'a mut PresentTable) -> Mapper<'a> {
        Mapper {
            device,
            table,
            transfers: Transfers::default(),
            queue: SYNC_QUEUE,
            pending: false,
            touched: Vec::new(),
            direct: &[],
            packed: Vec::new(),
            pack_block: None,
        }
    }

    /// Copies out take the bytes of `direct` from the devices it names instead of this one
    /// (`DeviceState::settle_spread_for`).
    pub fn with_direct(self, direct: &'a [DirectCopy]) -> Mapper<'a> {
        Mapper { direct, ..self }
    }

    /// A mapper whose copies go on queue `q`.
    pub fn on_queue(
        device: &'a dyn Device,
        table: &'a mut PresentTable,
        q: QueueHandle,
    ) -> Mapper<'a> {
        Mapper {
            queue: q,
            ..Mapper::new(device, table)
        }
    }

    /// Waits for the copies enqueued so far (nothing to do on `SYNC_QUEUE`).
    pub fn finish(&mut self) -> Result<(), DeviceError> {
        if self.pending {
            self.pending = false;
            self.device.queue_synchronize(self.queue)?;
        }
        Ok(())
    }

    /// Waits for the work other queues have on entry `key` (the end of a data region waits for the
    /// queues that use its data before it copies out of it or frees it).
    fn wait_other_queues(&mut self, key: EntryKey) -> Result<(), MapError> {
        let own = self.queue;
        let Some(e) = self.table.get_mut(key) else {
            return Ok(());
        };
        if e.queues.iter().all(|&q| q == own) {
            return Ok(());
        }
        let others: Vec<QueueHandle> = e.queues.iter().copied().filter(|&q| q != own).collect();
        e.queues.retain(|&q| q == own);
        let name = e.name.clone();
        for q in others {
            self.device
                .queue_synchronize(q)
                .map_err(|err| dev_err(&name, err))?;
        }
        Ok(())
    }

    /// Notes that entry `key` has work on this mapper's queue.
    fn note_queue(&mut self, key: EntryKey) {
        if self.queue == SYNC_QUEUE {
            return;
        }
        self.pending = true;
        let q = self.queue;
        if let Some(e) = self.table.get_mut(key) {
            if !e.queues.contains(&q) {
                e.queues.push(q);
            }
        }
    }

    fn h2d(&mut self, var: &VarName, dst: DevAddr, src: usize, bytes: u64) -> Result<(), MapError> {
        let t = Instant::now();
        unsafe {
            self.device
                .copy_to_device_on(self.queue, dst, src as *const u8, bytes)
        }
        .map_err(|e| dev_err(var, e))?;
        self.transfers.to_device(bytes, t);
        Ok(())
    }

    fn d2h(&mut self, var: &VarName, dst: usize, src: DevAddr, bytes: u64) -> Result<(), MapError> {
        let t = Instant::now();
        unsafe {
            self.device
                .copy_from_device_on(self.queue, dst as *mut u8, src, bytes)
        }
        .map_err(|e| dev_err(var, e))?;
        self.transfers.from_device(bytes, t);
        Ok(())
    }

    /// `d2h` of host bytes `[dst, dst + bytes)` from `src`, except the bytes `direct` says are
    /// current on another device: those come from there (synchronously; each device's part
    /// over its own link), counted in the profile as that device's.
    fn d2h_current(
        &mut self,
        var: &VarName,
        dst: usize,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), MapError> {
        let end = dst + bytes as usize;
        let mut at = dst;
        for d in self.direct {
            let lo = d.host.max(at);
            let hi = (d.host + d.bytes as usize).min(end);
            if lo >= hi {
                continue;
            }
            if at < lo {
                self.d2h(var, at, src + (at - dst) as DevAddr, (lo - at) as u64)?;
            }
            let n = (hi - lo) as u64;
            // SAFETY: `d.addr` is the other device's current copy of the host bytes from
            // `d.host` (its window, kept in place by the lock `DirectCopies` holds); the host
            // range is the entry's.
            unsafe {
                d.device
                    .copy_from_device(lo as *mut u8, d.addr + (lo - d.host) as DevAddr, n)
            }
            .map_err(|e| dev_err(var, e))?;
            if let Some(number) = d.number {
                crate::profile::spread(
                    number,
                    &crate::coherence::windows::Moved {
                        d2h: n,
                        ..Default::default()
                    },
                );
            }
            at = hi;
        }
        if at < end {
            self.d2h(var, at, src + (at - dst) as DevAddr, (end - at) as u64)?;
        }
        Ok(())
    }

    /// Copies `[begin, begin+bytes)` of entry `key` to the device, keeping attached pointers.
    fn copy_in(
        &mut self,
        key: EntryKey,
        begin: usize,
        bytes: u64,
        var: &VarName,
    ) -> Result<(), MapError> {
        let Some(e) = self.table.get(key) else {
            return Ok(());
        };
        let entry = (e.host_begin, e.host_end, e.device_begin);
        if let Some(r) = crate::layout::convert_in(self, entry, begin, bytes, var) {
            self.note_queue(key);
            return r;
        }
        let Some(e) = self.table.get(key) else {
            return Ok(());
        };
        let dst = e.device_addr_of(begin);
        let shadows: Vec<ShadowPointer> = e.shadows_in(begin, bytes).copied().collect();
        self.h2d(var, dst, begin, bytes)?;
        for s in shadows {
            let v = s.device_value;
            // An 8-byte copy on a queue has read `v` when it returns (STAGING_MAX).
            unsafe {
                self.device.copy_to_device_on(
                    self.queue,
                    s.device_slot,
                    &v as *const u64 as *const u8,
                    8,
                )
            }
            .map_err(|e| dev_err(var, e))?;
        }
        self.note_queue(key);
        Ok(())
    }

    /// Copies `[begin, begin+bytes)` of entry `key` back to the host, keeping host pointer values.
    fn copy_out(
        &mut self,
        key: EntryKey,
        begin: usize,
        bytes: u64,
        var: &VarName,
    ) -> Result<(), MapError> {
        let Some(e) = self.table.get(key) else {
            return Ok(());
        };
        let entry = (e.host_begin, e.host_end, e.device_begin);
        if let Some(r) = crate::layout::convert_out(self, entry, begin, bytes, var) {
            return r;
        }
        let Some(e) = self.table.get(key) else {
            return Ok(());
        };
        let src = e.device_addr_of(begin);
        let shadows: Vec<ShadowPointer> = e.shadows_in(begin, bytes).copied().collect();
        self.d2h_current(var, begin, src, bytes)?;
        self.note_queue(key);
        if !shadows.is_empty() {
            // The host pointer values go back after the copy has landed.
            self.finish().map_err(|e| dev_err(var, e))?;
        }
        for s in shadows {
            unsafe { std::ptr::write_unaligned(s.host_slot as *mut usize, s.host_value) };
        }
        Ok(())
    }

    fn allocate(
        &mut self,
        item_begin: usize,
        item_base: usize,
        bytes: u64,
        hold: bool,
        var: &VarName,
    ) -> Result<EntryKey, MapError> {
        let pad = preserved_padding(item_begin, item_base);
        // A place `pack_small` reserved for it, else an allocation of its own.
        let place = self
            .packed
            .iter()
            .position(|&(b, n, _)| pad == 0 && b == item_begin && n == bytes)
            .map(|k| self.packed.swap_remove(k).2)
            .zip(self.pack_block.as_mut());
        let (device_begin, alloc_base) = match place {
            Some((at, (block, used))) => {
                *used += 1;
                (at, *block)
            }
            None => {
                let base = self
                    .device
                    .alloc(bytes + pad)
                    .map_err(|e| MapError::allocating(var, bytes, e))?;
                (base + pad, base)
            }
        };
        Ok(self.table.insert(Entry {
            host_base: item_base,
            host_begin: item_begin,
            host_end: item_begin + bytes as usize,
            device_begin,
            storage: Storage::Owned { alloc_base },
            dynamic_refs: RefCount::Finite(if hold { 0 } else { 1 }),
            hold_refs: if hold { 1 } else { 0 },
            name: var.clone(),
            shadows: Vec::new(),
            users: 0,
            queues: Vec::new(),
            exposed: false,
            copies_out: false,
        }))
    }

    /// libomptarget's getTargetPointer: find (and count a reference to) or create the device copy.
    #[allow(clippy::too_many_arguments)]
    fn get_target(
        &mut self,
        begin: usize,
        base: usize,
        bytes: u64,
        ty: MapType,
        has_to: bool,
        update_ref: bool,
        var: &VarName,
    ) -> Result<Target, MapError> {
        let hold = ty.hold();
        let mut t = match self.table.lookup(begin, bytes) {
            Lookup::Contained(k) => self.reuse(k, begin, hold, update_ref),
            // An implicit map over one mapping uses that part only (OpenMP 5.1 §5.8.3).
            Lookup::Overlaps(k) if ty.implicit() && self.overlapped(begin, bytes).len() == 1 => {
                self.reuse(k, begin, hold, update_ref)
            }
            Lookup::Overlaps(k) => {
                if let Some(k) = self.extend(begin, base, bytes, var)? {
                    if let (true, Some(e)) = (update_ref, self.table.get_mut(k)) {
                        e.increment(hold);
                    }
                    Target {
                        key: Some(k),
                        addr: self.table.get(k).map(|e| e.device_addr_of(begin)),
                        is_new: false,
                    }
                } else {
                    let e = self.table.get(k);
                    return Err(MapError::PartialOverlap {
                        var: var.clone(),
                        host: begin,
                        bytes,
                        mapped_var: e.map(|e| e.name.clone()).unwrap_or_default(),
                        mapped_host: e.map_or(0, |e| e.host_begin),
                        mapped_bytes: e.map_or(0, |e| e.bytes()),
                    });
                }
            }
            Lookup::Absent if ty.present() => {
                return Err(MapError::NotPresent {
                    var: var.clone(),
                    host: begin,
                    bytes,
                });
            }
            Lookup::Absent if bytes > 0 => {
                let k = self.allocate(begin, base, bytes, hold, var)?;
                if let Some(e) = self.table.get_mut(k) {
                    e.copies_out = ty.from();
                }
                Target {
                    key: Some(k),
                    addr: self.table.get(k).map(|e| e.device_addr_of(begin)),
                    is_new: true,
                }
            }
            Lookup::Absent => Target {
                key: None,
                addr: None,
                is_new: false,
            },
        };
        if let (Some(k), true) = (t.key, has_to && bytes > 0 && (t.is_new || ty.always())) {
            // A second "new" mapping of a range whose pointers were already attached must not
            // clobber them (libomptarget does the same).
            let attached = self
                .table
                .get(k)
                .is_some_and(|e| e.shadows_in(begin, bytes).next().is_some());
            if !attached || ty.always() {
                self.copy_in(k, begin, bytes, var)?;
            }
        }
        if t.addr.is_none() {
            t.key = None;
        }
        if let Some(k) = t.key {
            if !self.touched.contains(&k) {
                self.touched.push(k);
            }
        }
        Ok(t)
    }

    fn reuse(&mut self, k: EntryKey, begin: usize, hold: bool, update_ref: bool) -> Target {
        match self.table.get_mut(k) {
            Some(e) => {
                let is_new = if update_ref {
                    e.increment(hold);
                    false
                } else {
                    // Allocated together with its parent by this construct: still new.
                    e.total_refs_is_one()
                };
                Target {
                    key: Some(k),
                    addr: Some(e.device_addr_of(begin)),
                    is_new,
                }
            }
            None => Target {
                key: None,
                addr: None,
                is_new: false,
            },
        }
    }

    /// `__tgt_target_data_begin_mapper`. Returns, for RETURN_PARAM items, the new base pointer
    /// value to store back into `args_base[i]` (use_device_ptr / use_device_addr).
    pub fn begin(&mut self, items: &[MapItem]) -> Result<Vec<(usize, usize)>, MapError> {
        self.pack_small(items)?;
        let r = self.begin_items(items);
        let settled = self.settle_pack();
        let returns = r?;
        settled?;
        Ok(returns)
    }

    /// On a device that packs them (`Device::packs_small_mappings`), reserves one device block
    /// for the items of this `begin` that will get a new device copy of at most `PACK_MAX`
    /// bytes (whole objects, no other item overlapping them), when there are two or more: NPB
    /// EP's `map(tofrom: sx, sy, q[0:10])` then takes one allocation and three sectors, as
    /// nvcc's one buffer does, instead of three allocations and five sectors. Each starts at
    /// the largest power of two dividing its size, up to 16 (its type's alignment divides
    /// it). `allocate` hands the places out; the block is freed with its last entry
    /// (`PresentTable::release_block`).
    fn pack_small(&mut self, items: &[MapItem]) -> Result<(), MapError> {
        if !self.device.packs_small_mappings() {
            return Ok(());
        }
        let mapped = |it: &MapItem| !it.ty.is_unmapped();
        let mut places: Vec<(usize, u64, u64)> = Vec::new();
        let mut end = 0u64;
        for (i, it) in items.iter().enumerate() {
            let small = mapped(it)
                && !it.ty.ptr_and_obj()
                && it.ty.member_of().is_none()
                && it.bytes > 0
                && it.bytes <= PACK_MAX
                && preserved_padding(it.begin, it.base) == 0
                && matches!(self.table.lookup(it.begin, it.bytes), Lookup::Absent);
            let overlapped = items.iter().enumerate().any(|(j, o)| {
                j != i
                    && mapped(o)
                    && (o.begin, o.bytes) != (it.begin, it.bytes)
                    && o.begin < it.begin + it.bytes as usize
                    && it.begin < o.begin + o.bytes.max(1) as usize
            });
            let again = places
                .iter()
                .any(|&(b, n, _)| (b, n) == (it.begin, it.bytes));
            if !small || overlapped || again {
                continue;
            }
            // A C object's alignment divides its size: the largest power of two that divides
            // the size, up to 16 (no C type needs more), is enough for the kernels.
            let align = 1u64 << (it.bytes | 16).trailing_zeros();
            let at = end.next_multiple_of(align);
            places.push((it.begin, it.bytes, at));
            end = at + it.bytes;
        }
        if places.len() < 2 {
            return Ok(());
        }
        let block = self.device.alloc(end).map_err(|e| {
            let var = items
                .iter()
                .find(|it| it.begin == places[0].0)
                .map(|it| it.name.clone())
                .unwrap_or_default();
            MapError::allocating(&var, end, e)
        })?;
        self.packed = places
            .into_iter()
            .map(|(b, n, at)| (b, n, block + at))
            .collect();
        self.pack_block = Some((block, 0));
        Ok(())
    }

    /// Frees the device memory of an entry just removed from the table: its own allocation, or
    /// its share of a packed block (freed with the block's last entry).
    pub(super) fn free_storage(&mut self, storage: Storage, var: &VarName) -> Result<(), MapError> {
        match storage {
            Storage::Owned { alloc_base } if self.table.release_block(alloc_base) => {
                self.device.free(alloc_base).map_err(|e| dev_err(var, e))
            }
            _ => Ok(()),
        }
    }

    /// After `begin`: the places nobody took are given up, and the block is shared by the
    /// entries that took one (freed now if none did).
    fn settle_pack(&mut self) -> Result<(), MapError> {
        self.packed.clear();
        match self.pack_block.take() {
            Some((block, 0)) => self
                .device
                .free(block)
                .map_err(|e| dev_err(&VarName::default(), e)),
            Some((block, used)) => {
                self.table.share_block(block, used);
                Ok(())
            }
            None => Ok(()),
        }
    }

    fn begin_items(&mut self, items: &[MapItem]) -> Result<Vec<(usize, usize)>, MapError> {
        let mut returns = Vec::new();
        let attach_only = attach_only(items);
        for (i, it) in items.iter().enumerate() {
            if it.ty.is_unmapped() {
                continue;
            }
            if it.ty.non_contiguous() {
                return Err(MapError::Unsupported {
                    var: it.name.clone(),
                    what: "a non-contiguous array section".into(),
                });
            }
            let mut update_ref = it.ty.member_of().is_none() && !attach_only[i];
            let mut base = it.base;
            let mut pointer: Option<(Target, usize)> = None;
            if it.ty.ptr_and_obj() {
                // The pointer itself (usually already mapped as part of its struct).
                let ptr_ty =
                    MapType(it.ty.0 & (MapType::IMPLICIT | MapType::PRESENT | MapType::OMPX_HOLD));
                let pt =
                    self.get_target(it.base, it.base, 8, ptr_ty, false, update_ref, &it.name)?;
                if pt.addr.is_none() {
                    return Err(MapError::Attach {
                        var: it.name.clone(),
                        message: "the pointer has no device copy".into(),
                    });
                }
                pointer = Some((pt, it.base));
                base = unsafe { std::ptr::read_unaligned(it.base as *const usize) };
                update_ref = !attach_only[i];
            }
            let t = self.get_target(
                it.begin,
                base,
                it.bytes,
                it.ty,
                it.ty.to(),
                update_ref,
                &it.name,
            )?;
            if it.ty.return_param() {
                if let Some(e) = t.key.and_then(|k| self.table.get_mut(k)) {
                    e.exposed = true;
                }
                let dev_base = match t.addr {
                    Some(a) => a.wrapping_sub((it.begin as u64).wrapping_sub(base as u64)) as usize,
                    None => base,
                };
                returns.push((i, dev_base));
            }
            if let (Some((pt, host_slot)), Some(addr)) = (pointer, t.addr) {
                let expected = addr.wrapping_sub((it.begin as u64).wrapping_sub(base as u64));
                let (Some(pk), Some(dev_slot)) = (pt.key, pt.addr) else {
                    continue;
                };
                let shadow = ShadowPointer {
                    host_slot,
                    host_value: base,
                    device_slot: dev_slot,
                    device_value: expected,
                };
                let changed = self.table.get_mut(pk).is_some_and(|e| e.add_shadow(shadow));
                if changed {
                    unsafe {
                        self.device.copy_to_device_on(
                            self.queue,
                            dev_slot,
                            &expected as *const u64 as *const u8,
                            8,
                        )
                    }
                    .map_err(|e| dev_err(&it.name, e))?;
                    self.note_queue(pk);
                }
            }
        }
        Ok(returns)
    }

    /// `__tgt_target_data_end_mapper` (items are processed last to first).
    pub fn end(&mut self, items: &[MapItem]) -> Result<(), MapError> {
        let mut maybe_remove: Vec<EntryKey> = Vec::new();
        // `from` items whose entry was still referenced when they were reached: a list item in
        // two clauses of one construct (OpenACC `copyin(x) copyout(x)`, OpenMP `map(to: x)
        // map(from: x)`) is two items, and the one that removes the data may not be the `from`.
        let mut pending_from: Vec<&MapItem> = Vec::new();
        let attach_only = attach_only(items);
        for (i, it) in items.iter().enumerate().rev() {
            if it.ty.is_unmapped() {
                continue;
            }
            let update_ref = it.ty.member_of().is_none() || it.ty.ptr_and_obj();
            let force_delete = it.ty.delete();
            let hold = it.ty.hold();
            let key = match self.table.lookup(it.begin, it.bytes) {
                Lookup::Contained(k) => Some(k),
                Lookup::Overlaps(k) if it.ty.implicit() => Some(k),
                _ => None,
            };
            let Some(key) = key else {
                if it.ty.present() {
                    return Err(MapError::NotPresent {
                        var: it.name.clone(),
                        host: it.begin,
                        bytes: it.bytes,
                    });
                }
                continue; // not present on exit: ignored (OpenMP 5.2 §5.8.3)
            };
            if attach_only[i] {
                // Attachments are not counted references (see `attach_only`): an exit that
                // only detaches neither releases nor copies the data.
                continue;
            }
            self.wait_other_queues(key)?;
            let Some(e) = self.table.get_mut(key) else {
                continue;
            };
            let is_last = e.would_be_removed(hold, force_delete);
            if force_delete {
                e.reset(hold);
            } else if update_ref {
                e.decrement(hold);
            }
            if it.ty.from() && it.bytes > 0 {
                if it.ty.always() || is_last {
                    self.copy_out(key, it.begin, it.bytes, &it.name)?;
                } else {
                    pending_from.push(it);
                }
            }
            if is_last {
                maybe_remove.push(key);
            }
        }
        for it in pending_from {
            let key = match self.table.lookup(it.begin, it.bytes) {
                Lookup::Contained(k) | Lookup::Overlaps(k) => k,
                Lookup::Absent => continue,
            };
            let removed = self.table.get(key).is_some_and(|e| e.total_refs_is_zero());
            if removed && maybe_remove.contains(&key) {
                self.copy_out(key, it.begin, it.bytes, &it.name)?;
            }
        }
        if !maybe_remove.is_empty() {
            // Device memory is freed only once the copies out of it have completed.
            self.finish().map_err(|e| dev_err(&VarName::default(), e))?;
        }
        for key in maybe_remove {
            if self.table.get(key).is_some_and(|e| e.total_refs_is_zero()) {
                if let Some(e) = self.table.remove(key) {
                    self.free_storage(e.storage, &e.name)?;
                }
            }
        }
        Ok(())
    }

    /// OpenACC's attach action on the pointer at host address `slot` (`acc_attach`): the
    /// pointer's device copy is pointed at the device copy of its target. The pointer must be
    /// present; a null pointer or one whose target is not present is left alone (OpenACC 3.3,
    /// 2.7.2: attach has no effect then). Attachments are not counted (as the clauses' are not).
    pub fn attach(&mut self, slot: usize, var: &VarName) -> Result<(), MapError> {
        let Some((pk, dev_slot)) = self.pointer_slot(slot, var)? else {
            return Ok(());
        };
        let host_value = unsafe { std::ptr::read_unaligned(slot as *const usize) };
        if host_value == 0 {
            return Ok(());
        }
        let Some(target) = self.device_addr(host_value, 0) else {
            return Ok(());
        };
        let shadow = ShadowPointer {
            host_slot: slot,
            host_value,
            device_slot: dev_slot,
            device_value: target,
        };
        if self.table.get_mut(pk).is_some_and(|e| e.add_shadow(shadow)) {
            self.write_pointer(pk, dev_slot, target, var)?;
        }
        Ok(())
    }

    /// OpenACC's detach action (`acc_detach`): the pointer's device copy gets the pointer's host
    /// value again and the attachment is forgotten. A pointer that is not attached is left alone.
    pub fn detach(&mut self, slot: usize, var: &VarName) -> Result<(), MapError> {
        let Some((pk, dev_slot)) = self.pointer_slot(slot, var)? else {
            return Ok(());
        };
        let attached = self.table.get_mut(pk).is_some_and(|e| {
            let before = e.shadows.len();
            e.shadows.retain(|s| s.host_slot != slot);
            e.shadows.len() != before
        });
        if attached {
            let host_value = unsafe { std::ptr::read_unaligned(slot as *const u64) };
            self.write_pointer(pk, dev_slot, host_value, var)?;
        }
        Ok(())
    }

    /// The entry and device address of the pointer at host address `slot`, which must be
    /// present; None for a null slot.
    fn pointer_slot(
        &self,
        slot: usize,
        var: &VarName,
    ) -> Result<Option<(EntryKey, DevAddr)>, MapError> {
        if slot == 0 {
            return Ok(None);
        }
        match self.table.lookup(slot, 8) {
            Lookup::Contained(k) => Ok(self.table.get(k).map(|e| (k, e.device_addr_of(slot)))),
            _ => Err(MapError::Attach {
                var: var.clone(),
                message: "the pointer has no device copy".into(),
            }),
        }
    }

    /// Stores `value` into the device pointer at `dev_slot` (of entry `key`), on this queue.
    fn write_pointer(
        &mut self,
        key: EntryKey,
        dev_slot: DevAddr,
        value: u64,
        var: &VarName,
    ) -> Result<(), MapError> {
        unsafe {
            self.device.copy_to_device_on(
                self.queue,
                dev_slot,
                &value as *const u64 as *const u8,
                8,
            )
        }
        .map_err(|e| dev_err(var, e))?;
        // (A copy of 8 bytes has read `value` when the call returns, even on a queue.)
        self.note_queue(key);
        Ok(())
    }

    /// `__tgt_target_data_update_mapper`: `to` copies host→device, `from` device→host.
    pub fn update(&mut self, items: &[MapItem]) -> Result<(), MapError> {
        for it in items {
            if it.ty.is_unmapped() || it.bytes == 0 {
                continue;
            }
            if it.ty.non_contiguous() {
                return Err(MapError::Unsupported {
                    var: it.name.clone(),
                    what: "target update of a non-contiguous (strided) array section".into(),
                });
            }
            let key = match self.table.lookup(it.begin, it.bytes) {
                Lookup::Contained(k) => k,
                Lookup::Overlaps(k) => {
                    let e = self.table.get(k);
                    return Err(MapError::PartialOverlap {
                        var: it.name.clone(),
                        host: it.begin,
                        bytes: it.bytes,
                        mapped_var: e.map(|e| e.name.clone()).unwrap_or_default(),
                        mapped_host: e.map_or(0, |e| e.host_begin),
                        mapped_bytes: e.map_or(0, |e| e.bytes()),
                    });
                }
                Lookup::Absent if it.ty.present() => {
                    return Err(MapError::NotPresent {
                        var: it.name.clone(),
                        host: it.begin,
                        bytes: it.bytes,
                    })
                }
                Lookup::Absent => continue, // OpenMP 5.2: an absent list item is ignored
            };
            if it.ty.to() {
                self.copy_in(key, it.begin, it.bytes, &it.name)?;
            }
            if it.ty.from() {
                self.copy_out(key, it.begin, it.bytes, &it.name)?;
            }
        }
        Ok(())
    }

    /// The kernel parameter for a mapped (not LITERAL, not PRIVATE) TARGET_PARAM item: the device
    /// address of `begin` plus `base - begin`; the host value when nothing is mapped there
    /// (OpenMP 5.1: an unmapped pointer keeps its original value). The caller decides whether an
    /// unmapped pointer is acceptable (see `param`).
    pub fn param_of(&self, it: &MapItem) -> u64 {
        match self.param(it) {
            Param::Device(v) | Param::Unmapped(v) => v,
        }
    }

    /// Like `param_of`, but says whether the item's storage was found in the present table.
    pub fn param(&self, it: &MapItem) -> Param {
        let base = if it.ty.ptr_and_obj() {
            unsafe { std::ptr::read_unaligned(it.base as *const usize) }
        } else {
            it.base
        };
        let tgt = match self.table.lookup(it.begin, it.bytes) {
            Lookup::Contained(k) | Lookup::Overlaps(k) => {
                self.table.get(k).map(|e| e.device_addr_of(it.begin))
            }
            Lookup::Absent => None,
        };
        let offset = (base as u64).wrapping_sub(it.begin as u64);
        match tgt {
            Some(t) => Param::Device(t.wrapping_add(offset)),
            None => Param::Unmapped(base as u64),
        }
    }

    /// Is `addr` device memory the kernel may use as it is: an allocation of the device
    /// (omp_target_alloc, acc_malloc, a use_device_ptr result) or inside the device copy of a
    /// mapped range or a declare-target global?
    pub fn is_device_address(&self, addr: u64) -> bool {
        self.device.is_device_pointer(addr) || self.table.find_by_device(addr).is_some()
    }

    /// An implicitly mapped pointer (clang: TARGET_PARAM|IMPLICIT, size 0, i.e. a pointer used in
    /// the region without a map clause) whose value is neither NULL, nor inside mapped data, nor
    /// device memory: the host address that would reach the kernel. None when the item is fine.
    pub fn unmapped_pointer(&self, it: &MapItem) -> Option<u64> {
        if !(it.ty.implicit() && it.ty.target_param() && it.bytes == 0)
            || it.ty.is_unmapped()
            || it.ty.ptr_and_obj()
            || it.ty.member_of().is_some()
            || it.ty.return_param()
        {
            return None;
        }
        match self.param(it) {
            Param::Unmapped(0) | Param::Device(_) => None,
            Param::Unmapped(v) if self.is_device_address(v) => None,
            Param::Unmapped(v) => Some(v),
        }
    }

    /// Device address of a host address if mapped (omp_target_is_present, acc_is_present).
    pub fn device_addr(&self, host: usize, bytes: u64) -> Option<DevAddr> {
        match self.table.lookup(host, bytes) {
            Lookup::Contained(k) => self.table.get(k).map(|e| e.device_addr_of(host)),
            _ => None,
        }
    }

    /// The device address of a host address if mapped, for the program to keep
    /// (omp_get_mapped_ptr, acc_deviceptr, use_device_ptr): the copy is marked `exposed`, so
    /// that nothing moves it while the program may hold the address.
    pub fn expose(&mut self, host: usize, bytes: u64) -> Option<DevAddr> {
        match self.table.lookup(host, bytes) {
            Lookup::Contained(k) => self.table.get_mut(k).map(|e| {
                e.exposed = true;
                e.device_addr_of(host)
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
