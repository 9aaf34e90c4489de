//! `#[repr(C)]` mirrors of `include/ptxcc_abi.h` (the ptxcc ↔ libptxrt contract) and of the
//! libomptarget structures clang 19 emits (`ident_t`, `__tgt_kernel_arguments`).
//!
//! Keep in step with `include/ptxcc_abi.h` and `passes/src/abi.rs`.

use std::ffi::{c_char, c_void, CStr};

/// `PTXRT_ABI_VERSION` in `ptxcc_abi.h`, defined with the passes that write it.
pub use ptxcc_abi::kernel::ABI_VERSION as PTXRT_ABI_VERSION;

/// `enum ptxrt_exec_mode`: how the runtime must launch a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecMode {
    /// teams + parallel: any grid, any block.
    Spmd,
    /// parallel without teams: one block of any size.
    SpmdOneTeam,
    /// teams without parallel: any grid, one thread per block.
    TeamsOnly,
    /// plain target: one block of one thread.
    Single,
}

impl ExecMode {
    pub fn from_raw(raw: u32) -> Option<ExecMode> {
        match raw {
            0 => Some(ExecMode::Spmd),
            1 => Some(ExecMode::SpmdOneTeam),
            2 => Some(ExecMode::TeamsOnly),
            3 => Some(ExecMode::Single),
            _ => None,
        }
    }
}

/// `ptxrt_kernel_desc::emu_flags` bits, defined with the passes that write them.
pub use ptxcc_abi::kernel::{
    EMU_NEEDS_SYNC, KERNEL_ACCESS_MAPS, KERNEL_OPENACC, KERNEL_SPLITTABLE, KERNEL_STORES_POINTERS,
};
/// Prefix of a splittable kernel's split global (the rest is the kernel's name).
pub const SPLIT_GLOBAL_PREFIX: &str = "__ptxcc_split_";

/// Emulator entry: `args[i]` points at the 8-byte value of parameter `i`.
pub type EmuEntry = unsafe extern "C" fn(args: *mut *mut c_void);

#[repr(C)]
pub struct KernelDesc {
    pub host_id: *const c_void,
    pub name: *const c_char,
    pub emu_entry: Option<EmuEntry>,
    pub source: *const c_char,
    pub num_params: u32,
    pub exec_mode: u32,
    pub emu_flags: u32,
    pub emu_shared_bytes: u32,
    pub num_combines: u32,
    /// Words of `accesses` (0: no table).
    pub num_access_words: u32,
    pub combines: *const SplitCombineDesc,
    /// A splittable kernel's access table (`split/ranges.rs`), or NULL.
    pub accesses: *const i64,
    /// `-fptxcc-hybrid`: the host version for the iterations `[lo, hi)` (None: devices only).
    pub host_part: Option<HostPartEntry>,
    /// Bit i: parameter i is a pointer (splittable kernels).
    pub ptr_params: u64,
}

/// Host part entry: `args[i]` points at the 8-byte value of parameter `i`; the iterations
/// `[lo, hi)` of the split loop.
pub type HostPartEntry = unsafe extern "C" fn(args: *mut *mut c_void, lo: u64, hi: u64);

/// `ptxrt_split_combine`.
#[repr(C)]
pub struct SplitCombineDesc {
    pub param: u32,
    pub op: u32,
}

#[repr(C)]
pub struct GlobalDesc {
    pub host_addr: *const c_void,
    pub name: *const c_char,
    pub size: u64,
    pub emu_addr: *mut c_void,
}

#[repr(C)]
pub struct ImageDesc {
    pub abi_version: u32,
    pub num_kernels: u32,
    pub num_globals: u32,
    pub reserved: u32,
    pub ptx: *const c_char,
    pub arch: *const c_char,
    pub source_file: *const c_char,
    pub kernels: *const KernelDesc,
    pub globals: *const GlobalDesc,
}

/// `ptxemu_sreg` values.
pub mod sreg {
    pub const TID_X: u32 = 0;
    pub const TID_Y: u32 = 1;
    pub const TID_Z: u32 = 2;
    pub const NTID_X: u32 = 3;
    pub const NTID_Y: u32 = 4;
    pub const NTID_Z: u32 = 5;
    pub const CTAID_X: u32 = 6;
    pub const CTAID_Y: u32 = 7;
    pub const CTAID_Z: u32 = 8;
    pub const NCTAID_X: u32 = 9;
    pub const NCTAID_Y: u32 = 10;
    pub const NCTAID_Z: u32 = 11;
    pub const LANEID: u32 = 12;
    pub const WARPSIZE: u32 = 13;
    /// The OpenMP number of the device running the kernel (`omp_get_device_num()`).
    pub const DEVICE_NUM: u32 = 14;
    /// Number of registers (size of the per-thread register file).
    pub const COUNT: usize = 15;
}

/// `ptxemu_shfl_mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

impl ShflMode {
    pub fn from_raw(raw: u32) -> Option<ShflMode> {
        match raw {
            0 => Some(ShflMode::Idx),
            1 => Some(ShflMode::Up),
            2 => Some(ShflMode::Down),
            3 => Some(ShflMode::Bfly),
            _ => None,
        }
    }
}

/// `ptxemu_vote_mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

impl VoteMode {
    pub fn from_raw(raw: u32) -> Option<VoteMode> {
        match raw {
            0 => Some(VoteMode::All),
            1 => Some(VoteMode::Any),
            2 => Some(VoteMode::Uni),
            3 => Some(VoteMode::Ballot),
            _ => None,
        }
    }
}

/// clang's `ident_t`: `{ i32 reserved_1, i32 flags, i32 reserved_2, i32 reserved_3, char *psource }`.
#[repr(C)]
pub struct Ident {
    pub reserved_1: i32,
    pub flags: i32,
    pub reserved_2: i32,
    pub reserved_3: i32,
    pub psource: *const c_char,
}

/// clang 19's `struct __tgt_kernel_arguments` (Version 3):
/// `{ i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }`.
#[repr(C)]
pub struct KernelArgs {
    pub version: u32,
    pub num_args: u32,
    pub arg_base_ptrs: *mut *mut c_void,
    pub arg_ptrs: *mut *mut c_void,
    pub arg_sizes: *mut i64,
    pub arg_types: *mut i64,
    pub arg_names: *mut *mut c_void,
    pub arg_mappers: *mut *mut c_void,
    pub tripcount: u64,
    pub flags: u64,
    pub num_teams: [u32; 3],
    pub thread_limit: [u32; 3],
    pub dyn_cgroup_mem: u32,
}

/// `KernelArgs::flags` bit 0.
pub const KERNEL_FLAG_NOWAIT: u64 = 1;

/// Reads a NUL-terminated C string; NULL and invalid UTF-8 are tolerated.
///
/// # Safety
/// `p` must be NULL or point at a NUL-terminated string that lives for `'a`.
pub unsafe fn c_str<'a>(p: *const c_char) -> Option<std::borrow::Cow<'a, str>> {
    if p.is_null() {
        None
    } else {
        Some(CStr::from_ptr(p).to_string_lossy())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn layouts_match_the_c_header_and_clang() {
        assert_eq!(size_of::<KernelDesc>(), 88);
        assert_eq!(offset_of!(KernelDesc, accesses), 64);
        assert_eq!(offset_of!(KernelDesc, host_part), 72);
        assert_eq!(offset_of!(KernelDesc, ptr_params), 80);
        assert_eq!(offset_of!(KernelDesc, num_params), 32);
        assert_eq!(offset_of!(KernelDesc, num_combines), 48);
        assert_eq!(offset_of!(KernelDesc, combines), 56);
        assert_eq!(size_of::<SplitCombineDesc>(), 8);
        assert_eq!(size_of::<GlobalDesc>(), 32);
        assert_eq!(size_of::<ImageDesc>(), 56);
        assert_eq!(offset_of!(ImageDesc, ptx), 16);
        assert_eq!(size_of::<Ident>(), 24);
        assert_eq!(offset_of!(KernelArgs, tripcount), 56);
        assert_eq!(offset_of!(KernelArgs, flags), 64);
        assert_eq!(offset_of!(KernelArgs, num_teams), 72);
        assert_eq!(offset_of!(KernelArgs, thread_limit), 84);
        assert_eq!(offset_of!(KernelArgs, dyn_cgroup_mem), 96);
        assert_eq!(size_of::<KernelArgs>(), 104);
    }
}
