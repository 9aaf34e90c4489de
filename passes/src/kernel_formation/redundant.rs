//! Code that several threads run redundantly: the target and teams levels in every thread of
//! the block (SPMD mode), and a worker whose vector loops use the lanes of its warp in every
//! lane of the warp. Such code may compute and keep locals (every thread has the same copies);
//! its writes to memory are made by thread 0 (lane 0) alone, followed by a barrier, and so are
//! the team code's calls of sequential device functions that write memory (`guard_call`);
//! other calls with unknown effects and atomics there are refused.
use super::{region_runtime_call, FORK_CALL, FORK_TEAMS};
use crate::diagnostics::{Diagnostic, SourceLoc};
use crate::ir;
use crate::openmp;
use crate::reductions;
use crate::thread_space::Space;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, InstructionOpcode, InstructionValue};
use llvm_sys::core as llvm;

/// Code outside the parallel region runs in every thread in SPMD mode. It may compute and keep
/// locals (every thread has the same copies); its writes to memory are made by thread 0 only
/// (see `guard_stores`); with `leader_calls`, so are its calls of sequential functions that
/// write memory (see `guard_call`); anything else (other calls with unknown effects, atomics)
/// is refused. Returns the stores, memory intrinsics and calls to guard.
pub(super) fn check_redundant_code<'ctx>(
    f: FunctionValue<'ctx>,
    same_level: &[FunctionValue<'ctx>],
    kernel_loc: &Option<SourceLoc>,
    leader_calls: bool,
) -> Result<Vec<InstructionValue<'ctx>>, Vec<Obstacle>> {
    let mut obstacles = Vec::new();
    let mut to_guard = Vec::new();
    // clang's reduction combine branches run only where the reduction lowering lets them.
    let combine: std::collections::HashSet<_> = ir::calls(f)
        .into_iter()
        .filter(|(_, n)| n.starts_with("__kmpc_reduce"))
        .flat_map(|(c, _)| reductions::combine_blocks(c))
        .collect();
    let mut report = |inst: InstructionValue<'_>, what: String| {
        obstacles.push(Obstacle { loc: openmp::debug_loc(inst).or_else(|| kernel_loc.clone()), what });
    };
    for inst in ir::instructions(f) {
        if inst.get_parent().map(|b| combine.contains(&b.as_mut_ptr())).unwrap_or(false) {
            continue;
        }
        match inst.get_opcode() {
            InstructionOpcode::Store => {
                if !ir::points_to_local(ir::call_arg_raw(inst, 1)) {
                    to_guard.push(inst);
                }
            }
            InstructionOpcode::AtomicRMW | InstructionOpcode::AtomicCmpXchg => report(inst, "an atomic update".into()),
            InstructionOpcode::Call | InstructionOpcode::Invoke => match ir::callee_name(inst) {
                Some(n) if allowed_in_redundant_code(&n) => {}
                Some(_) if ir::called_function(inst).map(|c| same_level.contains(&c)).unwrap_or(false) => {}
                Some(n) if n.starts_with("llvm.memcpy") || n.starts_with("llvm.memset") || n.starts_with("llvm.memmove") => {
                    if !ir::points_to_local(ir::call_arg_raw(inst, 0)) {
                        to_guard.push(inst);
                    }
                }
                Some(n) if n.starts_with("llvm.") => {}
                Some(n) if crate::device_builtins::is_query(&n) => {}
                Some(_) if is_pure_call(inst, 0) => {}
                Some(_) if leader_calls && can_call_by_leader(inst) => to_guard.push(inst),
                Some(n) => report(inst, format!("a call to '{n}'")),
                None => report(inst, "an indirect call".into()),
            },
            _ => {}
        }
    }
    if obstacles.is_empty() {
        Ok(to_guard)
    } else {
        Err(obstacles)
    }
}

/// What keeps code from running redundantly in several threads, and where.
pub(super) struct Obstacle {
    pub(super) loc: Option<SourceLoc>,
    pub(super) what: String,
}

impl Obstacle {
    /// The error for team code (worker code with an obstacle keeps one thread per worker).
    pub(super) fn diagnostic(self) -> Diagnostic {
        let what = self.what;
        Diagnostic {
            loc: self.loc,
            message: format!(
                "ptxcc does not support {what} between 'target teams' and its parallel loop; \
                 move it into the loop or use a combined 'target teams distribute parallel for'"
            ),
        }
    }
}

/// Calls allowed in the code every thread runs redundantly, besides pure ones.
fn allowed_in_redundant_code(name: &str) -> bool {
    name == FORK_CALL
        || name == FORK_TEAMS
        || region_runtime_call(name)
        || name.starts_with("llvm.lifetime.")
        || name.starts_with("llvm.dbg.")
        || name.starts_with("llvm.smin")
        || name.starts_with("llvm.smax")
        || name.starts_with("llvm.umin")
        || name.starts_with("llvm.umax")
}

/// Whether a call only computes its result: a C math function (libclc's and the host libm's
/// have no effect the device could see: no errno there), or a defined function whose stores
/// all go to its own locals and whose calls are such calls.
fn is_pure_call(call: InstructionValue<'_>, depth: u32) -> bool {
    let Some(callee) = ir::called_function(call) else { return false };
    if callee.count_basic_blocks() == 0 {
        return crate::math_library::libclc_name_for(&ir::fn_name(callee)).is_some();
    }
    if depth > 8 {
        return false;
    }
    ir::instructions(callee).into_iter().all(|inst| match inst.get_opcode() {
        InstructionOpcode::Store => ir::points_to_local(ir::call_arg_raw(inst, 1)),
        InstructionOpcode::AtomicRMW | InstructionOpcode::AtomicCmpXchg | InstructionOpcode::Invoke => false,
        InstructionOpcode::Call => match ir::callee_name(inst) {
            Some(n) if n.starts_with("llvm.memcpy") || n.starts_with("llvm.memset") || n.starts_with("llvm.memmove") => {
                ir::points_to_local(ir::call_arg_raw(inst, 0))
            }
            Some(n) if n.starts_with("llvm.") => true,
            Some(_) => is_pure_call(inst, depth + 1),
            None => false,
        },
        _ => true,
    })
}

/// Whether thread 0 may make `call` for every thread of the redundant code (`guard_call`): the
/// callee is compiled for the device and sequential (no barrier, no parallel region, no OpenMP
/// runtime call, in it or what it calls), and each argument that may point to a local of the
/// calling thread points into one local of constant size, which `guard_call` copies from
/// thread 0 to the others after the call (locals the threads share are in shared memory by
/// now, no longer locals).
fn can_call_by_leader(call: InstructionValue<'_>) -> bool {
    let Some(callee) = ir::called_function(call) else { return false };
    if callee.count_basic_blocks() == 0 || !sequential_function(callee, 0) {
        return false;
    }
    local_arguments(call).is_some()
}

/// The locals (`alloca`s of constant size) the pointer arguments of `call` point into; None
/// when one may point to a local that is not known.
fn local_arguments(call: InstructionValue<'_>) -> Option<Vec<llvm_sys::prelude::LLVMValueRef>> {
    let n = unsafe { llvm::LLVMGetNumArgOperands(call.as_value_ref()) };
    let mut out = Vec::new();
    for i in 0..n {
        let arg = ir::call_arg_raw(call, i);
        if !may_point_to_local(arg) {
            continue;
        }
        let a = super::shared_locals::root_alloca(arg)?;
        if unsafe { ir::const_int(llvm::LLVMGetOperand(a, 0)) } != Some(1) {
            return None;
        }
        if !out.contains(&a) {
            out.push(a);
        }
    }
    Some(out)
}

/// A function one thread can run alone: it and what it calls hold no barrier, fork or other
/// OpenMP runtime call, and no call through a pointer.
fn sequential_function(f: FunctionValue<'_>, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    ir::instructions(f).into_iter().all(|inst| match inst.get_opcode() {
        InstructionOpcode::Invoke => false,
        InstructionOpcode::Call => match (ir::callee_name(inst), ir::called_function(inst)) {
            (Some(n), _) if n.starts_with("llvm.nvvm.barrier") || n.starts_with("llvm.nvvm.bar.") => false,
            (Some(n), _) if n.starts_with("llvm.") => true,
            (Some(n), _) if n.starts_with("__kmpc_") || n.starts_with("omp_") && !crate::device_builtins::is_query(&n) => false,
            (Some(_), Some(c)) if c.count_basic_blocks() > 0 => sequential_function(c, depth + 1),
            (Some(n), _) => crate::math_library::libclc_name_for(&n).is_some() || crate::device_builtins::is_query(&n),
            (None, _) => false,
        },
        _ => true,
    })
}

/// Whether a pointer may point into a local (`alloca`) of the function: through GEPs, casts,
/// phis, selects and reloads of private slots (as `ir::points_to_local`, but any path counts).
fn may_point_to_local(v: llvm_sys::prelude::LLVMValueRef) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![v];
    unsafe {
        while let Some(v) = work.pop() {
            if !seen.insert(v) || llvm::LLVMGetTypeKind(llvm::LLVMTypeOf(v)) != llvm_sys::LLVMTypeKind::LLVMPointerTypeKind {
                continue;
            }
            if seen.len() > 256 || !llvm::LLVMIsAAllocaInst(v).is_null() {
                return true;
            }
            if !llvm::LLVMIsAGetElementPtrInst(v).is_null()
                || !llvm::LLVMIsABitCastInst(v).is_null()
                || !llvm::LLVMIsAAddrSpaceCastInst(v).is_null()
            {
                work.push(llvm::LLVMGetOperand(v, 0));
            } else if !llvm::LLVMIsAPHINode(v).is_null() {
                for i in 0..llvm::LLVMCountIncoming(v) {
                    work.push(llvm::LLVMGetIncomingValue(v, i));
                }
            } else if !llvm::LLVMIsASelectInst(v).is_null() {
                work.push(llvm::LLVMGetOperand(v, 1));
                work.push(llvm::LLVMGetOperand(v, 2));
            } else if !llvm::LLVMIsALoadInst(v).is_null() {
                if let Some(stored) = ir::slot_values(llvm::LLVMGetOperand(v, 0)) {
                    work.extend(stored);
                }
            } else if !llvm::LLVMIsAConstantExpr(v).is_null() {
                work.push(llvm::LLVMGetOperand(v, 0));
            }
        }
    }
    false
}

/// Makes thread 0 alone make `call` (a call of the redundant code to a sequential function
/// that writes memory, `can_call_by_leader`), then synchronises the block; a result the code
/// uses, and the locals the call's arguments point into, reach every thread through
/// shared-memory slots (read between two barriers, so that thread 0 cannot fill them again,
/// in a loop, before every thread has read them):
///
/// ```llvm
///   %r = call i32 @f(ptr %p)       →     %ptxcc.leader = icmp eq i32 %tid.x, 0
///   ... use %r                           br i1 %ptxcc.leader, label %ptxcc.call, label %rest
///                                      ptxcc.call:
///                                        %r = call i32 @f(ptr %p)
///                                        store i32 %r, ptr addrspace(3) @__ptxcc.call.f
///                                        br label %rest
///                                      rest:
///                                        call void @llvm.nvvm.barrier0()
///                                        %ptxcc.result = load i32, ptr addrspace(3) @__ptxcc.call.f
///                                        call void @llvm.nvvm.barrier0()
///                                        ... use %ptxcc.result
/// ```
///
/// The branch rejoins before the barrier, so every thread still reaches it.
fn guard_call(device: &Module<'_>, call: InstructionValue<'_>, space: Space) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    let bb = call.get_parent().ok_or_else(|| anyhow::anyhow!("call outside a block"))?;
    let name = ir::callee_name(call).unwrap_or_default();
    unsafe {
        use llvm_sys::core::*;
        let c = LLVMGetModuleContext(device.as_mut_ptr());
        let bbv = bb.as_mut_ptr();
        // head: what comes before the call (predecessors now branch here); the call gets a
        // block of its own; the original block keeps the rest.
        let head = LLVMInsertBasicBlockInContext(c, bbv, c"ptxcc.head".as_ptr());
        LLVMReplaceAllUsesWith(LLVMBasicBlockAsValue(bbv), LLVMBasicBlockAsValue(head));
        let call_bb = LLVMInsertBasicBlockInContext(c, bbv, c"ptxcc.call".as_ptr());
        let raw = b.as_mut_ptr();
        let mut inst = LLVMGetFirstInstruction(bbv);
        while !inst.is_null() && inst != call.as_value_ref() {
            let next = LLVMGetNextInstruction(inst);
            LLVMInstructionRemoveFromParent(inst);
            LLVMPositionBuilderAtEnd(raw, head);
            LLVMInsertIntoBuilder(raw, inst);
            inst = next;
        }
        LLVMInstructionRemoveFromParent(call.as_value_ref());
        LLVMPositionBuilderAtEnd(raw, call_bb);
        LLVMInsertIntoBuilder(raw, call.as_value_ref());
        // (inkwell's own positioning: its builder refuses to build at a position it did not set.)
        let at_end = |block| inkwell::basic_block::BasicBlock::new(block).ok_or_else(|| anyhow::anyhow!("no block"));
        b.position_at_end(at_end(head)?);
        let leader = space.is_leader(device, &b)?;
        LLVMBuildCondBr(raw, leader.as_value_ref(), call_bb, bbv);
        // The rest starts with the barrier, then reads the result.
        let first = LLVMGetFirstInstruction(bbv);
        if first.is_null() {
            anyhow::bail!("call at the end of a block");
        }
        b.position_before(&InstructionValue::new(first));
        space.sync(device, &b)?;
        let ty = LLVMTypeOf(call.as_value_ref());
        let used = !LLVMGetFirstUse(call.as_value_ref()).is_null();
        let slot = if used && LLVMGetTypeKind(ty) != llvm_sys::LLVMTypeKind::LLVMVoidTypeKind {
            let slot_name = std::ffi::CString::new(format!("__ptxcc.call.{name}")).unwrap_or_default();
            let slot = super::shared_locals::add_shared_global(device, ty, &slot_name, 8);
            let result = LLVMBuildLoad2(raw, ty, slot, c"ptxcc.result".as_ptr());
            LLVMReplaceAllUsesWith(call.as_value_ref(), result);
            Some(slot)
        } else {
            None
        };
        // The locals the call wrote in thread 0: copied to a slot there, back from it everywhere.
        let td = llvm_sys::target::LLVMGetModuleDataLayout(device.as_mut_ptr());
        let i64t = LLVMInt64TypeInContext(c);
        let mut locals = Vec::new();
        for a in local_arguments(call).unwrap_or_default() {
            let aty = LLVMGetAllocatedType(a);
            let bytes = LLVMConstInt(i64t, llvm_sys::target::LLVMABISizeOfType(td, aty), 0);
            let slot_name = std::ffi::CString::new(format!("__ptxcc.call.{name}.{}", ir::value_name(a))).unwrap_or_default();
            let slot = super::shared_locals::add_shared_global(device, aty, &slot_name, 8);
            LLVMBuildMemCpy(raw, a, 8.min(LLVMGetAlignment(a)), slot, 8, bytes);
            locals.push((a, slot, bytes));
        }
        if slot.is_some() || !locals.is_empty() {
            space.sync(device, &b)?;
        }
        b.position_at_end(at_end(call_bb)?);
        if let Some(slot) = slot {
            LLVMBuildStore(raw, call.as_value_ref(), slot);
        }
        for (a, slot, bytes) in locals {
            LLVMBuildMemCpy(raw, slot, 8, a, 8.min(LLVMGetAlignment(a)), bytes);
        }
        LLVMBuildBr(raw, bbv);
    }
    Ok(())
}

/// Makes thread 0 the only thread whose store reaches memory, then synchronises the block so
/// every thread sees it (for worker code in `Space::Warps`: lane 0 and the warp):
///
/// ```llvm
/// store double %s, ptr %y.i          →   %ptxcc.leader = icmp eq i32 %tid.x, 0
///                                        %ptxcc.dst = select i1 %ptxcc.leader, ptr %y.i, ptr %ptxcc.sink
///                                        store double %s, ptr %ptxcc.dst
///                                        call void @llvm.nvvm.barrier0()
/// ```
///
/// (A select instead of a branch keeps the control flow, which must stay the same in every
/// thread for the barrier, untouched.) Memory intrinsics get a zero length instead.
pub(super) fn guard_stores(device: &Module<'_>, stores: &[InstructionValue<'_>], space: Space) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    for inst in stores {
        let is_mem_intrinsic = ir::callee_name(*inst).is_some_and(|n| n.starts_with("llvm.mem"));
        if inst.get_opcode() == InstructionOpcode::Call && !is_mem_intrinsic {
            guard_call(device, *inst, space)?;
            continue;
        }
        let f = inst.get_parent().and_then(|bb| bb.get_parent()).ok_or_else(|| anyhow::anyhow!("store outside a function"))?;
        b.position_before(inst);
        let first = space.is_leader(device, &b)?;
        if inst.get_opcode() == InstructionOpcode::Store {
            let value_ty = unsafe { llvm::LLVMTypeOf(ir::call_arg_raw(*inst, 0)) };
            let entry = f.get_first_basic_block().ok_or_else(|| anyhow::anyhow!("no entry block"))?;
            let eb = ctx.create_builder();
            match entry.get_first_instruction() {
                Some(i) => eb.position_before(&i),
                None => eb.position_at_end(entry),
            }
            let sink = unsafe {
                llvm::LLVMBuildAlloca(eb.as_mut_ptr(), value_ty, c"ptxcc.sink".as_ptr())
            };
            let dst = unsafe {
                llvm::LLVMBuildSelect(b.as_mut_ptr(), first.as_value_ref(), ir::call_arg_raw(*inst, 1), sink, c"ptxcc.dst".as_ptr())
            };
            unsafe { llvm::LLVMSetOperand(inst.as_value_ref(), 1, dst) };
        } else {
            // llvm.mem{cpy,move,set}(dst, src|val, len, volatile): length 0 outside thread 0.
            let len = ir::call_arg_raw(*inst, 2);
            let zero = unsafe { llvm::LLVMConstNull(llvm::LLVMTypeOf(len)) };
            let guarded = unsafe { llvm::LLVMBuildSelect(b.as_mut_ptr(), first.as_value_ref(), len, zero, c"ptxcc.len".as_ptr()) };
            unsafe { llvm::LLVMSetOperand(inst.as_value_ref(), 2, guarded) };
        }
        match inst.get_next_instruction() {
            Some(next) => b.position_before(&next),
            None => anyhow::bail!("store at the end of a block"),
        }
        space.sync(device, &b)?;
    }
    Ok(())
}
