//! Reductions: clang's `__kmpc_reduce_nowait` protocol → GPU trees, run as part of kernel
//! formation (it needs to know which outlined function is the teams and which the parallel level).
//! `ptxcc-opt --passes=reductions` runs it alone: kernel formation's region analysis, then this
//! (`kernel_formation::lower_reductions_alone`; `lit/passes/reductions/`).
//!
//! Clang emits, at the end of each level of a `reduction(op: x)` loop,
//!
//! ```llvm
//! store ptr %x.priv, ptr %red_list                    ; [n x ptr]: this thread's private copies
//! %r = call i32 @__kmpc_reduce_nowait(ptr @loc, i32 %gtid, i32 n, i64 size, ptr %red_list,
//!                                     ptr @combine, ptr @lock)
//! switch i32 %r, label %done [ i32 1, label %plain     ; x = x op x.priv; __kmpc_end_reduce_nowait
//!                              i32 2, label %atomic ]  ; atomicrmw / cmpxchg loop on x
//! ```
//!
//! and the runtime picks who takes which branch. On the GPU every thread of a block runs the
//! code outside parallel regions (SPMD), keeping its own copy of that code's locals; ptxcc keeps
//! those copies equal in all threads, and thread 0's stores are the ones that reach memory
//! (kernel formation guards them). So:
//!
//! * parallel level, destination a local of the forking function (the team's copy of a teams
//!   reduction variable, or a variable of the gang loop body): `__ptxcc_block_reduce_all`
//!   (warp shuffles, then one shared-memory slot per warp) gives every thread the block's
//!   result and all take the plain branch;
//! * parallel level, destination in mapped memory (`target parallel for reduction`): the block
//!   tree, then thread 0 takes the plain branch;
//! * teams level (SPMD): the value is already the block's in every thread; thread 0 takes the
//!   atomic branch: one atomic per block;
//! * teams-only (one thread per block): `%r = 2`.
//!
//! When the atomic branch is not native (it calls a library function, e.g. for `_Complex`),
//! the kernel is launched with a single team instead and thread 0 combines plainly: correct,
//! and reported by the mode the runtime sees. No allocation and no lock is ever used.
//!
//! ```llvm
//! ; teams level after this pass
//! %priv = alloca [2 x i32]                       ; the private values, as words
//! call void @llvm.memcpy(ptr %priv, ptr %x.priv, i64 8)
//! %t0 = call i32 @__ptxcc_block_reduce(ptr %priv, ptr %tmp, i32 2, ptr %lhs, ptr %rhs,
//!                                      ptr @combine, ptr addrspacecast (ptr addrspace(3) @__ptxcc.red_smem to ptr))
//! call void @llvm.memcpy(ptr %x.priv, ptr %priv, i64 8)
//! %r = select i1 %is_t0, i32 2, i32 0
//! ```
use crate::device_rt;
use crate::diagnostics::Diagnostic;
use crate::ir;
use crate::kernel_info::ExecMode;
use crate::openmp;
use crate::thread_space::Space;
use inkwell::module::{Linkage, Module};
use inkwell::values::{AsValueRef, BasicValueEnum, FunctionValue, InstructionValue, PointerValue};
use inkwell::AddressSpace;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use std::collections::HashSet;

/// Where a reduction call sits in the region's structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Kernel,
    Teams,
    Parallel,
    /// A parallel region serialised by its if clause, run as team code (every thread of the
    /// block runs all its iterations, for the team's one thread).
    Serialized,
}

/// The functions of one region, by role.
pub struct Region<'ctx> {
    pub kernel: Vec<FunctionValue<'ctx>>,
    pub teams: Vec<FunctionValue<'ctx>>,
    /// Whether the region has a teams level (`teams` may hold its functions).
    pub has_teams: bool,
    pub parallel: Vec<FunctionValue<'ctx>>,
    /// The `__kmpc_fork_call` sites (before kernel formation rewrites them).
    pub forks: Vec<InstructionValue<'ctx>>,
    /// The functions of `kernel` and `teams` that are serialised parallel regions.
    pub serialized: Vec<FunctionValue<'ctx>>,
}

/// Which threads a reduction tree combines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tree {
    /// Every thread of the block.
    Block,
    /// One value per warp (workers whose lanes run vector loops).
    Warps,
    /// The first n lanes of the calling warp (a vector loop under a worker).
    Lanes(u32),
}

impl Tree {
    fn over(space: Space) -> Tree {
        match space {
            Space::Block | Space::Single | Space::Team => Tree::Block,
            Space::Warps => Tree::Warps,
            Space::Lanes(n) => Tree::Lanes(n),
        }
    }

    /// The device helper, and whether every thread receives the result.
    fn helper(self, all: bool) -> &'static str {
        match (self, all) {
            (Tree::Block, false) => device_rt::BLOCK_REDUCE,
            (Tree::Block, true) => device_rt::BLOCK_REDUCE_ALL,
            (Tree::Warps, false) => device_rt::WARPS_REDUCE,
            (Tree::Warps, true) => device_rt::WARPS_REDUCE_ALL,
            (Tree::Lanes(_), false) => device_rt::LANE_REDUCE,
            (Tree::Lanes(_), true) => device_rt::LANE_REDUCE_ALL,
        }
    }

    fn describe(self) -> String {
        match self {
            Tree::Block => "warp shuffles + shared memory across warps".into(),
            Tree::Warps => "one value per worker (warp), combined through shared memory".into(),
            Tree::Lanes(n) => format!("shuffles across the {n} vector lanes of the worker's warp"),
        }
    }
}

/// What a reduction call is replaced by.
enum Plan {
    /// Every thread takes this branch (0: none, 1: plain, 2: atomic).
    Const(u64),
    /// Thread 0 takes `branch` with its own value, the others none.
    Thread0 { branch: u64 },
    /// Combine over the tree's threads; its first thread takes `branch`, the others none.
    Tree { over: Tree, branch: u64 },
    /// Combine over the tree's threads and give every one the result; all take the plain branch.
    TreeAll { over: Tree },
}

fn is_reduce(name: &str) -> bool {
    name == "__kmpc_reduce_nowait" || name == "__kmpc_reduce"
}

fn is_end_reduce(name: &str) -> bool {
    name == "__kmpc_end_reduce_nowait" || name == "__kmpc_end_reduce"
}

/// Lowers every reduction of the region. Returns the execution mode the kernel needs afterwards
/// (a reduction without native atomics narrows a multi-team kernel to one team).
pub fn lower_reductions<'ctx>(
    device: &Module<'ctx>,
    region: &Region<'ctx>,
    mode: ExecMode,
) -> Result<ExecMode, Vec<Diagnostic>> {
    let mut sites = Vec::new();
    let roles = region
        .kernel
        .iter()
        .map(|k| (*k, Role::Kernel))
        .chain(region.teams.iter().map(|t| (*t, Role::Teams)))
        .chain(region.parallel.iter().map(|p| (*p, Role::Parallel)))
        .map(|(f, role)| {
            if region.serialized.contains(&f) {
                (f, Role::Serialized)
            } else {
                (f, role)
            }
        });
    for (f, role) in roles {
        for (call, name) in ir::calls(f) {
            if is_reduce(&name) {
                sites.push((call, role, f));
            }
        }
    }
    if sites.is_empty() {
        return Ok(mode);
    }
    let original_mode = mode;
    let mut mode = mode;
    let first_loc = sites.first().and_then(|(c, _, _)| openmp::call_loc(*c));
    // Decide first: one non-native atomic narrows the whole kernel, which changes the plans.
    for (call, role, _) in &sites {
        if *role == Role::Teams && !atomic_branch_is_native(*call) {
            mode = match mode {
                ExecMode::Spmd => ExecMode::SpmdOneTeam,
                ExecMode::TeamsOnly => ExecMode::Single,
                m => m,
            };
        }
    }
    if mode != original_mode {
        crate::remarks::add(
            device,
            first_loc.as_ref(),
            "reduction: no native atomic for this type: the region runs as one team",
        );
    }
    let mut diags = Vec::new();
    for (call, role, f) in sites {
        let dest = if matches!(role, Role::Parallel | Role::Serialized) {
            destinations(call, f)
        } else {
            Destinations::Shared
        };
        let plan = match (role, mode) {
            // A nested region on the forking thread alone: it combines into its own copy, or
            // into memory other workers update too.
            (Role::Parallel, _) if Space::of(f) == Space::Single && dest == Destinations::Local => {
                Plan::Const(1)
            }
            (Role::Parallel, _)
                if Space::of(f) == Space::Single && atomic_branch_is_native(call) =>
            {
                Plan::Const(2)
            }
            (Role::Parallel, _) if Space::of(f) == Space::Single => {
                diags.push(Diagnostic {
                    loc: openmp::call_loc(call),
                    message: "ptxcc does not support this reduction (no native atomic for its type) in a nested parallel region \
                              that runs sequentially in each worker"
                        .into(),
                });
                continue;
            }
            (Role::Parallel | Role::Serialized, _) if dest == Destinations::Mixed => {
                diags.push(Diagnostic {
                    loc: openmp::call_loc(call),
                    message: "ptxcc does not support one reduction clause list combining into both variables of the enclosing \
                              region and shared variables; use separate parallel loops for them"
                        .into(),
                });
                continue;
            }
            // Every thread runs the whole region: each combines into its own copy of a team
            // local; thread 0 alone into shared memory (the region ends with a barrier).
            (Role::Serialized, _) if dest == Destinations::Local => Plan::Const(1),
            (Role::Serialized, _) => Plan::Thread0 { branch: 1 },
            // The destination is the enclosing level's local, which every thread keeps a copy
            // of: all threads get the result, so the copies stay the same.
            (Role::Parallel, _) if dest == Destinations::Local => Plan::TreeAll {
                over: Tree::over(Space::of(f)),
            },
            // A shared destination (mapped or shared memory): one combine per tree.
            (Role::Parallel, _) => Plan::Tree {
                over: Tree::over(Space::of(f)),
                branch: 1,
            },
            // The team's value is the same in every thread: thread 0 contributes it.
            (Role::Teams, ExecMode::Spmd) => Plan::Thread0 { branch: 2 },
            (Role::Teams, ExecMode::SpmdOneTeam) => Plan::Thread0 { branch: 1 },
            (Role::Teams, ExecMode::TeamsOnly) => Plan::Const(2),
            (Role::Teams, _) | (Role::Kernel, ExecMode::Single) => Plan::Const(1),
            (Role::Kernel, _) => {
                diags.push(Diagnostic {
                    loc: openmp::call_loc(call),
                    message: "ptxcc does not support this reduction outside a parallel loop of a target region".into(),
                });
                continue;
            }
        };
        let what = match (&plan, role) {
            (Plan::Const(2), _) => "one atomic per team".to_string(),
            (Plan::Const(_), Role::Parallel) => {
                "each thread combines into its team's copy".to_string()
            }
            (Plan::Const(_) | Plan::Thread0 { .. }, Role::Serialized) => {
                "the serialised region's one thread combines".to_string()
            }
            (Plan::Const(_), _) => "combined by the single thread".to_string(),
            (Plan::Thread0 { branch: 2 }, _) => {
                "the block's value added by thread 0 with one atomic per block".to_string()
            }
            (Plan::Thread0 { .. }, _) => {
                "the block's value stored by thread 0 (one team: no atomic)".to_string()
            }
            (
                Plan::Tree {
                    over: over @ Tree::Lanes(_),
                    ..
                },
                _,
            ) => format!("{}; lane 0 combines the worker's value", over.describe()),
            (Plan::Tree { over, .. }, _) => {
                format!("{}; thread 0 combines the block's value", over.describe())
            }
            (
                Plan::TreeAll {
                    over: over @ Tree::Lanes(_),
                },
                _,
            ) => format!(
                "{}; every lane receives the worker's value",
                over.describe()
            ),
            (Plan::TreeAll { over }, _) => format!(
                "{}; every thread receives the block's value",
                over.describe()
            ),
        };
        crate::remarks::add(
            device,
            openmp::call_loc(call).as_ref(),
            &format!("reduction: {what}"),
        );
        if let Err(d) = lower_site(device, call, plan) {
            diags.push(d);
            continue;
        }
        for (end, name) in ir::calls(f) {
            if is_end_reduce(&name) {
                ir::erase(end);
            }
        }
    }
    if diags.is_empty() {
        Ok(mode)
    } else {
        Err(diags)
    }
}

/// Whether the `case 2` branch of the switch on the reduce call's result needs no library call.
fn atomic_branch_is_native(call: InstructionValue<'_>) -> bool {
    let Some(sw) = result_switch(call) else {
        return true;
    };
    unsafe {
        let merge = llvm::LLVMGetSwitchDefaultDest(sw);
        for i in 1..llvm::LLVMGetNumSuccessors(sw) {
            if ir::const_int(llvm::LLVMGetOperand(sw, 2 * i)) == Some(2) {
                return region_has_no_calls(llvm::LLVMGetSuccessor(sw, i), merge);
            }
        }
    }
    true
}

/// Whether the blocks from `start` up to `stop` call only LLVM intrinsics (and clang's
/// `__kmpc_end_reduce`, which the lowering removes: the blocking form closes the atomic branch
/// too).
fn region_has_no_calls(
    start: llvm_sys::prelude::LLVMBasicBlockRef,
    stop: llvm_sys::prelude::LLVMBasicBlockRef,
) -> bool {
    unsafe {
        for bb in ir::blocks_between(start, stop) {
            let mut inst = llvm::LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                if !llvm::LLVMIsACallInst(inst).is_null() {
                    let callee = ir::strip_casts(llvm::LLVMGetCalledValue(inst));
                    if llvm::LLVMIsAFunction(callee).is_null() {
                        return false;
                    }
                    let name = ir::value_name(callee);
                    if !name.starts_with("llvm.") && !is_end_reduce(&name) {
                        return false;
                    }
                }
                inst = llvm::LLVMGetNextInstruction(inst);
            }
        }
    }
    true
}

/// The switch clang built on a reduce call's result, if any.
fn result_switch(call: InstructionValue<'_>) -> Option<LLVMValueRef> {
    ir::users(call.as_value_ref())
        .into_iter()
        .find(|u| unsafe { !llvm::LLVMIsASwitchInst(*u).is_null() })
}

/// The blocks that only run for a reduce call's result 1 or 2 (clang's combine branches).
pub fn combine_blocks(call: InstructionValue<'_>) -> HashSet<llvm_sys::prelude::LLVMBasicBlockRef> {
    let mut out = HashSet::new();
    if let Some(sw) = result_switch(call) {
        unsafe {
            let merge = llvm::LLVMGetSwitchDefaultDest(sw);
            for i in 1..llvm::LLVMGetNumSuccessors(sw) {
                out.extend(ir::blocks_between(llvm::LLVMGetSuccessor(sw, i), merge));
            }
        }
    }
    out
}

/// Sends the switch cases the lowered call can no longer produce to the default destination,
/// so that their code (e.g. library calls of a non-native atomic branch) becomes unreachable.
fn prune_switch_cases(call: InstructionValue<'_>, possible: &[u64]) {
    let Some(sw) = result_switch(call) else {
        return;
    };
    unsafe {
        let merge = llvm::LLVMGetSwitchDefaultDest(sw);
        for i in 1..llvm::LLVMGetNumSuccessors(sw) {
            let v = ir::const_int(llvm::LLVMGetOperand(sw, 2 * i));
            if v.map(|v| !possible.contains(&(v as u64))).unwrap_or(false) {
                llvm::LLVMSetSuccessor(sw, i, merge);
            }
        }
    }
}

/// Where a parallel-level reduction combines into.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Destinations {
    /// Only locals (`alloca`s) of the function that forked the region: each thread owns a
    /// copy, and every thread must receive the result.
    Local,
    /// Only memory the threads share (mapped, global or shared memory): one thread combines.
    Shared,
    /// Both: one reduce call cannot do what each needs.
    Mixed,
}

/// Classifies the variables the combine branches of a reduce call store to (the combine
/// branches' own temporaries, such as the expected value of a compare-exchange loop, are not
/// destinations; array-section combines are traced through their element-loop phis).
fn destinations(call: InstructionValue<'_>, f: FunctionValue<'_>) -> Destinations {
    let params: Vec<LLVMValueRef> = f.get_params().iter().map(|p| p.as_value_ref()).collect();
    let (mut local, mut shared) = (false, false);
    unsafe {
        for bb in combine_blocks(call) {
            let mut inst = llvm::LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                let target = if !llvm::LLVMIsAStoreInst(inst).is_null() {
                    Some(llvm::LLVMGetOperand(inst, 1))
                } else if !llvm::LLVMIsAAtomicRMWInst(inst).is_null()
                    || !llvm::LLVMIsAAtomicCmpXchgInst(inst).is_null()
                {
                    Some(llvm::LLVMGetOperand(inst, 0))
                } else {
                    None
                };
                if let Some(ptr) = target.filter(|p| !ir::points_to_local(*p)) {
                    match ir::param_roots(ptr, &params) {
                        Some(roots)
                            if roots
                                .iter()
                                .all(|i| param_is_local(f.as_value_ref(), *i, 0)) =>
                        {
                            local = true
                        }
                        _ => shared = true,
                    }
                }
                inst = llvm::LLVMGetNextInstruction(inst);
            }
        }
    }
    match (local, shared) {
        (true, false) => Destinations::Local,
        (true, true) => Destinations::Mixed,
        _ => Destinations::Shared,
    }
}

/// Whether every caller passes a local (or, through wrappers, a caller's local) as parameter `index` of `f`.
/// Callers are direct calls and `__kmpc_fork_*` calls, which pass (loc, argc, fn, args...) to an
/// outlined function taking (gtid, btid, args...).
fn param_is_local(f: LLVMValueRef, index: usize, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    let mut sites = 0;
    unsafe {
        for user in ir::users(f) {
            if llvm::LLVMIsACallInst(user).is_null() {
                continue;
            }
            let callee = ir::strip_casts(llvm::LLVMGetCalledValue(user));
            let arg = if callee == f {
                llvm::LLVMGetOperand(user, index as u32)
            } else if ir::value_name(callee).starts_with("__kmpc_fork_")
                && ir::strip_casts(llvm::LLVMGetOperand(user, 2)) == f
                && index >= 2
            {
                llvm::LLVMGetOperand(user, (index + 1) as u32)
            } else {
                continue;
            };
            sites += 1;
            if ir::points_to_local(arg) {
                continue;
            }
            let caller = llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(user));
            let caller_params: Vec<LLVMValueRef> = (0..llvm::LLVMCountParams(caller))
                .map(|i| llvm::LLVMGetParam(caller, i))
                .collect();
            match ir::param_behind(arg, &caller_params) {
                Some(j) if param_is_local(caller, j, depth + 1) => {}
                _ => return false,
            }
        }
    }
    sites > 0
}

/// The private variables a reduce call's list points at, with their sizes in bytes.
fn private_vars(
    device: &Module<'_>,
    call: InstructionValue<'_>,
) -> Result<Vec<(LLVMValueRef, u64)>, String> {
    let n = ir::const_int(ir::call_arg_raw(call, 2))
        .ok_or("reduction variable count is not a constant")? as usize;
    let list = ir::strip_casts(ir::call_arg_raw(call, 4));
    let td = unsafe { llvm_sys::target::LLVMGetModuleDataLayout(device.as_mut_ptr()) };
    let mut vars: Vec<Option<(LLVMValueRef, u64)>> = vec![None; n];
    let vla = "ptxcc does not support reductions over variable-length array sections yet; use a constant-length section";
    unsafe {
        // Every store of a pointer into an element of the list (clang fills it right before the call).
        for u in ir::users(list) {
            let (slot, index) = if !llvm::LLVMIsAGetElementPtrInst(u).is_null() {
                let last = llvm::LLVMGetNumOperands(u) - 1;
                (
                    u,
                    ir::const_int(llvm::LLVMGetOperand(u, last as u32)).unwrap_or(-1),
                )
            } else {
                (list, 0)
            };
            for s in ir::users(slot) {
                if !llvm::LLVMIsAStoreInst(s).is_null()
                    && llvm::LLVMGetOperand(s, 1) == slot
                    && index >= 0
                    && (index as usize) < n
                {
                    let v = ir::strip_casts(llvm::LLVMGetOperand(s, 0));
                    if llvm::LLVMIsAAllocaInst(v).is_null() {
                        return Err(vla.into());
                    }
                    let count = llvm::LLVMGetOperand(v, 0);
                    if ir::const_int(count) != Some(1) {
                        return Err(vla.into());
                    }
                    let size =
                        llvm_sys::target::LLVMABISizeOfType(td, llvm::LLVMGetAllocatedType(v));
                    vars[index as usize] = Some((v, size));
                }
            }
        }
    }
    vars.into_iter()
        .map(|v| {
            v.ok_or_else(|| {
                "ptxcc cannot find the private copy of a reduction variable".to_string()
            })
        })
        .collect()
}

fn lower_site<'ctx>(
    device: &Module<'ctx>,
    call: InstructionValue<'ctx>,
    plan: Plan,
) -> Result<(), Diagnostic> {
    let loc = openmp::call_loc(call);
    let err = |message: String| Diagnostic {
        loc: loc.clone(),
        message,
    };
    let ctx = device.get_context();
    let i32t = ctx.i32_type();
    match plan {
        Plan::Const(v) => {
            prune_switch_cases(call, &[v]);
            ir::replace_and_erase(call, i32t.const_int(v, false).as_value_ref());
            Ok(())
        }
        Plan::Thread0 { branch } => {
            prune_switch_cases(call, &[0, branch]);
            let b = ctx.create_builder();
            b.position_before(&call);
            let r = (|| -> anyhow::Result<_> {
                let tid = crate::nvvm::read_sreg(device, &b, crate::nvvm::SReg::TidX)?;
                let first =
                    b.build_int_compare(inkwell::IntPredicate::EQ, tid, i32t.const_zero(), "")?;
                Ok(b.build_select(
                    first,
                    i32t.const_int(branch, false),
                    i32t.const_zero(),
                    "ptxcc.red.branch",
                )?)
            })()
            .map_err(|e| err(format!("internal error in reduction lowering: {e}")))?;
            ir::replace_and_erase(call, r.as_value_ref());
            Ok(())
        }
        Plan::Tree { over, branch } => {
            prune_switch_cases(call, &[0, branch]);
            let vars = private_vars(device, call).map_err(err)?;
            let helper =
                device_rt::helper(device, over.helper(false)).map_err(|e| err(e.to_string()))?;
            build_tree(device, call, &vars, helper, over, branch)
                .map_err(|e| err(format!("internal error in reduction lowering: {e}")))
        }
        Plan::TreeAll { over } => {
            prune_switch_cases(call, &[1]);
            let vars = private_vars(device, call).map_err(err)?;
            let helper =
                device_rt::helper(device, over.helper(true)).map_err(|e| err(e.to_string()))?;
            build_tree(device, call, &vars, helper, over, 1)
                .map_err(|e| err(format!("internal error in reduction lowering: {e}")))
        }
    }
}

fn build_tree<'ctx>(
    device: &Module<'ctx>,
    call: InstructionValue<'ctx>,
    vars: &[(LLVMValueRef, u64)],
    helper: FunctionValue<'ctx>,
    over: Tree,
    branch: u64,
) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let i32t = ctx.i32_type();
    let i64t = ctx.i64_type();
    let ptr = ctx.ptr_type(AddressSpace::default());
    // Layout: each variable at an 8-byte aligned offset of a word buffer, which ends with the
    // last variable (a lone `float` is one word: one shuffle per tree step, not two).
    let mut offsets = Vec::new();
    let mut end = 0u64;
    for (_, size) in vars {
        let at = end.div_ceil(8) * 8;
        offsets.push(at);
        end = at + size;
    }
    let words = end.div_ceil(4).max(1);
    let words_ty = i32t.array_type(words as u32);
    let list_ty = ptr.array_type(vars.len() as u32);

    let f = call
        .get_parent()
        .and_then(|b| b.get_parent())
        .ok_or_else(|| anyhow::anyhow!("reduce call outside a function"))?;
    let b = ctx.create_builder();
    let entry = f
        .get_first_basic_block()
        .ok_or_else(|| anyhow::anyhow!("no entry block"))?;
    match entry.get_first_instruction() {
        Some(i) => b.position_before(&i),
        None => b.position_at_end(entry),
    }
    let priv_buf = b.build_alloca(words_ty, "ptxcc.red.priv")?;
    let tmp_buf = b.build_alloca(words_ty, "ptxcc.red.tmp")?;
    let lhs = b.build_alloca(list_ty, "ptxcc.red.lhs")?;
    let rhs = b.build_alloca(list_ty, "ptxcc.red.rhs")?;
    priv_buf.as_instruction().map(|i| i.set_alignment(8));
    tmp_buf.as_instruction().map(|i| i.set_alignment(8));

    // The helper's last argument: the lane count, or shared memory for one value per warp.
    let last_arg: BasicValueEnum<'ctx> = match over {
        Tree::Lanes(n) => i32t.const_int(n as u64, false).into(),
        Tree::Block | Tree::Warps => {
            let smem = device.add_global(
                i32t.array_type((32 * words) as u32),
                Some(AddressSpace::from(3u16)),
                "__ptxcc.red_smem",
            );
            smem.set_linkage(Linkage::Internal);
            smem.set_initializer(&i32t.array_type((32 * words) as u32).get_poison());
            smem.set_alignment(8);
            b.position_before(&call);
            b.build_address_space_cast(smem.as_pointer_value(), ptr, "")?
                .into()
        }
    };

    b.position_before(&call);
    let byte_at = |base: PointerValue<'ctx>, off: u64| unsafe {
        b.build_gep(ctx.i8_type(), base, &[i64t.const_int(off, false)], "")
    };
    for (i, ((var, size), off)) in vars.iter().zip(&offsets).enumerate() {
        let var = unsafe { PointerValue::new(*var) };
        let p = byte_at(priv_buf, *off)?;
        let t = byte_at(tmp_buf, *off)?;
        b.build_memcpy(p, 8, var, 1, i64t.const_int(*size, false))
            .map_err(|e| anyhow::anyhow!(e))?;
        let li = unsafe {
            b.build_gep(
                list_ty,
                lhs,
                &[i32t.const_zero(), i32t.const_int(i as u64, false)],
                "",
            )?
        };
        let ri = unsafe {
            b.build_gep(
                list_ty,
                rhs,
                &[i32t.const_zero(), i32t.const_int(i as u64, false)],
                "",
            )?
        };
        b.build_store(li, p)?;
        b.build_store(ri, t)?;
    }
    let combine: BasicValueEnum<'ctx> =
        unsafe { PointerValue::new(ir::strip_casts(ir::call_arg_raw(call, 5))) }.into();
    let is_first = b
        .build_call(
            helper,
            &[
                priv_buf.into(),
                tmp_buf.into(),
                i32t.const_int(words, false).into(),
                lhs.into(),
                rhs.into(),
                combine.into(),
                last_arg.into(),
            ],
            "ptxcc.red.first",
        )?
        .try_as_basic_value()
        .basic()
        .ok_or_else(|| anyhow::anyhow!("block reduce returns nothing"))?
        .into_int_value();
    for ((var, size), off) in vars.iter().zip(&offsets) {
        let var = unsafe { PointerValue::new(*var) };
        let p = byte_at(priv_buf, *off)?;
        b.build_memcpy(var, 1, p, 8, i64t.const_int(*size, false))
            .map_err(|e| anyhow::anyhow!(e))?;
    }
    let first = b.build_int_compare(inkwell::IntPredicate::NE, is_first, i32t.const_zero(), "")?;
    let r = b.build_select(
        first,
        i32t.const_int(branch, false),
        i32t.const_zero(),
        "ptxcc.red.branch",
    )?;
    ir::replace_and_erase(call, r.as_value_ref());
    Ok(())
}
