//! Locals that the threads of a parallel region share, moved out of the per-thread stack into
//! block shared memory: the team-level locals a parallel region may write (one copy per team),
//! and the worker locals its nested region writes (one copy per warp).
use super::nested::Nested;
use super::{forked_function, region_runtime_call, FORK_CALL};
use crate::ir;
use crate::nvvm;
use crate::reductions;
use crate::thread_space::WARP;
use inkwell::module::Module;
use inkwell::types::AsTypeRef;
use inkwell::values::{AsValueRef, FunctionValue, InstructionOpcode, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;

/// Static shared memory the team-level variables may take (of the 48 KiB a block has).
const MAX_TEAM_SHARED_BYTES: u64 = 32 << 10;

/// Static shared memory the worker-level variables may take.
const MAX_WORKER_SHARED_BYTES: u64 = 16 << 10;

/// Moves the locals of the team-level code that a parallel region shares (clang passes them to
/// `__kmpc_fork_call` by address) and may write into block shared memory: one copy per team, as
/// OpenMP says, instead of one per thread, so that what one thread of the region writes (a
/// `lastprivate` copy-out, a shared flag) is what every thread reads after it. (clang's own GPU
/// code generation "globalizes" such locals the same way.) A local the region only reads (the
/// gang loop's index, captured scalars and pointers) keeps a copy per thread: every thread
/// computed the same value, and reads it without shared memory or a barrier. So does the
/// destination of the region's reduction, which gives every thread the result.
///
/// ```llvm
/// %last = alloca i32                       →   @__ptxcc.team.last = internal addrspace(3) global i32 poison
/// call @__kmpc_fork_call(..., ptr %last)       call @__kmpc_fork_call(..., ptr addrspacecast (@__ptxcc.team.last))
/// ```
///
/// The team code's stores to them are then guarded like any store to memory.
pub(super) fn globalize_shared_locals(
    device: &Module<'_>,
    forks: &[InstructionValue<'_>],
) -> Result<(), String> {
    let mut locals = Vec::new();
    for fork in forks {
        for a in written_locals(*fork) {
            if !locals.contains(&a) {
                locals.push(a);
            }
        }
    }
    let mut bytes = 0u64;
    for a in locals {
        unsafe {
            if ir::const_int(llvm::LLVMGetOperand(a, 0)) != Some(1) {
                return Err("ptxcc does not support a variable-length array of the teams code shared with its parallel loop".into());
            }
            let ty = llvm::LLVMGetAllocatedType(a);
            bytes += llvm_sys::target::LLVMABISizeOfType(
                llvm_sys::target::LLVMGetModuleDataLayout(device.as_mut_ptr()),
                ty,
            );
            if bytes > MAX_TEAM_SHARED_BYTES {
                return Err(format!(
                    "the variables of the teams code shared with its parallel loop need more than {MAX_TEAM_SHARED_BYTES} bytes of shared memory; \
                     declare large arrays outside the target region and map them"
                ));
            }
            let name = std::ffi::CString::new(format!("__ptxcc.team.{}", ir::value_name(a)))
                .unwrap_or_default();
            let g = add_shared_global(device, ty, &name, llvm::LLVMGetAlignment(a));
            let generic = llvm::LLVMConstAddrSpaceCast(
                g,
                llvm::LLVMPointerTypeInContext(llvm::LLVMGetModuleContext(device.as_mut_ptr()), 0),
            );
            llvm::LLVMReplaceAllUsesWith(a, generic);
            llvm::LLVMInstructionEraseFromParent(a);
        }
    }
    Ok(())
}

/// Moves the locals of a worker (the code of a parallel region whose nested parallel region
/// runs on the lanes of its warp) that the nested region writes into shared memory, one copy
/// per warp, so that what one lane writes is what the others, and the worker after the region,
/// read. (The worker's other locals stay per lane: every lane computes the same values.)
///
/// ```llvm
/// %tmp = alloca [32 x float]           →   @__ptxcc.worker.tmp = internal addrspace(3) global [32 x [32 x float]] poison
///                                          %w = lshr i32 %tid.x, 5
///                                          %tmp = addrspacecast (getelementptr [32 x [32 x float]], @.., 0, %w) to ptr
/// ```
///
/// A reduction's destination is not among them: the reduction gives every lane the result.
/// `warps` is how many warps (workers) a block of the kernel can have: 32, or fewer when its
/// launch has a constant thread_limit (OpenACC's num_workers), which the runtime never exceeds.
pub(super) fn globalize_worker_locals(
    device: &Module<'_>,
    nested: &Nested<'_>,
    warps: u32,
) -> Result<(), String> {
    let locals = written_locals(nested.fork);
    let ctx = device.get_context();
    let i32t = ctx.i32_type();
    let td = unsafe { llvm_sys::target::LLVMGetModuleDataLayout(device.as_mut_ptr()) };
    let mut bytes = 0u64;
    for a in locals {
        unsafe {
            if ir::const_int(llvm::LLVMGetOperand(a, 0)) != Some(1) {
                return Err("ptxcc does not support a variable-length array of a worker loop written by its vector loop".into());
            }
            let ty = llvm::LLVMGetAllocatedType(a);
            let per_warp = llvm::LLVMArrayType2(ty, warps as u64);
            bytes += llvm_sys::target::LLVMABISizeOfType(td, per_warp);
            if bytes > MAX_WORKER_SHARED_BYTES {
                return Err(format!(
                    "the variables of a worker loop that its vector loop writes need more than {MAX_WORKER_SHARED_BYTES} bytes of shared memory \
                     ({warps} copies, one per worker{}); declare large arrays outside the target region and map them",
                    if warps == WARP { ": give the construct a constant num_workers to need fewer" } else { "" }
                ));
            }
            let name = std::ffi::CString::new(format!("__ptxcc.worker.{}", ir::value_name(a)))
                .unwrap_or_default();
            let global = add_shared_global(device, per_warp, &name, llvm::LLVMGetAlignment(a));
            let b = ctx.create_builder();
            b.position_before(&InstructionValue::new(a));
            let tid = nvvm::read_sreg(device, &b, nvvm::SReg::TidX).map_err(|e| e.to_string())?;
            let warp = b
                .build_right_shift(tid, i32t.const_int(5, false), false, "ptxcc.worker")
                .map_err(|e| e.to_string())?;
            let mut idx = [i32t.const_zero().as_value_ref(), warp.as_value_ref()];
            let slot = llvm::LLVMBuildInBoundsGEP2(
                b.as_mut_ptr(),
                per_warp,
                global,
                idx.as_mut_ptr(),
                2,
                c"".as_ptr(),
            );
            let generic = llvm::LLVMBuildAddrSpaceCast(
                b.as_mut_ptr(),
                slot,
                ctx.ptr_type(inkwell::AddressSpace::default()).as_type_ref(),
                name.as_ptr(),
            );
            llvm::LLVMReplaceAllUsesWith(a, generic);
            llvm::LLVMInstructionEraseFromParent(a);
        }
    }
    Ok(())
}

/// The locals a fork passes by address (GEPs and casts of `alloca`s) that its region may write.
fn written_locals(fork: InstructionValue<'_>) -> Vec<LLVMValueRef> {
    let written = forked_function(fork).map(|g| written_params(g, 0));
    let n = unsafe { llvm::LLVMGetNumArgOperands(fork.as_value_ref()) };
    let mut out = Vec::new();
    for i in 3..n {
        // Fork operand i is the outlined function's parameter i - 1 (after gtid and btid); an
        // unknown outlined function may write every one.
        if written
            .as_ref()
            .is_some_and(|w| !w.contains(&(i as usize - 1)))
        {
            continue;
        }
        if let Some(a) = root_alloca(ir::call_arg_raw(fork, i)) {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

/// A new internal `addrspace(3)` global of type `ty`, uninitialised (poison), aligned to at
/// least 8 bytes.
pub(super) unsafe fn add_shared_global(
    device: &Module<'_>,
    ty: llvm_sys::prelude::LLVMTypeRef,
    name: &std::ffi::CStr,
    align: u32,
) -> LLVMValueRef {
    let g = llvm::LLVMAddGlobalInAddressSpace(device.as_mut_ptr(), ty, name.as_ptr(), 3);
    llvm::LLVMSetLinkage(g, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
    llvm::LLVMSetInitializer(g, llvm::LLVMGetPoison(ty));
    llvm::LLVMSetAlignment(g, align.max(8));
    g
}

/// The `alloca` a pointer is (a GEP or cast of), if any.
pub(super) fn root_alloca(
    mut v: llvm_sys::prelude::LLVMValueRef,
) -> Option<llvm_sys::prelude::LLVMValueRef> {
    unsafe {
        for _ in 0..16 {
            v = ir::strip_casts(v);
            if !llvm::LLVMIsAAllocaInst(v).is_null() {
                return Some(v);
            }
            if !llvm::LLVMIsAGetElementPtrInst(v).is_null() || !llvm::LLVMIsACastInst(v).is_null() {
                v = llvm::LLVMGetOperand(v, 0);
            } else {
                return None;
            }
        }
    }
    None
}

/// The parameters of `f` through which it, or a function it calls, may write memory, outside
/// the combine branches of its reductions. A pointer parameter that escapes (stored anywhere
/// but its own spill slot, passed to an unknown function) counts as written.
fn written_params(f: FunctionValue<'_>, depth: u32) -> std::collections::HashSet<usize> {
    use std::collections::HashSet;
    let params: Vec<_> = f.get_params().iter().map(|p| p.as_value_ref()).collect();
    let mut out = HashSet::new();
    if depth > 8 {
        out.extend(0..params.len());
        return out;
    }
    let combine: HashSet<_> = ir::calls(f)
        .into_iter()
        .filter(|(_, n)| n.starts_with("__kmpc_reduce"))
        .flat_map(|(c, _)| reductions::combine_blocks(c))
        .collect();
    // The parameters a pointer may point into: derived from them by address arithmetic, through
    // phis too (a pointer loaded from memory points elsewhere).
    let behind = |v| ir::param_origins(v, &params).0;
    for inst in ir::instructions(f) {
        if inst
            .get_parent()
            .is_some_and(|b| combine.contains(&b.as_mut_ptr()))
        {
            continue;
        }
        let op = |i| ir::call_arg_raw(inst, i);
        match inst.get_opcode() {
            InstructionOpcode::Store => {
                out.extend(behind(op(1)));
                // The pointer itself stored somewhere other than its spill slot: it escapes.
                let value = op(0);
                let is_spill = params.contains(&value) && root_alloca(op(1)).is_some();
                if !is_spill {
                    out.extend(behind(value));
                }
            }
            InstructionOpcode::AtomicRMW | InstructionOpcode::AtomicCmpXchg => {
                out.extend(behind(op(0)))
            }
            InstructionOpcode::Call | InstructionOpcode::Invoke => {
                let name = ir::callee_name(inst).unwrap_or_default();
                let nargs = unsafe { llvm::LLVMGetNumArgOperands(inst.as_value_ref()) };
                if name.starts_with("llvm.memcpy")
                    || name.starts_with("llvm.memmove")
                    || name.starts_with("llvm.memset")
                {
                    out.extend(behind(op(0)));
                } else if name == FORK_CALL {
                    // A nested region: fork operand k is its function's parameter k - 1.
                    match forked_function(inst) {
                        Some(g) => {
                            let theirs = written_params(g, depth + 1);
                            for k in 3..nargs {
                                if theirs.contains(&(k as usize - 1)) {
                                    out.extend(behind(op(k)));
                                }
                            }
                        }
                        None => (3..nargs).for_each(|k| out.extend(behind(op(k)))),
                    }
                } else if name.starts_with("llvm.") || region_runtime_call(&name) {
                    // Intrinsics without stores through arguments; the worksharing and
                    // reduction calls take the region's own bookkeeping locals.
                } else if let Some(callee) =
                    ir::called_function(inst).filter(|c| c.count_basic_blocks() > 0)
                {
                    let theirs = written_params(callee, depth + 1);
                    for j in 0..nargs {
                        if theirs.contains(&(j as usize)) {
                            out.extend(behind(op(j)));
                        }
                    }
                } else {
                    for j in 0..nargs {
                        out.extend(behind(op(j)));
                    }
                }
            }
            _ => {}
        }
    }
    out
}
