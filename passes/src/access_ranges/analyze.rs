//! The analysis of one split kernel (see the module above), on the simplified clone.
//!
//! Every value an address is computed from is expressed as a [`Poly`] over the kernel's
//! scalar arguments and the variables of a [`Table`]: the split loop's iteration (a header phi
//! that starts at a value loaded from the lower-bound slot of the split loop's static-init call
//! and runs to one loaded from its upper-bound slot; the calls of the `parallel for` inside
//! take their bounds from the `distribute` call's, through the outlined functions' arguments),
//! `i / d` and `i % d` (collapsed loops), and the variables of inner loops whose first and last
//! values are polynomials in the arguments. Arguments of outlined functions are followed to
//! their one call site. Values held narrower than 64 bits are read as clang computes them and
//! guarded at run time where they may wrap (`narrow.rs`); variables an outlined region gets by
//! reference are what their owner stored before the call (`captured.rs`).
#![allow(clippy::not_unsafe_ptr_arg_deref)]
use std::collections::{HashMap, HashSet};

use inkwell::values::InstructionValue;
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::target::LLVMTargetDataRef;
use llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMTypeKind};

use super::poly::{Atom, Poly};
use super::table::{Access, Offset, Table, Var};
use crate::ir;

mod captured;
mod narrow;

use narrow::{shifted_left, unmasked, wraps};

/// The split loop's iteration: variable 0 of every table.
const ITER: Atom = Atom::Var(0);

pub struct Analysis {
    kernel: LLVMValueRef,
    td: LLVMTargetDataRef,
    /// The one call of each function the kernel reaches (None: several).
    call_site: HashMap<LLVMValueRef, Option<LLVMValueRef>>,
    funcs: Vec<LLVMValueRef>,
    /// The split loop's static-init call.
    marked: LLVMValueRef,
    memo: HashMap<LLVMValueRef, Option<Poly>>,
    /// [`Analysis::low_bits_poly`]'s results, by value and width.
    low_memo: HashMap<(LLVMValueRef, u32), Option<Poly>>,
    chain: HashMap<LLVMValueRef, bool>,
    table: Table,
    /// Pointer parameters of the kernel.
    pointer_params: Vec<u32>,
}

/// Where a pointer comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Param(u32),
    /// The stack, shared memory, a module global: no argument's section.
    Private,
    /// A pointer loaded from memory, returned by a call, made from an integer, ...
    Unknown,
}

/// Where an address points: a kernel parameter plus a byte offset, or why not.
enum Address {
    At(u32, Poly),
    /// Based on parameter `.0` at an offset the analysis cannot express.
    NotAffine(u32),
    Untraced,
}

impl Analysis {
    /// `kernel` (a function of the clone), `marked`: its split loop's static-init call.
    pub fn new(kernel: LLVMValueRef, marked: LLVMValueRef, td: LLVMTargetDataRef) -> Analysis {
        let mut funcs = vec![kernel];
        let mut call_site: HashMap<LLVMValueRef, Option<LLVMValueRef>> = HashMap::new();
        let mut i = 0;
        while i < funcs.len() {
            let fv = unsafe { inkwell::values::FunctionValue::new(funcs[i]) };
            if let Some(fv) = fv {
                for (call, _) in ir::calls(fv) {
                    if let Some(g) = ir::called_function(call) {
                        if g.count_basic_blocks() == 0 {
                            continue;
                        }
                        let gref = inkwell::values::AsValueRef::as_value_ref(&g);
                        let cref = inkwell::values::AsValueRef::as_value_ref(&call);
                        match call_site.get(&gref) {
                            None => {
                                call_site.insert(gref, Some(cref));
                                funcs.push(gref);
                            }
                            Some(_) => {
                                call_site.insert(gref, None);
                            }
                        }
                    }
                }
            }
            i += 1;
        }
        let pointer_params = unsafe {
            (0..llvm::LLVMCountParams(kernel))
                .filter(|&k| {
                    let p = llvm::LLVMGetParam(kernel, k);
                    llvm::LLVMGetTypeKind(llvm::LLVMTypeOf(p)) == LLVMTypeKind::LLVMPointerTypeKind
                })
                .collect()
        };
        Analysis {
            kernel,
            td,
            call_site,
            funcs,
            marked,
            memo: HashMap::new(),
            low_memo: HashMap::new(),
            chain: HashMap::new(),
            table: Table {
                vars: vec![Var::Iter],
                accesses: Vec::new(),
                guards: Vec::new(),
            },
            pointer_params,
        }
    }

    /// Every access of the kernel's pointer arguments.
    pub fn run(mut self) -> Table {
        let funcs = self.funcs.clone();
        for f in funcs {
            let Some(fv) = (unsafe { inkwell::values::FunctionValue::new(f) }) else {
                continue;
            };
            for inst in ir::instructions(fv) {
                self.instruction(inst);
            }
        }
        self.table
    }

    fn instruction(&mut self, inst: InstructionValue<'_>) {
        let v = inkwell::values::AsValueRef::as_value_ref(&inst);
        let (ptr, read, write, ty) = unsafe {
            match llvm::LLVMGetInstructionOpcode(v) {
                LLVMOpcode::LLVMLoad => {
                    (llvm::LLVMGetOperand(v, 0), true, false, llvm::LLVMTypeOf(v))
                }
                LLVMOpcode::LLVMStore => {
                    let val = llvm::LLVMGetOperand(v, 0);
                    (
                        llvm::LLVMGetOperand(v, 1),
                        false,
                        true,
                        llvm::LLVMTypeOf(val),
                    )
                }
                LLVMOpcode::LLVMAtomicRMW => {
                    (llvm::LLVMGetOperand(v, 0), true, true, llvm::LLVMTypeOf(v))
                }
                LLVMOpcode::LLVMAtomicCmpXchg => {
                    let val = llvm::LLVMGetOperand(v, 2);
                    (
                        llvm::LLVMGetOperand(v, 0),
                        true,
                        true,
                        llvm::LLVMTypeOf(val),
                    )
                }
                LLVMOpcode::LLVMCall => {
                    self.call(inst);
                    return;
                }
                _ => return,
            }
        };
        if self.private_memory(ptr) {
            return;
        }
        let size = unsafe { llvm_sys::target::LLVMStoreSizeOfType(self.td, ty) };
        let at = where_(inst);
        match self.address(ptr) {
            Address::At(param, offset) => self.table.add(Access {
                param,
                read,
                write,
                size,
                offset: Offset::At(offset),
            }),
            Address::NotAffine(param) => self.table.add(Access {
                param,
                read,
                write,
                size,
                offset: Offset::Whole(format!(
                    "a subscript that is not affine in the loop variables{at}"
                )),
            }),
            Address::Untraced => self.all_whole(
                read,
                write,
                &format!(
                    "an access through a pointer the analysis cannot trace to one argument{at}"
                ),
            ),
        }
    }

    /// A call: the functions the kernel reaches are analysed themselves; a pointer argument
    /// handed to any other function may be accessed anywhere.
    fn call(&mut self, inst: InstructionValue<'_>) {
        if let Some(g) = ir::called_function(inst) {
            if g.count_basic_blocks() > 0 {
                return;
            }
        }
        let name = ir::callee_name(inst).unwrap_or_default();
        if name.starts_with("llvm.lifetime.")
            || name.starts_with("llvm.dbg.")
            || name.starts_with("llvm.assume")
            || name.starts_with("llvm.experimental.noalias")
        {
            return;
        }
        let at = where_(inst);
        for i in 0..ir::call_arg_count(inst) {
            let a = ir::call_arg_raw(inst, i);
            let is_ptr = unsafe {
                llvm::LLVMGetTypeKind(llvm::LLVMTypeOf(a)) == LLVMTypeKind::LLVMPointerTypeKind
            };
            if !is_ptr || self.private_memory(a) {
                continue;
            }
            let why = format!("a pointer passed to '{name}'{at}");
            match self.roots(a) {
                Some(roots) => {
                    for p in roots {
                        self.table.add(Access {
                            param: p,
                            read: true,
                            write: true,
                            size: 1,
                            offset: Offset::Whole(why.clone()),
                        });
                    }
                }
                None => self.all_whole(true, true, &why),
            }
        }
    }

    fn all_whole(&mut self, read: bool, write: bool, why: &str) {
        for p in self.pointer_params.clone() {
            self.table.add(Access {
                param: p,
                read,
                write,
                size: 1,
                offset: Offset::Whole(why.to_string()),
            });
        }
    }

    /// Memory no argument points into: the stack, shared memory, module globals.
    fn private_memory(&self, ptr: LLVMValueRef) -> bool {
        self.origins(ptr)
            .is_some_and(|o| !o.is_empty() && o.iter().all(|o| *o == Origin::Private))
    }

    /// The kernel parameters a pointer may be based on, or None when an origin is not one
    /// (or is private memory).
    fn roots(&self, v: LLVMValueRef) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        for o in self.origins(v)? {
            match o {
                Origin::Param(k) => {
                    if !out.contains(&k) {
                        out.push(k)
                    }
                }
                Origin::Private | Origin::Unknown => return None,
            }
        }
        Some(out)
    }

    /// Where a pointer may come from, followed through address arithmetic, phis, selects and
    /// the arguments of the functions the kernel calls (to their one call site); None: too
    /// many values to follow.
    fn origins(&self, v: LLVMValueRef) -> Option<Vec<Origin>> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut work = vec![v];
        while let Some(v) = work.pop() {
            if !seen.insert(v) {
                continue;
            }
            if seen.len() > 512 {
                return None;
            }
            unsafe {
                let origin = if !llvm::LLVMIsAArgument(v).is_null() {
                    let f = llvm::LLVMGetParamParent(v);
                    match param_index(f, v) {
                        Some(k) if f == self.kernel => Origin::Param(k),
                        Some(k) => match self.call_site.get(&f) {
                            Some(Some(call)) => {
                                work.push(llvm::LLVMGetOperand(*call, k));
                                continue;
                            }
                            _ => Origin::Unknown,
                        },
                        None => Origin::Unknown,
                    }
                } else if !llvm::LLVMIsAGetElementPtrInst(v).is_null()
                    || !llvm::LLVMIsACastInst(v).is_null()
                    || (!llvm::LLVMIsAConstantExpr(v).is_null()
                        && matches!(
                            llvm::LLVMGetConstOpcode(v),
                            LLVMOpcode::LLVMGetElementPtr
                                | LLVMOpcode::LLVMAddrSpaceCast
                                | LLVMOpcode::LLVMBitCast
                        ))
                {
                    work.push(llvm::LLVMGetOperand(v, 0));
                    continue;
                } else if !llvm::LLVMIsAPHINode(v).is_null() {
                    work.extend(
                        (0..llvm::LLVMCountIncoming(v)).map(|i| llvm::LLVMGetIncomingValue(v, i)),
                    );
                    continue;
                } else if !llvm::LLVMIsASelectInst(v).is_null() {
                    work.push(llvm::LLVMGetOperand(v, 1));
                    work.push(llvm::LLVMGetOperand(v, 2));
                    continue;
                } else if let Some(stored) = self.forwarded(v) {
                    work.push(stored);
                    continue;
                } else if !llvm::LLVMIsAAllocaInst(v).is_null()
                    || !llvm::LLVMIsAGlobalVariable(v).is_null()
                    || llvm::LLVMGetPointerAddressSpace(llvm::LLVMTypeOf(v)) == 3
                {
                    Origin::Private
                } else {
                    Origin::Unknown
                };
                if !out.contains(&origin) {
                    out.push(origin);
                }
            }
        }
        Some(out)
    }

    /// A pointer as parameter + offset.
    fn address(&mut self, v: LLVMValueRef) -> Address {
        let mut offset = Poly::default();
        let mut v = v;
        let mut affine = true;
        for _ in 0..64 {
            unsafe {
                if !llvm::LLVMIsAArgument(v).is_null() {
                    let f = llvm::LLVMGetParamParent(v);
                    let Some(k) = param_index(f, v) else {
                        return Address::Untraced;
                    };
                    if f == self.kernel {
                        return if affine {
                            Address::At(k, offset)
                        } else {
                            Address::NotAffine(k)
                        };
                    }
                    match self.call_site.get(&f) {
                        Some(Some(call)) => v = llvm::LLVMGetOperand(*call, k),
                        _ => return Address::Untraced,
                    }
                } else if !llvm::LLVMIsAGetElementPtrInst(v).is_null() {
                    if affine {
                        match self.gep_offset(v).and_then(|o| o.add(&offset)) {
                            Some(o) => offset = o,
                            None => affine = false,
                        }
                    }
                    v = llvm::LLVMGetOperand(v, 0);
                } else if !llvm::LLVMIsABitCastInst(v).is_null()
                    || !llvm::LLVMIsAAddrSpaceCastInst(v).is_null()
                {
                    v = llvm::LLVMGetOperand(v, 0);
                } else if let Some(stored) = self.forwarded(v) {
                    v = stored;
                } else {
                    return match self.roots(v) {
                        Some(r) if r.len() == 1 => Address::NotAffine(r[0]),
                        _ => Address::Untraced,
                    };
                }
            }
        }
        Address::Untraced
    }

    /// The byte offset a GEP adds to its base.
    fn gep_offset(&mut self, gep: LLVMValueRef) -> Option<Poly> {
        unsafe {
            let mut ty = llvm::LLVMGetGEPSourceElementType(gep);
            let n = llvm::LLVMGetNumOperands(gep) as u32;
            let mut total = Poly::default();
            for i in 1..n {
                let idx = llvm::LLVMGetOperand(gep, i);
                if i == 1 {
                    let size = llvm_sys::target::LLVMABISizeOfType(self.td, ty) as i64;
                    total = total.add(&self.affine(idx)?.scale(size)?)?;
                    continue;
                }
                match llvm::LLVMGetTypeKind(ty) {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        let field = ir::const_int(idx)? as u32;
                        let off = llvm_sys::target::LLVMOffsetOfElement(self.td, ty, field);
                        total = total.add(&Poly::constant(off as i64))?;
                        ty = llvm::LLVMStructGetTypeAtIndex(ty, field);
                    }
                    LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                        ty = llvm::LLVMGetElementType(ty);
                        let size = llvm_sys::target::LLVMABISizeOfType(self.td, ty) as i64;
                        total = total.add(&self.affine(idx)?.scale(size)?)?;
                    }
                    _ => return None,
                }
            }
            Some(total)
        }
    }

    /// An integer value as a polynomial (memoised; a cycle is not one).
    fn affine(&mut self, v: LLVMValueRef) -> Option<Poly> {
        if let Some(p) = self.memo.get(&v) {
            return p.clone();
        }
        self.memo.insert(v, None);
        let p = self.affine_uncached(v);
        self.memo.insert(v, p.clone());
        p
    }

    fn affine_uncached(&mut self, v: LLVMValueRef) -> Option<Poly> {
        let p = self.affine_value(v)?;
        self.narrow_arithmetic(v, &p);
        Some(p)
    }

    fn affine_value(&mut self, v: LLVMValueRef) -> Option<Poly> {
        unsafe {
            if let Some(c) = ir::const_int(v) {
                return Some(Poly::constant(c));
            }
            if !llvm::LLVMIsAArgument(v).is_null() {
                let f = llvm::LLVMGetParamParent(v);
                let k = param_index(f, v)?;
                if f == self.kernel {
                    let ty = llvm::LLVMTypeOf(v);
                    if llvm::LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMIntegerTypeKind {
                        return None;
                    }
                    return Some(Poly::atom(Atom::Param {
                        index: k,
                        bits: llvm::LLVMGetIntTypeWidth(ty),
                    }));
                }
                let call = (*self.call_site.get(&f)?)?;
                return self.affine(llvm::LLVMGetOperand(call, k));
            }
            if llvm::LLVMIsAInstruction(v).is_null() {
                return None;
            }
            let op = |i| llvm::LLVMGetOperand(v, i);
            match llvm::LLVMGetInstructionOpcode(v) {
                LLVMOpcode::LLVMAdd => {
                    let p = self.affine(op(0))?.add(&self.affine(op(1))?)?;
                    Some(self.remainders(p))
                }
                LLVMOpcode::LLVMSub => {
                    let p = self.affine(op(0))?.sub(&self.affine(op(1))?)?;
                    Some(self.remainders(p))
                }
                LLVMOpcode::LLVMMul => self.affine(op(0))?.mul(&self.affine(op(1))?),
                LLVMOpcode::LLVMShl => {
                    let s = ir::const_int(op(1)).filter(|s| (0..32).contains(s))?;
                    self.affine(op(0))?.scale(1i64 << s)
                }
                LLVMOpcode::LLVMAnd => self.masked(op(0), op(1)),
                // `xor x, -1` (~x, clang's `n - 1 - i` as `~i + n`): -x - 1 at every width.
                LLVMOpcode::LLVMXor => {
                    let x = match (ir::const_int(op(0)), ir::const_int(op(1))) {
                        (_, Some(-1)) => op(0),
                        (Some(-1), _) => op(1),
                        _ => return None,
                    };
                    self.affine(x)?.scale(-1)?.sub(&Poly::constant(1))
                }
                LLVMOpcode::LLVMOr if llvm::LLVMGetIsDisjoint(v) != 0 => {
                    self.affine(op(0))?.add(&self.affine(op(1))?)
                }
                // A sign extension is its operand's value: a narrow add/sub/mul/shl that may
                // wrap is guarded where it is computed (`narrow_arithmetic`). So is a zero
                // extension, where the value must also not be negative (C's unsigned
                // arithmetic, `y[n - 1 - i]` over an unsigned i): P in [0, 2^bits) is
                // P - 2^(bits-1) in the signed range, one more guard.
                LLVMOpcode::LLVMSExt => self.affine(op(0)),
                LLVMOpcode::LLVMZExt => {
                    let inner = op(0);
                    let p = self.affine(inner)?;
                    if wraps(inner) {
                        let bits = llvm::LLVMGetIntTypeWidth(llvm::LLVMTypeOf(inner));
                        let half = 1i64.checked_shl(bits.checked_sub(1)?)?;
                        self.guard(bits, &p.sub(&Poly::constant(half))?);
                    }
                    Some(p)
                }
                LLVMOpcode::LLVMFreeze => self.affine(op(0)),
                LLVMOpcode::LLVMTrunc => {
                    let bits = llvm::LLVMGetIntTypeWidth(llvm::LLVMTypeOf(v));
                    self.truncated(op(0), bits)
                }
                // `ashr (shl x, t), s` and `ashr (add (shl x, t), c << t), s` with t >= s:
                // instcombine's sign extension of the low `width - t` bits of x + c, times
                // 2^(t - s): `(long)(m - 2)` of an int argument passed in 64 bits,
                // `(long)(i + 1) * 4` of an int index. The narrow sum is guarded.
                LLVMOpcode::LLVMAShr => {
                    let s = ir::const_int(op(1)).filter(|s| (1..64).contains(s))? as u32;
                    let width = llvm::LLVMGetIntTypeWidth(llvm::LLVMTypeOf(v));
                    let (x, c, t) = shifted_left(op(0), s, width)?;
                    let w = width - t;
                    let sum = self.low_bits_poly(x, w)?.add(&Poly::constant(c))?;
                    self.held_narrow(sum, w)?.scale(1i64 << (t - s))
                }
                LLVMOpcode::LLVMSDiv | LLVMOpcode::LLVMUDiv => {
                    let n = self.affine(op(0))?;
                    let d = self.affine(op(1))?;
                    if let Some(1) = d.as_constant() {
                        return Some(n);
                    }
                    if d.has_var() {
                        return None;
                    }
                    if n.is_atom(ITER) {
                        return Some(self.new_var(Var::Div(d)));
                    }
                    let var = self.quotient_family_atom(&n)?;
                    Some(self.new_var(Var::DivOf { var, d }))
                }
                LLVMOpcode::LLVMSRem | LLVMOpcode::LLVMURem => {
                    let n = self.affine(op(0))?;
                    let d = self.affine(op(1))?;
                    if d.has_var() {
                        return None;
                    }
                    if n.is_atom(ITER) {
                        return Some(self.new_var(Var::Rem(d)));
                    }
                    let var = self.quotient_family_atom(&n)?;
                    Some(self.new_var(Var::RemOf { var, d }))
                }
                LLVMOpcode::LLVMLoad => {
                    let slot = op(0);
                    if self.is_chain_slot(slot) {
                        return Some(Poly::atom(ITER));
                    }
                    self.affine(self.forwarded(v)?)
                }
                LLVMOpcode::LLVMPHI => self.phi(v),
                _ => None,
            }
        }
    }

    /// `n` when it is exactly one variable of the Div/Rem family (never negative), as a
    /// numerator of a nested division: its index.
    fn quotient_family_atom(&self, n: &Poly) -> Option<u32> {
        let (m, &c) = n.terms.iter().next().filter(|_| n.terms.len() == 1)?;
        match (m.as_slice(), c) {
            ([Atom::Var(k)], 1) if *k != 0 && self.table.vars.get(*k as usize)?.non_negative() => {
                Some(*k)
            }
            _ => None,
        }
    }

    /// Rewrites `c*n - c*d*(n / d)` in `p` as `c*(n % d)`, for every quotient variable `n / d`
    /// whose numerator `n` is the iteration or another quotient-family variable: how clang
    /// recovers a collapsed loop's inner indices (`iv - (iv / d) * d`). Both are equal for
    /// `n >= 0, d > 0` (the runtime checks d); the remainder is bounded on its own, the
    /// difference would be bounded as two independent terms, far wider. Applied only where it
    /// removes every term of the quotient and of `n`.
    fn remainders(&mut self, p: Poly) -> Poly {
        let mut p = p;
        for k in 1..self.table.vars.len() {
            let (num, d, rem) = match &self.table.vars[k] {
                Var::Div(d) => (ITER, d.clone(), Var::Rem(d.clone())),
                Var::DivOf { var, d } => (
                    Atom::Var(*var),
                    d.clone(),
                    Var::RemOf {
                        var: *var,
                        d: d.clone(),
                    },
                ),
                _ => continue,
            };
            let Some(&c) = p.terms.get(&vec![num]) else {
                continue;
            };
            let q = Atom::Var(k as u32);
            // r = p - c*(num - d*q)
            let Some(r) = Poly::atom(num)
                .sub(&match d.mul(&Poly::atom(q)) {
                    Some(x) => x,
                    None => continue,
                })
                .and_then(|x| x.scale(c))
                .and_then(|x| p.sub(&x))
            else {
                continue;
            };
            let mentions = |a: Atom| r.terms.keys().any(|m| m.contains(&a));
            if mentions(q) || mentions(num) {
                continue;
            }
            let rem = self.new_var(rem);
            if let Some(np) = rem.scale(c).and_then(|x| r.add(&x)) {
                p = np;
            }
        }
        p
    }

    /// The value an argument of an outlined function (not the kernel) is called with, through
    /// every call level; any other value as it is.
    fn passed(&self, mut v: LLVMValueRef) -> LLVMValueRef {
        unsafe {
            while !llvm::LLVMIsAArgument(v).is_null() {
                let f = llvm::LLVMGetParamParent(v);
                let (Some(k), Some(Some(call))) = (param_index(f, v), self.call_site.get(&f))
                else {
                    break;
                };
                if f == self.kernel {
                    break;
                }
                v = llvm::LLVMGetOperand(*call, k);
            }
            v
        }
    }

    /// What `v` cut to `bits` bits equals: through call levels and masks that keep those bits.
    fn low_bits(&self, mut v: LLVMValueRef, bits: u32) -> LLVMValueRef {
        loop {
            let u = unmasked(self.passed(v), bits);
            if u == v {
                return v;
            }
            v = u;
        }
    }

    fn new_var(&mut self, var: Var) -> Poly {
        let idx = match self.table.vars.iter().position(|v| *v == var) {
            Some(i) => i,
            None => {
                self.table.vars.push(var);
                self.table.vars.len() - 1
            }
        };
        Poly::atom(Atom::Var(idx as u32))
    }

    /// A loop header's phi: the split loop's iteration, an inner loop's variable, or one
    /// value from every edge.
    fn phi(&mut self, v: LLVMValueRef) -> Option<Poly> {
        unsafe {
            let n = llvm::LLVMCountIncoming(v);
            if n == 2 {
                for (start_i, next_i) in [(0, 1), (1, 0)] {
                    let start = llvm::LLVMGetIncomingValue(v, start_i);
                    let next = llvm::LLVMGetIncomingValue(v, next_i);
                    let latch = llvm::LLVMGetIncomingBlock(v, next_i);
                    let Some(step) = step_of(next, v) else {
                        continue;
                    };
                    return self.induction(v, start, step, latch);
                }
            }
            // Not an induction variable: the same value on every edge.
            let mut same: Option<Poly> = None;
            for i in 0..n {
                let p = self.affine(llvm::LLVMGetIncomingValue(v, i))?;
                match &same {
                    Some(s) if *s != p => return None,
                    _ => same = Some(p),
                }
            }
            same
        }
    }

    /// An induction variable `phi [start, preheader], [phi + step, latch]`.
    fn induction(
        &mut self,
        phi: LLVMValueRef,
        start: LLVMValueRef,
        step: i64,
        latch: LLVMBasicBlockRef,
    ) -> Option<Poly> {
        unsafe {
            let header = llvm::LLVMGetInstructionParent(phi);
            let body = ir::natural_loop(header, latch);
            let term = llvm::LLVMGetBasicBlockTerminator(header);
            if term.is_null() || llvm::LLVMIsConditional(term) == 0 {
                return None;
            }
            let cond = llvm::LLVMGetCondition(term);
            if llvm::LLVMIsAICmpInst(cond).is_null() {
                return None;
            }
            // The header's branch must be the loop's exit test: one way in, one way out.
            let stay_if_true = body.contains(&llvm::LLVMGetSuccessor(term, 0));
            if stay_if_true == body.contains(&llvm::LLVMGetSuccessor(term, 1)) {
                return None;
            }
            let mut pred = llvm::LLVMGetICmpPredicate(cond);
            let (a, b) = (llvm::LLVMGetOperand(cond, 0), llvm::LLVMGetOperand(cond, 1));
            let bound = if ir::strip_casts(a) == phi {
                b
            } else if ir::strip_casts(b) == phi {
                pred = crate::ir::swapped_predicate(pred);
                a
            } else {
                return None;
            };
            if !stay_if_true {
                pred = crate::ir::inverse_predicate(pred);
            }
            // An inner worksharing loop (a `parallel for` inside the split loop's `distribute`,
            // OpenACC's `vector` loop inside a `gang` loop): each thread runs part of the
            // iterations its static-init was given, so the variable ranges over all of them.
            if step > 0 {
                if let Some((first, last)) = self.workshared(start, bound) {
                    let (first, last) = (self.affine(first)?, self.affine(last)?);
                    if first.has_var() || last.has_var() {
                        return None;
                    }
                    return Some(self.new_var(Var::Loop { first, last }));
                }
            }
            // The split loop: from its lower-bound slot to its upper-bound slot.
            let start_p = self.affine(start)?;
            if start_p.is_atom(ITER)
                && step > 0
                && bound_slot(bound).is_some_and(|s| self.is_chain_slot(s))
            {
                return Some(Poly::atom(ITER));
            }
            if start_p.has_var() {
                return None;
            }
            let b = self.affine(bound)?;
            if b.has_var() {
                return None;
            }
            use LLVMIntPredicate::*;
            let var = match (pred, step > 0) {
                (LLVMIntSLT | LLVMIntULT, true) => Var::Loop {
                    first: start_p,
                    last: b.sub(&Poly::constant(1))?,
                },
                (LLVMIntNE, true) if step == 1 => Var::Loop {
                    first: start_p,
                    last: b.sub(&Poly::constant(1))?,
                },
                (LLVMIntSLE | LLVMIntULE, true) => Var::Loop {
                    first: start_p,
                    last: b,
                },
                (LLVMIntSGT | LLVMIntUGT, false) => Var::Loop {
                    first: b.add(&Poly::constant(1))?,
                    last: start_p,
                },
                (LLVMIntNE, false) if step == -1 => Var::Loop {
                    first: b.add(&Poly::constant(1))?,
                    last: start_p,
                },
                (LLVMIntSGE | LLVMIntUGE, false) => Var::Loop {
                    first: b,
                    last: start_p,
                },
                _ => return None,
            };
            Some(self.new_var(var))
        }
    }

    /// Whether `slot` is the lower- or upper-bound slot of a static-init call of the split
    /// loop: the marked `distribute` call (its loop normalised: lower bound 0), or a call whose
    /// lower bound is the split loop's iteration (the `parallel for` of a chunk).
    fn is_chain_slot(&mut self, slot: LLVMValueRef) -> bool {
        for call in ir::users(slot) {
            unsafe {
                if llvm::LLVMIsACallInst(call).is_null() {
                    continue;
                }
                let name = ir::callee_name(InstructionValue::new(call)).unwrap_or_default();
                if !(name.starts_with("__kmpc_for_static_init_")
                    || name.starts_with("__kmpc_distribute_static_init_"))
                {
                    continue;
                }
                let lb = llvm::LLVMGetOperand(call, 4);
                let ub = llvm::LLVMGetOperand(call, 5);
                if slot != lb && slot != ub {
                    continue;
                }
                if self.is_chain_call(call) {
                    return true;
                }
            }
        }
        false
    }

    fn is_chain_call(&mut self, call: LLVMValueRef) -> bool {
        if let Some(&c) = self.chain.get(&call) {
            return c;
        }
        self.chain.insert(call, false);
        let lb = unsafe { llvm::LLVMGetOperand(call, 4) };
        let stored = last_store_before(call, lb).and_then(|s| self.affine(s));
        let c = match stored {
            Some(p) if call == self.marked => p.as_constant() == Some(0),
            Some(p) => p.is_atom(ITER),
            None => false,
        };
        self.chain.insert(call, c);
        c
    }
}

/// `c` when `next` is `phi + c` (or `phi - c`).
fn step_of(next: LLVMValueRef, phi: LLVMValueRef) -> Option<i64> {
    unsafe {
        if llvm::LLVMIsAInstruction(next).is_null() {
            return None;
        }
        let (a, b) = (llvm::LLVMGetOperand(next, 0), llvm::LLVMGetOperand(next, 1));
        match llvm::LLVMGetInstructionOpcode(next) {
            LLVMOpcode::LLVMAdd if a == phi => ir::const_int(b),
            LLVMOpcode::LLVMAdd if b == phi => ir::const_int(a),
            LLVMOpcode::LLVMSub if a == phi => ir::const_int(b).and_then(|c| c.checked_neg()),
            _ => None,
        }
        .filter(|&c| c != 0)
    }
}

/// The slot a loop's bound is loaded from: `iv <= ub` tests the load of the upper-bound slot
/// (signed loops), `iv < ub + 1` the load plus one (clang's unsigned loops).
fn bound_slot(v: LLVMValueRef) -> Option<LLVMValueRef> {
    is_load_from(v).or_else(|| unsafe {
        let v = ir::strip_casts(v);
        if llvm::LLVMIsAInstruction(v).is_null()
            || llvm::LLVMGetInstructionOpcode(v) != LLVMOpcode::LLVMAdd
        {
            return None;
        }
        let (a, b) = (llvm::LLVMGetOperand(v, 0), llvm::LLVMGetOperand(v, 1));
        match (ir::const_int(a), ir::const_int(b)) {
            (_, Some(1)) => is_load_from(a),
            (Some(1), _) => is_load_from(b),
            _ => None,
        }
    })
}

fn is_load_from(v: LLVMValueRef) -> Option<LLVMValueRef> {
    let v = ir::strip_casts(v);
    unsafe { (!llvm::LLVMIsALoadInst(v).is_null()).then(|| llvm::LLVMGetOperand(v, 0)) }
}

/// The value the last store to `slot` before `call` wrote: in the call's block, then up its
/// chain of single predecessors.
fn last_store_before(call: LLVMValueRef, slot: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe {
        let mut inst = llvm::LLVMGetPreviousInstruction(call);
        let mut block = llvm::LLVMGetInstructionParent(call);
        for _ in 0..64 {
            while !inst.is_null() {
                if ir::is_store_to(inst, slot) {
                    return Some(llvm::LLVMGetOperand(inst, 0));
                }
                inst = llvm::LLVMGetPreviousInstruction(inst);
            }
            let preds = ir::predecessors(block);
            let [one] = preds.as_slice() else {
                return None;
            };
            block = *one;
            inst = llvm::LLVMGetLastInstruction(block);
        }
        None
    }
}

fn param_index(f: LLVMValueRef, p: LLVMValueRef) -> Option<u32> {
    unsafe { (0..llvm::LLVMCountParams(f)).find(|&i| llvm::LLVMGetParam(f, i) == p) }
}

/// ` at file:line` of an instruction, when it has a location.
fn where_(inst: InstructionValue<'_>) -> String {
    crate::openmp::debug_loc(inst)
        .map(|l| format!(" at {}:{}", l.file, l.line))
        .unwrap_or_default()
}
