//! Array data layouts: `#pragma ptxcc trans transpose(a[0:I][0:J][0:K], [1,3,2])` (and the
//! paper's `#pragma acc trans`, ../shared/seeds/000_*.txt), done in IR instead of the paper's
//! source-to-source translator.
//!
//! How the directive reaches the passes, and what each side does:
//!
//! 1. The driver (driver/src/layout_directive/) brackets the structured block with
//!    `__ptxcc_layout_begin((const void *)a, 0, "DESC")` and `__ptxcc_layout_end(a, "DESC")`
//!    on the same source lines; DESC (`desc.rs`) is the array's name, its logical shape
//!    (a flat `double *a` may be described as 4-D; `?` for an extent known at run time, whose
//!    value the begin call passes), where each dimension goes, and the directive's location.
//!    The host IR keeps both calls. Under `-fptxcc-layout=auto`, `auto.rs` puts the same
//!    markers around data regions, the permutation written `auto`.
//! 2. `host_plan` (host IR, before device extraction): the kernels launched between a begin
//!    and its end, and which of their parameters carries the array (the host-fallback call
//!    passes the begin call's value); each such kernel gets the function attribute
//!    `"ptxcc-layout"="PARAM=DESC|…"`, which device extraction clones with it, and each launch
//!    a `__ptxcc_layout_expect(PARAM, a)` call for libptxrt's check.
//! 3. `rewrite` (device IR, after the device passes, so that the emulator's code and the PTX
//!    both get it): every load and store of the array in those kernels — followed from the
//!    parameter through locals and outlined functions — gets its address for the device layout
//!    (for `auto`, once `auto::decide` has chosen it from the accesses' subscripts):
//!    C subscripts of the described extents are permuted and keep the multi-dimensional GEP
//!    form (LLVM strength-reduces it as before); any other address is reduced to its linear
//!    element index, split exactly by the extents (constants, or run-time values loaded from
//!    the layout's extents global) and recombined. What cannot be
//!    followed is a located error naming the array. The access type gives the element size.
//! 4. `host_plan::set_element_sizes` writes the element size into the begin calls (0 stays
//!    where no kernel touches the array: nothing is converted) and checks the described
//!    shape against the array's size when the host knows it (global or local arrays).
//! 5. libptxrt (ptx-runtime/src/layout/) converts the device copy at every transfer inside
//!    the block with a tiled shared-memory transpose kernel, converts an already present copy
//!    at the begin and back at the end, and stops a launch that passes a pointer into a
//!    converted copy to a kernel not compiled for it.
//!
//! `ptxcc-opt --passes=layout-plan` runs step 2 on host IR, `--passes=layout` step 3 on device
//! IR; the pipeline runs 2–4 (`pipeline::device_passes`).
mod align;
pub mod auto;
mod auto_sections;
pub mod desc;
mod escape;
pub mod host_plan;
pub mod rewrite;
mod trips;
pub mod versions;

use inkwell::module::Module;
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::{AsValueRef, InstructionValue};
use llvm_sys::prelude::LLVMValueRef;

/// A call of libptxrt's void function `name` (declared with `params` the first time) with
/// `args`, before `at`.
fn runtime_call<'ctx>(
    host: &Module<'ctx>,
    name: &str,
    params: &[BasicMetadataTypeEnum<'ctx>],
    args: &mut [LLVMValueRef],
    at: &InstructionValue<'_>,
) {
    let ctx = host.get_context();
    let f = host
        .get_function(name)
        .unwrap_or_else(|| host.add_function(name, ctx.void_type().fn_type(params, false), None));
    let b = ctx.create_builder();
    b.position_before(at);
    unsafe {
        llvm_sys::core::LLVMBuildCall2(
            b.as_mut_ptr(),
            llvm_sys::core::LLVMGlobalGetValueType(f.as_value_ref()),
            f.as_value_ref(),
            args.as_mut_ptr(),
            args.len() as u32,
            c"".as_ptr(),
        );
    }
}

/// The marker functions and the kernel attribute.
pub const BEGIN: &str = "__ptxcc_layout_begin";
pub const END: &str = "__ptxcc_layout_end";
pub const EXPECT: &str = "__ptxcc_layout_expect";
pub const VARIANT: &str = "__ptxcc_layout_variant";
/// The operands of a `VARIANT` call (`versions::insert_variant`) later passes read and
/// rewrite: the layout's description, and the element size the device side found.
const VARIANT_DESC: u32 = 4;
const VARIANT_ELEM: u32 = 5;
/// The offload runtime calls the layout plans look for.
const LAUNCH: &str = "__tgt_target_kernel";
const DATA_BEGIN: &str = "__tgt_target_data_begin_mapper";
const DATA_END: &str = "__tgt_target_data_end_mapper";
pub const ATTR: &str = "ptxcc-layout";

/// Whether the kernel `name` may keep a pointer it gets in memory: a pointer parameter of its
/// host fallback (the same code as the kernel) escapes (`escape::parameter_escapes`: stored
/// outside its own slots, made an integer, returned, passed to another file's function). Device
/// memory may then hold the address of a device copy, which no mapping records, so libptxrt
/// must never move a copy (`KERNEL_STORES_POINTERS`). Some(how) when it may; also where the
/// function is not there to look at.
pub fn kernel_keeps_pointers(host: &Module<'_>, name: &str) -> Option<String> {
    let Some(f) = host
        .get_function(name)
        .filter(|f| f.count_basic_blocks() > 0)
    else {
        return Some("its host version is not in this file".into());
    };
    f.get_param_iter()
        .map(|p| p.as_value_ref())
        .filter(|&v| auto::is_pointer(v))
        .find_map(escape::parameter_escapes)
}
