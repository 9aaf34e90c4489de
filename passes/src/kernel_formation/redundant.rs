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

/// Whose code runs redundantly. Thread 0 of a team makes the team code's atomic updates and
/// its calls of sequential functions that write memory, and the other threads take its
/// results; a worker's code, whose lanes would each need a slot of shared memory per warp for
/// those results, keeps one thread per worker instead.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Team,
    Worker,
}

/// Code outside the parallel region runs in every thread in SPMD mode. It may compute and keep
/// locals (every thread has the same copies); its writes to memory are made by thread 0 only
/// (see `guard_stores`), and so, in the team's code (`Level::Team`), are its atomic updates and
/// its calls of sequential functions that write memory (see `guard_call`), the other threads
/// taking thread 0's results; anything else (other calls with unknown effects) is refused.
/// Returns the stores, memory intrinsics, atomics and calls to guard.
pub(super) fn check_redundant_code<'ctx>(
    f: FunctionValue<'ctx>,
    same_level: &[FunctionValue<'ctx>],
    kernel_loc: &Option<SourceLoc>,
    level: Level,
) -> Result<Vec<InstructionValue<'ctx>>, Vec<Obstacle>> {
    let mut obstacles = Vec::new();
    let mut to_guard = Vec::new();
    // clang's reduction combine branches run only where the reduction lowering lets them.
    let combine: std::collections::HashSet<_> = ir::calls(f)
        .into_iter()
        .filter(|(_, n)| n.starts_with("__kmpc_reduce"))
        .flat_map(|(c, _)| reductions::combine_blocks(c))
        .collect();
    let report = |obstacles: &mut Vec<Obstacle>, inst: InstructionValue<'_>, what: String| {
        obstacles.push(Obstacle {
            loc: openmp::debug_loc(inst).or_else(|| kernel_loc.clone()),
            what,
            construct: false,
        });
    };
    for inst in ir::instructions(f) {
        if inst
            .get_parent()
            .map(|b| combine.contains(&b.as_mut_ptr()))
            .unwrap_or(false)
        {
            continue;
        }
        match inst.get_opcode() {
            InstructionOpcode::Store if !ir::points_to_local(ir::call_arg_raw(inst, 1)) => {
                to_guard.push(inst);
            }
            InstructionOpcode::AtomicRMW | InstructionOpcode::AtomicCmpXchg
                if level == Level::Team && !ir::points_to_local(ir::call_arg_raw(inst, 0)) =>
            {
                to_guard.push(inst);
            }
            InstructionOpcode::AtomicRMW | InstructionOpcode::AtomicCmpXchg => {
                report(&mut obstacles, inst, "an atomic update".into())
            }
            InstructionOpcode::Call | InstructionOpcode::Invoke => match ir::callee_name(inst) {
                Some(n) if allowed_in_redundant_code(&n) => {}
                Some(_)
                    if ir::called_function(inst)
                        .map(|c| same_level.contains(&c))
                        .unwrap_or(false) => {}
                Some(n)
                    if n.starts_with("llvm.memcpy")
                        || n.starts_with("llvm.memset")
                        || n.starts_with("llvm.memmove") =>
                {
                    if !ir::points_to_local(ir::call_arg_raw(inst, 0)) {
                        to_guard.push(inst);
                    }
                }
                Some(n) if n.starts_with("llvm.") => {}
                Some(n) if crate::device_builtins::is_query(&n) => {}
                // Printed once, by the thread whose stores reach memory (see guard_stores).
                Some(n) if n == PRINTF => to_guard.push(inst),
                Some(_) if is_pure_call(inst, 0) => {}
                Some(_) if level == Level::Team && can_call_by_leader(inst) => to_guard.push(inst),
                Some(n) if crate::device_check::is_construct_end(&n) => {}
                Some(n) => match crate::device_check::construct_of(&n) {
                    // An OpenMP construct ptxcc does not support anywhere in a target region.
                    Some(construct) => obstacles.push(Obstacle {
                        loc: openmp::call_loc(inst).or_else(|| kernel_loc.clone()),
                        what: construct.to_string(),
                        construct: true,
                    }),
                    None => report(&mut obstacles, inst, format!("a call to '{n}'")),
                },
                None => report(&mut obstacles, inst, "an indirect call".into()),
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
    /// `what` is an OpenMP construct ptxcc supports nowhere in a target region (as
    /// `device_check` words it), not something team code alone cannot do.
    pub(super) construct: bool,
}

impl Obstacle {
    /// The error for team code (worker code with an obstacle keeps one thread per worker);
    /// `serialised`: the code of a parallel region its if clause serialises, which runs as
    /// team code.
    pub(super) fn diagnostic(self, serialised: bool) -> Diagnostic {
        let what = self.what;
        let message = if self.construct {
            format!("ptxcc does not support {what} yet")
        } else if serialised {
            format!(
                "ptxcc does not support {what} in a 'parallel' region serialised by its if clause in a target region \
                 (ptxcc runs such a region in every thread of the block, as the team's code); move it out of the region \
                 or drop the if clause (if(target: ...) only decides where the region runs)"
            )
        } else {
            format!(
                "ptxcc does not support {what} between 'target teams' and its parallel loop; \
                 move it into the loop or use a combined 'target teams distribute parallel for'"
            )
        };
        Diagnostic {
            loc: self.loc,
            message,
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
        // A failed assert() stops every thread that runs it: they all see the same values.
        || name == crate::device_libc::ASSERT_FAIL
}

/// Whether a call only computes its result: a C math function (libclc's and the host libm's
/// have no effect the device could see: no errno there), or a defined function whose stores
/// all go to its own locals and whose calls are such calls.
fn is_pure_call(call: InstructionValue<'_>, depth: u32) -> bool {
    let Some(callee) = ir::called_function(call) else {
        return false;
    };
    if callee.count_basic_blocks() == 0 {
        return crate::math_library::provides(&ir::fn_name(callee));
    }
    if depth > 8 {
        return false;
    }
    ir::instructions(callee)
        .into_iter()
        .all(|inst| match inst.get_opcode() {
            InstructionOpcode::Store => ir::points_to_local(ir::call_arg_raw(inst, 1)),
            InstructionOpcode::AtomicRMW
            | InstructionOpcode::AtomicCmpXchg
            | InstructionOpcode::Invoke => false,
            InstructionOpcode::Call => match ir::callee_name(inst) {
                Some(n)
                    if n.starts_with("llvm.memcpy")
                        || n.starts_with("llvm.memset")
                        || n.starts_with("llvm.memmove") =>
                {
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
    let Some(callee) = ir::called_function(call) else {
        return false;
    };
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
        if !ir::may_point_to_local(arg) {
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
    ir::instructions(f)
        .into_iter()
        .all(|inst| match inst.get_opcode() {
            InstructionOpcode::Invoke => false,
            InstructionOpcode::Call => match (ir::callee_name(inst), ir::called_function(inst)) {
                (Some(n), _)
                    if n.starts_with("llvm.nvvm.barrier") || n.starts_with("llvm.nvvm.bar.") =>
                {
                    false
                }
                (Some(n), _) if n.starts_with("llvm.") => true,
                (Some(n), _)
                    if n.starts_with("__kmpc_")
                        || n.starts_with("omp_") && !crate::device_builtins::is_query(&n) =>
                {
                    false
                }
                (Some(_), Some(c)) if c.count_basic_blocks() > 0 => {
                    sequential_function(c, depth + 1)
                }
                (Some(n), _) => {
                    crate::math_library::libclc_name_for(&n).is_some()
                        || crate::device_builtins::is_query(&n)
                }
                (None, _) => false,
            },
            _ => true,
        })
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
    let bb = call
        .get_parent()
        .ok_or_else(|| anyhow::anyhow!("call outside a block"))?;
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
        let at_end = |block| {
            inkwell::basic_block::BasicBlock::new(block).ok_or_else(|| anyhow::anyhow!("no block"))
        };
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
            let slot_name =
                std::ffi::CString::new(format!("__ptxcc.call.{name}")).unwrap_or_default();
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
            let slot_name =
                std::ffi::CString::new(format!("__ptxcc.call.{name}.{}", ir::value_name(a)))
                    .unwrap_or_default();
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
/// thread for the barrier, untouched.) Memory intrinsics get a zero length instead, and a
/// `printf` an empty format. An atomic update of the team's code (`Space::Block` only) goes
/// to a word of shared memory outside thread 0, and every thread takes thread 0's result, so
/// that what the code computes from it, and its control flow, stay the same in every thread:
///
/// ```llvm
/// %old = atomicrmw add ptr %n, i32 1 monotonic
///   →  %ptxcc.dst = select i1 %ptxcc.leader, ptr %n, ptr addrspacecast (@__ptxcc.atomic_sink)
///      %old = atomicrmw add ptr %ptxcc.dst, i32 1 monotonic
///      store i32 %old, ptr (select i1 %ptxcc.leader, @__ptxcc.atomic_result, %ptxcc.sink)
///      call void @llvm.nvvm.barrier0()
///      %ptxcc.atomic = load i32, ptr addrspacecast (@__ptxcc.atomic_result)   ; replaces %old
///      call void @llvm.nvvm.barrier0()
/// ```
pub(super) fn guard_stores(
    device: &Module<'_>,
    stores: &[InstructionValue<'_>],
    space: Space,
) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    for inst in stores {
        let callee = ir::callee_name(*inst);
        let is_mem_intrinsic = callee.as_deref().is_some_and(|n| n.starts_with("llvm.mem"));
        // printf is guarded by its format (below); other calls are sequential functions.
        if inst.get_opcode() == InstructionOpcode::Call
            && !is_mem_intrinsic
            && callee.as_deref() != Some(PRINTF)
        {
            guard_call(device, *inst, space)?;
            continue;
        }
        let f = inst
            .get_parent()
            .and_then(|bb| bb.get_parent())
            .ok_or_else(|| anyhow::anyhow!("store outside a function"))?;
        b.position_before(inst);
        let first = space.is_leader(device, &b)?;
        if inst.get_opcode() == InstructionOpcode::Store {
            let value_ty = unsafe { llvm::LLVMTypeOf(ir::call_arg_raw(*inst, 0)) };
            let entry = f
                .get_first_basic_block()
                .ok_or_else(|| anyhow::anyhow!("no entry block"))?;
            let eb = ctx.create_builder();
            match entry.get_first_instruction() {
                Some(i) => eb.position_before(&i),
                None => eb.position_at_end(entry),
            }
            let sink =
                unsafe { llvm::LLVMBuildAlloca(eb.as_mut_ptr(), value_ty, c"ptxcc.sink".as_ptr()) };
            let dst = unsafe {
                llvm::LLVMBuildSelect(
                    b.as_mut_ptr(),
                    first.as_value_ref(),
                    ir::call_arg_raw(*inst, 1),
                    sink,
                    c"ptxcc.dst".as_ptr(),
                )
            };
            unsafe { llvm::LLVMSetOperand(inst.as_value_ref(), 1, dst) };
        } else if matches!(
            inst.get_opcode(),
            InstructionOpcode::AtomicRMW | InstructionOpcode::AtomicCmpXchg
        ) {
            if !matches!(space, Space::Block | Space::Team) {
                anyhow::bail!("an atomic update of code run redundantly by the lanes of a warp");
            }
            guard_atomic(device, f, *inst, first)?;
            continue;
        } else if ir::callee_name(*inst).as_deref() == Some(PRINTF) {
            // printf(format, ...): an empty format, which prints nothing, outside thread 0.
            let empty = empty_string(device);
            let format = ir::call_arg_raw(*inst, 0);
            let guarded = unsafe {
                llvm::LLVMBuildSelect(
                    b.as_mut_ptr(),
                    first.as_value_ref(),
                    format,
                    empty,
                    c"ptxcc.format".as_ptr(),
                )
            };
            unsafe { llvm::LLVMSetOperand(inst.as_value_ref(), 0, guarded) };
        } else {
            // llvm.mem{cpy,move,set}(dst, src|val, len, volatile): length 0 outside thread 0.
            let len = ir::call_arg_raw(*inst, 2);
            let zero = unsafe { llvm::LLVMConstNull(llvm::LLVMTypeOf(len)) };
            let guarded = unsafe {
                llvm::LLVMBuildSelect(
                    b.as_mut_ptr(),
                    first.as_value_ref(),
                    len,
                    zero,
                    c"ptxcc.len".as_ptr(),
                )
            };
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

/// Bytes of the shared-memory words of guarded atomics (the largest cmpxchg result, `{ i128, i1 }`).
const ATOMIC_SLOT_BYTES: u64 = 32;

/// The atomic update `inst` of team code made by thread 0 alone, its result given to every
/// thread (see `guard_stores`), then the block synchronised.
fn guard_atomic(
    device: &Module<'_>,
    f: FunctionValue<'_>,
    inst: InstructionValue<'_>,
    first: inkwell::values::IntValue<'_>,
) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    b.position_before(&inst);
    let sink = shared_slot(device, "__ptxcc.atomic_sink");
    let dst = unsafe {
        llvm::LLVMBuildSelect(
            b.as_mut_ptr(),
            first.as_value_ref(),
            ir::call_arg_raw(inst, 0),
            sink,
            c"ptxcc.dst".as_ptr(),
        )
    };
    unsafe { llvm::LLVMSetOperand(inst.as_value_ref(), 0, dst) };
    let next = inst
        .get_next_instruction()
        .ok_or_else(|| anyhow::anyhow!("atomic update at the end of a block"))?;
    b.position_before(&next);
    let v = inst.as_value_ref();
    let users = ir::users(v);
    if !users.is_empty() {
        let ty = unsafe { llvm::LLVMTypeOf(v) };
        let slot = shared_slot(device, "__ptxcc.atomic_result");
        let entry = f
            .get_first_basic_block()
            .ok_or_else(|| anyhow::anyhow!("no entry block"))?;
        let eb = ctx.create_builder();
        match entry.get_first_instruction() {
            Some(i) => eb.position_before(&i),
            None => eb.position_at_end(entry),
        }
        unsafe {
            let local = llvm::LLVMBuildAlloca(eb.as_mut_ptr(), ty, c"ptxcc.sink".as_ptr());
            let to = llvm::LLVMBuildSelect(
                b.as_mut_ptr(),
                first.as_value_ref(),
                slot,
                local,
                c"ptxcc.dst".as_ptr(),
            );
            llvm::LLVMBuildStore(b.as_mut_ptr(), v, to);
        }
        crate::nvvm::barrier(device, &b)?;
        let broadcast =
            unsafe { llvm::LLVMBuildLoad2(b.as_mut_ptr(), ty, slot, c"ptxcc.atomic".as_ptr()) };
        // The result's uses (found before the store of it was added) read thread 0's.
        for u in users {
            unsafe {
                for i in 0..llvm::LLVMGetNumOperands(u).max(0) as u32 {
                    if llvm::LLVMGetOperand(u, i) == v {
                        llvm::LLVMSetOperand(u, i, broadcast);
                    }
                }
            }
        }
    }
    // No thread writes the slot again before every thread has read it.
    crate::nvvm::barrier(device, &b)?;
    Ok(())
}

/// A generic pointer to the `ATOMIC_SLOT_BYTES` of block shared memory named `name`.
fn shared_slot(device: &Module<'_>, name: &str) -> llvm_sys::prelude::LLVMValueRef {
    let ctx = device.get_context();
    let g = match device.get_global(name) {
        Some(g) => g,
        None => {
            let ty = ctx.i64_type().array_type((ATOMIC_SLOT_BYTES / 8) as u32);
            let g = device.add_global(ty, Some(inkwell::AddressSpace::from(3u16)), name);
            g.set_initializer(&ty.get_poison());
            g.set_linkage(inkwell::module::Linkage::Internal);
            g.set_alignment(16);
            g
        }
    };
    unsafe {
        llvm::LLVMConstAddrSpaceCast(
            g.as_value_ref(),
            inkwell::types::AsTypeRef::as_type_ref(&ctx.ptr_type(inkwell::AddressSpace::default())),
        )
    }
}

/// C's printf: code run redundantly prints from one thread.
const PRINTF: &str = "printf";

/// `""`, for the printf calls of the threads that must not print.
fn empty_string(device: &Module<'_>) -> llvm_sys::prelude::LLVMValueRef {
    const NAME: &str = "__ptxcc.empty_string";
    if let Some(g) = device.get_global(NAME) {
        return g.as_value_ref();
    }
    let ctx = device.get_context();
    let ty = ctx.i8_type().array_type(1);
    let g = device.add_global(ty, None, NAME);
    g.set_initializer(&ty.const_zero());
    g.set_constant(true);
    g.set_linkage(inkwell::module::Linkage::Private);
    g.as_value_ref()
}
