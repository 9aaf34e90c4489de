//! Device builtins: OpenMP API routines called inside target regions → special registers.
//!
//! ```llvm
//! %t = call i32 @omp_get_thread_num()      →   %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//! %n = call i32 @omp_get_num_teams()       →   %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
//! %d = call i32 @omp_is_initial_device()   →   0
//! ```
//!
//! The launch configuration makes the registers agree with OpenMP's view: a parallel region's
//! threads are the block's threads, a teams region's teams are the grid's blocks.
use crate::ir;
use crate::nvvm::{self, SReg};
use inkwell::module::Module;
use inkwell::values::AsValueRef;

/// What a routine becomes.
enum Lowering {
    Reg(SReg),
    Const(u64),
    /// `omp_in_parallel()`: more than one thread in the block.
    InParallel,
}

fn lowering(name: &str) -> Option<Lowering> {
    Some(match name {
        "omp_get_thread_num" => Lowering::Reg(SReg::TidX),
        "omp_get_num_threads" | "omp_get_max_threads" | "omp_get_thread_limit" => Lowering::Reg(SReg::NtidX),
        "omp_get_team_num" => Lowering::Reg(SReg::CtaidX),
        "omp_get_num_teams" => Lowering::Reg(SReg::NctaidX),
        "omp_is_initial_device" => Lowering::Const(0),
        "omp_get_level" | "omp_get_active_level" => Lowering::InParallel,
        "omp_in_parallel" => Lowering::InParallel,
        "omp_get_num_procs" => Lowering::Reg(SReg::NtidX),
        _ => return None,
    })
}

/// Lowers every call of a known OpenMP routine. Returns how many calls were lowered.
pub fn lower_builtins(device: &Module<'_>) -> anyhow::Result<usize> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    let mut count = 0;
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            let Some(l) = lowering(&name) else { continue };
            b.position_before(&call);
            let v = match l {
                Lowering::Reg(r) => nvvm::read_sreg(device, &b, r)?,
                Lowering::Const(c) => ctx.i32_type().const_int(c, false),
                Lowering::InParallel => {
                    let n = nvvm::read_sreg(device, &b, SReg::NtidX)?;
                    let gt = b.build_int_compare(inkwell::IntPredicate::UGT, n, ctx.i32_type().const_int(1, false), "")?;
                    b.build_int_z_extend(gt, ctx.i32_type(), "")?
                }
            };
            ir::replace_and_erase(call, v.as_value_ref());
            count += 1;
        }
    }
    let unused: Vec<_> = device
        .get_functions()
        .filter(|f| f.count_basic_blocks() == 0 && lowering(&ir::fn_name(*f)).is_some())
        .filter(|f| unsafe { llvm_sys::core::LLVMGetFirstUse(f.as_value_ref()).is_null() })
        .collect();
    for f in unused {
        unsafe { f.delete() };
    }
    Ok(count)
}
