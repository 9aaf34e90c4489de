//! Step 1: NVVM intrinsics, `llvm.trap` and the few inline-PTX idioms → emulator ABI calls.

use std::collections::HashMap;

use anyhow::{bail, Context as _, Result};
use llvm_sys::core::*;
use llvm_sys::{
    LLVMAtomicOrdering, LLVMAtomicRMWBinOp, LLVMIntPredicate, LLVMOpcode, LLVMTypeKind,
};

use super::ir::*;
use super::{abi, BARRIER_REDUCE_SLOT};

/// Lazily declared `__ptxemu_*` functions of ptxcc_abi.h.
pub(crate) struct EmuDecls {
    cache: HashMap<&'static str, Value>,
}

impl EmuDecls {
    pub fn new() -> Self {
        EmuDecls {
            cache: HashMap::new(),
        }
    }

    /// Declare (once) the ABI function `fname` with its signature and attributes.
    pub fn get(&mut self, ir: &Ir, fname: &'static str) -> Result<Value> {
        if let Some(f) = self.cache.get(fname) {
            return Ok(*f);
        }
        let fi = llvm_sys::LLVMAttributeFunctionIndex;
        let ri = llvm_sys::LLVMAttributeReturnIndex;
        let (i32t, void) = (ir.i32(), ir.void());
        let (fnty, attrs, ret_attrs): (Type, &[&str], &[(&str, u64)]) = match fname {
            // The value of a special register never changes during a GPU thread's life: pure.
            abi::SREG => (
                ir.fn_type(i32t, &[i32t], false),
                &["nounwind", "willreturn", "nosync", "speculatable"],
                &[("noundef", 0)],
            ),
            abi::SHARED_BASE => (
                ir.fn_type(ir.ptr(), &[], false),
                &["nounwind", "willreturn", "nosync", "speculatable"],
                &[("noundef", 0), ("nonnull", 0), ("align", 16)],
            ),
            abi::BARRIER => (
                ir.fn_type(void, &[], false),
                &["convergent", "nounwind"],
                &[],
            ),
            abi::WARP_SYNC => (
                ir.fn_type(void, &[i32t], false),
                &["convergent", "nounwind"],
                &[],
            ),
            abi::SHFL_SYNC => (
                ir.fn_type(i32t, &[i32t; 5], false),
                &["convergent", "nounwind"],
                &[],
            ),
            abi::VOTE_SYNC => (
                ir.fn_type(i32t, &[i32t; 3], false),
                &["convergent", "nounwind"],
                &[],
            ),
            abi::TRAP => (
                ir.fn_type(void, &[], false),
                &["noreturn", "nounwind", "cold"],
                &[],
            ),
            _ => bail!("internal error: {fname} is not part of the emulator ABI"),
        };
        let (f, fresh) = ir.get_or_declare(fname, fnty)?;
        if fresh {
            for a in attrs {
                ir.add_fn_attr(f, fi, a, 0)?;
            }
            if fname == abi::SREG || fname == abi::SHARED_BASE {
                ir.add_fn_attr(f, fi, "memory", 0)?; // memory(none)
            }
            for (a, v) in ret_attrs {
                ir.add_fn_attr(f, ri, a, *v)?;
            }
        }
        self.cache.insert(fname, f);
        Ok(f)
    }

    /// Build a call to `fname`; calls to barriers, shuffles and votes are marked `convergent`.
    pub fn call(
        &mut self,
        ir: &Ir,
        fname: &'static str,
        args: &[Value],
        nm: &str,
    ) -> Result<Value> {
        let f = self.get(ir, fname)?;
        let c = ir.call(f, args, nm);
        if matches!(
            fname,
            abi::BARRIER | abi::WARP_SYNC | abi::SHFL_SYNC | abi::VOTE_SYNC
        ) {
            ir.add_call_attr(c, llvm_sys::LLVMAttributeFunctionIndex, "convergent", 0)?;
        }
        Ok(c)
    }

    /// `__ptxemu_sreg(which)` with the `!range` the GPU guarantees for that register.
    pub fn sreg(&mut self, ir: &Ir, which: u32) -> Result<Value> {
        let (nm, lo, hi) = SREGS
            .iter()
            .find(|(_, w, _, _)| *w == which)
            .map(|(n, _, lo, hi)| (*n, *lo, *hi))
            .context("internal error: unknown special register")?;
        let c = self.call(ir, abi::SREG, &[ir.c32(which as u64)], nm)?;
        ir.set_range(c, ir.i32(), lo, hi);
        Ok(c)
    }
}

/// (PTX name, `enum ptxemu_sreg` value, range lo, range hi): the ranges are the CUDA limits that
/// LLVM's NVPTX back end also assumes (NVVMIntrRange); the emulator enforces the same limits.
const SREGS: &[(&str, u32, u64, u64)] = &[
    ("tid.x", 0, 0, 1024),
    ("tid.y", 1, 0, 1024),
    ("tid.z", 2, 0, 64),
    ("ntid.x", 3, 1, 1025),
    ("ntid.y", 4, 1, 1025),
    ("ntid.z", 5, 1, 65),
    ("ctaid.x", 6, 0, 0x7fff_ffff),
    ("ctaid.y", 7, 0, 0xffff),
    ("ctaid.z", 8, 0, 0xffff),
    ("nctaid.x", 9, 1, 0x8000_0000),
    ("nctaid.y", 10, 1, 0x1_0000),
    ("nctaid.z", 11, 1, 0x1_0000),
    ("laneid", 12, 0, 32),
    ("warpsize", 13, 32, 33),
    ("device_num", DEVICE_NUM_SREG, 0, 1 << 16),
];

/// `PTXEMU_DEVICE_NUM`: the emulated device's OpenMP number (`crate::device_number`).
const DEVICE_NUM_SREG: u32 = 14;

const SHFL_MODES: &[(&str, u32)] = &[("idx", 0), ("up", 1), ("down", 2), ("bfly", 3)];
const VOTE_MODES: &[(&str, u32)] = &[("all", 0), ("any", 1), ("uni", 2), ("ballot", 3)];

/// Lower every GPU operation of the module. A `barrier0.{popc,and,or}` creates the hidden
/// shared-memory counter as an `addrspace(3)` global, which step 2 lays out like any other.
pub(crate) fn lower(ir: &Ir, emu: &mut EmuDecls) -> Result<()> {
    let mut work = Vec::new();
    for f in functions(ir.m) {
        for i in insts(f) {
            if is_call_base(i) {
                let callee = called_value(i);
                if callee.is_null() {
                    continue;
                }
                if is_inline_asm(callee) {
                    work.push((i, None));
                } else if is_function(callee) {
                    let n = name(callee);
                    if n.starts_with("llvm.nvvm.") || n == "llvm.trap" || n == "llvm.ubsantrap" {
                        work.push((i, Some(n)));
                    }
                }
            }
        }
    }
    for (call, callee_name) in work {
        if !is_call(call) {
            bail!(
                "{}: GPU operation used as an `invoke`; only `call` is supported",
                describe(call)
            );
        }
        ir.before(call);
        ir.set_debug_loc_from(call);
        let res = match &callee_name {
            Some(n) => lower_intrinsic(ir, emu, call, n),
            None => lower_inline_asm(ir, emu, call),
        };
        ir.clear_debug_loc();
        match res? {
            Replacement::Keep => {}
            Replacement::Value(v) => {
                // The replacement inherits the call's name (`%tid = call @llvm.nvvm...`).
                let nm = name(call);
                if !nm.is_empty() && is_instruction(v) {
                    set_name(call, "");
                    set_name(v, &nm);
                }
                rauw(call, v);
                erase(call);
            }
            Replacement::Nothing => {
                if has_uses(call) {
                    // Only void calls are lowered to "nothing".
                    bail!(
                        "{}: internal error: lowered call still has uses",
                        describe(call)
                    );
                }
                erase(call);
            }
        }
    }
    lower_device_number(ir, emu)?;
    // Drop the NVVM declarations nothing calls any more.
    for f in functions(ir.m) {
        let n = name(f);
        if (n.starts_with("llvm.nvvm.") || n == "llvm.trap" || n == "llvm.ubsantrap")
            && is_declaration(f)
            && !has_live_uses(f)
        {
            delete_global_value(f);
        }
    }
    Ok(())
}

/// Loads of the device-number global (`crate::device_number`) → `__ptxemu_sreg(DEVICE_NUM)`:
/// the emulated devices share this code, so the number is the launching device's register.
fn lower_device_number(ir: &Ir, emu: &mut EmuDecls) -> Result<()> {
    let g = global_vars(ir.m)
        .into_iter()
        .find(|&g| name(g) == crate::device_number::GLOBAL);
    let Some(g) = g else { return Ok(()) };
    for u in users(g) {
        if !is_instruction(u) || opcode(u) != LLVMOpcode::LLVMLoad {
            bail!(
                "internal error: {} is used other than by a load",
                crate::device_number::GLOBAL
            );
        }
        ir.before(u);
        ir.set_debug_loc_from(u);
        let v = emu.sreg(ir, DEVICE_NUM_SREG)?;
        ir.clear_debug_loc();
        rauw(u, v);
        erase(u);
    }
    delete_global_value(g);
    Ok(())
}

enum Replacement {
    /// Leave the instruction as it is.
    Keep,
    /// Replace the call's value by this one and erase it.
    Value(Value),
    /// Erase the (void) call.
    Nothing,
}

fn lower_intrinsic(ir: &Ir, emu: &mut EmuDecls, call: Value, n: &str) -> Result<Replacement> {
    let a = |i: u32| arg(call, i);
    let all_lanes = ir.c32(0xffff_ffff);

    if n == "llvm.trap" || n == "llvm.ubsantrap" {
        emu.call(ir, abi::TRAP, &[], "")?;
        return Ok(Replacement::Nothing);
    }
    let Some(rest) = n.strip_prefix("llvm.nvvm.") else {
        bail!("internal error: {n} is not an NVVM intrinsic");
    };

    if let Some(reg) = rest.strip_prefix("read.ptx.sreg.") {
        return lower_sreg(ir, emu, call, reg).map(Replacement::Value);
    }

    match rest {
        "barrier0" | "barrier.n" | "barrier" | "barrier.sync" | "barrier.sync.cnt" | "bar.sync" => {
            // Named barriers and thread counts have no emulator equivalent; every form is a
            // whole-block barrier, exact for barrier 0 and for counts equal to the block size.
            emu.call(ir, abi::BARRIER, &[], "")?;
            return Ok(Replacement::Nothing);
        }
        "barrier0.popc" | "barrier0.and" | "barrier0.or" => {
            return lower_barrier_reduce(ir, emu, a(0), rest).map(Replacement::Value);
        }
        "bar.warp.sync" => {
            emu.call(ir, abi::WARP_SYNC, &[a(0)], "")?;
            return Ok(Replacement::Nothing);
        }
        "membar.cta" | "membar.gl" | "membar.sys" | "fence.sc.cluster" => {
            unsafe {
                LLVMBuildFence(
                    ir.b,
                    LLVMAtomicOrdering::LLVMAtomicOrderingSequentiallyConsistent,
                    0,
                    c"".as_ptr(),
                )
            };
            return Ok(Replacement::Nothing);
        }
        _ => {}
    }

    if let Some(s) = rest.strip_prefix("shfl.") {
        let (sync, s) = match s.strip_prefix("sync.") {
            Some(s) => (true, s),
            None => (false, s),
        };
        let (mode_name, ty) = s.split_once('.').unwrap_or((s, ""));
        let mode = SHFL_MODES
            .iter()
            .find(|(m, _)| *m == mode_name)
            .map(|(_, v)| *v);
        if let (Some(mode), true) = (mode, matches!(ty, "i32" | "f32" | "i32p" | "f32p")) {
            let (mask, val, b, c) = if sync {
                (a(0), a(1), a(2), a(3))
            } else {
                (all_lanes, a(0), a(1), a(2))
            };
            return lower_shfl(ir, emu, call, mode, mask, val, b, c, ty.ends_with('p'))
                .map(Replacement::Value);
        }
    }

    if let Some(s) = rest.strip_prefix("vote.") {
        let (mode_name, sync) = match s.strip_suffix(".sync") {
            Some(m) => (m, true),
            None => (s, false),
        };
        if let Some(mode) = VOTE_MODES
            .iter()
            .find(|(m, _)| *m == mode_name)
            .map(|(_, v)| *v)
        {
            let (mask, pred) = if sync {
                (a(0), a(1))
            } else {
                (all_lanes, a(0))
            };
            let p = ir.cast(LLVMOpcode::LLVMZExt, pred, ir.i32(), "vote.pred");
            let r = emu.call(ir, abi::VOTE_SYNC, &[mask, p, ir.c32(mode as u64)], "vote")?;
            if mode == 3 {
                return Ok(Replacement::Value(r));
            }
            return Ok(Replacement::Value(ir.icmp(
                LLVMIntPredicate::LLVMIntNE,
                r,
                ir.c32(0),
                "vote.bool",
            )));
        }
    }

    if rest.starts_with("ldg.global.") || rest.starts_with("ldu.global.") {
        // Read-only / uniform loads are plain loads on the host.
        let align = const_int_value(a(1)).unwrap_or(1) as u32;
        let l = ir.load(type_of(call), a(0), align.max(1), "ldg");
        return Ok(Replacement::Value(l));
    }

    if rest.starts_with("ptr.") && (rest.contains(".to.gen") || rest.starts_with("ptr.gen.to.")) {
        let v = a(0);
        let to = type_of(call);
        if type_of(v) == to {
            return Ok(Replacement::Value(v));
        }
        return Ok(Replacement::Value(ir.addrspacecast(v, to, "")));
    }

    bail!(
        "{}: unsupported NVPTX intrinsic @{n}: the emulator ABI (ptxcc_abi.h) has no equivalent",
        describe(call)
    )
}

fn lower_sreg(ir: &Ir, emu: &mut EmuDecls, call: Value, reg: &str) -> Result<Value> {
    if let Some((_, which, _, _)) = SREGS.iter().find(|(n, ..)| *n == reg) {
        return emu.sreg(ir, *which);
    }
    use LLVMOpcode::*;
    let lanemask =
        |ir: &Ir, emu: &mut EmuDecls, base: u64, minus_one: bool, not: bool| -> Result<Value> {
            let lane = emu.sreg(ir, 12)?;
            let mut v = ir.binop(LLVMShl, ir.c32(base), lane, "lanemask");
            if minus_one {
                v = ir.binop(LLVMSub, v, ir.c32(1), "lanemask");
            }
            if not {
                v = ir.binop(LLVMXor, v, ir.c32(0xffff_ffff), "lanemask");
            }
            Ok(v)
        };
    match reg {
        "lanemask.eq" => lanemask(ir, emu, 1, false, false),
        "lanemask.lt" => lanemask(ir, emu, 1, true, false),
        "lanemask.le" => lanemask(ir, emu, 2, true, false),
        "lanemask.ge" => lanemask(ir, emu, 1, true, true),
        "lanemask.gt" => lanemask(ir, emu, 2, true, true),
        "clock" | "clock64" | "globaltimer" => {
            let rc = ir.intrinsic("llvm.readcyclecounter", &[])?;
            let c = ir.call(rc, &[], "clock");
            if int_width(type_of(call)) == Some(64) {
                Ok(c)
            } else {
                Ok(ir.cast(LLVMTrunc, c, type_of(call), "clock32"))
            }
        }
        _ => bail!(
            "{}: unsupported special register %{reg} (@llvm.nvvm.read.ptx.sreg.{reg}): the \
             emulator ABI has no equivalent",
            describe(call)
        ),
    }
}

/// `__syncthreads_count/and/or`: a whole-block reduction through one hidden shared `i32`.
///
/// ```text
/// barrier; store atomic 0 → slot; barrier; atomicrmw add slot, (p != 0); barrier; r = load slot
/// ```
/// The leading barrier keeps a previous reduction's readers ahead of this one's reset.
fn lower_barrier_reduce(ir: &Ir, emu: &mut EmuDecls, pred: Value, which: &str) -> Result<Value> {
    use LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic as Mono;
    let slot_g = match ir.named_global(BARRIER_REDUCE_SLOT) {
        Some(g) => g,
        None => unsafe {
            let c = cstring(BARRIER_REDUCE_SLOT);
            let g = LLVMAddGlobalInAddressSpace(ir.m, ir.i32(), c.as_ptr(), 3);
            LLVMSetInitializer(g, LLVMGetUndef(ir.i32()));
            LLVMSetLinkage(g, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            LLVMSetAlignment(g, 4);
            g
        },
    };
    let slot = ir.addrspacecast(slot_g, ir.ptr(), "reduce.slot");
    emu.call(ir, abi::BARRIER, &[], "")?;
    unsafe {
        let st = LLVMBuildStore(ir.b, ir.c32(0), slot);
        LLVMSetOrdering(st, Mono);
        LLVMSetAlignment(st, 4);
    }
    emu.call(ir, abi::BARRIER, &[], "")?;
    let p = ir.icmp(LLVMIntPredicate::LLVMIntNE, pred, ir.c32(0), "reduce.p");
    let p = ir.cast(LLVMOpcode::LLVMZExt, p, ir.i32(), "reduce.p32");
    unsafe {
        LLVMBuildAtomicRMW(
            ir.b,
            LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAdd,
            slot,
            p,
            Mono,
            0,
        )
    };
    emu.call(ir, abi::BARRIER, &[], "")?;
    let r = ir.load(ir.i32(), slot, 4, "reduce.count");
    unsafe { LLVMSetOrdering(r, Mono) };
    let bool32 = |ir: &Ir, b: Value| ir.cast(LLVMOpcode::LLVMZExt, b, ir.i32(), "reduce");
    match which {
        "barrier0.popc" => Ok(r),
        "barrier0.or" => Ok(bool32(
            ir,
            ir.icmp(LLVMIntPredicate::LLVMIntNE, r, ir.c32(0), "reduce.or"),
        )),
        _ => {
            let x = emu.sreg(ir, 3)?;
            let y = emu.sreg(ir, 4)?;
            let z = emu.sreg(ir, 5)?;
            let xy = ir.binop(LLVMOpcode::LLVMMul, x, y, "ntid.xy");
            let n = ir.binop(LLVMOpcode::LLVMMul, xy, z, "ntid.xyz");
            Ok(bool32(
                ir,
                ir.icmp(LLVMIntPredicate::LLVMIntEQ, r, n, "reduce.and"),
            ))
        }
    }
}

/// `shfl.sync` → `__ptxemu_shfl_sync(mask, bits(v), b, c, mode)`. For the `p` forms the
/// in-range predicate is computed here the way PTX defines it:
///
/// ```text
/// segmask = c[12:8]; maxLane = (lane & segmask) | (c[4:0] & ~segmask); minLane = lane & segmask
/// up: lane - b >= maxLane (signed)   down: lane + b <= maxLane   bfly: lane ^ b <= maxLane
/// idx: minLane | (b[4:0] & ~segmask) <= maxLane
/// ```
#[allow(clippy::too_many_arguments)]
fn lower_shfl(
    ir: &Ir,
    emu: &mut EmuDecls,
    call: Value,
    mode: u32,
    mask: Value,
    val: Value,
    b: Value,
    c: Value,
    with_pred: bool,
) -> Result<Value> {
    use LLVMOpcode::*;
    let is_float = type_kind(type_of(val)) == LLVMTypeKind::LLVMFloatTypeKind;
    let bits = if is_float {
        ir.cast(LLVMBitCast, val, ir.i32(), "shfl.bits")
    } else {
        val
    };
    let r = emu.call(
        ir,
        abi::SHFL_SYNC,
        &[mask, bits, b, c, ir.c32(mode as u64)],
        "shfl",
    )?;
    let r = if is_float {
        ir.cast(LLVMBitCast, r, ir.f32(), "shfl.val")
    } else {
        r
    };
    if !with_pred {
        return Ok(r);
    }
    let lane = emu.sreg(ir, 12)?;
    let c31 = ir.c32(31);
    let cval = ir.binop(LLVMAnd, c, c31, "shfl.cval");
    let seg = ir.binop(LLVMLShr, c, ir.c32(8), "shfl.seg");
    let seg = ir.binop(LLVMAnd, seg, c31, "shfl.segmask");
    let nseg = ir.binop(LLVMXor, seg, ir.c32(0xffff_ffff), "shfl.nseg");
    let min_lane = ir.binop(LLVMAnd, lane, seg, "shfl.minlane");
    let hi = ir.binop(LLVMAnd, cval, nseg, "shfl.hi");
    let max_lane = ir.binop(LLVMOr, min_lane, hi, "shfl.maxlane");
    let bval = ir.binop(LLVMAnd, b, c31, "shfl.bval");
    let pred = match mode {
        1 => {
            let j = ir.binop(LLVMSub, lane, bval, "shfl.src");
            ir.icmp(LLVMIntPredicate::LLVMIntSGE, j, max_lane, "shfl.inrange")
        }
        2 => {
            let j = ir.binop(LLVMAdd, lane, bval, "shfl.src");
            ir.icmp(LLVMIntPredicate::LLVMIntULE, j, max_lane, "shfl.inrange")
        }
        3 => {
            let j = ir.binop(LLVMXor, lane, bval, "shfl.src");
            ir.icmp(LLVMIntPredicate::LLVMIntULE, j, max_lane, "shfl.inrange")
        }
        _ => {
            let lo = ir.binop(LLVMAnd, bval, nseg, "shfl.lo");
            let j = ir.binop(LLVMOr, min_lane, lo, "shfl.src");
            ir.icmp(LLVMIntPredicate::LLVMIntULE, j, max_lane, "shfl.inrange")
        }
    };
    let sty = type_of(call);
    unsafe {
        let agg = LLVMGetPoison(sty);
        let agg = LLVMBuildInsertValue(ir.b, agg, r, 0, c"".as_ptr());
        Ok(LLVMBuildInsertValue(
            ir.b,
            agg,
            pred,
            1,
            c"shfl.pair".as_ptr(),
        ))
    }
}

/// Inline PTX: an empty string (a compiler barrier) stays; `bar.sync 0`, `membar.*`/`fence.*`
/// and `trap` map to the ABI; anything else is an error.
fn lower_inline_asm(ir: &Ir, emu: &mut EmuDecls, call: Value) -> Result<Replacement> {
    let text = inline_asm_string(called_value(call));
    let norm: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(';')
        .trim()
        .to_ascii_lowercase();
    if norm.is_empty() {
        return Ok(Replacement::Keep);
    }
    let void = type_kind(type_of(call)) == LLVMTypeKind::LLVMVoidTypeKind;
    if void {
        let (head, ops) = norm.split_once(' ').unwrap_or((norm.as_str(), ""));
        let first_op = ops.split(',').next().unwrap_or("").trim();
        let bar = head.trim_end_matches(".aligned");
        if matches!(bar, "bar.sync" | "barrier.sync" | "bar" | "barrier") && first_op == "0" {
            emu.call(ir, abi::BARRIER, &[], "")?;
            return Ok(Replacement::Nothing);
        }
        if (head.starts_with("membar.") || head.starts_with("fence."))
            && !head.starts_with("fence.proxy")
        {
            unsafe {
                LLVMBuildFence(
                    ir.b,
                    LLVMAtomicOrdering::LLVMAtomicOrderingSequentiallyConsistent,
                    0,
                    c"".as_ptr(),
                )
            };
            return Ok(Replacement::Nothing);
        }
        if norm == "trap" {
            emu.call(ir, abi::TRAP, &[], "")?;
            return Ok(Replacement::Nothing);
        }
    }
    bail!(
        "{}: inline PTX assembly `{}` cannot run on the emulator",
        describe(call),
        text.trim()
    )
}
