//! Device builtins: OpenMP API routines called inside target regions → special registers.
//!
//! ```llvm
//! %t = call i32 @omp_get_thread_num()      →   %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//! %n = call i32 @omp_get_num_teams()       →   %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
//! %d = call i32 @omp_is_initial_device()   →   0
//! %m = call i32 @omp_get_max_teams()       →   0   (nteams-var, never set on the device)
//! %n = call i32 @omp_get_device_num()      →   %n = load i32, ptr addrspace(1) @__ptxcc_device_num
//! %o = call i32 @acc_on_device(i32 %t)     →   zext (%t == acc_device_not_host | %t == acc_device_nvidia)
//! ```
//!
//! The launch configuration makes the registers agree with OpenMP's view: a parallel region's
//! threads are the block's threads, a teams region's teams are the grid's blocks. In a function
//! kernel formation gave a thread space (workers as warps, their nested regions as lanes),
//! `omp_get_thread_num` and `omp_get_num_threads` are the space's index and count. The code of
//! a target or teams region outside its parallel regions (`Space::Team`) runs in every thread
//! of the block but is the team's initial thread to OpenMP: thread 0 of 1, level 0, not in
//! parallel.
//!
//! `master`, `masked` and `single` (`__kmpc_master`/`__kmpc_masked`/`__kmpc_single`, which
//! return whether the calling thread runs the region) become a comparison of the thread's
//! number with 0 or the filter (any one thread may run a `single`; the barrier after it is
//! clang's own `__kmpc_barrier`), their ends go, and `flush` is `membar.sys`. A `critical`
//! construct takes and gives back a spin lock (see `critical_helper`).
//!
//! Complex multiplication and division, which clang leaves to compiler-rt (`__mulsc3`,
//! `__muldc3`, `__divsc3`, `__divdc3`), become inline arithmetic: the textbook product and
//! Smith's division (as CUDA's cuComplex does; the C99 Annex G recovery of infinities from
//! NaN results is not done):
//!
//! ```llvm
//! %p = call <2 x float> @__mulsc3(float %a, float %b, float %c, float %d)
//!   →  %re = fsub (fmul %a, %c), (fmul %b, %d) ; %im = fadd (fmul %a, %d), (fmul %b, %c)
//!      %p = insertelement (insertelement poison, %re, 0), %im, 1
//! ```
use crate::ir;
use crate::nvvm::{self, SReg};
use crate::thread_space::Space;
use inkwell::module::Module;
use inkwell::values::AsValueRef;

/// What a routine becomes.
enum Lowering {
    Reg(SReg),
    Const(u64),
    /// `omp_in_parallel()`: more than one thread in the block.
    InParallel,
    /// `__kmpc_master(loc, gtid)`, `__kmpc_single(loc, gtid)`: whether this is thread 0 of its
    /// region (OpenMP lets any one thread run a `single`; thread 0 is the cheapest choice).
    ThreadIs0,
    /// `__kmpc_masked(loc, gtid, filter)`: whether this is thread `filter` of its region.
    ThreadIsFilter,
    /// The end of a master, masked or single region: nothing to do.
    Nothing,
    /// `__kmpc_flush(loc)`: a memory barrier.
    Fence,
    /// `__kmpc_critical[_with_hint](loc, gtid, lock[, hint])`: take the construct's lock.
    CriticalEnter,
    /// `__kmpc_end_critical(loc, gtid, lock)`: give it back.
    CriticalExit,
    /// `omp_get_device_num()`: the device global the runtime sets per device (`device_number`).
    DeviceNum,
    /// OpenACC's `acc_on_device(t)`: device code runs on an NVIDIA device, so t is
    /// `acc_device_not_host` or `acc_device_nvidia` (openacc.h), as GCC's nvptx builtin answers.
    OnDevice,
}

/// `acc_device_not_host` and `acc_device_nvidia` in ptx-runtime/include/openacc.h.
const ACC_DEVICE_NOT_HOST: u64 = 3;
const ACC_DEVICE_NVIDIA: u64 = 4;

fn lowering(name: &str) -> Option<Lowering> {
    // omp.h defines some routines inline for the host through `declare variant`
    // (`omp_is_initial_device$ompvariant$S2$s6$Phost` returns 1): the device means the routine.
    let name = name.split("$ompvariant$").next().unwrap_or(name);
    Some(match name {
        "omp_get_thread_num" => Lowering::Reg(SReg::TidX),
        "omp_get_num_threads" | "omp_get_max_threads" | "omp_get_thread_limit" => {
            Lowering::Reg(SReg::NtidX)
        }
        "omp_get_team_num" => Lowering::Reg(SReg::CtaidX),
        "omp_get_num_teams" => Lowering::Reg(SReg::NctaidX),
        "omp_is_initial_device" => Lowering::Const(0),
        // The device's nteams-var and teams-thread-limit-var ICVs (OpenMP 5.2 section 2.1):
        // their initial value is 0 (no limit requested), and omp_set_num_teams /
        // omp_set_teams_thread_limit, which change them, cannot be called in a target region.
        "omp_get_max_teams" | "omp_get_teams_thread_limit" => Lowering::Const(0),
        "omp_get_device_num" => Lowering::DeviceNum,
        "omp_get_level" | "omp_get_active_level" => Lowering::InParallel,
        "omp_in_parallel" => Lowering::InParallel,
        "omp_get_num_procs" => Lowering::Reg(SReg::NtidX),
        "__kmpc_master" | "__kmpc_single" => Lowering::ThreadIs0,
        "__kmpc_masked" => Lowering::ThreadIsFilter,
        "__kmpc_end_master" | "__kmpc_end_masked" | "__kmpc_end_single" => Lowering::Nothing,
        "__kmpc_flush" => Lowering::Fence,
        // Device tasks are undeferred (the tasks pass): every child task has completed when a
        // taskwait is met, and a taskyield has nothing to yield to: both are no-ops.
        "__kmpc_omp_taskwait" | "__kmpc_omp_taskwait_deps_51" | "__kmpc_omp_taskyield" => {
            Lowering::Nothing
        }
        "__kmpc_critical" | "__kmpc_critical_with_hint" => Lowering::CriticalEnter,
        "__kmpc_end_critical" => Lowering::CriticalExit,
        "acc_on_device" => Lowering::OnDevice,
        _ => return None,
    })
}

/// Whether `name` is an OpenMP routine this pass turns into a register read or a constant (a
/// query without effects, which code run redundantly by several threads may call).
pub fn is_query(name: &str) -> bool {
    matches!(lowering(name), Some(l) if !matches!(l, Lowering::CriticalEnter | Lowering::CriticalExit))
}

/// compiler-rt's complex helpers: (is division, element type is double).
fn complex_helper(name: &str) -> Option<(bool, bool)> {
    Some(match name {
        "__mulsc3" => (false, false),
        "__muldc3" => (false, true),
        "__divsc3" => (true, false),
        "__divdc3" => (true, true),
        _ => return None,
    })
}

/// `(a + bi) * (c + di)` or `/`, built before `call` and shaped like its return value
/// (`<2 x T>` or `{ T, T }`, as the host ABI made it).
fn complex_arith<'ctx>(
    module: &Module<'ctx>,
    b: &inkwell::builder::Builder<'ctx>,
    call: inkwell::values::InstructionValue<'ctx>,
    div: bool,
) -> anyhow::Result<llvm_sys::prelude::LLVMValueRef> {
    let args = ir::call_args(call);
    if args.len() != 4 || !args.iter().all(|a| a.is_float_value()) {
        anyhow::bail!("unexpected signature for a complex helper");
    }
    let [a, bb, c, d] = [args[0], args[1], args[2], args[3]].map(|v| v.into_float_value());
    let (re, im) = if !div {
        let re = b.build_float_sub(
            b.build_float_mul(a, c, "")?,
            b.build_float_mul(bb, d, "")?,
            "ptxcc.re",
        )?;
        let im = b.build_float_add(
            b.build_float_mul(a, d, "")?,
            b.build_float_mul(bb, c, "")?,
            "ptxcc.im",
        )?;
        (re, im)
    } else {
        // Smith's algorithm: divide by the larger of |c| and |d| first.
        let ty = a.get_type();
        let fabs = inkwell::intrinsics::Intrinsic::find("llvm.fabs")
            .and_then(|i| i.get_declaration(module, &[ty.into()]))
            .ok_or_else(|| anyhow::anyhow!("no llvm.fabs"))?;
        let abs = |v| -> anyhow::Result<inkwell::values::FloatValue<'ctx>> {
            Ok(b.build_call(
                fabs,
                &[inkwell::values::BasicMetadataValueEnum::FloatValue(v)],
                "",
            )?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| anyhow::anyhow!("fabs returns nothing"))?
            .into_float_value())
        };
        let c_big = b.build_float_compare(inkwell::FloatPredicate::OGE, abs(c)?, abs(d)?, "")?;
        // |c| >= |d|: r = d/c, den = c + d r, re = (a + b r)/den, im = (b - a r)/den
        let r1 = b.build_float_div(d, c, "")?;
        let den1 = b.build_float_add(c, b.build_float_mul(d, r1, "")?, "")?;
        let re1 = b.build_float_div(
            b.build_float_add(a, b.build_float_mul(bb, r1, "")?, "")?,
            den1,
            "",
        )?;
        let im1 = b.build_float_div(
            b.build_float_sub(bb, b.build_float_mul(a, r1, "")?, "")?,
            den1,
            "",
        )?;
        // otherwise: r = c/d, den = c r + d, re = (a r + b)/den, im = (b r - a)/den
        let r2 = b.build_float_div(c, d, "")?;
        let den2 = b.build_float_add(b.build_float_mul(c, r2, "")?, d, "")?;
        let re2 = b.build_float_div(
            b.build_float_add(b.build_float_mul(a, r2, "")?, bb, "")?,
            den2,
            "",
        )?;
        let im2 = b.build_float_div(
            b.build_float_sub(b.build_float_mul(bb, r2, "")?, a, "")?,
            den2,
            "",
        )?;
        let re = b
            .build_select(c_big, re1, re2, "ptxcc.re")?
            .into_float_value();
        let im = b
            .build_select(c_big, im1, im2, "ptxcc.im")?
            .into_float_value();
        (re, im)
    };
    let ret_ty = unsafe { llvm_sys::core::LLVMTypeOf(call.as_value_ref()) };
    unsafe {
        use llvm_sys::core::*;
        let mut v = LLVMGetPoison(ret_ty);
        match LLVMGetTypeKind(ret_ty) {
            llvm_sys::LLVMTypeKind::LLVMVectorTypeKind => {
                let i32t = LLVMInt32TypeInContext(LLVMGetTypeContext(ret_ty));
                v = LLVMBuildInsertElement(
                    b.as_mut_ptr(),
                    v,
                    re.as_value_ref(),
                    LLVMConstInt(i32t, 0, 0),
                    c"".as_ptr(),
                );
                v = LLVMBuildInsertElement(
                    b.as_mut_ptr(),
                    v,
                    im.as_value_ref(),
                    LLVMConstInt(i32t, 1, 0),
                    c"".as_ptr(),
                );
            }
            llvm_sys::LLVMTypeKind::LLVMStructTypeKind => {
                v = LLVMBuildInsertValue(b.as_mut_ptr(), v, re.as_value_ref(), 0, c"".as_ptr());
                v = LLVMBuildInsertValue(b.as_mut_ptr(), v, im.as_value_ref(), 1, c"".as_ptr());
            }
            _ => anyhow::bail!("unexpected return type for a complex helper"),
        }
        Ok(v)
    }
}

/// The device function that takes (`enter`) or gives back a `critical` construct's lock, one
/// word of the lock variable clang made for its name (`@.gomp_critical_user_<name>.var`,
/// zero-initialised device memory):
///
/// ```llvm
/// define internal void @__ptxcc_critical_enter(ptr %lock) {
///   entry: br label %spin
///   spin:  %r = cmpxchg ptr %lock, i32 0, i32 1 monotonic monotonic
///          %ok = extractvalue { i32, i1 } %r, 1
///          br i1 %ok, label %taken, label %spin
///   taken: call void @llvm.nvvm.membar.gl()         ; what the section reads comes after
///          ret void }
/// define internal void @__ptxcc_critical_exit(ptr %lock) {
///   call void @llvm.nvvm.membar.gl()                 ; what the section wrote goes first
///   atomicrmw xchg ptr %lock, i32 0 monotonic
///   ret void }
/// ```
///
/// The threads of a warp that wait while one of them holds the lock rely on independent thread
/// scheduling (sm_70 and newer; the pipeline refuses older targets). (NVPTX in LLVM 19 selects
/// no fence, hence monotonic atomics and membar.) In the emulator a critical section, which has
/// no barrier, ends before the fiber that runs it gives its host thread away.
fn critical_helper<'ctx>(
    device: &Module<'ctx>,
    enter: bool,
) -> anyhow::Result<inkwell::values::FunctionValue<'ctx>> {
    let name = if enter { CRITICAL_ENTER } else { CRITICAL_EXIT };
    if let Some(f) = device.get_function(name) {
        return Ok(f);
    }
    let ctx = device.get_context();
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let i32t = ctx.i32_type();
    let f = device.add_function(
        name,
        ctx.void_type().fn_type(&[ptr.into()], false),
        Some(inkwell::module::Linkage::Internal),
    );
    let lock = f
        .get_nth_param(0)
        .ok_or_else(|| anyhow::anyhow!("{name} has no parameter"))?
        .into_pointer_value();
    let membar = inkwell::intrinsics::Intrinsic::find("llvm.nvvm.membar.gl")
        .and_then(|i| i.get_declaration(device, &[]))
        .ok_or_else(|| anyhow::anyhow!("LLVM does not know llvm.nvvm.membar.gl"))?;
    let b = ctx.create_builder();
    let monotonic = inkwell::AtomicOrdering::Monotonic;
    if enter {
        let entry = ctx.append_basic_block(f, "entry");
        let spin = ctx.append_basic_block(f, "spin");
        let taken = ctx.append_basic_block(f, "taken");
        b.position_at_end(entry);
        b.build_unconditional_branch(spin)?;
        b.position_at_end(spin);
        let r = b.build_cmpxchg(
            lock,
            i32t.const_zero(),
            i32t.const_int(1, false),
            monotonic,
            monotonic,
        )?;
        let ok = b.build_extract_value(r, 1, "ok")?.into_int_value();
        b.build_conditional_branch(ok, taken, spin)?;
        b.position_at_end(taken);
        b.build_call(membar, &[], "")?;
    } else {
        let entry = ctx.append_basic_block(f, "entry");
        b.position_at_end(entry);
        b.build_call(membar, &[], "")?;
        b.build_atomicrmw(
            inkwell::AtomicRMWBinOp::Xchg,
            lock,
            i32t.const_zero(),
            monotonic,
        )?;
    }
    b.build_return(None)?;
    Ok(f)
}

/// The device functions `critical` constructs call.
pub const CRITICAL_ENTER: &str = "__ptxcc_critical_enter";
pub const CRITICAL_EXIT: &str = "__ptxcc_critical_exit";

/// Lowers every call of a known OpenMP routine or complex helper. Returns how many calls were lowered.
pub fn lower_builtins(device: &Module<'_>) -> anyhow::Result<usize> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    let mut count = 0;
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            if let Some((div, _double)) = complex_helper(&name) {
                b.position_before(&call);
                let v = complex_arith(device, &b, call, div)?;
                ir::replace_and_erase(call, v);
                count += 1;
                continue;
            }
            let Some(l) = lowering(&name) else { continue };
            b.position_before(&call);
            // In a worker whose vector loops use the lanes, and in those loops, the thread's
            // number and count are those of its level (see thread_space).
            let space = Space::of(f);
            let v = match l {
                Lowering::Reg(SReg::TidX) if space != Space::Block => {
                    space.id_and_count(device, &b)?.0
                }
                Lowering::Reg(SReg::NtidX)
                    if space != Space::Block && name.starts_with("omp_get_num_threads") =>
                {
                    space.id_and_count(device, &b)?.1
                }
                Lowering::Reg(r) => nvvm::read_sreg(device, &b, r)?,
                Lowering::Const(c) => ctx.i32_type().const_int(c, false),
                Lowering::DeviceNum => crate::device_number::load(device, &b)?,
                // The code of a target or teams region outside its parallel regions: every
                // thread of the block runs it, on behalf of the team's one initial thread.
                Lowering::InParallel if space == Space::Team => ctx.i32_type().const_zero(),
                Lowering::InParallel => {
                    let n = nvvm::read_sreg(device, &b, SReg::NtidX)?;
                    let gt = b.build_int_compare(
                        inkwell::IntPredicate::UGT,
                        n,
                        ctx.i32_type().const_int(1, false),
                        "",
                    )?;
                    b.build_int_z_extend(gt, ctx.i32_type(), "")?
                }
                Lowering::ThreadIs0 | Lowering::ThreadIsFilter => {
                    let id = space.id_and_count(device, &b)?.0;
                    let wanted = match l {
                        Lowering::ThreadIsFilter => ir::call_args(call)
                            .get(2)
                            .filter(|v| v.is_int_value())
                            .map(|v| v.into_int_value())
                            .ok_or_else(|| {
                                anyhow::anyhow!("__kmpc_masked without a filter argument")
                            })?,
                        _ => ctx.i32_type().const_zero(),
                    };
                    let is =
                        b.build_int_compare(inkwell::IntPredicate::EQ, id, wanted, "ptxcc.chosen")?;
                    b.build_int_z_extend(is, ctx.i32_type(), "")?
                }
                Lowering::CriticalEnter | Lowering::CriticalExit => {
                    let lock = ir::call_args(call)
                        .get(2)
                        .filter(|v| v.is_pointer_value())
                        .map(|v| v.into_pointer_value())
                        .ok_or_else(|| anyhow::anyhow!("{name} without a lock argument"))?;
                    let helper = critical_helper(device, matches!(l, Lowering::CriticalEnter))?;
                    let new = b.build_call(helper, &[lock.into()], "")?;
                    if let Some(inst) = new.try_as_basic_value().instruction() {
                        inst.set_debug_location(call.get_debug_location());
                    }
                    ir::erase(call);
                    count += 1;
                    continue;
                }
                Lowering::Nothing | Lowering::Fence => {
                    if matches!(l, Lowering::Fence) {
                        // NVPTX in LLVM 19 selects no `fence`; membar.sys is what a flush needs
                        // (the emulator makes it a fence).
                        let membar = inkwell::intrinsics::Intrinsic::find("llvm.nvvm.membar.sys")
                            .and_then(|i| i.get_declaration(device, &[]))
                            .ok_or_else(|| {
                                anyhow::anyhow!("LLVM does not know llvm.nvvm.membar.sys")
                            })?;
                        b.build_call(membar, &[], "")?;
                    }
                    ir::erase(call);
                    count += 1;
                    continue;
                }
                Lowering::OnDevice => {
                    let Some(t) = ir::call_args(call)
                        .first()
                        .filter(|a| a.is_int_value())
                        .map(|a| a.into_int_value())
                    else {
                        anyhow::bail!("acc_on_device called without an integer argument");
                    };
                    let ty = t.get_type();
                    let not_host = b.build_int_compare(
                        inkwell::IntPredicate::EQ,
                        t,
                        ty.const_int(ACC_DEVICE_NOT_HOST, false),
                        "",
                    )?;
                    let nvidia = b.build_int_compare(
                        inkwell::IntPredicate::EQ,
                        t,
                        ty.const_int(ACC_DEVICE_NVIDIA, false),
                        "",
                    )?;
                    let on = b.build_or(not_host, nvidia, "ptxcc.on_device")?;
                    b.build_int_z_extend(on, ctx.i32_type(), "")?
                }
            };
            ir::replace_and_erase(call, v.as_value_ref());
            count += 1;
        }
    }
    ir::delete_unused_functions(device, |f| {
        let name = ir::fn_name(f);
        lowering(&name).is_some()
            || (f.count_basic_blocks() == 0 && complex_helper(&name).is_some())
    });
    Ok(count)
}
