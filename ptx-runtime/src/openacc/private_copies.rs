//! Private copies of array sections (`private(c[lo:len])`, `firstprivate(…)` at gang level):
//! ptxcc's front end allocates one copy per gang in device memory before the compute construct
//! (so no kernel allocates), hands the kernel the block, and each gang points `c` at its own copy
//! (`block + team * len - lo`). These are the host halves it calls:
//!
//! * `__ptxrt_acc_private_copies(bytes)`: how many gangs to launch when the construct gave no
//!   num_gangs: at most 1024, fewer when that many copies would pass 256 MiB, at least one;
//! * `__ptxrt_acc_private_alloc(…)`: the block for `copies` copies on the current device (host
//!   memory when the construct runs on the host), each copy filled from the host data for
//!   firstprivate; an error that names the variable when the device has no room;
//! * `__ptxrt_acc_private_free(block, on_device)`.
use std::ffi::{c_char, c_int, c_long, c_void, CStr};

use super::devices::current;
use crate::errors::fatal;

/// At most this many gangs get a copy when the construct says nothing of their number.
const MAX_COPIES: usize = 1024;
/// …and their copies together stay under this many bytes (fewer gangs otherwise).
const BUDGET: usize = 256 << 20;

/// The number of gangs (and copies) for a construct without num_gangs whose private sections
/// take `bytes` per gang.
pub fn copies_for(bytes: usize) -> usize {
    if bytes == 0 {
        return MAX_COPIES;
    }
    (BUDGET / bytes).clamp(1, MAX_COPIES)
}

#[no_mangle]
pub extern "C" fn __ptxrt_acc_private_copies(bytes: usize) -> c_int {
    copies_for(bytes) as c_int
}

fn name_of(name: *const c_char) -> String {
    if name.is_null() {
        return "?".into();
    }
    // SAFETY: the front end passes a string literal.
    unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned()
}

/// # Safety
/// `name` is null or a C string; `init`, when not null, is valid for `bytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_acc_private_alloc(
    name: *const c_char,
    copies: c_long,
    bytes: usize,
    init: *const c_void,
    on_device: c_int,
) -> *mut c_void {
    let what = || {
        format!(
            "the private copies of '{}' ({copies} gangs x {bytes} bytes)",
            name_of(name)
        )
    };
    if copies <= 0 {
        fatal(&format!(
            "{}: the number of gangs must be positive (num_gangs)",
            what()
        ));
    }
    let copies = copies as usize;
    let Some(total) = copies.checked_mul(bytes).filter(|&t| t > 0) else {
        // An empty section: nothing to allocate; the kernel never indexes it.
        return std::ptr::null_mut();
    };
    let dev = if on_device != 0 { current() } else { None };
    let block = match dev {
        Some(d) => match d.device.alloc(total as u64) {
            Ok(p) => p as *mut c_void,
            Err(e) => fatal(&format!(
                "{} do not fit in device memory: {e}; give the construct fewer gangs (num_gangs) or a smaller section",
                what()
            )),
        },
        None => {
            let p = libc::malloc(total);
            if p.is_null() {
                fatal(&format!("{} do not fit in host memory", what()));
            }
            p
        }
    };
    if !init.is_null() {
        for k in 0..copies {
            let dst = (block as usize + k * bytes) as u64;
            let r = match dev {
                Some(d) => d
                    .device
                    .copy_to_device(dst, init as *const u8, bytes as u64),
                None => {
                    std::ptr::copy_nonoverlapping(init as *const u8, dst as *mut u8, bytes);
                    Ok(())
                }
            };
            if let Err(e) = r {
                fatal(&format!("{}: copying the firstprivate values: {e}", what()));
            }
        }
    }
    block
}

/// # Safety
/// `block` comes from `__ptxrt_acc_private_alloc` with the same `on_device`.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_acc_private_free(block: *mut c_void, on_device: c_int) {
    if block.is_null() {
        return;
    }
    match if on_device != 0 { current() } else { None } {
        Some(d) => {
            if let Err(e) = d.device.free(block as u64) {
                fatal(&format!("freeing private copies at {block:p}: {e}"));
            }
        }
        None => libc::free(block),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_stay_within_the_budget() {
        assert_eq!(copies_for(0), MAX_COPIES);
        assert_eq!(copies_for(8), MAX_COPIES);
        assert_eq!(copies_for(BUDGET / 10), 10);
        assert_eq!(copies_for(BUDGET * 4), 1, "at least one copy");
        assert!(copies_for(1 << 20) * (1 << 20) <= BUDGET);
    }
}
