//! Kernel formation: turns each extracted host-fallback function into a GPU kernel.
//!
//! Clang's host fallback for `#pragma omp target teams distribute parallel for` is
//!
//! ```llvm
//! define void @__omp_offloading_..._l7(i64 %n, ptr %y, ...) {
//!   call void (...) @__kmpc_fork_teams(ptr @loc, i32 4, ptr @..._l7.omp_outlined, i64 %n, ptr %y, ...)
//! }
//! define internal void @..._l7.omp_outlined(ptr %gtid, ptr %btid, ...) {
//!   call void @__kmpc_for_static_init_4(..., i32 92, ...)        ; distribute: handled by loop-mapping
//!   ... call void (...) @__kmpc_fork_call(ptr @loc, i32 5, ptr @..._l7.omp_outlined.omp_outlined, ...)
//! }
//! ```
//!
//! and after this pass
//!
//! ```llvm
//! define void @__omp_offloading_..._l7(i64 %n, ptr %y, ...) {          ; !nvvm.annotations: kernel
//!   %ptxcc.gtid = alloca i32
//!   call void @..._l7.omp_outlined(ptr %ptxcc.gtid, ptr %ptxcc.gtid, i64 %n, ptr %y, ...)
//! }
//! define internal void @..._l7.omp_outlined(ptr %gtid, ptr %btid, ...) {
//!   call void @__kmpc_for_static_init_4(..., i32 92, ...)
//!   ... call void @..._l7.omp_outlined.omp_outlined(ptr %ptxcc.gtid, ptr %ptxcc.gtid, ...)
//! }
//! !ptxcc.kernels = !{!{!"__omp_offloading_..._l7", i32 0, !"saxpy.c:7:1"}}   ; exec mode SPMD
//! ```
//!
//! Every thread of every block executes the teams code redundantly ("SPMD mode"). Its locals
//! are kept equal in every thread; its stores to memory are made by thread 0 alone and followed
//! by a barrier, and so are its atomic updates (every thread takes thread 0's result) and its
//! calls of sequential device functions that write memory (see `redundant::guard_call`); other
//! calls with unknown effects there are refused. The execution mode tells the runtime how to
//! launch the kernel: teams + parallel → SPMD, parallel alone → one block, teams alone → one
//! thread per block, plain target → one thread. `__kmpc_barrier` becomes `bar.sync 0`; bookkeeping calls
//! (`__kmpc_global_thread_num`, `__kmpc_push_num_threads`, `__kmpc_for_static_fini`, …) go away
//! because the launch configuration carries that information.
//!
//! The pass is split by concern:
//!
//! - this file: the driver (`form_kernels`, `form_kernel`), the levels of a target region and
//!   the rewriting of the fork calls and bookkeeping calls;
//! - `nested`: parallel regions nested in a parallel region (OpenACC's worker / vector pair);
//! - `orphaned`: parallel regions of functions a target region calls (one thread each);
//! - `redundant`: code run redundantly by several threads, and the guarding of its stores;
//! - `shared_locals`: the locals a parallel region shares, moved into shared memory.
use crate::diagnostics::{Diagnostic, Diagnostics, SourceLoc};
use crate::ir;
use crate::kernel_info::{self, ExecMode, KernelInfo};
use crate::nvvm;
use crate::openmp::{self, OffloadEntries};
use crate::reductions;
use crate::thread_space::{Space, WARP};
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, FunctionValue, InstructionOpcode, InstructionValue,
};
use llvm_sys::core as llvm;
use std::collections::HashMap;

mod nested;
mod orphaned;
mod redundant;
mod serialized;
mod shared_locals;

use nested::{lane_levels, level_barriers, Nested};
use redundant::{check_redundant_code, guard_stores, Level};
use serialized::{clone_serialized_regions, Serialized};
use shared_locals::{globalize_shared_locals, globalize_worker_locals};

const FORK_TEAMS: &str = "__kmpc_fork_teams";
const FORK_CALL: &str = "__kmpc_fork_call";

/// Runtime calls that only describe the launch or end a loop; they vanish in device code.
const BOOKKEEPING: &[&str] = &[
    "__kmpc_push_num_teams",
    "__kmpc_push_num_teams_51",
    "__kmpc_push_num_threads",
    "__kmpc_push_proc_bind",
    "__kmpc_for_static_fini",
    "__kmpc_distribute_static_fini",
];

/// The OpenMP runtime calls of a region's own bookkeeping (worksharing bounds, reductions,
/// barriers, the thread id, launch hints): redundant threads may all make them, and their
/// pointer arguments are the region's own locals (loop bounds, reduction lists), never a
/// pointer the region receives.
fn region_runtime_call(name: &str) -> bool {
    name.starts_with("__kmpc_for_static_init")
        || name.starts_with("__kmpc_dist_for_static_init")
        || name.starts_with("__kmpc_distribute_static_init")
        || name.starts_with("__kmpc_reduce")
        || name.starts_with("__kmpc_end_reduce")
        || name == "__kmpc_global_thread_num"
        || name == "__kmpc_barrier"
        || BOOKKEEPING.contains(&name)
}

/// Forms a kernel from every offload entry of `device`. `locs` gives the source location of each
/// kernel when the host module knew it, `thread_limits` the constant thread_limit it is launched
/// with (`openmp::kernel_thread_limits`; the driver passes them, `ptxcc-opt` may not).
pub fn form_kernels(
    device: &Module<'_>,
    entries: &OffloadEntries,
    locs: &HashMap<String, SourceLoc>,
    thread_limits: &HashMap<String, u32>,
) -> Result<Vec<KernelInfo>, Diagnostics> {
    // Parallel regions of declare target functions first: the target regions that call those
    // functions then see sequential calls.
    if let Err(d) = orphaned::serialize_orphaned_regions(device, entries) {
        return Err(Diagnostics(d));
    }
    let mut diags = Vec::new();
    let mut infos = Vec::new();
    for entry in &entries.kernels {
        let (kernel, loc) = match entry_kernel(device, entry, locs) {
            Ok(k) => k,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        match form_kernel(
            device,
            kernel,
            loc.clone(),
            thread_limits.get(&entry.name).copied(),
        ) {
            Ok(mode) => {
                crate::remarks::add(
                    device,
                    loc.as_ref(),
                    &format!(
                        "target region compiled to kernel {}: {}",
                        entry.name,
                        mode.explain()
                    ),
                );
                infos.push(KernelInfo {
                    name: entry.name.clone(),
                    mode,
                    source: loc.map(|l| l.to_string()).unwrap_or_default(),
                })
            }
            Err(mut d) => diags.append(&mut d),
        }
    }
    if !diags.is_empty() {
        return Err(Diagnostics(diags));
    }
    if let Err(e) = lower_bookkeeping(device) {
        return Err(Diagnostics(vec![internal(e)]));
    }
    let ctx = device.get_context();
    for info in &infos {
        let result = device
            .get_function(&info.name)
            .ok_or_else(|| anyhow::anyhow!("kernel {} vanished", info.name))
            .and_then(|f| nvvm::annotate_kernel(device, ctx, f))
            .and_then(|_| kernel_info::record(device, ctx, info));
        if let Err(e) = result {
            return Err(Diagnostics(vec![internal(e)]));
        }
    }
    Ok(infos)
}

/// An offload entry's function in `device` and its source location (the host module's, else the
/// function's first debug location); a diagnostic when the device module has no such function.
fn entry_kernel<'ctx>(
    device: &Module<'ctx>,
    entry: &openmp::KernelEntry,
    locs: &HashMap<String, SourceLoc>,
) -> Result<(FunctionValue<'ctx>, Option<SourceLoc>), Diagnostic> {
    let Some(kernel) = device.get_function(&entry.name) else {
        return Err(Diagnostic {
            loc: None,
            message: format!(
                "offload region '{}' has no function in the device module",
                entry.name
            ),
        });
    };
    let loc = locs.get(&entry.name).cloned().or_else(|| first_loc(kernel));
    Ok((kernel, loc))
}

/// The reduction lowering alone (`ptxcc-opt --passes=reductions`): for each kernel, the region
/// analysis kernel formation starts with (the functions of each level, serialised regions
/// cloned, thread spaces recorded), then `reductions::lower_reductions`, and nothing else of
/// kernel formation: the fork calls stay, no local moves to shared memory, no store is guarded.
/// Returns the execution mode of each kernel after its reductions (in `entries` order).
pub fn lower_reductions_alone(
    device: &Module<'_>,
    entries: &OffloadEntries,
    locs: &HashMap<String, SourceLoc>,
) -> Result<Vec<(String, ExecMode)>, Diagnostics> {
    let mut diags = Vec::new();
    let mut modes = Vec::new();
    for entry in &entries.kernels {
        let (kernel, loc) = match entry_kernel(device, entry, locs) {
            Ok(k) => k,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        let lowered = region_shape(device, kernel, loc).and_then(|shape| {
            reductions::lower_reductions(device, &shape.reduction_region(), shape.mode)
        });
        match lowered {
            Ok(mode) => modes.push((entry.name.clone(), mode)),
            Err(mut d) => diags.append(&mut d),
        }
    }
    if diags.is_empty() {
        Ok(modes)
    } else {
        Err(Diagnostics(diags))
    }
}

fn internal(e: anyhow::Error) -> Diagnostic {
    Diagnostic {
        loc: None,
        message: format!("internal error in kernel formation: {e}"),
    }
}

/// The first source location found in a function (an ident_t of a runtime call, or a debug location).
fn first_loc(f: FunctionValue<'_>) -> Option<SourceLoc> {
    ir::calls(f)
        .into_iter()
        .find_map(|(c, n)| {
            if n.starts_with("__kmpc") {
                openmp::call_loc(c)
            } else {
                None
            }
        })
        .or_else(|| ir::instructions(f).into_iter().find_map(openmp::debug_loc))
}

/// The function a `__kmpc_fork_*` call runs (its third argument).
fn forked_function<'ctx>(call: InstructionValue<'ctx>) -> Option<FunctionValue<'ctx>> {
    let v = ir::strip_casts(ir::call_arg_raw(call, 2));
    unsafe {
        if llvm::LLVMIsAFunction(v).is_null() {
            None
        } else {
            FunctionValue::new(v)
        }
    }
}

fn calls_named<'ctx>(f: FunctionValue<'ctx>, name: &str) -> Vec<InstructionValue<'ctx>> {
    ir::calls(f)
        .into_iter()
        .filter(|(_, n)| n == name)
        .map(|(c, _)| c)
        .collect()
}

/// The structure of one target region, found (and prepared: serialised regions cloned, each
/// level's thread space recorded) before anything else is rewritten: which functions run at
/// the kernel, teams and parallel levels, the fork calls, and the execution mode they give.
struct Shape<'ctx> {
    teams_calls: Vec<InstructionValue<'ctx>>,
    teams_fn: Option<FunctionValue<'ctx>>,
    serial: Serialized<'ctx>,
    kernel_level: Vec<FunctionValue<'ctx>>,
    teams_level: Vec<FunctionValue<'ctx>>,
    forks: Vec<InstructionValue<'ctx>>,
    parallel_fns: Vec<FunctionValue<'ctx>>,
    nested: Vec<Nested<'ctx>>,
    serial_nested: Vec<InstructionValue<'ctx>>,
    mode: ExecMode,
}

impl<'ctx> Shape<'ctx> {
    /// The functions of the region by role, as the reduction lowering needs them.
    fn reduction_region(&self) -> reductions::Region<'ctx> {
        reductions::Region {
            kernel: self.kernel_level.clone(),
            teams: self.teams_level.clone(),
            has_teams: self.teams_fn.is_some(),
            parallel: self.parallel_fns.clone(),
            forks: self.forks.clone(),
            serialized: self.serial.team.clone(),
        }
    }
}

fn region_shape<'ctx>(
    device: &Module<'ctx>,
    kernel: FunctionValue<'ctx>,
    loc: Option<SourceLoc>,
) -> Result<Shape<'ctx>, Vec<Diagnostic>> {
    let err = |loc: Option<SourceLoc>, message: String| vec![Diagnostic { loc, message }];
    for p in kernel.get_params() {
        let ok = match p.get_type() {
            BasicTypeEnum::PointerType(_) => true,
            BasicTypeEnum::IntType(t) => t.get_bit_width() == 64,
            _ => false,
        };
        if !ok {
            return Err(err(
                loc,
                format!(
                    "ptxcc does not support a kernel argument of type {}",
                    p.get_type().print_to_string().to_string()
                ),
            ));
        }
    }

    // Each level is the outlined function clang made plus the wrappers it calls (under -g clang
    // puts the body in a `_debug__` function).
    let prefix = ir::fn_name(kernel);
    let calls_in = |fns: &[FunctionValue<'ctx>], name: &str| -> Vec<InstructionValue<'ctx>> {
        fns.iter().flat_map(|f| calls_named(*f, name)).collect()
    };
    let teams_calls = calls_in(&level(kernel, &prefix), FORK_TEAMS);
    if teams_calls.len() > 1 {
        return Err(err(
            loc,
            "more than one 'teams' construct in one target region".into(),
        ));
    }
    let teams_fn = match teams_calls.first() {
        Some(c) => Some(forked_function(*c).ok_or_else(|| {
            err(
                openmp::call_loc(*c),
                "teams region without an outlined function".into(),
            )
        })?),
        None => None,
    };
    // Parallel regions an if clause serialises get functions of their own (one thread); those
    // called from team code are team code.
    let team_roots: Vec<_> = std::iter::once(kernel).chain(teams_fn).collect();
    let serial = clone_serialized_regions(device, &prefix, &team_roots)?;
    let kernel_level = level(kernel, &prefix);
    let teams_level = teams_fn.map(|t| level(t, &prefix)).unwrap_or_default();
    let outer_level = if teams_fn.is_some() {
        &teams_level
    } else {
        &kernel_level
    };
    let forks = calls_in(outer_level, FORK_CALL);
    if teams_fn.is_some() && !calls_in(&kernel_level, FORK_CALL).is_empty() {
        return Err(err(loc, "ptxcc does not support a 'parallel' region outside the 'teams' region of a target region".into()));
    }
    let mut parallel_fns = Vec::new();
    // Parallel regions nested in a parallel region: their threads are lanes of the warp of the
    // thread that forks them (see `lane_levels`).
    let mut nested: Vec<Nested<'ctx>> = Vec::new();
    // Nested regions that run on the forking thread alone.
    let mut serial_nested: Vec<InstructionValue<'ctx>> = Vec::new();
    for fork in &forks {
        let f = forked_function(*fork).ok_or_else(|| {
            err(
                openmp::call_loc(*fork),
                "parallel region without an outlined function".into(),
            )
        })?;
        let worker_level = level(f, &prefix);
        let mut inner = lane_levels(&worker_level, &prefix)?;
        // Worker code that cannot run in every lane of a warp (an atomic update, a call with
        // effects) keeps one thread per worker; its nested regions then run on that thread
        // alone, as LLVM's OpenMP device runtime runs every nested region.
        let obstacle = if inner.is_empty() {
            None
        } else {
            worker_level
                .iter()
                .find_map(|w| check_redundant_code(*w, &worker_level, &loc, Level::Worker).err())
                .and_then(|o| o.into_iter().next())
        };
        let worker_space = if inner.is_empty() || obstacle.is_some() {
            Space::Block
        } else {
            Space::Warps
        };
        for n in &inner {
            let message = match &obstacle {
                None => {
                    let capped = match n.asked {
                        Some(asked) if asked > n.lanes as i64 => format!(" (num_threads({asked}) capped at the warp's {WARP} lanes)"),
                        _ => String::new(),
                    };
                    format!(
                        "nested parallel region: its {} threads are lanes of the warp of the thread that forks it (a worker){capped}; \
                         the worker's code runs in all {WARP} lanes, its stores made by lane 0",
                        n.lanes
                    )
                }
                Some(o) => format!(
                    "nested parallel region (vector loop) runs sequentially in each thread of its parallel region (worker): \
                     the worker's code has {}{}, which every lane of a warp would run",
                    o.what,
                    o.loc.as_ref().map(|l| format!(" at {l}")).unwrap_or_default()
                ),
            };
            crate::remarks::add(device, openmp::call_loc(n.fork).as_ref(), &message);
            let space = if obstacle.is_some() {
                Space::Single
            } else {
                Space::Lanes(n.lanes)
            };
            space.set_all(&n.level);
        }
        worker_space.set_all(&worker_level);
        parallel_fns.extend(worker_level);
        parallel_fns.extend(inner.iter().flat_map(|n| n.level.iter().copied()));
        if obstacle.is_none() {
            nested.append(&mut inner);
        } else {
            serial_nested.extend(inner.iter().map(|n| n.fork));
        }
    }

    // The target and teams levels run in every thread of the block for the team's initial
    // thread: OpenMP's thread queries there see thread 0 of 1 (see thread_space).
    Space::Team.set_all(&kernel_level);
    Space::Team.set_all(&teams_level);
    // A serialised region in a parallel region runs on the thread that meets it, which must be
    // a thread of its own: worker code whose lanes all run it (for its vector loops) cannot.
    for (copies, caller) in &serial.in_parallel {
        if Space::of(*caller) == Space::Warps {
            let at = copies
                .first()
                .and_then(|c| first_loc(*c))
                .or_else(|| loc.clone());
            return Err(err(at, "ptxcc does not support a parallel region serialised by its if clause in a parallel region that also has nested parallel loops".into()));
        }
        Space::Single.set_all(copies);
    }

    let mode = match (teams_fn.is_some(), !forks.is_empty()) {
        (true, true) => ExecMode::Spmd,
        (true, false) => ExecMode::TeamsOnly,
        (false, true) => ExecMode::SpmdOneTeam,
        (false, false) => ExecMode::Single,
    };
    Ok(Shape {
        teams_calls,
        teams_fn,
        serial,
        kernel_level,
        teams_level,
        forks,
        parallel_fns,
        nested,
        serial_nested,
        mode,
    })
}

/// `max_threads`: the most threads a block of the kernel has, when its launch says.
fn form_kernel<'ctx>(
    device: &Module<'ctx>,
    kernel: FunctionValue<'ctx>,
    loc: Option<SourceLoc>,
    max_threads: Option<u32>,
) -> Result<ExecMode, Vec<Diagnostic>> {
    let err = |loc: Option<SourceLoc>, message: String| vec![Diagnostic { loc, message }];
    let shape = region_shape(device, kernel, loc.clone())?;
    let region = shape.reduction_region();
    let Shape {
        teams_calls,
        teams_fn: _,
        serial,
        kernel_level,
        teams_level,
        forks,
        parallel_fns,
        nested,
        serial_nested,
        mode,
    } = shape;

    if mode.has_threads() {
        globalize_shared_locals(device, &forks).map_err(|m| err(loc.clone(), m))?;
    }
    // One copy of a worker's shared locals per warp the block can have.
    let warps = max_threads.map_or(WARP, |t| t.div_ceil(32).clamp(1, WARP));
    for n in &nested {
        globalize_worker_locals(device, n, warps)
            .map_err(|m| err(openmp::call_loc(n.fork).or_else(|| loc.clone()), m))?;
    }
    let mut to_guard = Vec::new();
    let mut worker_guard = Vec::new();
    if mode.has_threads() {
        let mut diags = Vec::new();
        let redundant: Vec<_> = kernel_level.iter().chain(&teams_level).copied().collect();
        for f in &redundant {
            let serialised = serial.team.contains(f);
            // Thread 0 makes the team code's atomic updates and its calls of sequential
            // functions that write memory (a worker's code keeps one thread per worker instead:
            // their result slot would be per warp).
            match check_redundant_code(*f, &redundant, &loc, Level::Team) {
                Ok(mut g) => to_guard.append(&mut g),
                Err(o) => diags.extend(o.into_iter().map(|o| o.diagnostic(serialised))),
            }
        }
        // The code of workers whose vector loops use the lanes runs in every lane of the warp
        // (workers with an obstacle kept one thread above); its stores to memory, including
        // the locals just moved to shared memory, are made by lane 0.
        let workers: Vec<_> = parallel_fns
            .iter()
            .copied()
            .filter(|f| Space::of(*f) == Space::Warps)
            .collect();
        for f in &workers {
            match check_redundant_code(*f, &workers, &loc, Level::Worker) {
                Ok(mut g) => worker_guard.append(&mut g),
                Err(_) => {
                    return Err(vec![internal(anyhow::anyhow!(
                        "worker code of {} changed between its checks",
                        ir::fn_name(*f)
                    ))])
                }
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
    }
    let mode = reductions::lower_reductions(device, &region, mode)?;

    guard_stores(device, &to_guard, Space::Block).map_err(|e| vec![internal(e)])?;
    for store in &to_guard {
        let at = openmp::debug_loc(*store).or_else(|| loc.clone());
        let what = if store.get_opcode() == InstructionOpcode::Store
            || ir::callee_name(*store).is_some_and(|n| n.starts_with("llvm.mem"))
        {
            "store".to_string()
        } else {
            format!("call to '{}'", ir::callee_name(*store).unwrap_or_default())
        };
        crate::remarks::add(
            device,
            at.as_ref(),
            &format!(
                "{what} of the teams code made by thread 0 of each block, followed by a barrier"
            ),
        );
    }
    guard_stores(device, &worker_guard, Space::Warps).map_err(|e| vec![internal(e)])?;
    for store in &worker_guard {
        let at = openmp::debug_loc(*store).or_else(|| loc.clone());
        crate::remarks::add(device, at.as_ref(), "store of the worker code made by lane 0 of the worker's warp, followed by a warp barrier");
    }
    for f in &parallel_fns {
        level_barriers(device, *f).map_err(|e| vec![internal(e)])?;
    }
    // Replace the fork calls by direct calls. A parallel region ends with a barrier when the team
    // has more than one, or when the code after it reads memory (it may read what another
    // thread of the region wrote).
    let several =
        forks.len() > 1 || !to_guard.is_empty() || teams_level.iter().any(|f| reads_memory(*f));
    for c in teams_calls {
        rewrite_fork(device, c, None).map_err(|e| vec![internal(e)])?;
    }
    for c in forks {
        rewrite_fork(device, c, several.then_some(Space::Block)).map_err(|e| vec![internal(e)])?;
    }
    // The worker reads what its lanes wrote (lane 0's reduction result, shared locals).
    for n in &nested {
        rewrite_fork(device, n.fork, Some(Space::Warps)).map_err(|e| vec![internal(e)])?;
    }
    for fork in serial_nested {
        rewrite_fork(device, fork, None).map_err(|e| vec![internal(e)])?;
    }
    Ok(mode)
}

/// `root` and the functions of the same region it calls directly (their names extend the
/// kernel's, e.g. clang's `_debug__` wrappers), without entering forked regions.
fn level<'ctx>(root: FunctionValue<'ctx>, prefix: &str) -> Vec<FunctionValue<'ctx>> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        for (call, name) in ir::calls(out[i]) {
            if let Some(callee) = ir::called_function(call) {
                if callee.count_basic_blocks() > 0
                    && name.starts_with(prefix)
                    && !out.contains(&callee)
                {
                    out.push(callee);
                }
            }
        }
        i += 1;
    }
    out
}

/// Whether `f` loads from memory other than its own locals (and the thread-id slots clang's
/// outlined functions receive as their first two parameters).
fn reads_memory(f: FunctionValue<'_>) -> bool {
    let params: Vec<_> = f.get_params().iter().map(|p| p.as_value_ref()).collect();
    ir::instructions(f).into_iter().any(|i| {
        let ptr = ir::call_arg_raw(i, 0);
        i.get_opcode() == InstructionOpcode::Load
            && !ir::points_to_local(ptr)
            && !matches!(ir::param_behind(ptr, &params), Some(0 | 1))
    })
}

/// Calls reachable from `f` through direct calls to defined functions (including `f`'s own).
fn reachable_calls<'ctx>(f: FunctionValue<'ctx>) -> Vec<(InstructionValue<'ctx>, String)> {
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![f];
    let mut out = Vec::new();
    while let Some(g) = work.pop() {
        if !seen.insert(g.as_value_ref()) {
            continue;
        }
        for (c, n) in ir::calls(g) {
            if let Some(callee) = ir::called_function(c) {
                if callee.count_basic_blocks() > 0 {
                    work.push(callee);
                }
            }
            out.push((c, n));
        }
    }
    out
}

/// `__kmpc_fork_{call,teams}(loc, argc, fn, args...)` → `fn(%gtid, %gtid, args...)`, followed
/// by a barrier of `sync_after`'s threads when given.
fn rewrite_fork(
    device: &Module<'_>,
    call: InstructionValue<'_>,
    sync_after: Option<Space>,
) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let target =
        forked_function(call).ok_or_else(|| anyhow::anyhow!("fork without outlined function"))?;
    let parent = call
        .get_parent()
        .and_then(|bb| bb.get_parent())
        .ok_or_else(|| anyhow::anyhow!("fork call outside a function"))?;
    let builder = ctx.create_builder();
    let entry = parent
        .get_first_basic_block()
        .ok_or_else(|| anyhow::anyhow!("function without entry"))?;
    match entry.get_first_instruction() {
        Some(first) => builder.position_before(&first),
        None => builder.position_at_end(entry),
    }
    let tid = builder.build_alloca(ctx.i32_type(), "ptxcc.gtid")?;
    builder.build_store(tid, ctx.i32_type().const_zero())?;

    builder.position_before(&call);
    let mut args: Vec<BasicMetadataValueEnum<'_>> = vec![tid.into(), tid.into()];
    let all = ir::call_args(call);
    for (i, a) in all.iter().enumerate().skip(3) {
        let _ = i;
        args.push((*a).into());
    }
    if args.len() != target.count_params() as usize {
        anyhow::bail!(
            "fork of {} passes {} arguments for {} parameters",
            ir::fn_name(target),
            args.len(),
            target.count_params()
        );
    }
    let new_call = builder.build_call(target, &args, "")?;
    if let Some(dbg) = call.get_debug_location() {
        if let Some(inst) = new_call.try_as_basic_value().instruction() {
            inst.set_debug_location(Some(dbg));
        }
    }
    if let Some(space) = sync_after {
        space.sync(device, &builder)?;
    }
    ir::erase(call);
    Ok(())
}

/// Removes or lowers the bookkeeping runtime calls everywhere in the device module.
fn lower_bookkeeping(device: &Module<'_>) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let builder = ctx.create_builder();
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            if BOOKKEEPING.contains(&name.as_str()) {
                ir::erase(call);
            } else if name == "__kmpc_global_thread_num" {
                ir::replace_and_erase(call, ctx.i32_type().const_zero().as_value_ref());
            } else if name == "__kmpc_barrier" || name == "__kmpc_barrier_simple_spmd" {
                builder.position_before(&call);
                nvvm::barrier(device, &builder)?;
                ir::erase(call);
            }
        }
    }
    // Declarations of the runtime entry points this pass removed.
    ir::delete_unused_functions(device, |f| {
        f.count_basic_blocks() == 0 && ir::fn_name(f).starts_with("__kmpc_")
    });
    Ok(())
}
