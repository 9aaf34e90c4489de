//! The number of the device a kernel runs on (`omp_get_device_num()` in a target region).
//!
//! The PTX cannot know which GPU runs it, and one image is loaded on every device, so the number
//! lives in a device global of the image that the runtime writes on each device once the
//! image is loaded there (and again if the devices are renumbered):
//!
//! ```llvm
//! @__ptxcc_device_num = addrspace(1) externally_initialized global i32 0, align 4
//! %d = call i32 @omp_get_device_num()   →   %d = load i32, ptr addrspace(1) @__ptxcc_device_num
//! ```
//!
//! In the PTX it is `.visible .global .u32 __ptxcc_device_num`, which libptxrt finds with
//! `cuModuleGetGlobal`. The emulator's devices share one copy of the program's code, so SIMT
//! lowering turns each load of it into a read of the emulator's `PTXEMU_DEVICE_NUM` register,
//! which every emulated device sets to its own number for its launches.
use inkwell::builder::Builder;
use inkwell::module::{Linkage, Module};
use inkwell::values::IntValue;
use inkwell::AddressSpace;

/// The global's name (ptx-runtime/src/device/cuda.rs looks it up by this name).
pub const GLOBAL: &str = "__ptxcc_device_num";

/// Loads the device number before the builder's position (declaring the global once).
pub fn load<'ctx>(module: &Module<'ctx>, b: &Builder<'ctx>) -> anyhow::Result<IntValue<'ctx>> {
    let ctx = module.get_context();
    let i32t = ctx.i32_type();
    let g = module.get_global(GLOBAL).unwrap_or_else(|| {
        let g = module.add_global(i32t, Some(AddressSpace::from(1u16)), GLOBAL);
        g.set_initializer(&i32t.const_zero());
        g.set_linkage(Linkage::External);
        // Written by the runtime after loading: LLVM must not fold the initial 0 into the loads.
        g.set_externally_initialized(true);
        g.set_alignment(4);
        g
    });
    Ok(
        b.build_load(i32t, g.as_pointer_value(), "ptxcc.device_num")?
            .into_int_value(),
    )
}
