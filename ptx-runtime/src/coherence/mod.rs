//! The coherence directory of arrays spread over several devices: per host array, which bytes
//! of the host's copy and of each device's copy hold the array's current contents.
//!
//! A loop split over the devices (issue 19) reads and writes a part of each array on each
//! device. Before a device runs its part, `acquire` says which copies make the bytes it reads
//! current there, each from a place that holds them: another device (a peer copy, lowest device
//! number first) or else the host. After it ran, `wrote` makes the bytes it wrote current there
//! only: the host's copy and the other devices' copies of them are stale. The end of a data
//! region, `update from` and `copyout` ask `gather` for the copies that bring every byte back to
//! the host from the device that holds it; the host writing (`update to`) is `host_wrote`.
//!
//! ```text
//!   track(a, 1000 bytes, 2 devices)       host: [0,1000)   dev0: {}          dev1: {}
//!   acquire(a, dev0, [0,600))  → host→dev0 [0,600)
//!   acquire(a, dev1, [400,1000)) → host→dev1 [400,1000)
//!   wrote(a, dev0, [0,500)) ; wrote(a, dev1, [500,1000))
//!                                         host: {}  dev0: [0,500)  dev1: [500,1000)
//!   acquire(a, dev1, [400,1000)) → dev0→dev1 [400,500)          (the halo only)
//!   gather(a, [0,1000))  → dev0→host [0,500), dev1→host [500,1000)
//! ```
//!
//! The directory only plans and records: the caller makes the copies it returns, in order,
//! before it relies on them. Offsets are bytes from the start of the host array. Bytes current
//! nowhere (an array mapped with `alloc` and not yet written) need no copy and are reported as
//! `undefined`: whatever the device holds there is as good as anything.

pub mod present;
pub mod range_set;
#[cfg(test)]
mod tests;
pub mod windows;
#[cfg(test)]
mod windows_tests;

pub use range_set::{RangeSet, Span};
use std::collections::BTreeMap;
use std::fmt;

/// Where a copy of an array lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    Host,
    Device(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Host => write!(f, "host"),
            Place::Device(d) => write!(f, "device {d}"),
        }
    }
}

/// One copy to make: the bytes `span` of the array, from one place to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub from: Place,
    pub to: Place,
    pub span: Span,
}

/// The copies that make a range current at one place, and the bytes current nowhere.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// By source (devices in number order, then the host), each source's spans in address order.
    pub transfers: Vec<Transfer>,
    pub undefined: RangeSet,
}

impl Plan {
    pub fn bytes(&self) -> u64 {
        self.transfers.iter().map(|t| t.span.len()).sum()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectoryError {
    /// The host range is already tracked, in part or whole, as another array.
    Overlaps { begin: u64, bytes: u64, other: u64 },
    /// No tracked array starts at this address.
    NotTracked(u64),
    /// A device number past the devices the array was tracked for.
    NoSuchDevice { device: usize, devices: usize },
    /// A span past the end of the array.
    OutOfBounds { span: Span, bytes: u64 },
}

impl fmt::Display for DirectoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirectoryError::Overlaps {
                begin,
                bytes,
                other,
            } => write!(
                f,
                "the host range {begin:#x}+{bytes} overlaps the array already tracked at {other:#x}"
            ),
            DirectoryError::NotTracked(a) => write!(f, "no array is tracked at {a:#x}"),
            DirectoryError::NoSuchDevice { device, devices } => {
                write!(f, "device {device} does not exist ({devices} devices)")
            }
            DirectoryError::OutOfBounds { span, bytes } => {
                write!(f, "bytes {span} are outside the array of {bytes} bytes")
            }
        }
    }
}

/// One array: where its bytes are current.
#[derive(Clone, Debug)]
struct Array {
    bytes: u64,
    host: RangeSet,
    devices: Vec<RangeSet>,
}

impl Array {
    fn valid(&self, place: Place) -> &RangeSet {
        match place {
            Place::Host => &self.host,
            Place::Device(d) => &self.devices[d],
        }
    }

    fn valid_mut(&mut self, place: Place) -> &mut RangeSet {
        match place {
            Place::Host => &mut self.host,
            Place::Device(d) => &mut self.devices[d],
        }
    }

    fn check_place(&self, place: Place) -> Result<(), DirectoryError> {
        match place {
            Place::Device(d) if d >= self.devices.len() => Err(DirectoryError::NoSuchDevice {
                device: d,
                devices: self.devices.len(),
            }),
            _ => Ok(()),
        }
    }

    fn check_spans(&self, set: &RangeSet) -> Result<(), DirectoryError> {
        match set.spans().last() {
            Some(&span) if span.end > self.bytes => Err(DirectoryError::OutOfBounds {
                span,
                bytes: self.bytes,
            }),
            _ => Ok(()),
        }
    }

    /// The copies that make `want` current at `to`, sources tried in order (the place itself
    /// excluded), recorded as done.
    fn bring(&mut self, to: Place, want: &RangeSet, sources: &[Place]) -> Plan {
        let plan = self.plan(to, want, sources);
        let fetched = want.subtract(self.valid(to)).subtract(&plan.undefined);
        *self.valid_mut(to) = self.valid(to).union(&fetched);
        plan
    }

    /// The copies `bring` would make, not recorded.
    fn plan(&self, to: Place, want: &RangeSet, sources: &[Place]) -> Plan {
        let mut missing = want.subtract(self.valid(to));
        let mut plan = Plan::default();
        for &from in sources {
            if from == to || missing.is_empty() {
                continue;
            }
            let here = missing.intersect(self.valid(from));
            for &span in here.spans() {
                plan.transfers.push(Transfer { from, to, span });
            }
            missing = missing.subtract(&here);
        }
        plan.undefined = missing;
        plan
    }
}

/// Per host array (by its first byte's address), where each byte is current.
#[derive(Debug, Default)]
pub struct Directory {
    arrays: BTreeMap<u64, Array>,
}

impl Directory {
    pub fn new() -> Directory {
        Directory::default()
    }

    /// Starts tracking the host array `[begin, begin + bytes)` over `devices` devices: its
    /// contents are the host's, no device holds any of it yet.
    pub fn track(&mut self, begin: u64, bytes: u64, devices: usize) -> Result<(), DirectoryError> {
        let end = begin.saturating_add(bytes);
        let before = self.arrays.range(..end).next_back();
        if let Some((&other, a)) = before {
            if other.saturating_add(a.bytes) > begin {
                return Err(DirectoryError::Overlaps {
                    begin,
                    bytes,
                    other,
                });
            }
        }
        self.arrays.insert(
            begin,
            Array {
                bytes,
                host: RangeSet::of(Span::new(0, bytes)),
                devices: vec![RangeSet::new(); devices],
            },
        );
        Ok(())
    }

    /// Stops tracking an array (after its last device copy is gone).
    pub fn untrack(&mut self, begin: u64) -> Result<(), DirectoryError> {
        self.arrays
            .remove(&begin)
            .map(|_| ())
            .ok_or(DirectoryError::NotTracked(begin))
    }

    /// The tracked array containing host address `addr`: its start.
    pub fn array_at(&self, addr: u64) -> Option<u64> {
        let (&begin, a) = self.arrays.range(..=addr).next_back()?;
        (addr < begin.saturating_add(a.bytes)).then_some(begin)
    }

    fn array(&mut self, begin: u64) -> Result<&mut Array, DirectoryError> {
        self.arrays
            .get_mut(&begin)
            .ok_or(DirectoryError::NotTracked(begin))
    }

    /// Where the bytes of the array at `begin` are current at `place`.
    pub fn valid(&self, begin: u64, place: Place) -> Result<&RangeSet, DirectoryError> {
        let a = self
            .arrays
            .get(&begin)
            .ok_or(DirectoryError::NotTracked(begin))?;
        a.check_place(place)?;
        Ok(a.valid(place))
    }

    /// Before device `device` reads `want`: the copies that make it current there, from the
    /// devices that hold the bytes (lowest number first), else from the host. Recorded as done.
    pub fn acquire(
        &mut self,
        begin: u64,
        device: usize,
        want: &RangeSet,
    ) -> Result<Plan, DirectoryError> {
        let a = self.array(begin)?;
        let to = Place::Device(device);
        a.check_place(to)?;
        a.check_spans(want)?;
        let mut sources: Vec<Place> = (0..a.devices.len()).map(Place::Device).collect();
        sources.push(Place::Host);
        Ok(a.bring(to, want, &sources))
    }

    /// After device `device` wrote `written`: current there, stale everywhere else.
    pub fn wrote(
        &mut self,
        begin: u64,
        device: usize,
        written: &RangeSet,
    ) -> Result<(), DirectoryError> {
        let a = self.array(begin)?;
        a.check_place(Place::Device(device))?;
        a.check_spans(written)?;
        a.host = a.host.subtract(written);
        for (d, v) in a.devices.iter_mut().enumerate() {
            *v = if d == device {
                v.union(written)
            } else {
                v.subtract(written)
            };
        }
        Ok(())
    }

    /// The host wrote `written` (`update to` after host code changed it): current on the host
    /// only.
    pub fn host_wrote(&mut self, begin: u64, written: &RangeSet) -> Result<(), DirectoryError> {
        let a = self.array(begin)?;
        a.check_spans(written)?;
        a.host = a.host.union(written);
        for v in a.devices.iter_mut() {
            *v = v.subtract(written);
        }
        Ok(())
    }

    /// The copies that bring `want` back to the host, each span from the device that holds
    /// it (lowest number first where several do). Recorded as done.
    pub fn gather(&mut self, begin: u64, want: &RangeSet) -> Result<Plan, DirectoryError> {
        let a = self.array(begin)?;
        a.check_spans(want)?;
        let sources: Vec<Place> = (0..a.devices.len()).map(Place::Device).collect();
        Ok(a.bring(Place::Host, want, &sources))
    }

    /// Where the bytes of `want` that the host lacks are current: the copies `gather` would
    /// make, not recorded (the host stays without them). A copy out of the array can take
    /// those spans straight from their devices instead of bringing them home first.
    pub fn holders(&self, begin: u64, want: &RangeSet) -> Result<Plan, DirectoryError> {
        let a = self
            .arrays
            .get(&begin)
            .ok_or(DirectoryError::NotTracked(begin))?;
        a.check_spans(want)?;
        let sources: Vec<Place> = (0..a.devices.len()).map(Place::Device).collect();
        Ok(a.plan(Place::Host, want, &sources))
    }

    /// Device `device`'s copy is gone (freed). Returns the bytes that were current only there:
    /// gather them first, or they are lost.
    pub fn drop_device(&mut self, begin: u64, device: usize) -> Result<RangeSet, DirectoryError> {
        let a = self.array(begin)?;
        a.check_place(Place::Device(device))?;
        let mine = std::mem::take(&mut a.devices[device]);
        let mut elsewhere = a.host.clone();
        for v in &a.devices {
            elsewhere = elsewhere.union(v);
        }
        Ok(mine.subtract(&elsewhere))
    }
}
