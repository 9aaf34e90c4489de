//! ptxcc's device-side helper libraries (passes/device-rt/*.c, compiled to nvptx64 bitcode by
//! build.rs) and linking them into a device module on demand: reduce.c's trees and alloc.c's
//! OpenMP allocators.
use crate::ir;
use inkwell::attributes::AttributeLoc;
use inkwell::module::{Linkage, Module};
use inkwell::values::FunctionValue;

static DEVICE_RT_BC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/device_rt.bc"));
static DEVICE_ALLOC_BC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/device_alloc.bc"));

/// The prefix of alloc.c's functions (`__ptxcc_omp_alloc`, `__ptxcc_omp_free`, …).
pub const ALLOC_PREFIX: &str = "__ptxcc_omp_";

/// `int __ptxcc_block_reduce(u32 *priv, u32 *tmp, int words, void **lhs, void **rhs, combine_fn, u32 *smem)`
pub const BLOCK_REDUCE: &str = "__ptxcc_block_reduce";
/// The same, then every thread receives the result; returns 1 everywhere.
pub const BLOCK_REDUCE_ALL: &str = "__ptxcc_block_reduce_all";
/// `int __ptxcc_lane_reduce(u32 *priv, u32 *tmp, int words, void **lhs, void **rhs, combine_fn, u32 nlanes)`:
/// the first `nlanes` lanes of the calling warp into lane 0; returns 1 in lane 0.
pub const LANE_REDUCE: &str = "__ptxcc_lane_reduce";
/// The same, then every lane of the warp receives the result; returns 1 everywhere.
pub const LANE_REDUCE_ALL: &str = "__ptxcc_lane_reduce_all";
/// As `BLOCK_REDUCE`, each warp contributing once (its lanes hold the same value).
pub const WARPS_REDUCE: &str = "__ptxcc_warps_reduce";
/// The same, then every thread receives the result; returns 1 everywhere.
pub const WARPS_REDUCE_ALL: &str = "__ptxcc_warps_reduce_all";

/// Returns `name` from the helper library, linking the library into `device` the first time.
pub fn helper<'ctx>(device: &Module<'ctx>, name: &str) -> anyhow::Result<FunctionValue<'ctx>> {
    if let Some(f) = device
        .get_function(name)
        .filter(|f| f.count_basic_blocks() > 0)
    {
        return Ok(f);
    }
    let ctx = device.get_context();
    let bitcode = if name.starts_with(ALLOC_PREFIX) {
        DEVICE_ALLOC_BC
    } else {
        DEVICE_RT_BC
    };
    let buf =
        inkwell::memory_buffer::MemoryBuffer::create_from_memory_range(bitcode, "ptxcc-device-rt");
    let lib = Module::parse_bitcode_from_buffer(&buf, ctx)
        .map_err(|e| anyhow::anyhow!("ptxcc's device helpers: {}", e.to_string()))?;
    ir::copy_target(device, &lib);
    // The unroller's marks from the helpers' own -O2 compile (`llvm.loop.unroll.disable` on
    // the loops it unrolled for an unknown word count) mean nothing once a kernel's call fixes
    // the count: the kernel's optimisation unrolls them whole.
    crate::loop_hints::drop_all_loop_hints(&lib);
    for f in lib.get_functions() {
        // The helpers are compiled for the oldest target; the kernel's architecture decides.
        for a in ["target-cpu", "target-features"] {
            f.remove_string_attribute(AttributeLoc::Function, a);
        }
    }
    device
        .link_in_module(lib)
        .map_err(|e| anyhow::anyhow!("cannot link ptxcc's device helpers: {}", e.to_string()))?;
    for f in device.get_functions() {
        if f.count_basic_blocks() > 0 && ir::fn_name(f).starts_with("__ptxcc_") {
            f.set_linkage(Linkage::Internal);
        }
    }
    device
        .get_function(name)
        .ok_or_else(|| anyhow::anyhow!("ptxcc's device helpers have no function {name}"))
}
