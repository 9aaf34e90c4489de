//! Parallel regions that an `if` clause serialises (`parallel if(c)`, `if(parallel: c)`, and a
//! combined construct's `if(c)`, which applies to its parallel level too).
//!
//! Where the condition is false clang calls the region's function directly, between two runtime
//! calls, instead of forking it:
//!
//! ```llvm
//! call void @__kmpc_serialized_parallel(ptr @loc, i32 %gtid)
//! call void @..._l7.omp_outlined.omp_outlined(ptr %gtid.addr, ptr %zero.addr, i64 %lb, ...)
//! call void @__kmpc_end_serialized_parallel(ptr @loc, i32 %gtid)
//! ```
//!
//! The region then has one thread, which runs every iteration of its worksharing loops. The same
//! function is forked on the other branch, where the block's threads share its loops, and a
//! function has one thread space; so the serialised call gets a copy of the function (and of the
//! wrappers clang puts around its body), whose loops split over one thread:
//!
//! ```llvm
//! call void @..._l7.omp_outlined.omp_outlined.ptxcc.serial(ptr %gtid.addr, ptr %zero.addr, i64 %lb, ...)
//! call void @__kmpc_barrier(ptr @loc, i32 %gtid)       ; team code: the end of the region
//! ```
//!
//! In team code (the target and teams levels, which every thread of the block runs redundantly
//! for the team's one thread) the copy is team code too: every thread runs all its iterations,
//! thread 0's stores and atomic updates reach memory (kernel formation guards them as the
//! team's), the reductions
//! combine into each thread's copy of a team local or, for shared memory, in thread 0
//! (`reductions::Role::Serialized`), and the region ends with a block barrier, so that every
//! thread sees its stores. In a parallel region the thread that meets it runs the copy alone
//! (`Space::Single`), as it runs a nested region that cannot use the lanes of its warp.
use crate::diagnostics::Diagnostic;
use crate::ir;
use crate::openmp;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, FunctionValue, InstructionValue};
use llvm_sys::core as llvm;
use std::collections::HashMap;

pub(super) const SERIALIZED: &str = "__kmpc_serialized_parallel";
const END_SERIALIZED: &str = "__kmpc_end_serialized_parallel";

/// The copies made for serialised regions.
#[derive(Default)]
pub(super) struct Serialized<'ctx> {
    /// Copies called from team code (and their wrappers): team code themselves.
    pub(super) team: Vec<FunctionValue<'ctx>>,
    /// Copies called from a parallel region, each with the function that calls it.
    pub(super) in_parallel: Vec<(Vec<FunctionValue<'ctx>>, FunctionValue<'ctx>)>,
}

/// Gives every serialised parallel region of the target region whose functions start with
/// `prefix` a copy of its function, called in place of the original (see the module comment).
/// `team_roots` are the functions whose levels run as team code (the kernel, the teams region).
pub(super) fn clone_serialized_regions<'ctx>(
    device: &Module<'ctx>,
    prefix: &str,
    team_roots: &[FunctionValue<'ctx>],
) -> Result<Serialized<'ctx>, Vec<Diagnostic>> {
    let team: Vec<FunctionValue<'ctx>> = team_roots
        .iter()
        .flat_map(|r| region_level(*r, prefix))
        .collect();
    let mut out = Serialized::default();
    let mut work: Vec<(FunctionValue<'ctx>, bool)> = device
        .get_functions()
        .filter(|f| ir::fn_name(*f).starts_with(prefix) && f.count_basic_blocks() > 0)
        .map(|f| (f, team.contains(&f)))
        .collect();
    // Team code first (popped last to first), so that a region nested in a serialised one is
    // still marked as such when the team's copy of the outer one is made.
    work.sort_by_key(|(_, in_team)| *in_team);
    let mut originals = Vec::new();
    let mut diags = Vec::new();
    while let Some((f, in_team)) = work.pop() {
        for (start, name) in ir::calls(f) {
            if name != SERIALIZED {
                continue;
            }
            let loc = openmp::call_loc(start);
            let Some((call, end, callee)) = region_call(start) else {
                diags.push(Diagnostic {
                    loc,
                    message: "ptxcc cannot find the function of this serialised parallel region"
                        .into(),
                });
                continue;
            };
            let originals_level = region_level(callee, prefix);
            let copies = match copy_level(device, &originals_level) {
                Ok(c) => c,
                Err(e) => {
                    diags.push(Diagnostic {
                        loc,
                        message: format!("internal error in kernel formation: {e}"),
                    });
                    continue;
                }
            };
            unsafe {
                llvm::LLVMSetOperand(
                    call.as_value_ref(),
                    llvm::LLVMGetNumOperands(call.as_value_ref()) as u32 - 1,
                    copies[0].as_value_ref(),
                )
            };
            ir::erase(start);
            if in_team {
                if let Err(e) = end_with_barrier(device, end) {
                    diags.push(Diagnostic {
                        loc,
                        message: format!("internal error in kernel formation: {e}"),
                    });
                }
                out.team.extend(copies.iter().copied());
            } else {
                ir::erase(end);
                out.in_parallel.push((copies.clone(), f));
            }
            // A serialised region nested in this one is met by the copy's threads.
            work.extend(copies.into_iter().map(|c| (c, in_team)));
            originals.extend(originals_level);
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    // A region whose condition is constant false has no fork left to call the original; a copy
    // of a nested region's function may have been copied again for its own serialised call.
    let mut candidates: Vec<FunctionValue<'ctx>> = Vec::new();
    let all = originals
        .into_iter()
        .chain(out.team.iter().copied())
        .chain(out.in_parallel.iter().flat_map(|(c, _)| c.iter().copied()));
    for f in all {
        if !candidates.contains(&f) {
            candidates.push(f);
        }
    }
    loop {
        let dead: Vec<_> = candidates
            .iter()
            .copied()
            .filter(|f| unsafe { llvm::LLVMGetFirstUse(f.as_value_ref()).is_null() })
            .collect();
        if dead.is_empty() {
            break;
        }
        candidates.retain(|f| !dead.contains(f));
        out.team.retain(|f| !dead.contains(f));
        for (copies, _) in &mut out.in_parallel {
            copies.retain(|f| !dead.contains(f));
        }
        for f in dead {
            unsafe { llvm::LLVMDeleteFunction(f.as_value_ref()) };
        }
    }
    out.in_parallel.retain(|(copies, _)| !copies.is_empty());
    Ok(out)
}

/// The direct call of a defined function between `start` (`__kmpc_serialized_parallel`) and
/// the `__kmpc_end_serialized_parallel` that follows it in the same block, that end, and the
/// function called.
pub(super) fn region_call<'ctx>(
    start: InstructionValue<'ctx>,
) -> Option<(
    InstructionValue<'ctx>,
    InstructionValue<'ctx>,
    FunctionValue<'ctx>,
)> {
    let mut call = None;
    let mut inst = start.get_next_instruction();
    while let Some(i) = inst {
        match ir::called_function(i) {
            Some(g) if ir::fn_name(g) == END_SERIALIZED => return call.map(|(c, g)| (c, i, g)),
            Some(g) if g.count_basic_blocks() > 0 && call.is_none() => call = Some((i, g)),
            _ => {}
        }
        inst = i.get_next_instruction();
    }
    None
}

/// Whether `call` sits between a `__kmpc_serialized_parallel` and its end (it runs a region).
fn in_serialized_site(call: InstructionValue<'_>) -> bool {
    let mut inst = call.get_previous_instruction();
    while let Some(i) = inst {
        match ir::callee_name(i).as_deref() {
            Some(SERIALIZED) => return true,
            Some(END_SERIALIZED) => return false,
            _ => {}
        }
        inst = i.get_previous_instruction();
    }
    false
}

/// Like kernel formation's `level`: `root` and the functions of the same region it calls
/// directly, without entering the serialised regions it runs.
fn region_level<'ctx>(root: FunctionValue<'ctx>, prefix: &str) -> Vec<FunctionValue<'ctx>> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        for (call, name) in ir::calls(out[i]) {
            if let Some(callee) = ir::called_function(call) {
                if callee.count_basic_blocks() > 0
                    && name.starts_with(prefix)
                    && !out.contains(&callee)
                    && !in_serialized_site(call)
                {
                    out.push(callee);
                }
            }
        }
        i += 1;
    }
    out
}

/// Copies `fns` (a region's function, then its wrappers), redirecting the copies' calls among
/// them to the copies. Returns the copies in the same order.
fn copy_level<'ctx>(
    device: &Module<'ctx>,
    fns: &[FunctionValue<'ctx>],
) -> anyhow::Result<Vec<FunctionValue<'ctx>>> {
    let mut map = HashMap::new();
    let mut copies = Vec::new();
    for f in fns {
        let name = format!("{}.ptxcc.serial", ir::fn_name(*f));
        let copy = ir::clone_function(device, *f, &name)
            .ok_or_else(|| anyhow::anyhow!("cannot copy {}", ir::fn_name(*f)))?;
        map.insert(f.as_value_ref(), copy.as_value_ref());
        copies.push(copy);
    }
    for copy in &copies {
        for (call, _) in ir::calls(*copy) {
            let v = call.as_value_ref();
            unsafe {
                let last = llvm::LLVMGetNumOperands(v) as u32 - 1;
                if let Some(to) = map.get(&llvm::LLVMGetOperand(v, last)) {
                    llvm::LLVMSetOperand(v, last, *to);
                }
            }
        }
    }
    Ok(copies)
}

/// `__kmpc_end_serialized_parallel(loc, gtid)` → `__kmpc_barrier(loc, gtid)`: the end of a
/// parallel region, where every thread of team code must see the region's stores.
fn end_with_barrier(device: &Module<'_>, end: InstructionValue<'_>) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let barrier = device.get_function("__kmpc_barrier").unwrap_or_else(|| {
        device.add_function(
            "__kmpc_barrier",
            ctx.void_type()
                .fn_type(&[ptr.into(), ctx.i32_type().into()], false),
            None,
        )
    });
    let args: Vec<BasicMetadataValueEnum<'_>> =
        ir::call_args(end).into_iter().map(Into::into).collect();
    let b = ctx.create_builder();
    b.position_before(&end);
    let call = b.build_call(barrier, &args, "")?;
    if let (Some(dbg), Some(inst)) = (
        end.get_debug_location(),
        call.try_as_basic_value().instruction(),
    ) {
        inst.set_debug_location(Some(dbg));
    }
    ir::erase(end);
    Ok(())
}
