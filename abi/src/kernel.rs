//! The image descriptor's version and `ptxrt_kernel_desc::emu_flags` bits (`PTXRT_ABI_VERSION`,
//! `PTXRT_EMU_NEEDS_SYNC`, … in ptxcc_abi.h).

/// `PTXRT_ABI_VERSION`: the layout of the image and kernel descriptors the passes emit; libptxrt
/// refuses an image of another version. Version 4 added `KERNEL_OPENACC`, 5
/// `KERNEL_STORES_POINTERS`.
pub const ABI_VERSION: u32 = 5;

/// `PTXRT_EMU_NEEDS_SYNC`: the emulator runs the kernel's threads as fibers that can meet at a
/// barrier.
pub const EMU_NEEDS_SYNC: u32 = 1;
/// `PTXRT_KERNEL_SPLITTABLE`: the kernel runs the part of its loop that its image's global
/// `__ptxcc_split_<kernel>` says (`-fptxcc-multi-device`).
pub const KERNEL_SPLITTABLE: u32 = 1 << 1;
/// `PTXRT_KERNEL_ACCESS_MAPS`: a loop `-fopenmp-offload-parallel-for` offloaded; its pointer
/// arguments that reach a launch without an extent and are not present are mapped by its
/// access table evaluated over the whole loop.
pub const KERNEL_ACCESS_MAPS: u32 = 1 << 2;
/// `PTXRT_KERNEL_OPENACC`: the kernel of an OpenACC compute construct; with
/// `KERNEL_ACCESS_MAPS`, its pointers without a data clause are mapped by the access table, and
/// the errors for them ask for a data clause.
pub const KERNEL_OPENACC: u32 = 1 << 3;
/// `PTXRT_KERNEL_STORES_POINTERS`: the kernel may keep a pointer it gets in memory (stores it,
/// makes it an integer, passes it to code of another file): device memory may then hold the
/// address of a device copy, so libptxrt never moves a copy to new device memory (a layout
/// conversion converts it in place instead).
pub const KERNEL_STORES_POINTERS: u32 = 1 << 4;
