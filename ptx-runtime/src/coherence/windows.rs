//! Arrays spread over devices, with real device memory: each device allocates the window of an
//! array it touches (the smallest span covering what it read and wrote so far, grown when a later
//! launch reaches further) and keeps it across launches; the directory's plans become copies
//! between the host and the windows (`copy_to_device`, `copy_from_device`) and between two
//! devices' windows (`copy_from_peer`).
//!
//! ```text
//! host a[0..1000)          dev0 window [0, 510)        dev1 window [490, 1000)
//! prepare(dev0, reads [0,510), writes [0,500))   → host→dev0 [0,510)
//! prepare(dev1, reads [490,1000), writes [500,1000)) → host→dev1 [490,1000)
//! (kernels) wrote(dev0, [0,500)); wrote(dev1, [500,1000))
//! prepare(dev0, ...) → dev1→dev0 [500,510)     prepare(dev1, ...) → dev0→dev1 [490,500)
//! gather([0,1000)) → dev0→host [0,500), dev1→host [500,1000)
//! ```
//!
//! The directory's `Place::Host` is the array's *home*: the copy the rest of the runtime reads
//! and writes. For data a construct maps itself that is host memory (`Home::Host`); for data an
//! enclosing data region mapped it is the present copy on the construct's device
//! (`Home::Device`, `coherence/present.rs`), and the copies to and from it are peer copies.

use super::{Directory, DirectoryError, Place, RangeSet, Span};
use crate::device::Device;
use crate::errors::DeviceError;
use crate::present_table::DevAddr;
use std::collections::BTreeMap;
use std::fmt;

/// Where an array's home copy lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// Host memory, at the array's own address.
    Host,
    /// Device `device`'s memory at `addr` (the array's first byte there).
    Device { device: usize, addr: DevAddr },
}

/// A device allocation holding the bytes `span` of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub span: Span,
    pub addr: DevAddr,
}

impl Window {
    /// The device address of the array's byte `offset` (inside the window).
    pub fn addr_of(&self, offset: u64) -> DevAddr {
        self.addr + (offset - self.span.start)
    }
}

/// Bytes of an array (`span`, offsets in it) current at place `place`, where they start at
/// `addr`, and not at the home.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub span: Span,
    pub place: usize,
    pub addr: DevAddr,
}

/// Bytes copied, by direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moved {
    pub h2d: u64,
    pub d2h: u64,
    /// Between two devices.
    pub peer: u64,
}

impl std::ops::AddAssign for Moved {
    fn add_assign(&mut self, o: Moved) {
        self.h2d += o.h2d;
        self.d2h += o.d2h;
        self.peer += o.peer;
    }
}

#[derive(Debug)]
pub enum SpreadError {
    Directory(DirectoryError),
    Device { device: usize, error: DeviceError },
}

impl fmt::Display for SpreadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpreadError::Directory(e) => write!(f, "{e}"),
            SpreadError::Device { device, error } => write!(f, "device {device}: {error}"),
        }
    }
}

impl From<DirectoryError> for SpreadError {
    fn from(e: DirectoryError) -> SpreadError {
        SpreadError::Directory(e)
    }
}

/// The smallest span covering a non-empty set.
fn hull(set: &RangeSet) -> Option<Span> {
    Some(Span::new(
        set.spans().first()?.start,
        set.spans().last()?.end,
    ))
}

/// The directory with the device windows it describes.
#[derive(Debug, Default)]
pub struct SpreadData {
    directory: Directory,
    windows: BTreeMap<(u64, usize), Window>,
    homes: BTreeMap<u64, Home>,
    /// The place whose "device" memory is host memory (the host part of hybrid loops): copies
    /// to and from it count as device→host and host→device, not between devices.
    host_place: Option<usize>,
}

impl SpreadData {
    pub fn new() -> SpreadData {
        SpreadData::default()
    }

    pub fn directory(&self) -> &Directory {
        &self.directory
    }

    /// Names the place whose memory is host memory (`present::places`' last).
    pub fn set_host_place(&mut self, place: usize) {
        self.host_place = Some(place);
    }

    /// Counts a copy of `bytes` from place `from` to place `to`.
    fn count(&self, moved: &mut Moved, from: usize, to: usize, bytes: u64) {
        if Some(to) == self.host_place {
            moved.d2h += bytes;
        } else if Some(from) == self.host_place {
            moved.h2d += bytes;
        } else {
            moved.peer += bytes;
        }
    }

    /// Device `device`'s window of the array at `array`, if it has one.
    pub fn window(&self, array: u64, device: usize) -> Option<Window> {
        self.windows.get(&(array, device)).copied()
    }

    /// Starts tracking the host array `[array, array + bytes)` over `devices` devices, its
    /// current contents at `home`.
    pub fn track(
        &mut self,
        array: u64,
        bytes: u64,
        devices: usize,
        home: Home,
    ) -> Result<(), SpreadError> {
        self.directory.track(array, bytes, devices)?;
        self.homes.insert(array, home);
        Ok(())
    }

    fn home(&self, array: u64) -> Result<Home, DirectoryError> {
        self.homes
            .get(&array)
            .copied()
            .ok_or(DirectoryError::NotTracked(array))
    }

    /// The arrays tracked, by their host address.
    pub fn arrays(&self) -> impl Iterator<Item = u64> + '_ {
        self.homes.keys().copied()
    }

    /// Makes `device`'s window cover `need`, growing it (and keeping the bytes current in it).
    fn cover(
        &mut self,
        dev: &dyn Device,
        array: u64,
        device: usize,
        need: Span,
    ) -> Result<Window, SpreadError> {
        let fail = |error| SpreadError::Device { device, error };
        let old = self.window(array, device);
        if let Some(w) = old {
            if w.span.start <= need.start && need.end <= w.span.end {
                return Ok(w);
            }
        }
        let span = match old {
            Some(w) => Span::new(w.span.start.min(need.start), w.span.end.max(need.end)),
            None => need,
        };
        let new = Window {
            span,
            addr: dev.alloc(span.len().max(1)).map_err(fail)?,
        };
        if let Some(w) = old {
            let current = self
                .directory
                .valid(array, Place::Device(device))?
                .intersect(&RangeSet::of(w.span));
            for s in current.spans() {
                dev.copy_within_device(new.addr_of(s.start), w.addr_of(s.start), s.len())
                    .map_err(fail)?;
            }
            dev.free(w.addr).map_err(fail)?;
        }
        self.windows.insert((array, device), new);
        Ok(new)
    }

    /// Before `device` (of `devices`) runs a part that reads `reads` and writes `writes` of the
    /// array: its window covers both, and the bytes it reads are current there (copied from a
    /// device that holds them, else from the host).
    ///
    /// # Safety
    /// `array` must be the address of the host array tracked, valid for its bytes.
    pub unsafe fn prepare(
        &mut self,
        devices: &[&dyn Device],
        array: u64,
        device: usize,
        reads: &RangeSet,
        writes: &RangeSet,
    ) -> Result<Moved, SpreadError> {
        let Some(need) = hull(&reads.union(writes)) else {
            return Ok(Moved::default());
        };
        let dev = device_of(devices, device)?;
        let window = self.cover(dev, array, device, need)?;
        let plan = self.directory.acquire(array, device, reads)?;
        let mut moved = Moved::default();
        for t in &plan.transfers {
            let s = t.span;
            let dst = window.addr_of(s.start);
            let r = match t.from {
                Place::Host => match self.home(array)? {
                    Home::Host => {
                        moved.h2d += s.len();
                        dev.copy_to_device(dst, (array + s.start) as *const u8, s.len())
                    }
                    Home::Device { device: h, addr } => {
                        self.count(&mut moved, h, device, s.len());
                        let home_dev = device_of(devices, h)?;
                        if h == device {
                            dev.copy_within_device(dst, addr + s.start, s.len())
                        } else {
                            dev.copy_from_peer(dst, home_dev, addr + s.start, s.len())
                        }
                    }
                },
                Place::Device(p) => {
                    self.count(&mut moved, p, device, s.len());
                    // The directory only names a device holding the bytes, so it has a window
                    // (and a device the caller gave).
                    let from = self.window(array, p).expect("a source device has a window");
                    let src_dev = device_of(devices, p)?;
                    dev.copy_from_peer(dst, src_dev, from.addr_of(s.start), s.len())
                }
            };
            r.map_err(|error| SpreadError::Device { device, error })?;
        }
        Ok(moved)
    }

    /// After `device` wrote `writes` (inside the window `prepare` made).
    pub fn wrote(
        &mut self,
        array: u64,
        device: usize,
        writes: &RangeSet,
    ) -> Result<(), SpreadError> {
        Ok(self.directory.wrote(array, device, writes)?)
    }

    /// The home copy changed `written` (`update to`, a part that ran on it).
    pub fn host_wrote(&mut self, array: u64, written: &RangeSet) -> Result<(), SpreadError> {
        Ok(self.directory.host_wrote(array, written)?)
    }

    /// Brings `want` back to the array's home from the devices that hold it.
    ///
    /// # Safety
    /// As `prepare`.
    pub unsafe fn gather(
        &mut self,
        devices: &[&dyn Device],
        array: u64,
        want: &RangeSet,
    ) -> Result<Moved, SpreadError> {
        let home = self.home(array)?;
        let plan = self.directory.gather(array, want)?;
        let mut moved = Moved::default();
        for t in &plan.transfers {
            let Place::Device(d) = t.from else { continue };
            let s = t.span;
            let from = self.window(array, d).expect("a source device has a window");
            let dev = device_of(devices, d)?;
            let r = match home {
                Home::Host => {
                    moved.d2h += s.len();
                    dev.copy_from_device(
                        (array + s.start) as *mut u8,
                        from.addr_of(s.start),
                        s.len(),
                    )
                }
                Home::Device { device: h, addr } => {
                    self.count(&mut moved, d, h, s.len());
                    let home_dev = device_of(devices, h)?;
                    if h == d {
                        home_dev.copy_within_device(addr + s.start, from.addr_of(s.start), s.len())
                    } else {
                        home_dev.copy_from_peer(addr + s.start, dev, from.addr_of(s.start), s.len())
                    }
                }
            };
            r.map_err(|error| SpreadError::Device { device: d, error })?;
        }
        Ok(moved)
    }

    /// The bytes of `want` that the home lacks, each with the place that holds them current and
    /// the address there (its window): a copy out of the array takes these straight to the
    /// host, and the rest from the home copy. Nothing is recorded: the home stays without them.
    pub fn holders(&self, array: u64, want: &RangeSet) -> Result<Vec<Held>, SpreadError> {
        let plan = self.directory.holders(array, want)?;
        let mut held = Vec::new();
        for t in &plan.transfers {
            let Place::Device(place) = t.from else {
                continue;
            };
            let w = self
                .window(array, place)
                .expect("a place holding bytes has a window");
            held.push(Held {
                span: t.span,
                place,
                addr: w.addr_of(t.span.start),
            });
        }
        Ok(held)
    }

    /// Frees the array's windows and stops tracking it (gather what the host needs first).
    pub fn release(&mut self, devices: &[&dyn Device], array: u64) -> Result<(), SpreadError> {
        let keys: Vec<(u64, usize)> = self
            .windows
            .range((array, 0)..=(array, usize::MAX))
            .map(|(k, _)| *k)
            .collect();
        for k in keys {
            let dev = device_of(devices, k.1)?;
            if let Some(w) = self.windows.remove(&k) {
                dev.free(w.addr)
                    .map_err(|error| SpreadError::Device { device: k.1, error })?;
            }
        }
        self.homes.remove(&array);
        Ok(self.directory.untrack(array)?)
    }
}

fn device_of<'d>(
    devices: &[&'d dyn Device],
    device: usize,
) -> Result<&'d dyn Device, DirectoryError> {
    devices
        .get(device)
        .copied()
        .ok_or(DirectoryError::NoSuchDevice {
            device,
            devices: devices.len(),
        })
}
