//! Building NVVM intrinsic calls (special registers, barriers) and kernel annotations.
use inkwell::builder::Builder;
use inkwell::context::ContextRef;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Module;
use inkwell::values::{FunctionValue, IntValue};

/// A special register the mapping passes read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SReg {
    TidX,
    NtidX,
    CtaidX,
    NctaidX,
    CtaidY,
    NctaidY,
    CtaidZ,
    NctaidZ,
}

impl SReg {
    pub fn intrinsic_name(self) -> &'static str {
        match self {
            SReg::TidX => "llvm.nvvm.read.ptx.sreg.tid.x",
            SReg::NtidX => "llvm.nvvm.read.ptx.sreg.ntid.x",
            SReg::CtaidX => "llvm.nvvm.read.ptx.sreg.ctaid.x",
            SReg::NctaidX => "llvm.nvvm.read.ptx.sreg.nctaid.x",
            SReg::CtaidY => "llvm.nvvm.read.ptx.sreg.ctaid.y",
            SReg::NctaidY => "llvm.nvvm.read.ptx.sreg.nctaid.y",
            SReg::CtaidZ => "llvm.nvvm.read.ptx.sreg.ctaid.z",
            SReg::NctaidZ => "llvm.nvvm.read.ptx.sreg.nctaid.z",
        }
    }

    /// The register a call reads, if `call` is a call of one of these intrinsics.
    pub fn read_by(call: llvm_sys::prelude::LLVMValueRef) -> Option<SReg> {
        let name = crate::ir::callee_name_raw(call)?;
        [
            SReg::TidX,
            SReg::NtidX,
            SReg::CtaidX,
            SReg::NctaidX,
            SReg::CtaidY,
            SReg::NctaidY,
            SReg::CtaidZ,
            SReg::NctaidZ,
        ]
        .into_iter()
        .find(|r| r.intrinsic_name() == name)
    }
}

/// Reads a special register (i32) at the builder's position, in llvm-sys terms.
///
/// # Safety
/// `module` and `b` must be valid, `b` positioned in a function of `module`.
pub unsafe fn read_sreg_raw(
    module: llvm_sys::prelude::LLVMModuleRef,
    b: llvm_sys::prelude::LLVMBuilderRef,
    reg: SReg,
) -> anyhow::Result<llvm_sys::prelude::LLVMValueRef> {
    use llvm_sys::core as llvm;
    let name = reg.intrinsic_name();
    let id = llvm::LLVMLookupIntrinsicID(name.as_ptr() as *const _, name.len());
    if id == 0 {
        anyhow::bail!("LLVM does not know the intrinsic {name}");
    }
    let f = llvm::LLVMGetIntrinsicDeclaration(module, id, std::ptr::null_mut(), 0);
    let ctx = llvm::LLVMGetModuleContext(module);
    let fty = llvm::LLVMIntrinsicGetType(ctx, id, std::ptr::null_mut(), 0);
    Ok(llvm::LLVMBuildCall2(
        b,
        fty,
        f,
        std::ptr::null_mut(),
        0,
        c"".as_ptr(),
    ))
}

fn intrinsic<'ctx>(module: &Module<'ctx>, name: &str) -> anyhow::Result<FunctionValue<'ctx>> {
    Intrinsic::find(name)
        .and_then(|i| i.get_declaration(module, &[]))
        .ok_or_else(|| anyhow::anyhow!("LLVM does not know the intrinsic {name}"))
}

/// Reads a special register (i32).
pub fn read_sreg<'ctx>(
    module: &Module<'ctx>,
    b: &Builder<'ctx>,
    reg: SReg,
) -> anyhow::Result<IntValue<'ctx>> {
    let f = intrinsic(module, reg.intrinsic_name())?;
    let v = b.build_call(f, &[], "")?;
    v.try_as_basic_value()
        .basic()
        .map(|v| v.into_int_value())
        .ok_or_else(|| anyhow::anyhow!("{} returned no value", reg.intrinsic_name()))
}

/// `bar.sync 0`: every thread of the block.
pub fn barrier<'ctx>(module: &Module<'ctx>, b: &Builder<'ctx>) -> anyhow::Result<()> {
    let f = intrinsic(module, "llvm.nvvm.barrier0")?;
    b.build_call(f, &[], "")?;
    Ok(())
}

/// Marks `f` as a kernel (`!nvvm.annotations = !{!{ptr @f, !"kernel", i32 1}}`).
pub fn annotate_kernel<'ctx>(
    module: &Module<'ctx>,
    ctx: ContextRef<'ctx>,
    f: FunctionValue<'ctx>,
) -> anyhow::Result<()> {
    let node = ctx.metadata_node(&[
        f.as_global_value().as_pointer_value().into(),
        ctx.metadata_string("kernel").into(),
        ctx.i32_type().const_int(1, false).into(),
    ]);
    module
        .add_global_metadata("nvvm.annotations", &node)
        .map_err(|e| anyhow::anyhow!("cannot annotate kernel: {e:?}"))
}
