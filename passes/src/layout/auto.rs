//! Automatic layout selection (`-fptxcc-layout=auto`, issue 18): the directive's machinery with
//! the permutation chosen by the compiler.
//!
//! Host side (`plan_auto`, host IR, before `layout-plan`): every data region (a
//! `__tgt_target_data_begin_mapper` … `__tgt_target_data_end_mapper` pair of one function)
//! whose kernels get a global array of constant shape (rank ≥ 2, scalar elements) is
//! bracketed with the directive's markers, the permutation left to the device side:
//!
//! ```llvm
//! ; before                                               ; after
//! call void @__tgt_target_data_begin_mapper(@1, …)       call void @__ptxcc_layout_begin(ptr @a, i64 0, ptr @d, ptr null, ptr null)
//!                                                        call void @__tgt_target_data_begin_mapper(@1, …)
//! … kernels …                                            … kernels …
//! call void @__tgt_target_data_end_mapper(@1, …)         call void @__tgt_target_data_end_mapper(@1, …)
//!                                                        call void @__ptxcc_layout_end(ptr @a, ptr @d)
//! ; @d = "a;8,6,40,4;auto;x.c:12:1"
//! ```
//!
//! A region that calls a function launching kernels is left alone (those kernels would get the
//! converted copy without being rewritten), and so is an array a `trans` directive already
//! lays out, or a `declare target` one.
//!
//! Device side (`decide`, called by the rewrite for an `auto` description, on the accesses it
//! found in every kernel of the region): for each access whose subscripts are C's
//! per-dimension ones, the derivative of each subscript with respect to the counter of the
//! loop the threads share (the worksharing loop, whose iterations consecutive threads take in
//! turn) says along which dimension consecutive lanes move. The dimension most accesses move
//! along becomes the innermost one (the others keep their order): `a[I][J][K][4]`, lanes
//! along k → `[I][J][4][K]`. Left alone, with the reason in the remark: the array already
//! coalesced (lanes move along the innermost dimension), no access moving along one dimension,
//! accesses that disagree (no dimension for more than half of them), or an address the rewrite
//! cannot follow (safety). Every access counts once (trip counts are not weighed).
use super::desc::{Extent, LayoutDesc};
use super::rewrite::{access_type, dimension_subscripts, rewritable, soa_struct, terms, Access};
use super::{BEGIN, END};
use crate::diagnostics::{Diagnostics, SourceLoc};
use crate::ir;
use crate::ir::opcode;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMTypeRef, LLVMValueRef};
use llvm_sys::target::LLVMTargetDataRef;
use llvm_sys::LLVMOpcode;
use std::collections::{HashMap, HashSet};

const DATA_BEGIN: &str = "__tgt_target_data_begin_mapper";
const DATA_END: &str = "__tgt_target_data_end_mapper";
const LAUNCH: &str = "__tgt_target_kernel";

/// The permutation text of a description the device side decides.
pub const AUTO: &str = "auto";

/// The array behind the offload arrays' pointer operand (`.offload_baseptrs`).
fn offload_array(v: LLVMValueRef) -> LLVMValueRef {
    unsafe {
        let v = ir::strip_casts(v);
        if !llvm::LLVMIsAGetElementPtrInst(v).is_null() {
            return llvm::LLVMGetOperand(v, 0);
        }
        v
    }
}

/// (extents, scalar element type) of an array type of rank ≥ 2.
fn array_shape(mut ty: LLVMTypeRef) -> Option<Vec<u64>> {
    let mut dims = Vec::new();
    unsafe {
        while llvm::LLVMGetTypeKind(ty) == llvm_sys::LLVMTypeKind::LLVMArrayTypeKind {
            dims.push(llvm::LLVMGetArrayLength2(ty));
            ty = llvm::LLVMGetElementType(ty);
        }
        let scalar = matches!(
            llvm::LLVMGetTypeKind(ty),
            llvm_sys::LLVMTypeKind::LLVMDoubleTypeKind
                | llvm_sys::LLVMTypeKind::LLVMFloatTypeKind
                | llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind
        );
        (scalar && dims.len() >= 2 && dims.iter().all(|&d| d > 0)).then_some(dims)
    }
}

/// The extents `auto` describes a global of type `ty` with: an array of rank ≥ 2 of scalars
/// (a transpose candidate) or a one-dimensional array of structs (an SoA candidate; the
/// device side looks at the fields).
fn candidate_shape(ty: LLVMTypeRef) -> Option<Vec<u64>> {
    array_shape(ty).or_else(|| unsafe {
        if llvm::LLVMGetTypeKind(ty) != llvm_sys::LLVMTypeKind::LLVMArrayTypeKind {
            return None;
        }
        let n = llvm::LLVMGetArrayLength2(ty);
        let elem = llvm::LLVMGetElementType(ty);
        (n > 0 && llvm::LLVMGetTypeKind(elem) == llvm_sys::LLVMTypeKind::LLVMStructTypeKind)
            .then(|| vec![n])
    })
}

/// Functions (defined in `host`) that launch a kernel, directly or through calls.
fn launching_functions(host: &Module<'_>) -> HashSet<String> {
    let mut out: HashSet<String> = HashSet::new();
    loop {
        let before = out.len();
        for f in host.get_functions() {
            let name = f.get_name().to_string_lossy().into_owned();
            if out.contains(&name) {
                continue;
            }
            if ir::calls(f)
                .iter()
                .any(|(_, c)| c == LAUNCH || out.contains(c))
            {
                out.insert(name);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// Brackets the data regions of `host` with `auto` layout markers (see the module comment).
/// Returns how many arrays it bracketed.
pub fn plan_auto(host: &Module<'_>) -> Result<usize, Diagnostics> {
    let declared: HashSet<String> = crate::openmp::declared_globals(host)
        .into_iter()
        .map(|g| g.name)
        .collect();
    let launching = launching_functions(host);
    let mut count = 0;
    for f in host.get_functions() {
        let calls = ir::calls(f);
        let laid_out: HashSet<LLVMValueRef> = calls
            .iter()
            .filter(|(_, n)| n == BEGIN)
            .map(|(c, _)| ir::strip_casts(ir::call_arg_raw(*c, 0)))
            .collect();
        for (begin, _) in calls.iter().filter(|(_, n)| n == DATA_BEGIN) {
            let key = offload_array(ir::call_arg_raw(*begin, 3));
            let Some((end, _)) = calls
                .iter()
                .find(|(c, n)| n == DATA_END && offload_array(ir::call_arg_raw(*c, 3)) == key)
            else {
                continue;
            };
            let end_ptr = end.as_value_ref();
            let region = super::host_plan::reachable_until(*begin, |i| i.as_value_ref() == end_ptr);
            let calls_launcher = region
                .iter()
                .any(|&i| ir::callee_name(i).is_some_and(|n| launching.contains(&n)));
            if calls_launcher {
                continue;
            }
            let mut arrays: Vec<LLVMValueRef> = Vec::new();
            for &inst in &region {
                if ir::callee_name(inst).as_deref() != Some(LAUNCH) {
                    continue;
                }
                let kernel = ir::launched_kernel(inst);
                let Some(kf) = host.get_function(&kernel) else {
                    continue;
                };
                for u in ir::users(kf.as_value_ref()) {
                    unsafe {
                        if llvm::LLVMIsACallInst(u).is_null() {
                            continue;
                        }
                        for i in 0..llvm::LLVMGetNumArgOperands(u) {
                            let v = ir::strip_casts(llvm::LLVMGetOperand(u, i));
                            if llvm::LLVMIsAGlobalVariable(v).is_null()
                                || arrays.contains(&v)
                                || laid_out.contains(&v)
                                || declared.contains(&ir::value_name(v))
                            {
                                continue;
                            }
                            if candidate_shape(llvm::LLVMGlobalGetValueType(v)).is_some() {
                                arrays.push(v);
                            }
                        }
                    }
                }
            }
            let loc = crate::openmp::ident_loc(ir::call_arg_raw(*begin, 0)).unwrap_or(SourceLoc {
                file: "<unknown>".into(),
                line: 0,
                col: 0,
            });
            for g in arrays {
                let Some(dims) = candidate_shape(unsafe { llvm::LLVMGlobalGetValueType(g) }) else {
                    continue;
                };
                let desc = LayoutDesc {
                    name: ir::value_name(g),
                    goes_to: (1..=dims.len()).collect(),
                    dims: dims.into_iter().map(Extent::Const).collect(),
                    soa: false,
                    auto: true,
                    loc: loc.clone(),
                };
                insert_markers(host, *begin, *end, g, &desc.encode());
                count += 1;
            }
        }
    }
    Ok(count)
}

fn insert_markers(
    host: &Module<'_>,
    before: InstructionValue<'_>,
    after: InstructionValue<'_>,
    array: LLVMValueRef,
    desc: &str,
) {
    let ctx = host.get_context();
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let i64t = ctx.i64_type();
    let void = ctx.void_type();
    let begin_f = host.get_function(BEGIN).unwrap_or_else(|| {
        host.add_function(
            BEGIN,
            void.fn_type(
                &[ptr.into(), i64t.into(), ptr.into(), ptr.into(), ptr.into()],
                false,
            ),
            None,
        )
    });
    let end_f = host.get_function(END).unwrap_or_else(|| {
        host.add_function(END, void.fn_type(&[ptr.into(), ptr.into()], false), None)
    });
    let s = ctx.const_string(desc.as_bytes(), true);
    let g = host.add_global(s.get_type(), None, ".ptxcc.layout.auto");
    g.set_initializer(&s);
    g.set_constant(true);
    g.set_linkage(inkwell::module::Linkage::Private);
    let null = ptr.const_null().as_value_ref();
    let b = ctx.create_builder();
    unsafe {
        b.position_before(&before);
        let mut args = [
            array,
            i64t.const_zero().as_value_ref(),
            g.as_value_ref(),
            null,
            null,
        ];
        let fty = llvm::LLVMGlobalGetValueType(begin_f.as_value_ref());
        llvm::LLVMBuildCall2(
            b.as_mut_ptr(),
            fty,
            begin_f.as_value_ref(),
            args.as_mut_ptr(),
            5,
            c"".as_ptr(),
        );
        match after.get_next_instruction() {
            Some(next) => b.position_before(&next),
            None => return,
        }
        let mut args = [array, g.as_value_ref()];
        let fty = llvm::LLVMGlobalGetValueType(end_f.as_value_ref());
        llvm::LLVMBuildCall2(
            b.as_mut_ptr(),
            fty,
            end_f.as_value_ref(),
            args.as_mut_ptr(),
            2,
            c"".as_ptr(),
        );
    }
}

/// The counters of the worksharing loops of function `f`: locals incremented in a loop whose
/// first value comes from the bounds loop mapping gives each thread (`ptxcc.lb`).
fn thread_counters(f: LLVMValueRef) -> HashSet<LLVMValueRef> {
    let mut out = HashSet::new();
    let stores: Vec<LLVMValueRef> = unsafe {
        let mut v = Vec::new();
        let mut bb = llvm::LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut i = llvm::LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                if opcode(i) == Some(LLVMOpcode::LLVMStore) {
                    v.push(i);
                }
                i = llvm::LLVMGetNextInstruction(i);
            }
            bb = llvm::LLVMGetNextBasicBlock(bb);
        }
        v
    };
    let stored_into = |slot: LLVMValueRef| -> Vec<LLVMValueRef> {
        stores
            .iter()
            .filter(|&&s| unsafe { llvm::LLVMGetOperand(s, 1) } == slot)
            .map(|&s| unsafe { llvm::LLVMGetOperand(s, 0) })
            .collect()
    };
    // The first value of a worksharing counter comes from the thread's index (tid.x, through
    // the bounds loop mapping computed).
    let from_lb =
        |v: LLVMValueRef| -> bool { reaches_thread_index(v, &stored_into, &mut HashSet::new(), 0) };
    for &s in &stores {
        let (value, slot) = unsafe { (llvm::LLVMGetOperand(s, 0), llvm::LLVMGetOperand(s, 1)) };
        if unsafe { llvm::LLVMIsAAllocaInst(slot).is_null() } || out.contains(&slot) {
            continue;
        }
        // An increment: slot = load(slot) + c.
        let increments = opcode(value) == Some(LLVMOpcode::LLVMAdd)
            && (0..2).any(|k| {
                let o = unsafe { llvm::LLVMGetOperand(value, k) };
                opcode(o) == Some(LLVMOpcode::LLVMLoad)
                    && unsafe { llvm::LLVMGetOperand(o, 0) } == slot
            });
        if increments && stored_into(slot).iter().any(|&v| from_lb(v)) {
            out.insert(slot);
        }
    }
    out
}

/// Does `v` depend on the thread index (`llvm.nvvm.read.ptx.sreg.tid.x`), through
/// instructions and locals?
fn reaches_thread_index(
    v: LLVMValueRef,
    stored_into: &dyn Fn(LLVMValueRef) -> Vec<LLVMValueRef>,
    seen: &mut HashSet<LLVMValueRef>,
    depth: u32,
) -> bool {
    if depth > 48 || !seen.insert(v) {
        return false;
    }
    unsafe {
        if llvm::LLVMIsAInstruction(v).is_null() {
            return false;
        }
        if !llvm::LLVMIsACallInst(v).is_null() {
            let name = ir::callee_name(InstructionValue::new(v)).unwrap_or_default();
            return name.starts_with("llvm.nvvm.read.ptx.sreg.tid.");
        }
        if opcode(v) == Some(LLVMOpcode::LLVMLoad) {
            let slot = llvm::LLVMGetOperand(v, 0);
            return stored_into(slot)
                .into_iter()
                .any(|x| reaches_thread_index(x, stored_into, seen, depth + 1));
        }
        let n = llvm::LLVMGetNumOperands(v);
        (0..n as u32)
            .any(|k| reaches_thread_index(llvm::LLVMGetOperand(v, k), stored_into, seen, depth + 1))
    }
}

/// d(v)/d(counter) where the counters are `ivs`: Some(constant) or None (not affine in a
/// way this analysis follows). Divisions by a constant count as 0 (their quotient moves
/// once in many lanes), remainders keep the dividend's.
fn derivative(
    v: LLVMValueRef,
    ivs: &HashSet<LLVMValueRef>,
    stores: &HashMap<LLVMValueRef, Vec<LLVMValueRef>>,
    visiting: &mut HashSet<LLVMValueRef>,
    depth: u32,
) -> Option<i64> {
    if depth > 64 {
        return None;
    }
    let mut d = |x: LLVMValueRef| derivative(x, ivs, stores, visiting, depth + 1);
    unsafe {
        if !llvm::LLVMIsAConstantInt(v).is_null() || !llvm::LLVMIsAArgument(v).is_null() {
            return Some(0);
        }
        if llvm::LLVMIsAInstruction(v).is_null() {
            return None;
        }
        let op = |k: u32| llvm::LLVMGetOperand(v, k);
        match llvm::LLVMGetInstructionOpcode(v) {
            LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt | LLVMOpcode::LLVMTrunc => d(op(0)),
            LLVMOpcode::LLVMAdd => Some(d(op(0))? + d(op(1))?),
            LLVMOpcode::LLVMSub => Some(d(op(0))? - d(op(1))?),
            LLVMOpcode::LLVMMul => {
                let (a, b) = (op(0), op(1));
                match (ir::const_int(a), ir::const_int(b)) {
                    (_, Some(c)) => Some(c * d(a)?),
                    (Some(c), _) => Some(c * d(b)?),
                    _ => {
                        let (da, db) = (d(a)?, d(b)?);
                        (da == 0 && db == 0).then_some(0)
                    }
                }
            }
            LLVMOpcode::LLVMSDiv | LLVMOpcode::LLVMUDiv => {
                let c = ir::const_int(op(1))?;
                d(op(0))?;
                Some(if c == 1 { d(op(0))? } else { 0 })
            }
            LLVMOpcode::LLVMSRem | LLVMOpcode::LLVMURem => {
                ir::const_int(op(1))?;
                d(op(0))
            }
            LLVMOpcode::LLVMLoad => {
                let slot = op(0);
                if ivs.contains(&slot) {
                    return Some(1);
                }
                // A local being followed already (a counter's update reads it): its other
                // stores say.
                if visiting.contains(&slot) {
                    return Some(0);
                }
                // The stores whose derivative is known must agree: a sequential loop's
                // counter (0, then itself + 1) is 0; a running remainder of the worksharing
                // counter (counter % n, then an update by select) is 1. Memory that is not a
                // local of the function: the same in every lane.
                let values = stores.get(&slot).cloned().unwrap_or_default();
                let known: Vec<i64> = values
                    .into_iter()
                    .filter_map(|x| {
                        visiting.insert(slot);
                        let r = derivative(x, ivs, stores, visiting, depth + 1);
                        visiting.remove(&slot);
                        r
                    })
                    .collect();
                match known.split_first() {
                    None => Some(0),
                    Some((first, rest)) => rest.iter().all(|x| x == first).then_some(*first),
                }
            }
            _ => None,
        }
    }
}

/// One access for the decision: for each dimension, the subscript (None: constant 0).
pub struct Subscripts {
    pub inst: LLVMValueRef,
    pub per_dim: Option<Vec<Option<LLVMValueRef>>>,
}

/// Does an access of the array select a field of a struct (an array of structs)?
fn indexes_struct(accesses: &[Access]) -> bool {
    accesses.iter().any(|a| {
        a.chain.iter().any(|&g| unsafe {
            let mut ty = llvm::LLVMGetGEPSourceElementType(g);
            while llvm::LLVMGetTypeKind(ty) == llvm_sys::LLVMTypeKind::LLVMArrayTypeKind {
                ty = llvm::LLVMGetElementType(ty);
            }
            llvm::LLVMGetTypeKind(ty) == llvm_sys::LLVMTypeKind::LLVMStructTypeKind
        })
    })
}

/// The layout `auto` chooses for `desc` from the accesses the rewrite found (`escape`: the
/// first thing the rewrite could not follow, if any): Ok(the description to rewrite with —
/// a permutation, or `soa` — and the remark) or Err(the remark saying why the array stays).
///
/// A one-dimensional array whose accesses select struct fields is an SoA candidate: seen as
/// the grid `[n][w]` of its structs' `w` fields of `u` bytes, lanes that move along the
/// struct index touch one field `w*u` bytes apart; `soa` (the transpose `[n][w] → [w][n]`)
/// puts them side by side. It stays when the fields differ in size (or are not scalars),
/// when it is accessed other than field by field, when the lanes do not move along the
/// struct index, or when the rewrite cannot follow it.
pub(super) fn choose(
    td: LLVMTargetDataRef,
    desc: &LayoutDesc,
    accesses: &[Access],
    escape: Option<&str>,
) -> Result<(LayoutDesc, String), String> {
    let structs = desc.dims.len() == 1 && indexes_struct(accesses);
    let head = format!(
        "layout: {}{}{}",
        desc.name,
        LayoutDesc::shape_text(&desc.dims),
        if structs { " (structs)" } else { "" }
    );
    if let Some(e) = escape {
        return Err(format!("{head} stays: safety cannot be proved ({e})"));
    }
    if accesses.is_empty() {
        return Err(format!("{head} stays: no kernel of the region accesses it"));
    }
    if !structs {
        let subs: Vec<Subscripts> = accesses
            .iter()
            .map(|a| {
                let (_, elem) = access_type(td, a);
                Subscripts {
                    inst: a.inst,
                    per_dim: terms(td, &a.chain, None)
                        .ok()
                        .and_then(|ts| dimension_subscripts(desc, &ts, elem)),
                }
            })
            .collect();
        let (goes_to, why) = decide(desc, &subs)?;
        let chosen = LayoutDesc {
            goes_to,
            auto: false,
            ..desc.clone()
        };
        rewritable(td, &chosen, accesses, None)
            .map_err(|e| format!("{head} stays: the rewrite cannot take it ({e})"))?;
        return Ok((chosen, why));
    }
    let (w, u) = soa_struct(td, accesses).map_err(|why| format!("{head} stays: {why}"))?;
    // The struct array as the grid [n][w] of its fields.
    let grid = LayoutDesc {
        dims: vec![desc.dims[0], Extent::Const(w)],
        goes_to: vec![1, 2],
        ..desc.clone()
    };
    let whole = accesses.iter().find(|a| access_type(td, a).1 != u);
    if let Some(a) = whole {
        return Err(format!(
            "{head} stays: it is accessed as {}-byte units, not field by field ({u}-byte fields): whole structs \
             copied, say",
            access_type(td, a).1
        ));
    }
    let subs: Vec<Subscripts> = accesses
        .iter()
        .map(|a| Subscripts {
            inst: a.inst,
            per_dim: terms(td, &a.chain, Some((w, u)))
                .ok()
                .and_then(|ts| dimension_subscripts(&grid, &ts, u)),
        })
        .collect();
    let vote = decide_as(&head, &grid, &subs)?;
    let goes_to = vote.goes_to.clone();
    if goes_to != [2, 1] {
        return Err(format!(
            "{head} stays: consecutive threads do not move along the struct index"
        ));
    }
    let soa = LayoutDesc {
        goes_to: Vec::new(),
        soa: true,
        auto: false,
        ..desc.clone()
    };
    let dev = LayoutDesc {
        goes_to,
        auto: false,
        ..grid.clone()
    };
    rewritable(td, &dev, accesses, Some((w, u)))
        .map_err(|e| format!("{head} stays: the rewrite cannot take it ({e})"))?;
    Ok((
        soa,
        format!(
            "{head} -> one array per field, {}{} ({w} fields of {u} bytes; coalesced on the struct index: {} of {} \
             accesses)",
            desc.name,
            LayoutDesc::shape_text(&dev.device_dims()),
            vote.votes,
            vote.total
        ),
    ))
}

/// The decision for one `auto` description: Ok(permutation, 1-based `goes_to`, and the remark)
/// or Err(the remark saying why the array stays).
pub fn decide(desc: &LayoutDesc, accesses: &[Subscripts]) -> Result<(Vec<usize>, String), String> {
    let head = format!(
        "layout: {}{}",
        desc.name,
        LayoutDesc::shape_text(&desc.dims)
    );
    let v = decide_as(&head, desc, accesses)?;
    let chosen = LayoutDesc {
        goes_to: v.goes_to.clone(),
        auto: false,
        ..desc.clone()
    };
    let why = format!(
        "{head} -> {} (coalesced on dimension {}: {} of {} accesses)",
        LayoutDesc::shape_text(&chosen.device_dims()),
        v.dim + 1,
        v.votes,
        v.total
    );
    Ok((v.goes_to, why))
}

/// What the accesses voted for: dimension `dim` goes innermost (`goes_to`), moved along by
/// consecutive threads in `votes` of the `total` accesses.
struct Vote {
    goes_to: Vec<usize>,
    dim: usize,
    votes: usize,
    total: usize,
}

/// `decide`, its remarks starting with `head`.
fn decide_as(head: &str, desc: &LayoutDesc, accesses: &[Subscripts]) -> Result<Vote, String> {
    let rank = desc.dims.len();
    if accesses.is_empty() {
        return Err(format!("{head} stays: no kernel of the region accesses it"));
    }
    let mut ivs_of: HashMap<LLVMValueRef, HashSet<LLVMValueRef>> = HashMap::new();
    let mut stores_of: HashMap<LLVMValueRef, HashMap<LLVMValueRef, Vec<LLVMValueRef>>> =
        HashMap::new();
    let mut votes = vec![0usize; rank];
    for a in accesses {
        let Some(x) = &a.per_dim else {
            continue;
        };
        let f = unsafe { llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(a.inst)) };
        let ivs = ivs_of.entry(f).or_insert_with(|| thread_counters(f));
        let stores = stores_of.entry(f).or_insert_with(|| stores_by_slot(f));
        let derivs: Vec<Option<i64>> = x
            .iter()
            .map(|s| match s {
                None => Some(0),
                Some(v) => derivative(*v, ivs, stores, &mut HashSet::new(), 0),
            })
            .collect();
        let moving: Vec<usize> = (0..rank).filter(|&d| derivs[d] != Some(0)).collect();
        if let [d] = moving.as_slice() {
            if derivs[*d] == Some(1) {
                votes[*d] += 1;
            }
        }
    }
    let total = accesses.len();
    let (best, &n) = votes
        .iter()
        .enumerate()
        .max_by_key(|&(d, &v)| (v, d))
        .unwrap_or((0, &0));
    if n == 0 {
        return Err(format!(
            "{head} stays: in none of its {total} accesses do consecutive threads move along one of its dimensions"
        ));
    }
    if 2 * n <= total {
        return Err(format!(
            "{head} stays: its accesses disagree (consecutive threads move along dimension {} in only {n} of {total})",
            best + 1
        ));
    }
    if best == rank - 1 {
        return Err(format!(
            "{head} stays: already coalesced (consecutive threads move along its innermost dimension in {n} of {total} \
             accesses)"
        ));
    }
    // Dimension `best` goes last; the others keep their order.
    let goes_to: Vec<usize> = (0..rank)
        .map(|d| match d.cmp(&best) {
            std::cmp::Ordering::Less => d + 1,
            std::cmp::Ordering::Equal => rank,
            std::cmp::Ordering::Greater => d,
        })
        .collect();
    Ok(Vote {
        goes_to,
        dim: best,
        votes: n,
        total,
    })
}

fn stores_by_slot(f: LLVMValueRef) -> HashMap<LLVMValueRef, Vec<LLVMValueRef>> {
    let mut out: HashMap<LLVMValueRef, Vec<LLVMValueRef>> = HashMap::new();
    unsafe {
        let mut bb = llvm::LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut i = llvm::LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                if opcode(i) == Some(LLVMOpcode::LLVMStore) {
                    out.entry(llvm::LLVMGetOperand(i, 1))
                        .or_default()
                        .push(llvm::LLVMGetOperand(i, 0));
                }
                i = llvm::LLVMGetNextInstruction(i);
            }
            bb = llvm::LLVMGetNextBasicBlock(bb);
        }
    }
    out
}
