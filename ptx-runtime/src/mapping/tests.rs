//! Map semantics through `Mapper`, against an in-memory fake device.

use super::*;
use crate::device::{DeviceLimits, LaunchDims, LoadedImage, LoadedKernel};
use crate::registry::Image;
use std::collections::BTreeMap;
use std::sync::Mutex;

const POISON: u8 = 0xA5;

#[derive(Default)]
struct FakeDevice {
    mem: Mutex<(u64, BTreeMap<u64, Vec<u8>>)>,
    capacity: u64,
    /// `Device::packs_small_mappings`, as a GPU answers it.
    packs: bool,
}

impl FakeDevice {
    fn new() -> FakeDevice {
        FakeDevice {
            mem: Mutex::new((0x1000_0000, BTreeMap::new())),
            capacity: 1 << 20,
            packs: false,
        }
    }
    fn with<R>(&self, addr: u64, len: u64, f: impl FnOnce(&mut [u8]) -> R) -> R {
        let mut g = self.mem.lock().unwrap();
        let (&base, buf) =
            g.1.range_mut(..=addr)
                .next_back()
                .expect("address in an allocation");
        let off = (addr - base) as usize;
        assert!(
            off + len as usize <= buf.len(),
            "access past the allocation"
        );
        f(&mut buf[off..off + len as usize])
    }
    fn read_u64(&self, addr: u64) -> u64 {
        self.with(addr, 8, |b| u64::from_le_bytes(b.try_into().unwrap()))
    }
    fn read_i32s(&self, addr: u64, n: usize) -> Vec<i32> {
        self.with(addr, 4 * n as u64, |b| {
            b.chunks(4)
                .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
                .collect()
        })
    }
    fn write_i32s(&self, addr: u64, v: &[i32]) {
        self.with(addr, 4 * v.len() as u64, |b| {
            for (c, x) in b.chunks_mut(4).zip(v) {
                c.copy_from_slice(&x.to_le_bytes())
            }
        })
    }
    fn live(&self) -> usize {
        self.mem.lock().unwrap().1.len()
    }
}

impl Device for FakeDevice {
    fn description(&self) -> String {
        "fake".into()
    }
    fn limits(&self) -> DeviceLimits {
        DeviceLimits {
            max_block: 1024,
            max_grid: 1 << 16,
            auto_grid_cap: 1 << 16,
            default_grid: 4,
            default_block: 128,
            multiprocessors: 4,
        }
    }
    fn packs_small_mappings(&self) -> bool {
        self.packs
    }
    fn alloc(&self, bytes: u64) -> Result<DevAddr, DeviceError> {
        let mut g = self.mem.lock().unwrap();
        let used: u64 = g.1.values().map(|v| v.len() as u64).sum();
        if used + bytes > self.capacity {
            return Err(DeviceError::OutOfMemory {
                requested: bytes,
                free: Some(self.capacity - used),
            });
        }
        let a = g.0;
        g.0 += bytes.div_ceil(256) * 256 + 256;
        g.1.insert(a, vec![POISON; bytes as usize]);
        Ok(a)
    }
    fn free(&self, addr: DevAddr) -> Result<(), DeviceError> {
        self.mem
            .lock()
            .unwrap()
            .1
            .remove(&addr)
            .map(|_| ())
            .ok_or(DeviceError::Unsupported("bad free".into()))
    }
    fn memory_info(&self) -> Option<(u64, u64)> {
        None
    }
    unsafe fn copy_to_device(
        &self,
        dst: DevAddr,
        src: *const u8,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        let s = std::slice::from_raw_parts(src, bytes as usize);
        self.with(dst, bytes, |d| d.copy_from_slice(s));
        Ok(())
    }
    unsafe fn copy_from_device(
        &self,
        dst: *mut u8,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        let d = std::slice::from_raw_parts_mut(dst, bytes as usize);
        self.with(src, bytes, |s| d.copy_from_slice(s));
        Ok(())
    }
    fn copy_within_device(
        &self,
        dst: DevAddr,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        let data = self.with(src, bytes, |s| s.to_vec());
        self.with(dst, bytes, |d| d.copy_from_slice(&data));
        Ok(())
    }
    // The map semantics under test load no image and launch nothing: a test that did would
    // get this error instead of a silent success.
    fn load_image(&self, _: &Image) -> Result<LoadedImage, DeviceError> {
        Err(DeviceError::Unsupported(
            "the mapping tests' fake device loads no image".into(),
        ))
    }
    fn launch(&self, _: &LoadedKernel, _: &[u64], _: &LaunchDims) -> Result<(), DeviceError> {
        Err(DeviceError::Unsupported(
            "the mapping tests' fake device launches nothing".into(),
        ))
    }
    fn synchronize(&self) -> Result<(), DeviceError> {
        Ok(())
    }
    fn is_device_pointer(&self, addr: DevAddr) -> bool {
        let g = self.mem.lock().unwrap();
        g.1.range(..=addr)
            .next_back()
            .is_some_and(|(&b, v)| addr < b + v.len() as u64)
    }
}

fn item<T, U>(base: *const T, begin: *const U, bytes: usize, ty: u64) -> MapItem {
    MapItem {
        base: base as usize,
        begin: begin as usize,
        bytes: bytes as u64,
        ty: MapType(ty),
        name: VarName::parse(";x[0:n];t.c;1;1;;"),
    }
}
fn arr(a: &[i32], ty: u64) -> MapItem {
    item(a.as_ptr(), a.as_ptr(), std::mem::size_of_val(a), ty)
}

const TO: u64 = MapType::TO;
const FROM: u64 = MapType::FROM;
const TOFROM: u64 = TO | FROM;
const ALWAYS: u64 = MapType::ALWAYS;
const DELETE: u64 = MapType::DELETE;
const PRESENT: u64 = MapType::PRESENT;
const PARAM: u64 = MapType::TARGET_PARAM;

#[test]
fn a_constructs_small_mappings_share_one_block_freed_with_the_last() {
    let dev = FakeDevice {
        packs: true,
        ..FakeDevice::new()
    };
    let mut table = PresentTable::new();
    // 8, 4 and 80 bytes: a at 0, c (80 = 16 * 5) at 16.
    let (mut a, mut b, mut c) = (vec![1, 2], vec![3], vec![5; 20]);
    let big = vec![7; 100];
    let mut m = Mapper::new(&dev, &mut table);
    // An outer data region holds b: its entry outlives the construct's other small ones.
    m.begin(&[arr(&b, TO)]).unwrap();
    let list = [
        arr(&a, TOFROM | PARAM),
        arr(&c, TOFROM | PARAM),
        arr(&big, TO | PARAM),
    ];
    m.begin(&list).unwrap();
    assert_eq!(
        dev.live(),
        3,
        "b alone; a and c in one block; the 400-byte big in its own"
    );
    let at = |v: &Vec<i32>, m: &Mapper<'_>| m.device_addr(v.as_ptr() as usize, 4).unwrap();
    let (da, dc) = (at(&a, &m), at(&c, &m));
    assert_eq!(dc - da, 16, "packed in order, c at a multiple of 16");
    assert_eq!(dev.read_i32s(dc, 20), vec![5; 20]);
    dev.write_i32s(da, &[10, 20]);
    dev.write_i32s(dc, &[50; 20]);
    m.end(&list).unwrap();
    assert_eq!((a.clone(), c.clone()), (vec![10, 20], vec![50; 20]));
    assert_eq!(dev.live(), 1, "the block went with its last entry; b stays");
    // Mapped again while b is present: a and c share a block; b keeps its own copy.
    a[0] = 1;
    c[0] = 2;
    let again = [
        arr(&a, TO | PARAM),
        arr(&b, TOFROM | PARAM),
        arr(&c, TO | PARAM),
    ];
    m.begin(&again).unwrap();
    assert_eq!(dev.live(), 2);
    assert_eq!(at(&c, &m) - at(&a, &m), 16);
    m.end(&again).unwrap();
    m.end(&[arr(&b, TO)]).unwrap();
    b[0] = 0;
    assert!(m.table.is_empty());
    assert_eq!(dev.live(), 0, "every block freed once");
    // One small mapping alone keeps its own allocation.
    m.begin(&[arr(&a, TO | PARAM)]).unwrap();
    assert_eq!(dev.live(), 1);
    m.end(&[arr(&a, TO | PARAM)]).unwrap();
    assert_eq!((dev.live(), b), (0, vec![0]));
}

#[test]
fn round_trip_and_reference_counts() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let mut host = vec![1, 2, 3, 4];
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&[arr(&host, TOFROM)]).unwrap(); // target data map(tofrom)
    let d = m.device_addr(host.as_ptr() as usize, 16).unwrap();
    assert_eq!(dev.read_i32s(d, 4), vec![1, 2, 3, 4]);
    m.begin(&[arr(&host, TOFROM | PARAM)]).unwrap(); // nested target: count 2, no copy
    host[0] = 100;
    assert_eq!(dev.read_i32s(d, 1), vec![1], "no copy when already present");
    dev.write_i32s(d, &[10, 20, 30, 40]);
    m.end(&[arr(&host, TOFROM | PARAM)]).unwrap();
    assert_eq!(
        host,
        vec![100, 2, 3, 4],
        "not copied back while the outer region holds it"
    );
    m.end(&[arr(&host, TOFROM)]).unwrap();
    assert_eq!(host, vec![10, 20, 30, 40]);
    assert!(m.table.is_empty());
    assert_eq!(dev.live(), 0, "device memory freed");
    assert_eq!(m.transfers.to_device_bytes, 16);
    assert_eq!(m.transfers.from_device_bytes, 16);
}

#[test]
fn partial_sections_reuse_the_enclosing_mapping() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let mut host: Vec<i32> = (0..100).collect();
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&[arr(&host, TO)]).unwrap();
    let whole = m.device_addr(host.as_ptr() as usize, 400).unwrap();
    let sec = item(host.as_ptr(), host[10..].as_ptr(), 40, TOFROM | PARAM);
    m.begin(std::slice::from_ref(&sec)).unwrap();
    assert_eq!(m.table.len(), 1, "no new entry for an inner section");
    assert_eq!(
        m.param_of(&sec),
        whole,
        "base pointer parameter points at the start of the device array"
    );
    dev.write_i32s(whole + 40, &[-1; 10]);
    m.end(&[sec]).unwrap();
    assert_eq!(
        host[10], 10,
        "inner section: not last reference, no copy back"
    );
    // target update from(x[10:10]) copies just that part.
    m.update(&[item(host.as_ptr(), host[10..].as_ptr(), 40, FROM)])
        .unwrap();
    assert_eq!(
        &host[9..21],
        &[9, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 20]
    );
    host[50] = 5000;
    m.update(&[item(host.as_ptr(), host[50..].as_ptr(), 4, TO)])
        .unwrap();
    assert_eq!(dev.read_i32s(whole + 200, 1), vec![5000]);
}

#[test]
fn overlapping_sections_are_errors_naming_both_variables() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let host: Vec<i32> = (0..100).collect();
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&[item(host.as_ptr(), host.as_ptr(), 200, TO)])
        .unwrap();
    let mut over = item(host.as_ptr(), host[25..].as_ptr(), 200, TO);
    over.name = VarName::parse(";x[25:50];t.c;3;9;;");
    let err = m.begin(std::slice::from_ref(&over)).unwrap_err();
    assert!(matches!(err, MapError::PartialOverlap { .. }));
    let msg = err.describe("0 (fake)");
    assert!(
        msg.contains("'x[25:50]'") && msg.contains("'x[0:n]'"),
        "{msg}"
    );
    // Implicit maps that extend a mapping reuse it instead.
    over.ty = MapType(TO | MapType::IMPLICIT);
    m.begin(&[over]).unwrap();
    assert_eq!(m.table.len(), 1);
}

#[test]
fn an_enclosing_mapping_takes_over_the_enclosed_ones() {
    // target data map(tofrom: x[10:10]), then a construct mapping all of x (OpenMP 5.1: more
    // members of a struct one of which is mapped): one device block, the old bytes kept.
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let mut host: Vec<i32> = (0..100).collect();
    let h = host.as_mut_ptr();
    let mut m = Mapper::new(&dev, &mut table);
    let inner = item(h, h.wrapping_add(10), 40, TOFROM);
    m.begin(std::slice::from_ref(&inner)).unwrap();
    let old = m.device_addr(h.wrapping_add(10) as usize, 40).unwrap();
    dev.write_i32s(old, &[-1; 10]);
    let whole = item(h, h, 400, TO | PARAM);
    m.begin(std::slice::from_ref(&whole)).unwrap();
    assert_eq!(m.table.len(), 1, "one entry for the enclosing range");
    assert_eq!(dev.live(), 1, "the enclosed block was freed");
    let d = m.device_addr(h as usize, 400).unwrap();
    let dv = dev.read_i32s(d, 100);
    assert_eq!(
        &dv[8..22],
        &[8, 9, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 20, 21]
    );
    assert_eq!(dv[99], 99, "the new bytes come from the host");
    // Each mapping keeps its reference: the first end leaves the data, the second copies out
    // its own section and frees the block.
    m.end(std::slice::from_ref(&whole)).unwrap();
    assert_eq!(m.table.len(), 1);
    m.end(std::slice::from_ref(&inner)).unwrap();
    assert!(m.table.is_empty());
    assert_eq!(dev.live(), 0);
    assert_eq!(
        &host[9..21],
        &[9, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 20]
    );
}

#[test]
fn present_modifier_and_update_of_absent_data() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let host = [1, 2, 3];
    let mut m = Mapper::new(&dev, &mut table);
    let err = m.begin(&[arr(&host, TO | PRESENT)]).unwrap_err();
    assert_eq!(
        err,
        MapError::NotPresent {
            var: VarName::parse(";x[0:n];t.c;1;1;;"),
            host: host.as_ptr() as usize,
            bytes: 12
        }
    );
    let msg = err.describe("0 (fake)");
    assert!(
        msg.contains("'x[0:n]'")
            && msg.contains("is not present on device 0 (fake)")
            && msg.contains("map("),
        "{msg}"
    );
    m.update(&[arr(&host, TO)]).unwrap(); // ignored
    assert!(m.update(&[arr(&host, FROM | PRESENT)]).is_err());
    m.end(&[arr(&host, FROM)]).unwrap(); // exit of absent data: ignored
    assert!(m.end(&[arr(&host, FROM | PRESENT)]).is_err());
    assert!(m.table.is_empty() && dev.live() == 0);
}

#[test]
fn always_forces_copies_and_delete_drops_the_count() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let mut host = vec![7; 8];
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&[arr(&host, TO)]).unwrap(); // enter data
    m.begin(&[arr(&host, TO)]).unwrap(); // enter data again: count 2
    let d = m.device_addr(host.as_ptr() as usize, 32).unwrap();
    host[0] = 8;
    m.begin(&[arr(&host, TO | ALWAYS)]).unwrap(); // count 3, copied
    assert_eq!(dev.read_i32s(d, 1), vec![8]);
    dev.write_i32s(d, &[9]);
    m.end(&[arr(&host, FROM | ALWAYS)]).unwrap(); // count 2, copied back
    assert_eq!(host[0], 9);
    dev.write_i32s(d, &[11]);
    m.end(&[arr(&host, FROM)]).unwrap(); // release-like: count 1, no copy
    assert_eq!(host[0], 9);
    m.begin(&[arr(&host, TO)]).unwrap(); // count 2
    m.end(&[arr(&host, FROM | DELETE)]).unwrap(); // delete: gone, copied back (from + last)
    assert_eq!(host[0], 11);
    assert!(m.table.is_empty());
    assert_eq!(dev.live(), 0);
}

#[test]
fn release_without_from_does_not_copy() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let mut host = vec![1; 4];
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&[arr(&host, MapType::TO)]).unwrap();
    let d = m.device_addr(host.as_ptr() as usize, 16).unwrap();
    dev.write_i32s(d, &[5; 4]);
    m.end(&[arr(&host, 0)]).unwrap(); // exit data map(release:)
    assert_eq!(host, vec![1; 4]);
    assert!(m.table.is_empty());
    host[0] = 2;
}

#[test]
fn alloc_leaves_poison_and_zero_length_sections_are_maybe_present() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let host = vec![3i32; 4];
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&[arr(&host, 0)]).unwrap(); // map(alloc:)
    let d = m.device_addr(host.as_ptr() as usize, 16).unwrap();
    assert_eq!(dev.read_i32s(d, 1), vec![i32::from_le_bytes([POISON; 4])]);
    // implicit zero-size map of the pointer: device address when present
    let p = item(host.as_ptr(), host.as_ptr(), 0, PARAM | MapType::IMPLICIT);
    m.begin(std::slice::from_ref(&p)).unwrap();
    assert_eq!(m.param_of(&p), d);
    m.end(std::slice::from_ref(&p)).unwrap();
    assert_eq!(
        m.table.len(),
        1,
        "the zero-size map counted a reference and released it"
    );
    m.end(&[arr(&host, 0)]).unwrap();
    // ...and the host value when absent (OpenMP 5.2 firstprivate semantics)
    m.begin(std::slice::from_ref(&p)).unwrap();
    assert_eq!(m.param_of(&p), host.as_ptr() as u64);
    m.end(&[p]).unwrap();
    assert!(m.table.is_empty());
}

#[test]
fn unmapped_implicit_pointers_are_detected() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let host = [3i32; 8];
    let mut m = Mapper::new(&dev, &mut table);
    let implicit = PARAM | MapType::IMPLICIT;
    let p = item(host.as_ptr(), host.as_ptr(), 0, implicit);
    assert_eq!(m.unmapped_pointer(&p), Some(host.as_ptr() as u64));
    assert_eq!(m.param(&p), Param::Unmapped(host.as_ptr() as u64));
    // NULL, LITERAL (is_device_ptr), explicit zero-length sections and sized maps are not checked.
    let null = item(
        std::ptr::null::<i32>(),
        std::ptr::null::<i32>(),
        0,
        implicit,
    );
    assert_eq!(m.unmapped_pointer(&null), None);
    let lit = item(host.as_ptr(), host.as_ptr(), 0, PARAM | MapType::LITERAL);
    assert_eq!(m.unmapped_pointer(&lit), None);
    let explicit = item(host.as_ptr(), host.as_ptr(), 0, PARAM | MapType::TO);
    assert_eq!(m.unmapped_pointer(&explicit), None);
    // Mapped: fine, also through the base pointer of a section and from inside it.
    let sec = item(host.as_ptr(), &host[2], 8, MapType::TO);
    m.begin(std::slice::from_ref(&sec)).unwrap();
    assert_eq!(m.unmapped_pointer(&p), None, "base pointer of x[2:2]");
    let inner = item(&host[3], &host[3], 0, implicit);
    assert_eq!(m.unmapped_pointer(&inner), None);
    let past = item(&host[4], &host[4], 0, implicit);
    assert!(
        m.unmapped_pointer(&past).is_some(),
        "one past the end is not mapped"
    );
    // A device address (omp_target_alloc, use_device_ptr) is fine, inside an allocation too.
    let d = m.device_addr(host.as_ptr() as usize + 8, 8).unwrap();
    let dp = item(d as *const i32, d as *const i32, 0, implicit);
    assert_eq!(m.unmapped_pointer(&dp), None);
    m.end(&[sec]).unwrap();
    let raw = dev.alloc(64).unwrap();
    let rp = item(
        (raw + 16) as *const i32,
        (raw + 16) as *const i32,
        0,
        implicit,
    );
    assert_eq!(m.unmapped_pointer(&rp), None);
}

#[repr(C)]
struct S {
    n: i32,
    p: *mut f64,
}

#[test]
fn pointer_attachment_for_struct_members() {
    // #pragma omp target enter data map(to: s[0:1], s->p[0:s->n]) as clang emits it:
    //   [0] s: alloc (parent, size = extent of the members), [1] s[0:1] MEMBER_OF(1)|TO,
    //   [2] s->p[0:n] MEMBER_OF(1)|PTR_AND_OBJ|TO
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let mut data = vec![1.5f64, 2.5, 3.5];
    let mut s = S {
        n: 3,
        p: data.as_mut_ptr(),
    };
    let sp = &mut s as *mut S;
    let member = 1u64 << 48;
    let items = vec![
        item(sp, sp, 16, 0),
        item(sp, sp, 16, member | TO),
        item(
            unsafe { &raw mut (*sp).p },
            data.as_ptr(),
            24,
            member | MapType::PTR_AND_OBJ | TO,
        ),
    ];
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&items).unwrap();
    assert_eq!(m.table.len(), 2);
    let ds = m.device_addr(sp as usize, 16).unwrap();
    let dp = m.device_addr(data.as_ptr() as usize, 24).unwrap();
    assert_eq!(
        dev.read_u64(ds + 8),
        dp,
        "device s.p points at the device copy of the data"
    );
    assert_eq!(dev.read_i32s(ds, 1), vec![3], "s.n copied");
    // target update to(s[0:1]) must keep the attached device pointer
    m.update(&[item(sp, sp, 16, TO)]).unwrap();
    assert_eq!(dev.read_u64(ds + 8), dp);
    // target update from(s[0:1]) must keep the host pointer
    m.update(&[item(sp, sp, 16, FROM)]).unwrap();
    assert_eq!(s.p, data.as_mut_ptr());
    // the kernel parameter for the struct is the device struct address
    let param = item(sp, unsafe { &raw const (*sp).p } as *const S, 8, PARAM);
    assert_eq!(m.param_of(&param), ds);
    // exit data map(from: s->p[0:n]) map(release: s[0:1])
    let exit = vec![
        item(sp, sp, 16, 0),
        item(sp, sp, 16, member),
        item(
            unsafe { &raw mut (*sp).p },
            data.as_ptr(),
            24,
            member | MapType::PTR_AND_OBJ | FROM,
        ),
    ];
    dev.with(dp, 8, |b| b.copy_from_slice(&9.0f64.to_le_bytes()));
    m.end(&exit).unwrap();
    assert_eq!(data[0], 9.0);
    assert!(m.table.is_empty());
    assert_eq!(dev.live(), 0);
}

#[test]
fn use_device_ptr_returns_the_device_address() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let host = vec![0i32; 8];
    let mut m = Mapper::new(&dev, &mut table);
    let r = m.begin(&[arr(&host, TO | MapType::RETURN_PARAM)]).unwrap();
    let d = m.device_addr(host.as_ptr() as usize, 4).unwrap();
    assert_eq!(r, vec![(0, d as usize)]);
    // The program holds the address now: nothing may move the copy.
    assert!(m.table.iter().all(|e| e.exposed));
}

#[test]
fn only_addresses_handed_to_the_program_pin_a_copy() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let (a, b) = (vec![0i32; 8], vec![0i32; 8]);
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&[arr(&a, TO), arr(&b, TO)]).unwrap();
    // Asking whether (and where) it is present does not pin it; handing the address out does.
    let da = m.device_addr(a.as_ptr() as usize, 4).unwrap();
    assert_eq!(m.expose(a.as_ptr() as usize + 4, 0), Some(da + 4));
    assert_eq!(m.expose(0x10, 0), None);
    let exposed = |m: &Mapper, h: &Vec<i32>| {
        m.table
            .iter()
            .any(|e| e.host_begin == h.as_ptr() as usize && e.exposed)
    };
    assert!(exposed(&m, &a));
    assert!(!exposed(&m, &b));
}

#[test]
fn hold_references_outlive_dynamic_ones() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let host = vec![0i32; 8];
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&[arr(&host, TO | MapType::OMPX_HOLD)]).unwrap(); // structured (hold)
    m.begin(&[arr(&host, TO)]).unwrap(); // enter data
    m.end(&[arr(&host, DELETE)]).unwrap(); // exit data delete: hold keeps it
    assert_eq!(m.table.len(), 1);
    m.end(&[arr(&host, MapType::OMPX_HOLD)]).unwrap();
    assert!(m.table.is_empty());
}

#[test]
fn out_of_memory_names_the_variable_and_free_bytes() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let host = vec![0u8; 2 << 20];
    let mut m = Mapper::new(&dev, &mut table);
    let it = item(host.as_ptr(), host.as_ptr(), host.len(), TO);
    let err = m.begin(&[it]).unwrap_err();
    let msg = err.describe("0 (fake)");
    assert!(
        msg.contains("out of memory") && msg.contains("'x[0:n]'") && msg.contains("are free"),
        "{msg}"
    );
}

#[test]
fn a_section_keeps_its_offset_in_its_object() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let host = vec![0u8; 256];
    let mut m = Mapper::new(&dev, &mut table);
    let (base, begin) = unsafe { (host.as_ptr().add(3), host.as_ptr().add(16)) };
    m.begin(&[item(base, begin, 100, TO)]).unwrap();
    let d = m.device_addr(begin as usize, 100).unwrap();
    assert_eq!(
        d % 64,
        13,
        "begin - base = 13 bytes past a 64-byte boundary"
    );
}

#[test]
fn a_whole_object_starts_a_sector_whatever_its_host_address() {
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let host = vec![0u8; 256];
    let mut m = Mapper::new(&dev, &mut table);
    // malloc's large blocks start 16 bytes into a line: the device copy must not.
    let begin = unsafe { host.as_ptr().add(16) };
    m.begin(&[item(begin, begin, 100, TO)]).unwrap();
    let d = m.device_addr(begin as usize, 100).unwrap();
    assert_eq!(d % 64, 0);
}

type Deferred = Box<dyn FnOnce(&FakeDevice) + Send>;

/// A device whose queues run their work only when synchronised, as CUDA streams may: checks that
/// the mapper keeps the ordering contract of `Device::*_on`.
struct QueueDevice {
    inner: FakeDevice,
    /// Deferred work: (queue, device address it touches, the operation).
    pending: Mutex<Vec<(QueueHandle, DevAddr, Deferred)>>,
}

impl QueueDevice {
    fn new() -> QueueDevice {
        QueueDevice {
            inner: FakeDevice::new(),
            pending: Mutex::new(Vec::new()),
        }
    }
    /// Runs the work of queue `q` (SYNC_QUEUE: of every queue).
    fn run_pending_of(&self, q: QueueHandle) {
        let mut g = self.pending.lock().unwrap();
        let all = std::mem::take(&mut *g);
        let (run, keep): (Vec<_>, Vec<_>) = all
            .into_iter()
            .partition(|(wq, _, _)| q == SYNC_QUEUE || *wq == q);
        *g = keep;
        drop(g);
        for (_, _, w) in run {
            w(&self.inner);
        }
    }
    fn run_pending(&self) {
        self.run_pending_of(SYNC_QUEUE)
    }
    fn queued(&self) -> usize {
        self.pending.lock().unwrap().len()
    }
}

impl Device for QueueDevice {
    fn description(&self) -> String {
        "queued fake".into()
    }
    fn limits(&self) -> DeviceLimits {
        self.inner.limits()
    }
    fn alloc(&self, bytes: u64) -> Result<DevAddr, DeviceError> {
        self.inner.alloc(bytes)
    }
    fn free(&self, addr: DevAddr) -> Result<(), DeviceError> {
        let g = self.inner.mem.lock().unwrap();
        let size = g.1.get(&addr).map_or(0, |v| v.len() as u64);
        drop(g);
        if self
            .pending
            .lock()
            .unwrap()
            .iter()
            .any(|(_, a, _)| *a >= addr && *a < addr + size)
        {
            return Err(DeviceError::Unsupported(
                "freed while queued work uses it".into(),
            ));
        }
        self.inner.free(addr)
    }
    fn memory_info(&self) -> Option<(u64, u64)> {
        None
    }
    // Synchronous operations are ordered after the queue (a blocking stream and the legacy one).
    unsafe fn copy_to_device(&self, d: DevAddr, s: *const u8, n: u64) -> Result<(), DeviceError> {
        self.run_pending();
        self.inner.copy_to_device(d, s, n)
    }
    unsafe fn copy_from_device(&self, d: *mut u8, s: DevAddr, n: u64) -> Result<(), DeviceError> {
        self.run_pending();
        self.inner.copy_from_device(d, s, n)
    }
    fn copy_within_device(
        &self,
        dst: DevAddr,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        self.run_pending();
        self.inner.copy_within_device(dst, src, bytes)
    }
    fn load_image(&self, image: &Image) -> Result<LoadedImage, DeviceError> {
        self.inner.load_image(image)
    }
    fn launch(&self, k: &LoadedKernel, p: &[u64], d: &LaunchDims) -> Result<(), DeviceError> {
        self.inner.launch(k, p, d)
    }
    fn synchronize(&self) -> Result<(), DeviceError> {
        self.run_pending();
        Ok(())
    }
    fn supports_queues(&self) -> bool {
        true
    }
    unsafe fn copy_to_device_on(
        &self,
        q: QueueHandle,
        dst: DevAddr,
        src: *const u8,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        if q == SYNC_QUEUE {
            return self.copy_to_device(dst, src, bytes);
        }
        // Small copies have read the source when the call returns (staging).
        let data = std::slice::from_raw_parts(src, bytes as usize).to_vec();
        self.pending.lock().unwrap().push((
            q,
            dst,
            Box::new(move |d: &FakeDevice| {
                d.with(dst, data.len() as u64, |b| b.copy_from_slice(&data))
            }),
        ));
        Ok(())
    }
    unsafe fn copy_from_device_on(
        &self,
        q: QueueHandle,
        dst: *mut u8,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        if q == SYNC_QUEUE {
            return self.copy_from_device(dst, src, bytes);
        }
        let dst = dst as usize;
        self.pending.lock().unwrap().push((
            q,
            src,
            Box::new(move |d: &FakeDevice| {
                d.with(src, bytes, |b| unsafe {
                    std::ptr::copy_nonoverlapping(b.as_ptr(), dst as *mut u8, bytes as usize)
                })
            }),
        ));
        Ok(())
    }
    fn queue_synchronize(&self, q: QueueHandle) -> Result<(), DeviceError> {
        if q != SYNC_QUEUE {
            self.run_pending_of(q);
        }
        Ok(())
    }
    fn queue_is_idle(&self, q: QueueHandle) -> Result<bool, DeviceError> {
        Ok(!self
            .pending
            .lock()
            .unwrap()
            .iter()
            .any(|(wq, _, _)| *wq == q))
    }
}

#[test]
fn copies_on_a_queue_keep_their_order_and_data_ends_wait_for_the_queue() {
    let dev = QueueDevice::new();
    let mut table = PresentTable::new();
    let mut host = vec![7i32; 4];
    // acc_copyin_async(host, 16, q): the copy waits on the queue, the entry remembers the queue.
    let mut m = Mapper::on_queue(&dev, &mut table, 1);
    m.begin(&[arr(&host, TO)]).unwrap();
    let d = m.device_addr(host.as_ptr() as usize, 16).unwrap();
    assert_eq!(dev.queued(), 1, "the copy is queued");
    assert_eq!(
        dev.inner.read_i32s(d, 1),
        vec![i32::from_le_bytes([POISON; 4])]
    );
    let key = host.as_ptr() as usize;
    assert_eq!(m.table.get(key).unwrap().queues, vec![1]);
    host[0] = 8; // after the call: the queued copy already has the old values
                 // The end of a data region (synchronous) waits for the queue before copying out and freeing.
    let mut m = Mapper::new(&dev, &mut table);
    m.end(&[arr(&host, FROM)]).unwrap();
    assert_eq!(host, vec![7; 4], "copied out after the queued copy in");
    assert!(m.table.is_empty());
    assert_eq!(dev.queued(), 0);

    // exit data nowait on another queue (a task's): it waits for queue 1's copy in first.
    let mut m = Mapper::on_queue(&dev, &mut table, 1);
    host = vec![3; 4];
    m.begin(&[arr(&host, TO)]).unwrap();
    let mut m = Mapper::on_queue(&dev, &mut table, 2);
    host[1] = 0;
    m.end(&[arr(&host, FROM)]).unwrap();
    assert_eq!(
        host,
        vec![3; 4],
        "queue 1's copy landed before queue 2 copied out"
    );
    assert_eq!(dev.inner.live(), 0);
    assert_eq!(dev.queued(), 0);

    // acc_copyout_async of data that goes away: the copy is queued, the free waits for it.
    let mut m = Mapper::on_queue(&dev, &mut table, 1);
    m.begin(&[arr(&host, TO)]).unwrap();
    m.finish().unwrap();
    let d = m.device_addr(host.as_ptr() as usize, 16).unwrap();
    dev.inner.write_i32s(d, &[5; 4]);
    m.end(&[arr(&host, FROM)]).unwrap();
    assert_eq!(host, vec![5; 4]);
    assert_eq!(dev.inner.live(), 0, "freed after the copy completed");

    // acc_update_self_async: the host sees the data after the queue is synchronised.
    let mut m = Mapper::new(&dev, &mut table);
    m.begin(&[arr(&host, TO)]).unwrap();
    let d = m.device_addr(host.as_ptr() as usize, 16).unwrap();
    dev.inner.write_i32s(d, &[6; 4]);
    let mut m = Mapper::on_queue(&dev, &mut table, 1);
    m.update(&[arr(&host, FROM | PRESENT)]).unwrap();
    assert_eq!(host, vec![5; 4], "not yet");
    m.finish().unwrap();
    assert_eq!(host, vec![6; 4]);
    m.end(&[arr(&host, 0)]).unwrap();
    assert!(m.table.is_empty());
}

#[test]
fn update_from_on_a_queue_restores_attached_host_pointers_after_the_copy() {
    let dev = QueueDevice::new();
    let mut table = PresentTable::new();
    let mut data = vec![1.5f64, 2.5, 3.5];
    let mut s = S {
        n: 3,
        p: data.as_mut_ptr(),
    };
    let sp = &mut s as *mut S;
    let member = 1u64 << 48;
    let items = vec![
        item(sp, sp, 16, 0),
        item(sp, sp, 16, member | TO),
        item(
            unsafe { &raw mut (*sp).p },
            data.as_ptr(),
            24,
            member | MapType::PTR_AND_OBJ | TO,
        ),
    ];
    let mut m = Mapper::on_queue(&dev, &mut table, 1);
    m.begin(&items).unwrap();
    m.finish().unwrap();
    let ds = m.device_addr(sp as usize, 16).unwrap();
    let dp = m.device_addr(data.as_ptr() as usize, 24).unwrap();
    assert_eq!(dev.inner.read_u64(ds + 8), dp, "attached on the queue");
    m.update(&[item(sp, sp, 16, FROM)]).unwrap();
    m.finish().unwrap();
    assert_eq!(
        s.p,
        data.as_mut_ptr(),
        "host pointer kept, not the device one"
    );
    let _ = m.end(
        &items
            .iter()
            .map(|i| MapItem {
                ty: MapType(i.ty.0 & !TO),
                ..i.clone()
            })
            .collect::<Vec<_>>(),
    );
}

#[test]
fn attach_and_detach_a_mapped_pointer() {
    // acc_copyin(&s), acc_copyin(data), acc_attach(&s.p), acc_detach(&s.p)
    let dev = FakeDevice::new();
    let mut table = PresentTable::new();
    let mut data = vec![1.5f64, 2.5, 3.5];
    let mut s = S {
        n: 3,
        p: data.as_mut_ptr(),
    };
    let sp = &mut s as *mut S;
    let slot = unsafe { &raw mut (*sp).p } as usize;
    let mut m = Mapper::new(&dev, &mut table);
    let var = VarName::default();
    // The pointer must be present.
    assert!(matches!(m.attach(slot, &var), Err(MapError::Attach { .. })));
    m.begin(&[item(sp, sp, 16, TO)]).unwrap();
    let ds = m.device_addr(sp as usize, 16).unwrap();
    // Its target is not: nothing happens.
    m.attach(slot, &var).unwrap();
    assert_eq!(dev.read_u64(ds + 8), data.as_ptr() as u64);
    m.begin(&[item(data.as_ptr(), data.as_ptr(), 24, TO)])
        .unwrap();
    let dp = m.device_addr(data.as_ptr() as usize, 24).unwrap();
    m.attach(slot, &var).unwrap();
    assert_eq!(dev.read_u64(ds + 8), dp, "attached");
    // A copy back of the struct keeps the host pointer.
    m.update(&[item(sp, sp, 16, FROM)]).unwrap();
    assert_eq!(s.p, data.as_mut_ptr());
    m.detach(slot, &var).unwrap();
    assert_eq!(
        dev.read_u64(ds + 8),
        data.as_ptr() as u64,
        "detached: the host value again"
    );
    // Detaching again, or a null pointer, changes nothing.
    m.detach(slot, &var).unwrap();
    unsafe { (*sp).p = std::ptr::null_mut() };
    m.update(&[item(sp, sp, 16, TO)]).unwrap();
    m.attach(slot, &var).unwrap();
    assert_eq!(dev.read_u64(ds + 8), 0);
}
