//! Arrays a data region mapped, spread over the devices by split launches (issue 19).
//!
//! Inside a data region an array's current contents are its present copy on the construct's
//! device (the *origin*): that copy is the array's home (`windows::Home::Device`). A split
//! launch (`split/launch.rs`) runs the origin's part on the home copy itself and every other
//! device's part on that device's window of the array, which it keeps across launches: before a
//! part runs, only the bytes its window lacks are copied in (from a device that holds them, else
//! from the home copy), and after it the bytes it wrote are current there only. A Jacobi
//! iterated in a data region therefore moves halo rows between sweeps, not arrays:
//!
//! ```text
//!   data copy(a, b)          home: device 0's present copies of a and b
//!   sweep 1, 2 devices       dev0 runs rows [0, n/2) on the home copies; dev1's windows get
//!                            rows [n/2 - 1, n) of a from dev0 (peer), writes b's [n/2, n)
//!   sweep 2 (a and b swapped) dev1 gets b's row n/2 - 1 from dev0, dev0 gets b's row n/2 from dev1
//!   update self(b) / end     the copy out takes dev1's rows of b from dev1 and the rest from
//!                            the home copy, each straight to the host (none through dev0)
//! ```
//!
//! Everything else that touches the origin device (a launch that does not split, entering data,
//! an `acc_*`/`omp_*` routine naming it, a layout conversion) first *settles* its arrays: every
//! byte newer on another device is brought home, and the windows are marked stale (the operation
//! may write the home copy), though kept allocated for the next split launch. An `update` or the
//! end of a data region settles only its items' ranges (`settle_ranges`): what it copies out
//! goes to the host from the devices that hold it current (the home copy stays as it was, the
//! others stay current), what it copies in is stale elsewhere, so a halo exchanged through the
//! host (`update self`, MPI, `update device`) moves only the halo, once. An array whose present entry went away (or was mapped again) since a launch
//! tracked it loses its windows at the next settle; the entry's `serial` tells them apart.

use super::windows::{Home, Moved, SpreadData, SpreadError};
use super::{RangeSet, Span};
use crate::device::emulator::EmulatorDevice;
use crate::device::Device;
use crate::mapping::MapItem;
use crate::present_table::{DevAddr, Entry, EntryKey, PresentTable};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The host part of hybrid loops (`-fptxcc-hybrid`, `split/hybrid.rs`) as one more place of
/// the directory, numbered after the devices: its windows are host memory (an emulator
/// device's allocations, which host code reads and writes directly), so data a data region
/// keeps on a device reaches the host part in the ranges it lacks, and what the host part
/// wrote stays there until a device or the home copy needs it.
pub fn host_place() -> &'static dyn Device {
    static HOST: OnceLock<EmulatorDevice> = OnceLock::new();
    HOST.get_or_init(|| EmulatorDevice::new(1, 64 << 10, u64::MAX))
}

/// The places of the directory: the devices, in number order, then the host part.
pub fn places<'a>(devices: impl Iterator<Item = &'a dyn Device>) -> Vec<&'a dyn Device> {
    devices.chain(std::iter::once(host_place())).collect()
}

/// How a data operation on the origin device uses host bytes of its present data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostUse {
    /// It reads the device copy (to copy it to the host through a layout conversion, which
    /// reads the whole home copy): the bytes newer elsewhere come home first.
    Reads,
    /// It copies the device copy's bytes to the host as they are: the bytes newer on another
    /// device go from there to the host directly ([`Direct`]), the rest from the home copy.
    CopiesOut,
    /// It writes the device copy with the host's bytes, all of them.
    Overwrites,
}

/// Host bytes `[host, host + bytes)` a copy out takes from place `place` (of `places`) at
/// `addr`, where they are current and the home copy is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direct {
    pub host: u64,
    pub bytes: u64,
    pub place: usize,
    pub addr: DevAddr,
}

/// What settling an operation's ranges did and left to it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Settled {
    /// Bytes brought home.
    pub moved: Moved,
    /// The copies out its `CopiesOut` ranges take from other places, in host address order.
    pub direct: Vec<Direct>,
}

/// `bytes` host bytes from `begin`, used as `use_` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostAccess {
    pub begin: u64,
    pub bytes: u64,
    pub use_: HostUse,
}

/// The host ranges a data construct's items read or overwrite on the device, when that is all
/// it does to present data (None: it may do more, and everything must be settled).
/// - `update`: `from` items read, `to` items overwrite;
/// - the end of a data region or `exit data`: `from` items read; the others release or delete,
///   which changes no device byte (an array whose entry goes away is forgotten later);
/// - entering data may map over present arrays (a mapping that encloses earlier ones moves them):
///   everything is settled.
///
/// Items that are not one plain contiguous range (a non-contiguous section's descriptor, a
/// pointer attached or detached, a struct member, a literal) make it None.
pub(crate) fn data_op_uses(
    op: crate::offload_abi::DataOp,
    items: &[MapItem],
) -> Option<Vec<HostAccess>> {
    use crate::offload_abi::DataOp;
    let mut uses = Vec::new();
    for it in items {
        let ty = it.ty;
        if ty.non_contiguous() || ty.ptr_and_obj() || ty.member_of().is_some() || ty.literal() {
            return None;
        }
        let use_ = match op {
            DataOp::Begin => return None,
            DataOp::Update if ty.to() => HostUse::Overwrites,
            DataOp::Update | DataOp::End if ty.from() => {
                if crate::layout::find(it.begin, it.bytes).is_some() {
                    HostUse::Reads
                } else {
                    HostUse::CopiesOut
                }
            }
            DataOp::Update | DataOp::End => continue,
        };
        uses.push(HostAccess {
            begin: it.begin as u64,
            bytes: it.bytes,
            use_,
        });
    }
    Some(uses)
}

/// What is known of a tracked array's present entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tracked {
    serial: u64,
    home: DevAddr,
    bytes: u64,
}

/// The origin device's arrays spread over other devices.
#[derive(Debug, Default)]
pub struct PresentSpread {
    data: SpreadData,
    arrays: BTreeMap<u64, Tracked>,
}

impl PresentSpread {
    pub fn new() -> PresentSpread {
        PresentSpread::default()
    }

    /// Names the host part's place (`places`' last): copies to and from it count as
    /// device→host and host→device.
    pub fn set_host_place(&mut self, place: usize) {
        self.data.set_host_place(place);
    }

    pub fn is_empty(&self) -> bool {
        self.arrays.is_empty()
    }

    pub fn data(&self) -> &SpreadData {
        &self.data
    }

    /// The array of the present entry `entry` (key `key`, serial `serial`) of device `origin`,
    /// tracked over the places `devices` (`places`) from now on if it was not: its host
    /// address.
    pub fn array_for(
        &mut self,
        devices: &[&dyn Device],
        origin: usize,
        key: EntryKey,
        entry: &Entry,
        serial: u64,
    ) -> Result<u64, SpreadError> {
        let array = entry.host_begin as u64;
        debug_assert_eq!(key, entry.host_begin);
        let now = Tracked {
            serial,
            home: entry.device_begin,
            bytes: entry.bytes(),
        };
        match self.arrays.get(&array) {
            Some(t) if *t == now => return Ok(array),
            // Another mapping at the same address: what its windows hold is not this data.
            Some(_) => self.release(devices, array)?,
            None => {}
        }
        // A different entry overlapping this one (an entry that went away and a larger one
        // mapped across it).
        let stale: Vec<u64> = self
            .arrays
            .iter()
            .filter(|(&a, t)| a < array + now.bytes && array < a + t.bytes)
            .map(|(&a, _)| a)
            .collect();
        for a in stale {
            self.release(devices, a)?;
        }
        self.data.track(
            array,
            now.bytes,
            devices.len(),
            Home::Device {
                device: origin,
                addr: now.home,
            },
        )?;
        self.arrays.insert(array, now);
        Ok(array)
    }

    fn release(&mut self, devices: &[&dyn Device], array: u64) -> Result<(), SpreadError> {
        self.arrays.remove(&array);
        self.data.release(devices, array)
    }

    /// Before device `device`'s part reads and writes `needed` of the array (a write that does
    /// not happen must leave the current bytes): for the origin, the home copy gets what is newer
    /// elsewhere and the part's address is the home's; for another device, its window covers
    /// `needed`, current. Returns the device address of the array's first byte for the part
    /// (outside the window where the window starts later: only `needed` may be accessed).
    ///
    /// # Safety
    /// The devices must be the runtime's, `origin` the array's home device.
    pub unsafe fn prepare(
        &mut self,
        devices: &[&dyn Device],
        origin: usize,
        array: u64,
        device: usize,
        needed: &RangeSet,
    ) -> Result<(DevAddr, Moved), SpreadError> {
        let home = self.arrays[&array].home;
        if device == origin {
            let moved = self.data.gather(devices, array, needed)?;
            return Ok((home, moved));
        }
        let moved = self.data.prepare(devices, array, device, needed, needed)?;
        let base = match self.data.window(array, device) {
            Some(w) => w.addr.wrapping_sub(w.span.start),
            // Nothing needed: the part touches none of the array.
            None => 0,
        };
        Ok((base, moved))
    }

    /// After device `device`'s part wrote `written` of the array: current there only.
    pub fn wrote(
        &mut self,
        origin: usize,
        array: u64,
        device: usize,
        written: &RangeSet,
    ) -> Result<(), SpreadError> {
        if written.is_empty() {
            return Ok(());
        }
        if device == origin {
            self.data.host_wrote(array, written)
        } else {
            self.data.wrote(array, device, written)
        }
    }

    /// Makes the home copy of `array` current (bytes newer on other devices copied home) and
    /// marks the windows stale: what comes next may change the home copy.
    ///
    /// # Safety
    /// As `prepare`.
    pub unsafe fn settle_array(
        &mut self,
        devices: &[&dyn Device],
        array: u64,
    ) -> Result<Moved, SpreadError> {
        let Some(t) = self.arrays.get(&array).copied() else {
            return Ok(Moved::default());
        };
        let whole = RangeSet::of(Span::new(0, t.bytes));
        let moved = self.data.gather(devices, array, &whole)?;
        self.data.host_wrote(array, &whole)?;
        Ok(moved)
    }

    /// Settles only the host byte ranges an operation names (`settle` settles everything):
    /// where it reads the home copy through a conversion, the bytes newer on other devices
    /// come home and their copies stay current (reading the home changes nothing); where it
    /// copies them out as they are (`update from`, the end of a data region), nothing moves
    /// and the result names, for each byte newer on another device, where the copy out takes
    /// it from — each device's part goes to the host over its own link, not through the home
    /// device first; where it overwrites the home copy from the host (`update to`), nothing is
    /// copied and the other devices' copies of those bytes become stale. The other bytes of
    /// every array stay where they are, so the next split launch fetches only what the
    /// operation changed. Arrays whose present entry went away are forgotten, as in `settle`.
    ///
    /// The `Direct` places and addresses stay valid while `self` is not changed (the caller
    /// holds the lock until the copies are done).
    ///
    /// # Safety
    /// As `settle`.
    pub unsafe fn settle_ranges(
        &mut self,
        devices: &[&dyn Device],
        table: &PresentTable,
        ranges: &[HostAccess],
    ) -> Result<Settled, SpreadError> {
        let mut settled = Settled::default();
        let arrays: Vec<(u64, Tracked)> = self.arrays.iter().map(|(&a, &t)| (a, t)).collect();
        for (array, t) in arrays {
            if !Self::still_mapped(table, array, t) {
                self.release(devices, array)?;
                continue;
            }
            for r in ranges {
                let lo = r.begin.max(array);
                let hi = (r.begin + r.bytes).min(array + t.bytes);
                if lo >= hi {
                    continue;
                }
                let span = RangeSet::of(Span::new(lo - array, hi - array));
                match r.use_ {
                    HostUse::Reads => settled.moved += self.data.gather(devices, array, &span)?,
                    HostUse::CopiesOut => {
                        settled
                            .direct
                            .extend(
                                self.data
                                    .holders(array, &span)?
                                    .into_iter()
                                    .map(|h| Direct {
                                        host: array + h.span.start,
                                        bytes: h.span.len(),
                                        place: h.place,
                                        addr: h.addr,
                                    }),
                            )
                    }
                    HostUse::Overwrites => self.data.host_wrote(array, &span)?,
                }
            }
        }
        settled.direct.sort_by_key(|d| d.host);
        Ok(settled)
    }

    /// Whether the present entry `t` was made for is still the one at `array` in `table`.
    fn still_mapped(table: &PresentTable, array: u64, t: Tracked) -> bool {
        let key = array as EntryKey;
        table.serial(key) == Some(t.serial)
            && table
                .get(key)
                .is_some_and(|e| e.device_begin == t.home && e.bytes() == t.bytes)
    }

    /// Settles every array whose present entry is still in `table`; forgets (frees the windows
    /// of) those whose entry went away. Returns the bytes brought home.
    ///
    /// # Safety
    /// As `prepare`; `table` is the origin's present table.
    pub unsafe fn settle(
        &mut self,
        devices: &[&dyn Device],
        table: &PresentTable,
    ) -> Result<Moved, SpreadError> {
        let mut moved = Moved::default();
        let arrays: Vec<(u64, Tracked)> = self.arrays.iter().map(|(&a, &t)| (a, t)).collect();
        for (array, t) in arrays {
            if Self::still_mapped(table, array, t) {
                moved += self.settle_array(devices, array)?;
            } else {
                self.release(devices, array)?;
            }
        }
        Ok(moved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::emulator::EmulatorDevice;

    fn one(a: u64, b: u64) -> RangeSet {
        RangeSet::of(Span::new(a, b))
    }

    #[test]
    fn a_split_then_a_settle_brings_the_other_device_s_writes_home_and_forgets_gone_entries() {
        let devs: Vec<EmulatorDevice> = (0..2)
            .map(|_| EmulatorDevice::new(1, 64 << 10, 1 << 30))
            .collect();
        let d: Vec<&dyn Device> = devs.iter().map(|x| x as &dyn Device).collect();
        let host = [0u8; 64];
        let home = d[0].alloc(64).unwrap();
        let zeros = [7u8; 64];
        unsafe { d[0].copy_to_device(home, zeros.as_ptr(), 64) }.unwrap();
        let mut table = PresentTable::new();
        let e = Entry::for_test(host.as_ptr() as usize, 64, home);
        let key = table.insert(e.clone());
        let serial = table.serial(key).unwrap();
        let mut s = PresentSpread::new();
        let a = s.array_for(&d, 0, key, &e, serial).unwrap();
        // Device 1's part writes [32, 64).
        let (base, m) = unsafe { s.prepare(&d, 0, a, 1, &one(30, 64)) }.unwrap();
        assert_eq!(m.peer, 34);
        unsafe { *((base + 40) as *mut u8) = 99 };
        s.wrote(0, a, 1, &one(32, 64)).unwrap();
        // The origin's part reading [28, 36) gets [32, 36) home.
        let (hb, m) = unsafe { s.prepare(&d, 0, a, 0, &one(28, 36)) }.unwrap();
        assert_eq!((hb, m.peer), (home, 4));
        // A settle brings the rest home; the window is then stale.
        let m = unsafe { s.settle(&d, &table) }.unwrap();
        assert_eq!(m.peer, 28);
        assert_eq!(unsafe { *((home + 40) as *const u8) }, 99);
        let (_, m) = unsafe { s.prepare(&d, 0, a, 1, &one(32, 64)) }.unwrap();
        assert_eq!(m.peer, 32, "the window is refreshed after a settle");
        // The entry goes away and is mapped again at the same address: a new array.
        table.remove(key);
        let key = table.insert(e.clone());
        let m = unsafe { s.settle(&d, &table) }.unwrap();
        assert_eq!(m, Moved::default());
        assert!(s.is_empty());
        assert!(host.iter().all(|&b| b == 0));
        d[0].free(home).unwrap();
        let _ = key;
    }

    #[test]
    fn settling_ranges_keeps_the_other_devices_copies_current_outside_them() {
        let devs: Vec<EmulatorDevice> = (0..2)
            .map(|_| EmulatorDevice::new(1, 64 << 10, 1 << 30))
            .collect();
        let d: Vec<&dyn Device> = devs.iter().map(|x| x as &dyn Device).collect();
        let host = [0u8; 64];
        let h = host.as_ptr() as u64;
        let home = d[0].alloc(64).unwrap();
        unsafe { d[0].copy_to_device(home, [7u8; 64].as_ptr(), 64) }.unwrap();
        let mut table = PresentTable::new();
        let e = Entry::for_test(h as usize, 64, home);
        let key = table.insert(e.clone());
        let mut s = PresentSpread::new();
        let a = s
            .array_for(&d, 0, key, &e, table.serial(key).unwrap())
            .unwrap();
        // Device 1 holds [32, 64), written there.
        let (base, _) = unsafe { s.prepare(&d, 0, a, 1, &one(32, 64)) }.unwrap();
        unsafe { *((base + 40) as *mut u8) = 99 };
        s.wrote(0, a, 1, &one(32, 64)).unwrap();
        let read = |begin, bytes| HostAccess {
            begin: h + begin,
            bytes,
            use_: HostUse::Reads,
        };
        // Copying [30, 44) out names device 1's [32, 44) and moves nothing: the home stays
        // stale there.
        let out = HostAccess {
            use_: HostUse::CopiesOut,
            ..read(30, 14)
        };
        let m = unsafe { s.settle_ranges(&d, &table, &[out]) }.unwrap();
        assert_eq!(m.moved, Moved::default());
        assert_eq!(
            m.direct,
            [Direct {
                host: h + 32,
                bytes: 12,
                place: 1,
                addr: base + 32
            }]
        );
        assert_eq!(unsafe { *((home + 40) as *const u8) }, 7);
        // Reading [36, 44) through a conversion brings those bytes home; device 1's copy stays
        // current.
        let m = unsafe { s.settle_ranges(&d, &table, &[read(36, 8)]) }.unwrap();
        assert_eq!(m.moved.peer, 8);
        assert!(m.direct.is_empty());
        assert_eq!(unsafe { *((home + 40) as *const u8) }, 99);
        let (_, m) = unsafe { s.prepare(&d, 0, a, 1, &one(32, 64)) }.unwrap();
        assert_eq!(m, Moved::default());
        // Overwriting [48, 56) from the host copies nothing and makes device 1's bytes stale
        // there only.
        let over = HostAccess {
            use_: HostUse::Overwrites,
            ..read(48, 8)
        };
        let m = unsafe { s.settle_ranges(&d, &table, &[over]) }.unwrap();
        assert_eq!(m, Settled::default());
        let (_, m) = unsafe { s.prepare(&d, 0, a, 1, &one(32, 64)) }.unwrap();
        assert_eq!(m.peer, 8);
        // A range outside the array settles nothing.
        let m = unsafe { s.settle_ranges(&d, &table, &[read(64, 8)]) }.unwrap();
        assert_eq!(m, Settled::default());
        d[0].free(home).unwrap();
    }

    #[test]
    fn which_data_operations_settle_only_their_ranges() {
        use crate::offload_abi::DataOp;
        const TO: u64 = 0x1;
        const FROM: u64 = 0x2;
        const DELETE: u64 = 0x8;
        const PTR_AND_OBJ: u64 = 0x10;
        let it = |ty| MapItem::for_test(0x1000, 64, ty);
        let uses = data_op_uses(DataOp::Update, &[it(TO), it(FROM)]).unwrap();
        assert_eq!(
            uses.iter().map(|u| u.use_).collect::<Vec<_>>(),
            [HostUse::Overwrites, HostUse::CopiesOut]
        );
        let uses = data_op_uses(DataOp::End, &[it(FROM), it(DELETE), it(0)]).unwrap();
        assert_eq!(uses.len(), 1);
        assert_eq!((uses[0].begin, uses[0].bytes), (0x1000, 64));
        assert!(data_op_uses(DataOp::Begin, &[it(TO)]).is_none());
        assert!(data_op_uses(DataOp::Update, &[it(FROM | PTR_AND_OBJ)]).is_none());
    }
}
