//! OpenMP device routines (OpenMP 5.2 §18.7–18.8) on top of the runtime's devices. These
//! definitions override libomp's stubs of the same names when libptxrt.a is linked first.

use crate::device::emulator::simt;
use crate::mapping::Mapper;
use crate::present_table::{Entry, Lookup, RefCount, Storage};
use crate::runtime::{self, DeviceState};
use crate::source_info::{SourceLoc, VarName};
use std::ffi::{c_int, c_void};
use std::sync::atomic::Ordering;

const EINVAL: c_int = libc::EINVAL;

#[no_mangle]
pub extern "C" fn omp_get_num_devices() -> c_int {
    runtime::get().num_devices()
}

#[no_mangle]
pub extern "C" fn omp_get_initial_device() -> c_int {
    runtime::get().initial_device()
}

#[no_mangle]
pub extern "C" fn omp_get_default_device() -> c_int {
    runtime::get().default_device.load(Ordering::Relaxed)
}

#[no_mangle]
pub extern "C" fn omp_set_default_device(device_num: c_int) {
    runtime::get()
        .default_device
        .store(device_num, Ordering::Relaxed)
}

/// 1 on the host; 0 inside a kernel running on the emulator.
#[no_mangle]
pub extern "C" fn omp_is_initial_device() -> c_int {
    (!simt::in_kernel()) as c_int
}

#[no_mangle]
pub extern "C" fn omp_get_device_num() -> c_int {
    if simt::in_kernel() {
        simt::device_num() as c_int
    } else {
        runtime::get().initial_device()
    }
}

/// Where a device number points: the host, a device, or nowhere.
enum Place<'a> {
    Host,
    Device(&'a DeviceState),
}

fn place(device_num: c_int) -> Option<Place<'static>> {
    let rt = runtime::get();
    if device_num == rt.initial_device() {
        return Some(Place::Host);
    }
    rt.device(device_num).map(|d| {
        d.ensure_loaded();
        Place::Device(d)
    })
}

#[no_mangle]
pub extern "C" fn omp_target_alloc(size: usize, device_num: c_int) -> *mut c_void {
    if size == 0 {
        return std::ptr::null_mut();
    }
    match place(device_num) {
        Some(Place::Host) => unsafe { libc::malloc(size) },
        Some(Place::Device(d)) => d
            .device
            .alloc(size as u64)
            .map_or(std::ptr::null_mut(), |p| p as *mut c_void),
        None => std::ptr::null_mut(),
    }
}

#[no_mangle]
pub unsafe extern "C" fn omp_target_free(ptr: *mut c_void, device_num: c_int) {
    if ptr.is_null() {
        return;
    }
    match place(device_num) {
        Some(Place::Host) => libc::free(ptr),
        Some(Place::Device(d)) => {
            if let Err(e) = d.device.free(ptr as u64) {
                crate::errors::warn(&format!("omp_target_free({ptr:p}, {device_num}): {e}"));
            }
        }
        None => {}
    }
}

#[no_mangle]
pub extern "C" fn omp_target_is_present(ptr: *const c_void, device_num: c_int) -> c_int {
    match place(device_num) {
        Some(Place::Host) => 1,
        Some(Place::Device(d)) => {
            let t = d.lock_table();
            matches!(t.lookup(ptr as usize, 0), Lookup::Contained(_)) as c_int
        }
        None => 0,
    }
}

#[no_mangle]
pub extern "C" fn omp_target_is_accessible(
    _ptr: *const c_void,
    _size: usize,
    device_num: c_int,
) -> c_int {
    // Device memory is separate: host memory is accessible from the host only.
    matches!(place(device_num), Some(Place::Host)) as c_int
}

#[no_mangle]
pub extern "C" fn omp_get_mapped_ptr(ptr: *const c_void, device_num: c_int) -> *mut c_void {
    match place(device_num) {
        Some(Place::Host) => ptr as *mut c_void,
        Some(Place::Device(d)) => {
            let mut t = d.lock_table();
            let mut m = Mapper::new(d.device.as_ref(), &mut t);
            m.expose(ptr as usize, 0)
                .map_or(std::ptr::null_mut(), |a| a as *mut c_void)
        }
        None => std::ptr::null_mut(),
    }
}

/// Copies `n` bytes between any two of host / devices.
unsafe fn copy(
    dst: usize,
    dst_place: &Place<'_>,
    src: usize,
    src_place: &Place<'_>,
    n: u64,
) -> bool {
    if n == 0 {
        return true;
    }
    match (dst_place, src_place) {
        (Place::Host, Place::Host) => {
            std::ptr::copy(src as *const u8, dst as *mut u8, n as usize);
            true
        }
        (Place::Device(d), Place::Host) => d
            .device
            .copy_to_device(dst as u64, src as *const u8, n)
            .is_ok(),
        (Place::Host, Place::Device(s)) => s
            .device
            .copy_from_device(dst as *mut u8, src as u64, n)
            .is_ok(),
        (Place::Device(d), Place::Device(s)) if d.number == s.number => d
            .device
            .copy_within_device(dst as u64, src as u64, n)
            .is_ok(),
        (Place::Device(d), Place::Device(s)) => {
            let ok = d
                .device
                .copy_from_peer(dst as u64, s.device.as_ref(), src as u64, n)
                .is_ok();
            if ok {
                crate::profile::peer(d.number, n);
            }
            ok
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn omp_target_memcpy(
    dst: *mut c_void,
    src: *const c_void,
    length: usize,
    dst_offset: usize,
    src_offset: usize,
    dst_device_num: c_int,
    src_device_num: c_int,
) -> c_int {
    let (Some(dp), Some(sp)) = (place(dst_device_num), place(src_device_num)) else {
        return EINVAL;
    };
    if (dst.is_null() || src.is_null()) && length > 0 {
        return EINVAL;
    }
    if copy(
        dst as usize + dst_offset,
        &dp,
        src as usize + src_offset,
        &sp,
        length as u64,
    ) {
        0
    } else {
        EINVAL
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn rect(
    dst: usize,
    dp: &Place<'_>,
    src: usize,
    sp: &Place<'_>,
    elem: usize,
    dims: usize,
    volume: *const usize,
    doff: *const usize,
    soff: *const usize,
    ddim: *const usize,
    sdim: *const usize,
) -> bool {
    if dims == 1 {
        return copy(
            dst + *doff * elem,
            dp,
            src + *soff * elem,
            sp,
            (*volume * elem) as u64,
        );
    }
    // Bytes of one slice of the remaining dimensions.
    let mut dslice = elem;
    let mut sslice = elem;
    for i in 1..dims {
        dslice *= *ddim.add(i);
        sslice *= *sdim.add(i);
    }
    for i in 0..*volume {
        let d = dst + (*doff + i) * dslice;
        let s = src + (*soff + i) * sslice;
        if !rect(
            d,
            dp,
            s,
            sp,
            elem,
            dims - 1,
            volume.add(1),
            doff.add(1),
            soff.add(1),
            ddim.add(1),
            sdim.add(1),
        ) {
            return false;
        }
    }
    true
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn omp_target_memcpy_rect(
    dst: *mut c_void,
    src: *const c_void,
    element_size: usize,
    num_dims: c_int,
    volume: *const usize,
    dst_offsets: *const usize,
    src_offsets: *const usize,
    dst_dimensions: *const usize,
    src_dimensions: *const usize,
    dst_device_num: c_int,
    src_device_num: c_int,
) -> c_int {
    if dst.is_null() && src.is_null() {
        return c_int::MAX; // the number of dimensions supported
    }
    if num_dims < 1
        || volume.is_null()
        || dst_offsets.is_null()
        || src_offsets.is_null()
        || dst_dimensions.is_null()
        || src_dimensions.is_null()
    {
        return EINVAL;
    }
    let (Some(dp), Some(sp)) = (place(dst_device_num), place(src_device_num)) else {
        return EINVAL;
    };
    if rect(
        dst as usize,
        &dp,
        src as usize,
        &sp,
        element_size,
        num_dims as usize,
        volume,
        dst_offsets,
        src_offsets,
        dst_dimensions,
        src_dimensions,
    ) {
        0
    } else {
        EINVAL
    }
}

/// `omp_target_memcpy_async` (OpenMP 5.2 §18.8.7): the copy as a task that depends on
/// `depobj_list`. It runs as an undeferred task: after the tasks the calling task created
/// (which include every task the dependences can name) have completed, it copies at once; a
/// `taskwait` then has nothing left of it to wait for. Its result is the copy's (0, or EINVAL
/// for a bad device number or pointer).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn omp_target_memcpy_async(
    dst: *mut c_void,
    src: *const c_void,
    length: usize,
    dst_offset: usize,
    src_offset: usize,
    dst_device_num: c_int,
    src_device_num: c_int,
    _depobj_count: c_int,
    _depobj_list: *mut c_void,
) -> c_int {
    crate::openacc::wait_for_async_tasks();
    omp_target_memcpy(
        dst,
        src,
        length,
        dst_offset,
        src_offset,
        dst_device_num,
        src_device_num,
    )
}

/// `omp_target_memcpy_rect_async` (OpenMP 5.2 §18.8.8): `omp_target_memcpy_rect` as an
/// undeferred task, as `omp_target_memcpy_async` is.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn omp_target_memcpy_rect_async(
    dst: *mut c_void,
    src: *const c_void,
    element_size: usize,
    num_dims: c_int,
    volume: *const usize,
    dst_offsets: *const usize,
    src_offsets: *const usize,
    dst_dimensions: *const usize,
    src_dimensions: *const usize,
    dst_device_num: c_int,
    src_device_num: c_int,
    _depobj_count: c_int,
    _depobj_list: *mut c_void,
) -> c_int {
    if !(dst.is_null() && src.is_null()) {
        crate::openacc::wait_for_async_tasks();
    }
    omp_target_memcpy_rect(
        dst,
        src,
        element_size,
        num_dims,
        volume,
        dst_offsets,
        src_offsets,
        dst_dimensions,
        src_dimensions,
        dst_device_num,
        src_device_num,
    )
}

/// Records that `size` bytes at `host_ptr` correspond to `device_ptr + device_offset`.
pub fn associate(
    d: &DeviceState,
    host: usize,
    dev: u64,
    size: u64,
    name: &str,
) -> Result<(), String> {
    if size == 0 {
        return Err("size is 0".into());
    }
    let mut t = d.lock_table();
    match t.lookup(host, size) {
        Lookup::Absent => {
            t.insert(Entry {
                host_base: host,
                host_begin: host,
                host_end: host + size as usize,
                device_begin: dev,
                storage: Storage::Borrowed,
                dynamic_refs: RefCount::Infinite,
                hold_refs: 0,
                name: VarName {
                    expr: name.to_string(),
                    decl: SourceLoc::default(),
                },
                shadows: Vec::new(),
                users: 0,
                queues: Vec::new(),
                exposed: false,
                copies_out: false,
            });
            Ok(())
        }
        Lookup::Contained(k) | Lookup::Overlaps(k) => {
            let same = t.get(k).is_some_and(|e| {
                e.host_begin == host && e.bytes() == size && e.device_begin == dev
            });
            if same {
                Ok(())
            } else {
                Err(format!(
                    "host address {host:#x} ({size} bytes) is already mapped"
                ))
            }
        }
    }
}

/// Removes an association made by `associate`.
pub fn disassociate(d: &DeviceState, host: usize) -> Result<(), String> {
    let mut t = d.lock_table();
    let key = match t.lookup(host, 0) {
        Lookup::Contained(k) => k,
        _ => return Err(format!("host address {host:#x} is not mapped")),
    };
    match t.get(key) {
        Some(e) if e.host_begin == host && e.storage == Storage::Borrowed && e.dynamic_refs == RefCount::Infinite => {
            t.remove(key);
            Ok(())
        }
        _ => Err(format!("host address {host:#x} was not associated with omp_target_associate_ptr / acc_map_data")),
    }
}

#[no_mangle]
pub extern "C" fn omp_target_associate_ptr(
    host_ptr: *const c_void,
    device_ptr: *const c_void,
    size: usize,
    device_offset: usize,
    device_num: c_int,
) -> c_int {
    let Some(Place::Device(d)) = place(device_num) else {
        return EINVAL;
    };
    match associate(
        d,
        host_ptr as usize,
        device_ptr as u64 + device_offset as u64,
        size as u64,
        "omp_target_associate_ptr",
    ) {
        Ok(()) => 0,
        Err(_) => EINVAL,
    }
}

#[no_mangle]
pub extern "C" fn omp_target_disassociate_ptr(ptr: *const c_void, device_num: c_int) -> c_int {
    let Some(Place::Device(d)) = place(device_num) else {
        return EINVAL;
    };
    match disassociate(d, ptr as usize) {
        Ok(()) => 0,
        Err(_) => EINVAL,
    }
}
