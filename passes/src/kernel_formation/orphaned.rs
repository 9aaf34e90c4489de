//! Parallel regions outside the target regions: a `parallel` (`parallel for`) construct in a
//! `declare target` function that a target region calls.
//!
//! Clang outlines such a region from the function it is in, not from a target region, so it is
//! no level of any kernel; the function forks it as a host program would:
//!
//! ```llvm
//! define internal void @vec_mult(ptr %p, i32 %n) {
//!   call void (...) @__kmpc_fork_call(ptr @loc, i32 2, ptr @vec_mult.omp_outlined, ptr %p, ptr %n.addr)
//! }
//! ```
//!
//! The thread that calls the function runs the region alone, as a parallel region nested in
//! a parallel region runs on the device (an inactive region of one thread: its worksharing
//! loops give that thread every iteration, its barriers synchronise nothing, its reductions
//! combine directly), which OpenMP allows wherever the region is met. The fork becomes a direct
//! call, and the outlined function (with clang's wrappers around its body) gets the thread space
//! `single`:
//!
//! ```llvm
//! define internal void @vec_mult(ptr %p, i32 %n) {
//!   call void @vec_mult.omp_outlined(ptr %ptxcc.gtid, ptr %ptxcc.gtid, ptr %p, ptr %n.addr)
//! }
//! define internal void @vec_mult.omp_outlined(...) #0        ; #0 = { "ptxcc-threads"="single" }
//! ```
//!
//! Team code that calls the function calls a sequential function that writes memory, which
//! kernel formation gives to thread 0 of the block (`redundant`), so the region runs once per
//! team. A plain `target` region runs on one thread anyway.
use super::serialized::{region_call, SERIALIZED};
use super::{forked_function, level, nested::level_barriers, rewrite_fork, FORK_CALL};
use crate::diagnostics::Diagnostic;
use crate::ir;
use crate::kernel_info::ExecMode;
use crate::openmp::{self, OffloadEntries};
use crate::reductions;
use crate::thread_space::Space;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue};
use std::collections::HashSet;

/// Runs every parallel region that no target region's functions fork (see the module comment)
/// on the thread that meets it. Returns how many fork calls were rewritten.
pub(super) fn serialize_orphaned_regions(
    device: &Module<'_>,
    entries: &OffloadEntries,
) -> Result<usize, Vec<Diagnostic>> {
    let region: HashSet<_> = entries
        .kernels
        .iter()
        .filter_map(|k| device.get_function(&k.name))
        .flat_map(region_functions)
        .collect();
    let in_target_region = |f: FunctionValue<'_>| region.contains(&f.as_value_ref());
    let mut count = 0;
    let mut diags = Vec::new();
    let mut done = HashSet::new();
    // A region's own function may fork another (nested) region: each found in turn.
    loop {
        let fork = device
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0 && !in_target_region(*f))
            .find_map(|f| {
                ir::calls(f)
                    .into_iter()
                    .find(|(_, n)| n == FORK_CALL)
                    .map(|(c, _)| (c, f))
            });
        let Some((fork, caller)) = fork else { break };
        let loc = openmp::call_loc(fork);
        let Some(outlined) = forked_function(fork) else {
            diags.push(Diagnostic {
                loc,
                message: "parallel region without an outlined function".into(),
            });
            ir::erase(fork);
            continue;
        };
        if let Err(mut d) = run_alone(device, outlined, fork, &mut done) {
            diags.append(&mut d);
        }
        rewrite_fork(device, fork, None).map_err(|e| vec![super::internal(e)])?;
        crate::remarks::add(
            device,
            loc.as_ref(),
            &format!(
                "parallel region in '{}', outside the target region: runs on the thread that calls the function \
                 (one thread; its loops run sequentially)",
                ir::fn_name(caller)
            ),
        );
        count += 1;
    }
    // `parallel if(c)`: where c is false the function calls the region's function itself,
    // between __kmpc_serialized_parallel and its end; that is the one thread the region has
    // anyway.
    let functions: Vec<_> = device
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0 && !in_target_region(*f))
        .collect();
    for f in functions {
        for (start, name) in ir::calls(f) {
            if name != SERIALIZED {
                continue;
            }
            let Some((_, end, callee)) = region_call(start) else {
                diags.push(Diagnostic {
                    loc: openmp::call_loc(start),
                    message:
                        "parallel region serialised by its if clause without a call of its function"
                            .into(),
                });
                continue;
            };
            if let Err(mut d) = run_alone(device, callee, start, &mut done) {
                diags.append(&mut d);
            }
            ir::erase(start);
            ir::erase(end);
            count += 1;
        }
    }
    if diags.is_empty() {
        Ok(count)
    } else {
        Err(diags)
    }
}

/// The functions of the target region `kernel`: its levels (the functions named after it that
/// it calls) and the regions they fork, recursively — what kernel formation forms.
fn region_functions(kernel: FunctionValue<'_>) -> Vec<llvm_sys::prelude::LLVMValueRef> {
    let prefix = ir::fn_name(kernel);
    let mut out = vec![kernel];
    let mut i = 0;
    while i < out.len() {
        for (call, name) in ir::calls(out[i]) {
            let next = if name == FORK_CALL || name == super::FORK_TEAMS {
                forked_function(call)
            } else {
                ir::called_function(call)
                    .filter(|c| c.count_basic_blocks() > 0 && name.starts_with(&prefix))
            };
            if let Some(f) = next {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        i += 1;
    }
    out.iter().map(|f| f.as_value_ref()).collect()
}

/// Makes the region whose function is `outlined` (forked or called at `site`) one of one
/// thread: its functions get the space `single`, its reductions combine directly, its barriers
/// go. Once per region (the fork and the serialised call of `parallel if` share the function).
fn run_alone<'ctx>(
    device: &Module<'ctx>,
    outlined: FunctionValue<'ctx>,
    site: inkwell::values::InstructionValue<'ctx>,
    done: &mut HashSet<llvm_sys::prelude::LLVMValueRef>,
) -> Result<(), Vec<Diagnostic>> {
    if !done.insert(outlined.as_value_ref()) {
        return Ok(());
    }
    let functions = level(outlined, &ir::fn_name(outlined));
    Space::Single.set_all(&functions);
    let region = reductions::Region {
        kernel: Vec::new(),
        teams: Vec::new(),
        has_teams: false,
        parallel: functions.clone(),
        forks: vec![site],
        serialized: Vec::new(),
    };
    reductions::lower_reductions(device, &region, ExecMode::Single)?;
    for f in &functions {
        level_barriers(device, *f).map_err(|e| vec![super::internal(e)])?;
    }
    Ok(())
}
