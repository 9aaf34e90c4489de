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
//! by a barrier; calls with unknown effects and atomics there are refused. The execution mode tells the runtime how to launch the kernel:
//! teams + parallel → SPMD, parallel alone → one block, teams alone → one thread per block,
//! plain target → one thread. `__kmpc_barrier` becomes `bar.sync 0`; bookkeeping calls
//! (`__kmpc_global_thread_num`, `__kmpc_push_num_threads`, `__kmpc_for_static_fini`, …) go away
//! because the launch configuration carries that information.
use crate::diagnostics::{Diagnostic, Diagnostics, SourceLoc};
use crate::ir;
use crate::kernel_info::{self, ExecMode, KernelInfo};
use crate::nvvm;
use crate::openmp::{self, OffloadEntries};
use crate::reductions;
use crate::thread_space::{Space, WARP};
use inkwell::module::Module;
use inkwell::types::{AsTypeRef, BasicTypeEnum};
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, FunctionValue, InstructionOpcode, InstructionValue};
use llvm_sys::core as llvm;
use std::collections::HashMap;

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

/// Forms a kernel from every offload entry of `device`. `locs` gives the source location of each
/// kernel when the host module knew it (the driver passes them; `ptxcc-opt` may not).
pub fn form_kernels(
    device: &Module<'_>,
    entries: &OffloadEntries,
    locs: &HashMap<String, SourceLoc>,
) -> Result<Vec<KernelInfo>, Diagnostics> {
    let mut diags = Vec::new();
    let mut infos = Vec::new();
    for entry in &entries.kernels {
        let Some(kernel) = device.get_function(&entry.name) else {
            diags.push(Diagnostic { loc: None, message: format!("offload region '{}' has no function in the device module", entry.name) });
            continue;
        };
        let loc = locs.get(&entry.name).cloned().or_else(|| first_loc(kernel));
        match form_kernel(device, kernel, loc.clone()) {
            Ok(mode) => {
                crate::remarks::add(device, loc.as_ref(), &format!("target region compiled to kernel {}: {}", entry.name, mode.explain()));
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

fn internal(e: anyhow::Error) -> Diagnostic {
    Diagnostic { loc: None, message: format!("internal error in kernel formation: {e}") }
}

/// The first source location found in a function (an ident_t of a runtime call, or a debug location).
fn first_loc(f: FunctionValue<'_>) -> Option<SourceLoc> {
    ir::calls(f)
        .into_iter()
        .find_map(|(c, n)| if n.starts_with("__kmpc") { openmp::call_loc(c) } else { None })
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
    ir::calls(f).into_iter().filter(|(_, n)| n == name).map(|(c, _)| c).collect()
}

fn form_kernel<'ctx>(device: &Module<'ctx>, kernel: FunctionValue<'ctx>, loc: Option<SourceLoc>) -> Result<ExecMode, Vec<Diagnostic>> {
    let err = |loc: Option<SourceLoc>, message: String| vec![Diagnostic { loc, message }];
    for p in kernel.get_params() {
        let ok = match p.get_type() {
            BasicTypeEnum::PointerType(_) => true,
            BasicTypeEnum::IntType(t) => t.get_bit_width() == 64,
            _ => false,
        };
        if !ok {
            return Err(err(loc, format!("ptxcc does not support a kernel argument of type {}", p.get_type().print_to_string().to_string())));
        }
    }

    // Each level is the outlined function clang made plus the wrappers it calls (under -g clang
    // puts the body in a `_debug__` function).
    let prefix = ir::fn_name(kernel);
    let kernel_level = level(kernel, &prefix);
    let calls_in = |fns: &[FunctionValue<'ctx>], name: &str| -> Vec<InstructionValue<'ctx>> { fns.iter().flat_map(|f| calls_named(*f, name)).collect() };
    let teams_calls = calls_in(&kernel_level, FORK_TEAMS);
    if teams_calls.len() > 1 {
        return Err(err(loc, "more than one 'teams' construct in one target region".into()));
    }
    let teams_fn = match teams_calls.first() {
        Some(c) => Some(forked_function(*c).ok_or_else(|| err(openmp::call_loc(*c), "teams region without an outlined function".into()))?),
        None => None,
    };
    let teams_level = teams_fn.map(|t| level(t, &prefix)).unwrap_or_default();
    let outer_level = if teams_fn.is_some() { &teams_level } else { &kernel_level };
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
        let f = forked_function(*fork).ok_or_else(|| err(openmp::call_loc(*fork), "parallel region without an outlined function".into()))?;
        let worker_level = level(f, &prefix);
        let mut inner = lane_levels(&worker_level, &prefix)?;
        // Worker code that cannot run in every lane of a warp (an atomic update, a call with
        // effects) keeps one thread per worker; its nested regions then run on that thread
        // alone, as LLVM's OpenMP device runtime runs every nested region.
        let obstacle = if inner.is_empty() {
            None
        } else {
            worker_level.iter().find_map(|w| check_redundant_code(*w, &worker_level, &loc).err()).and_then(|o| o.into_iter().next())
        };
        let worker_space = match &obstacle {
            None if !inner.is_empty() => Space::Warps,
            _ => Space::Block,
        };
        if let Some(o) = &obstacle {
            for n in &inner {
                crate::remarks::add(
                    device,
                    openmp::call_loc(n.fork).as_ref(),
                    &format!(
                        "nested parallel region (vector loop) runs sequentially in each thread of its parallel region (worker): \
                         the worker's code has {}{}, which every lane of a warp would run",
                        o.what,
                        o.loc.as_ref().map(|l| format!(" at {l}")).unwrap_or_default()
                    ),
                );
            }
        }
        if obstacle.is_none() {
            for n in &inner {
                let capped = match n.asked {
                    Some(asked) if asked > n.lanes as i64 => format!(" (num_threads({asked}) capped at the warp's {WARP} lanes)"),
                    _ => String::new(),
                };
                crate::remarks::add(
                    device,
                    openmp::call_loc(n.fork).as_ref(),
                    &format!(
                        "nested parallel region: its {} threads are lanes of the warp of the thread that forks it (a worker){capped}; \
                         the worker's code runs in all {WARP} lanes, its stores made by lane 0",
                        n.lanes
                    ),
                );
            }
        }
        worker_space.set_all(&worker_level);
        parallel_fns.extend(worker_level);
        for n in &inner {
            let space = if obstacle.is_some() { Space::Single } else { Space::Lanes(n.lanes) };
            space.set_all(&n.level);
            parallel_fns.extend(n.level.iter().copied());
        }
        if obstacle.is_none() {
            nested.append(&mut inner);
        } else {
            serial_nested.extend(inner.iter().map(|n| n.fork));
        }
    }

    let mode = match (teams_fn.is_some(), !forks.is_empty()) {
        (true, true) => ExecMode::Spmd,
        (true, false) => ExecMode::TeamsOnly,
        (false, true) => ExecMode::SpmdOneTeam,
        (false, false) => ExecMode::Single,
    };

    if mode.has_threads() {
        globalize_shared_locals(device, &forks).map_err(|m| err(loc.clone(), m))?;
    }
    for n in &nested {
        globalize_worker_locals(device, n).map_err(|m| err(openmp::call_loc(n.fork).or_else(|| loc.clone()), m))?;
    }
    let mut to_guard = Vec::new();
    let mut worker_guard = Vec::new();
    if mode.has_threads() {
        let mut diags = Vec::new();
        let redundant: Vec<_> = kernel_level.iter().chain(&teams_level).copied().collect();
        for f in &redundant {
            match check_redundant_code(*f, &redundant, &loc) {
                Ok(mut g) => to_guard.append(&mut g),
                Err(o) => diags.extend(o.into_iter().map(|o| o.diagnostic(Redundant::TeamCode))),
            }
        }
        // The code of workers whose vector loops use the lanes runs in every lane of the warp.
        let workers: Vec<_> = parallel_fns.iter().copied().filter(|f| Space::of(*f) == Space::Warps).collect();
        for f in &workers {
            match check_redundant_code(*f, &workers, &loc) {
                Ok(mut g) => worker_guard.append(&mut g),
                Err(o) => diags.extend(o.into_iter().map(|o| o.diagnostic(Redundant::WorkerCode))),
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
    }
    let region = reductions::Region {
        kernel: kernel_level.clone(),
        teams: teams_level.clone(),
        has_teams: teams_fn.is_some(),
        parallel: parallel_fns.clone(),
        forks: forks.clone(),
    };
    let mode = reductions::lower_reductions(device, &region, mode)?;

    guard_stores(device, &to_guard, Space::Block).map_err(|e| vec![internal(e)])?;
    for store in &to_guard {
        let at = openmp::debug_loc(*store).or_else(|| loc.clone());
        crate::remarks::add(device, at.as_ref(), "store of the teams code made by thread 0 of each block, followed by a barrier");
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
    let several = forks.len() > 1 || !to_guard.is_empty() || teams_level.iter().any(|f| reads_memory(*f));
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

/// A parallel region nested in a parallel region of the target region.
struct Nested<'ctx> {
    /// Its `__kmpc_fork_call`.
    fork: InstructionValue<'ctx>,
    /// Its outlined function and wrappers.
    level: Vec<FunctionValue<'ctx>>,
    /// Its number of threads: lanes of the forking thread's warp.
    lanes: u32,
    /// The number of threads it asked for (`num_threads`), if it did.
    asked: Option<i64>,
}

/// The parallel regions the worker code (`worker_level`, a parallel region's functions) forks.
///
/// Each thread of such a region becomes a lane of the forking thread's warp: the forking
/// region's threads are then warps (`Space::Warps`), all 32 lanes running the worker code, and
/// the nested region's `num_threads(n)` (at most 32; 32 without the clause) are the first n
/// lanes (`Space::Lanes(n)`). This is OpenACC's `worker` / `vector` pair (the front end makes a
/// vector loop inside a worker loop such a region); no deeper nesting is possible.
fn lane_levels<'ctx>(worker_level: &[FunctionValue<'ctx>], prefix: &str) -> Result<Vec<Nested<'ctx>>, Vec<Diagnostic>> {
    let err = |at: InstructionValue<'_>, message: &str| vec![Diagnostic { loc: openmp::call_loc(at), message: message.to_string() }];
    let mut out = Vec::new();
    for f in worker_level {
        for (call, name) in ir::calls(*f) {
            if name == FORK_TEAMS {
                return Err(err(call, "ptxcc does not support a 'teams' construct inside a parallel region"));
            }
            if name != FORK_CALL {
                continue;
            }
            let g = forked_function(call).ok_or_else(|| err(call, "parallel region without an outlined function"))?;
            if let Some((inner, _)) = reachable_calls(g).into_iter().find(|(_, n)| n == FORK_CALL || n == FORK_TEAMS) {
                return Err(err(
                    inner,
                    "ptxcc supports two levels of parallel regions in a target region (workers and their vector lanes); this one is a third",
                ));
            }
            let (lanes, asked) = requested_lanes(call)?;
            out.push(Nested { fork: call, level: level(g, prefix), lanes, asked });
        }
    }
    // A parallel region further down the calls (in a function the worker code calls) would be
    // entered by every lane.
    for f in worker_level {
        for (call, name) in reachable_calls(*f) {
            if (name == FORK_CALL || name == FORK_TEAMS) && !out.iter().any(|n| n.fork == call) {
                return Err(err(call, "ptxcc does not support a parallel region in a function called from a parallel region of a target region"));
            }
        }
    }
    Ok(out)
}

/// The number of lanes a nested fork gets, and the number it asked for: clang's
/// `__kmpc_push_num_threads(loc, gtid, n)` right before it; 32 (the warp) without one.
fn requested_lanes(fork: InstructionValue<'_>) -> Result<(u32, Option<i64>), Vec<Diagnostic>> {
    let mut inst = fork.get_previous_instruction();
    while let Some(i) = inst {
        match ir::callee_name(i).as_deref() {
            Some("__kmpc_push_num_threads") => {
                return match ir::const_int(ir::call_arg_raw(i, 2)) {
                    Some(n) if n >= 1 => Ok((n.min(WARP as i64) as u32, Some(n))),
                    _ => Err(vec![Diagnostic {
                        loc: openmp::call_loc(i).or_else(|| openmp::call_loc(fork)),
                        message: "ptxcc needs a constant, positive num_threads on a parallel region nested in a parallel region of a target region: its threads are lanes of a warp (at most 32)".into(),
                    }]),
                };
            }
            Some(FORK_CALL) => break,
            _ => {}
        }
        inst = i.get_previous_instruction();
    }
    Ok((WARP, None))
}

/// `__kmpc_barrier` (an `omp barrier`, the end of a `for` without `nowait`) synchronises the
/// threads of its region: in a lane level the lanes of one warp, in a nested region that runs
/// on one thread nothing. (Elsewhere `lower_bookkeeping` makes it `bar.sync 0`.)
fn level_barriers(device: &Module<'_>, f: FunctionValue<'_>) -> anyhow::Result<()> {
    let space = Space::of(f);
    if !matches!(space, Space::Lanes(_) | Space::Single) {
        return Ok(());
    }
    let b = device.get_context().create_builder();
    for (call, name) in ir::calls(f) {
        if name == "__kmpc_barrier" || name == "__kmpc_barrier_simple_spmd" {
            b.position_before(&call);
            space.sync(device, &b)?;
            ir::erase(call);
        }
    }
    Ok(())
}

/// `root` and the functions of the same region it calls directly (their names extend the
/// kernel's, e.g. clang's `_debug__` wrappers), without entering forked regions.
fn level<'ctx>(root: FunctionValue<'ctx>, prefix: &str) -> Vec<FunctionValue<'ctx>> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        for (call, name) in ir::calls(out[i]) {
            if let Some(callee) = ir::called_function(call) {
                if callee.count_basic_blocks() > 0 && name.starts_with(prefix) && !out.contains(&callee) {
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

/// Runtime calls allowed in the code every thread runs redundantly.
fn allowed_in_redundant_code(name: &str) -> bool {
    name == FORK_CALL
        || name == FORK_TEAMS
        || name == "__kmpc_global_thread_num"
        || name == "__kmpc_barrier"
        || name.starts_with("__kmpc_for_static_init")
        || name.starts_with("__kmpc_dist_for_static_init")
        || name.starts_with("__kmpc_distribute_static_init")
        || name.starts_with("__kmpc_reduce")
        || name.starts_with("__kmpc_end_reduce")
        || BOOKKEEPING.contains(&name)
        || name.starts_with("llvm.lifetime.")
        || name.starts_with("llvm.dbg.")
        || name.starts_with("llvm.smin")
        || name.starts_with("llvm.smax")
        || name.starts_with("llvm.umin")
        || name.starts_with("llvm.umax")
}

/// Code that several threads run redundantly, keeping equal copies of its locals.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Redundant {
    /// The target and teams levels: every thread of the block.
    TeamCode,
    /// A worker (parallel region) whose vector loops (nested parallel regions) use the lanes
    /// of its warp: every lane of the warp.
    WorkerCode,
}

/// Code outside the parallel region runs in every thread in SPMD mode. It may compute and keep
/// locals (every thread has the same copies); its writes to memory are made by thread 0 only
/// (see `guard_stores`); anything else (calls with unknown effects, atomics) is refused.
/// Returns the stores and memory intrinsics to guard.
fn check_redundant_code<'ctx>(
    f: FunctionValue<'ctx>,
    same_level: &[FunctionValue<'ctx>],
    kernel_loc: &Option<SourceLoc>,
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
struct Obstacle {
    loc: Option<SourceLoc>,
    what: String,
}

impl Obstacle {
    fn diagnostic(self, kind: Redundant) -> Diagnostic {
        let what = self.what;
        let message = match kind {
            Redundant::TeamCode => format!(
                "ptxcc does not support {what} between 'target teams' and its parallel loop; \
                 move it into the loop or use a combined 'target teams distribute parallel for'"
            ),
            Redundant::WorkerCode => format!(
                "ptxcc does not support {what} in a worker loop outside its vector loop \
                 (every lane of the worker's warp runs that code); move it into the vector loop"
            ),
        };
        Diagnostic { loc: self.loc, message }
    }
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
fn globalize_shared_locals(device: &Module<'_>, forks: &[InstructionValue<'_>]) -> Result<(), String> {
    let mut locals: Vec<llvm_sys::prelude::LLVMValueRef> = Vec::new();
    for fork in forks {
        let n = unsafe { llvm::LLVMGetNumArgOperands(fork.as_value_ref()) };
        let written = forked_function(*fork).map(|g| written_params(g, 0));
        for i in 3..n {
            // Fork operand i is the outlined function's parameter i - 1 (after gtid and btid).
            if written.as_ref().is_some_and(|w| !w.contains(&(i as usize - 1))) {
                continue;
            }
            let mut v = ir::call_arg_raw(*fork, i);
            unsafe {
                for _ in 0..16 {
                    v = ir::strip_casts(v);
                    if !llvm::LLVMIsAGetElementPtrInst(v).is_null() || !llvm::LLVMIsACastInst(v).is_null() {
                        v = llvm::LLVMGetOperand(v, 0);
                    } else {
                        break;
                    }
                }
                if !llvm::LLVMIsAAllocaInst(v).is_null() && !locals.contains(&v) {
                    locals.push(v);
                }
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
            bytes += llvm_sys::target::LLVMABISizeOfType(llvm_sys::target::LLVMGetModuleDataLayout(device.as_mut_ptr()), ty);
            if bytes > MAX_TEAM_SHARED_BYTES {
                return Err(format!(
                    "the variables of the teams code shared with its parallel loop need more than {MAX_TEAM_SHARED_BYTES} bytes of shared memory; \
                     declare large arrays outside the target region and map them"
                ));
            }
            let name = std::ffi::CString::new(format!("__ptxcc.team.{}", ir::value_name(a))).unwrap_or_default();
            let g = llvm::LLVMAddGlobalInAddressSpace(device.as_mut_ptr(), ty, name.as_ptr(), 3);
            llvm::LLVMSetLinkage(g, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            llvm::LLVMSetInitializer(g, llvm::LLVMGetPoison(ty));
            llvm::LLVMSetAlignment(g, llvm::LLVMGetAlignment(a).max(8));
            let generic = llvm::LLVMConstAddrSpaceCast(g, llvm::LLVMPointerTypeInContext(llvm::LLVMGetModuleContext(device.as_mut_ptr()), 0));
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
fn globalize_worker_locals(device: &Module<'_>, nested: &Nested<'_>) -> Result<(), String> {
    let Some(g) = forked_function(nested.fork) else { return Ok(()) };
    let written = written_params(g, 0);
    let mut locals: Vec<llvm_sys::prelude::LLVMValueRef> = Vec::new();
    let n = unsafe { llvm::LLVMGetNumArgOperands(nested.fork.as_value_ref()) };
    for i in 3..n {
        // Fork operand i is the outlined function's parameter i - 1 (after gtid and btid).
        if !written.contains(&(i as usize - 1)) {
            continue;
        }
        if let Some(a) = root_alloca(ir::call_arg_raw(nested.fork, i)) {
            if !locals.contains(&a) {
                locals.push(a);
            }
        }
    }
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
            let per_warp = llvm::LLVMArrayType2(ty, WARP as u64);
            bytes += llvm_sys::target::LLVMABISizeOfType(td, per_warp);
            if bytes > MAX_WORKER_SHARED_BYTES {
                return Err(format!(
                    "the variables of a worker loop that its vector loop writes need more than {MAX_WORKER_SHARED_BYTES} bytes of shared memory \
                     ({WARP} copies, one per worker); declare large arrays outside the target region and map them"
                ));
            }
            let name = std::ffi::CString::new(format!("__ptxcc.worker.{}", ir::value_name(a))).unwrap_or_default();
            let global = llvm::LLVMAddGlobalInAddressSpace(device.as_mut_ptr(), per_warp, name.as_ptr(), 3);
            llvm::LLVMSetLinkage(global, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            llvm::LLVMSetInitializer(global, llvm::LLVMGetPoison(per_warp));
            llvm::LLVMSetAlignment(global, llvm::LLVMGetAlignment(a).max(8));
            let b = ctx.create_builder();
            b.position_before(&InstructionValue::new(a));
            let tid = nvvm::read_sreg(device, &b, nvvm::SReg::TidX).map_err(|e| e.to_string())?;
            let warp = b.build_right_shift(tid, i32t.const_int(5, false), false, "ptxcc.worker").map_err(|e| e.to_string())?;
            let mut idx = [i32t.const_zero().as_value_ref(), warp.as_value_ref()];
            let slot = llvm::LLVMBuildInBoundsGEP2(b.as_mut_ptr(), per_warp, global, idx.as_mut_ptr(), 2, c"".as_ptr());
            let generic = llvm::LLVMBuildAddrSpaceCast(b.as_mut_ptr(), slot, ctx.ptr_type(inkwell::AddressSpace::default()).as_type_ref(), name.as_ptr());
            llvm::LLVMReplaceAllUsesWith(a, generic);
            llvm::LLVMInstructionEraseFromParent(a);
        }
    }
    Ok(())
}

/// Static shared memory the worker-level variables may take.
const MAX_WORKER_SHARED_BYTES: u64 = 16 << 10;

/// The `alloca` a pointer is (a GEP or cast of), if any.
fn root_alloca(mut v: llvm_sys::prelude::LLVMValueRef) -> Option<llvm_sys::prelude::LLVMValueRef> {
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
    let behind = |v| ir::param_behind(v, &params);
    for inst in ir::instructions(f) {
        if inst.get_parent().is_some_and(|b| combine.contains(&b.as_mut_ptr())) {
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
            InstructionOpcode::AtomicRMW | InstructionOpcode::AtomicCmpXchg => out.extend(behind(op(0))),
            InstructionOpcode::Call | InstructionOpcode::Invoke => {
                let name = ir::callee_name(inst).unwrap_or_default();
                let nargs = unsafe { llvm::LLVMGetNumArgOperands(inst.as_value_ref()) };
                if name.starts_with("llvm.memcpy") || name.starts_with("llvm.memmove") || name.starts_with("llvm.memset") {
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
                } else if name.starts_with("llvm.") || runtime_call_keeps_arguments(&name) {
                    // Intrinsics without stores through arguments; the worksharing and
                    // reduction calls take the region's own bookkeeping locals.
                } else if let Some(callee) = ir::called_function(inst).filter(|c| c.count_basic_blocks() > 0) {
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

/// OpenMP runtime calls that write through no pointer a region receives: their pointer
/// arguments are the region's own bookkeeping locals (loop bounds, reduction lists).
fn runtime_call_keeps_arguments(name: &str) -> bool {
    name.starts_with("__kmpc_for_static_init")
        || name.starts_with("__kmpc_dist_for_static_init")
        || name.starts_with("__kmpc_distribute_static_init")
        || name.starts_with("__kmpc_reduce")
        || name.starts_with("__kmpc_end_reduce")
        || name == "__kmpc_global_thread_num"
        || name == "__kmpc_barrier"
        || BOOKKEEPING.contains(&name)
}

/// Static shared memory the team-level variables may take (of the 48 KiB a block has).
const MAX_TEAM_SHARED_BYTES: u64 = 32 << 10;

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
fn guard_stores(device: &Module<'_>, stores: &[InstructionValue<'_>], space: Space) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    for inst in stores {
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

/// `__kmpc_fork_{call,teams}(loc, argc, fn, args...)` → `fn(%gtid, %gtid, args...)`, followed
/// by a barrier of `sync_after`'s threads when given.
fn rewrite_fork(device: &Module<'_>, call: InstructionValue<'_>, sync_after: Option<Space>) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let target = forked_function(call).ok_or_else(|| anyhow::anyhow!("fork without outlined function"))?;
    let parent = call
        .get_parent()
        .and_then(|bb| bb.get_parent())
        .ok_or_else(|| anyhow::anyhow!("fork call outside a function"))?;
    let builder = ctx.create_builder();
    let entry = parent.get_first_basic_block().ok_or_else(|| anyhow::anyhow!("function without entry"))?;
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
    ir::delete_unused_functions(device, |f| f.count_basic_blocks() == 0 && ir::fn_name(f).starts_with("__kmpc_"));
    Ok(())
}
