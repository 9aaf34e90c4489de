//! The analysis of one split kernel (see the module above), on the simplified clone.
//!
//! Every value an address is computed from is expressed as a [`Poly`] over the kernel's
//! scalar arguments and the variables of a [`Table`]: the split loop's iteration (a header phi
//! that starts at a value loaded from the lower-bound slot of the split loop's static-init call
//! and runs to one loaded from its upper-bound slot; the calls of the `parallel for` inside
//! take their bounds from the `distribute` call's, through the outlined functions' arguments),
//! `i / d` and `i % d` (collapsed loops), and the variables of inner loops whose first and last
//! values are polynomials in the arguments. Arguments of outlined functions are followed to
//! their one call site. Values cut to a narrower integer are taken to fit it (the loop's own
//! indices); a sign or zero extension is followed only over arithmetic that cannot wrap
//! (`nsw`/`nuw`).
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

    /// What a load in an outlined function reads when it reads a variable its caller captured
    /// by reference: `load (arg k)` where the function's one call site passes a slot of the
    /// caller for argument k, or the caller's own such argument (a region nested in a region:
    /// OpenACC's gang, worker and vector loops) up to the function that owns the slot. OpenACC's
    /// gang loop with an inner vector loop (OpenMP `distribute` + `parallel for`) hands the
    /// inner region its pointers and the gang index so. The value is the owner's last store to
    /// the slot before its call (the gang index, stored every iteration) or, failing that, its
    /// only store, made in the entry block (a pointer stored once). Only when nothing else can
    /// write the slot meanwhile: every function on the way only loads through the argument or
    /// passes it on, and the owner hands the slot to no other call.
    fn forwarded(&self, load: LLVMValueRef) -> Option<LLVMValueRef> {
        unsafe {
            if llvm::LLVMIsALoadInst(load).is_null() {
                return None;
            }
            let mut arg = ir::strip_casts(llvm::LLVMGetOperand(load, 0));
            for _ in 0..8 {
                if llvm::LLVMIsAArgument(arg).is_null() {
                    return None;
                }
                let f = llvm::LLVMGetParamParent(arg);
                if f == self.kernel || !self.only_read(arg, 8) {
                    return None;
                }
                let k = param_index(f, arg)?;
                let call = (*self.call_site.get(&f)?)?;
                let passed = ir::strip_casts(llvm::LLVMGetOperand(call, k));
                if llvm::LLVMIsAAllocaInst(passed).is_null() {
                    arg = passed;
                    continue;
                }
                return stored_before(call, passed);
            }
            None
        }
    }

    /// Whether a pointer argument is only read through: loaded, or passed on (once) to a
    /// function of the kernel whose parameter is only read through.
    fn only_read(&self, arg: LLVMValueRef, depth: u32) -> bool {
        if depth == 0 {
            return false;
        }
        ir::users(arg).into_iter().all(|u| unsafe {
            if ir::is_load_of(u, arg) {
                return true;
            }
            if llvm::LLVMIsACallInst(u).is_null() {
                return false;
            }
            let callee = llvm::LLVMGetCalledValue(u);
            if !matches!(self.call_site.get(&callee), Some(Some(c)) if *c == u) {
                return false;
            }
            let n = llvm::LLVMGetNumArgOperands(u);
            let uses: Vec<u32> = (0..n)
                .filter(|&i| ir::strip_casts(llvm::LLVMGetOperand(u, i)) == arg)
                .collect();
            matches!(uses.as_slice(), [i] if self.only_read(llvm::LLVMGetParam(callee, *i), depth - 1))
        })
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

    /// An add, sub, mul or shl narrower than 64 bits without `nsw` (instcombine drops it when
    /// it reassociates `(x + (k + 1)) - 1`; C's `unsigned` never has it) holds its polynomial
    /// only while that stays in the signed range: a guard the runtime checks. With `nsw` the
    /// program has no overflow there (it would be poison).
    fn narrow_arithmetic(&mut self, v: LLVMValueRef, p: &Poly) {
        unsafe {
            if llvm::LLVMIsAInstruction(v).is_null() {
                return;
            }
            let arith = matches!(
                llvm::LLVMGetInstructionOpcode(v),
                LLVMOpcode::LLVMAdd
                    | LLVMOpcode::LLVMSub
                    | LLVMOpcode::LLVMMul
                    | LLVMOpcode::LLVMShl
            );
            let ty = llvm::LLVMTypeOf(v);
            if arith
                && llvm::LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMIntegerTypeKind
                && llvm::LLVMGetNSW(v) == 0
            {
                self.guard(llvm::LLVMGetIntTypeWidth(ty), p);
            }
        }
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
                    let p = self
                        .low_bits_poly(x, w)?
                        .add(&Poly::constant(c))?
                        .narrowed(w)?;
                    let p = self.remainders(p);
                    self.guard(w, &p);
                    p.scale(1i64 << (t - s))
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

    /// What `v` cut to `bits` bits computes: its polynomial with coefficients and arguments
    /// read that wide ([`Poly::narrowed`]), then the collapsed loops' remainders found again
    /// (clang computes `it - q*d` in 64 bits with `d` as a 64-bit constant plus the argument).
    fn truncated(&mut self, v: LLVMValueRef, bits: u32) -> Option<Poly> {
        let p = self.low_bits_poly(v, bits)?;
        let p = self.remainders(p);
        self.guard(bits, &p);
        Some(p)
    }

    /// Records that the kernel holds `p` in a `bits`-bit integer: the table's offsets are right
    /// only while `p` stays in the signed `bits`-bit range, which the runtime checks for each
    /// part (`ptxcc_abi::access_table::Guard`). Values that always fit are not recorded: a
    /// constant in range, an argument read at most `bits` wide.
    fn guard(&mut self, bits: u32, p: &Poly) {
        if bits >= 64 || self.table.guards.iter().any(|(b, q)| *b == bits && q == p) {
            return;
        }
        // The split loop's iteration, when its static-init is the signed 32-bit one (an `int`
        // loop): it never leaves the `int` range.
        if bits >= 32 && p.is_atom(ITER) && self.split_loop_is_int() {
            return;
        }
        let half = 1i64 << (bits - 1);
        if let Some(c) = p.as_constant() {
            if (-half..half).contains(&c) {
                return;
            }
        }
        if let Some((m, 1)) = p.terms.iter().next().filter(|_| p.terms.len() == 1) {
            match m.as_slice() {
                [Atom::Param { bits: b, .. }] if *b <= bits => return,
                [Atom::ParamMasked { bits: b, .. }] if *b < bits => return,
                _ => {}
            }
        }
        self.table.guards.push((bits, p.clone()));
    }

    /// `v`'s low `bits` bits as a polynomial, computed modulo 2^bits through the operations
    /// whose low bits depend only on their operands' low bits (add, sub, mul, shl): clang's
    /// `(m + 4294967294) * (l + 4294967294)` of two `int` trip counts passed in 64 bits
    /// overflows an i64 coefficient when multiplied out whole, not when narrowed as it goes.
    fn low_bits_poly(&mut self, v: LLVMValueRef, bits: u32) -> Option<Poly> {
        if bits >= 64 {
            return self.affine(v);
        }
        let v = self.low_bits(v, bits);
        let key = (v, bits);
        if let Some(p) = self.low_memo.get(&key) {
            return p.clone();
        }
        self.low_memo.insert(key, None);
        let p = self.low_bits_poly_uncached(v, bits);
        self.low_memo.insert(key, p.clone());
        p
    }

    fn low_bits_poly_uncached(&mut self, v: LLVMValueRef, bits: u32) -> Option<Poly> {
        unsafe {
            if let Some(c) = ir::const_int(v) {
                return Poly::constant(c).narrowed(bits);
            }
            if llvm::LLVMIsAInstruction(v).is_null() {
                return self.affine(v)?.narrowed(bits);
            }
            let op = |i| llvm::LLVMGetOperand(v, i);
            let p = match llvm::LLVMGetInstructionOpcode(v) {
                LLVMOpcode::LLVMAdd => self
                    .low_bits_poly(op(0), bits)?
                    .add(&self.low_bits_poly(op(1), bits)?)?,
                LLVMOpcode::LLVMSub => self
                    .low_bits_poly(op(0), bits)?
                    .sub(&self.low_bits_poly(op(1), bits)?)?,
                LLVMOpcode::LLVMMul => self
                    .low_bits_poly(op(0), bits)?
                    .mul(&self.low_bits_poly(op(1), bits)?)?,
                LLVMOpcode::LLVMShl => {
                    let s = ir::const_int(op(1)).filter(|s| (0..bits as i64).contains(s))?;
                    self.low_bits_poly(op(0), bits)?.scale(1i64 << s)?
                }
                LLVMOpcode::LLVMAnd => self.masked(op(0), op(1))?,
                _ => self.affine(v)?,
            };
            p.narrowed(bits)
        }
    }

    /// `a & b` where one is the mask `2^k - 1` and the other's low `k` bits are an argument's:
    /// that argument's low `k` bits, zero-extended ([`Atom::ParamMasked`]). Instcombine narrows
    /// the `and i64 %n, 4294967295` of an `int` passed in 64 bits to `2147483647` where it
    /// knows `n` is positive (a collapsed loop's bound checked `n > 2`); the mask is kept, not
    /// assumed away, so a program that masks a negative value itself is still read right.
    fn masked(&mut self, a: LLVMValueRef, b: LLVMValueRef) -> Option<Poly> {
        for (x, m) in [(a, b), (b, a)] {
            let Some(mask) = ir::const_int(m) else {
                continue;
            };
            if mask == -1 {
                return self.affine(x);
            }
            let k = (mask as u64).trailing_ones();
            if mask <= 0 || (mask as u64) != (1u64 << k) - 1 {
                return None;
            }
            let p = self.low_bits_poly(x, k)?;
            let (m, &c) = p.terms.iter().next().filter(|_| p.terms.len() == 1)?;
            let atom = match (m.as_slice(), c) {
                ([Atom::Param { index, bits }], 1) if *bits >= k => Atom::ParamMasked {
                    index: *index,
                    bits: k,
                },
                ([Atom::ParamMasked { index, bits }], 1) => Atom::ParamMasked {
                    index: *index,
                    bits: (*bits).min(k),
                },
                _ => return None,
            };
            return Some(Poly::atom(atom));
        }
        None
    }

    /// Whether the split loop's static-init is a signed 32-bit one (`__kmpc_for_static_init_4`,
    /// `__kmpc_distribute_static_init_4`): its iterations are `int`s.
    fn split_loop_is_int(&self) -> bool {
        let call = unsafe { inkwell::values::InstructionValue::new(self.marked) };
        ir::callee_name(call).is_some_and(|n| n.ends_with("_init_4"))
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
                pred = swapped(pred);
                a
            } else {
                return None;
            };
            if !stay_if_true {
                pred = inverse(pred);
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

    /// `(lb0, ub0)` when a loop starts at the load of a static-init call's lower-bound slot and
    /// tests the load of its upper-bound slot, the call not the split loop's (nor one of its
    /// chunk's): the bounds stored before the call, which every thread's part lies within.
    fn workshared(
        &mut self,
        start: LLVMValueRef,
        bound: LLVMValueRef,
    ) -> Option<(LLVMValueRef, LLVMValueRef)> {
        let lb = is_load_from(start)?;
        let ub = bound_slot(bound)?;
        for call in ir::users(lb) {
            unsafe {
                if llvm::LLVMIsACallInst(call).is_null()
                    || llvm::LLVMGetOperand(call, 4) != lb
                    || llvm::LLVMGetOperand(call, 5) != ub
                    || call == self.marked
                {
                    continue;
                }
                let name = ir::callee_name(InstructionValue::new(call)).unwrap_or_default();
                if !name.starts_with("__kmpc_for_static_init_") || self.is_chain_call(call) {
                    continue;
                }
                return Some((last_store_before(call, lb)?, last_store_before(call, ub)?));
            }
        }
        None
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

/// `x` for `and x, m` where `m` keeps every one of the low `bits` bits: cut to `bits` bits the
/// two are equal (instcombine writes `zext (trunc x)` of a by-value `int` argument passed on
/// as an `i64` so: `and i64 %x, 4294967295`); else `v`.
fn unmasked(v: LLVMValueRef, bits: u32) -> LLVMValueRef {
    unsafe {
        if llvm::LLVMIsAInstruction(v).is_null()
            || llvm::LLVMGetInstructionOpcode(v) != LLVMOpcode::LLVMAnd
            || bits >= 64
        {
            return v;
        }
        let low = (1u64 << bits) - 1;
        for (x, m) in [(0, 1), (1, 0)] {
            let mask = llvm::LLVMGetOperand(v, m);
            if ir::const_int(mask).is_some_and(|c| (c as u64) & low == low) {
                return llvm::LLVMGetOperand(v, x);
            }
        }
        v
    }
}

/// `(x, c, t)` when `v` is `shl x, t` or `add (shl x, t), c << t` with `s <= t < width`:
/// `(x + c) << t` in its low bits, which an `ashr` by `s` makes the sign extension of the low
/// `width - t` bits of `x + c`, times 2^(t - s) (the shifts leave the low t bits zero).
fn shifted_left(v: LLVMValueRef, s: u32, width: u32) -> Option<(LLVMValueRef, i64, u32)> {
    unsafe {
        let shl = |x: LLVMValueRef| -> Option<(LLVMValueRef, u32)> {
            if llvm::LLVMIsAInstruction(x).is_null()
                || llvm::LLVMGetInstructionOpcode(x) != LLVMOpcode::LLVMShl
            {
                return None;
            }
            let t = ir::const_int(llvm::LLVMGetOperand(x, 1))?;
            let t = u32::try_from(t).ok().filter(|&t| t >= s && t < width)?;
            Some((llvm::LLVMGetOperand(x, 0), t))
        };
        if let Some((x, t)) = shl(v) {
            return Some((x, 0, t));
        }
        if llvm::LLVMIsAInstruction(v).is_null()
            || llvm::LLVMGetInstructionOpcode(v) != LLVMOpcode::LLVMAdd
        {
            return None;
        }
        for (a, b) in [(0, 1), (1, 0)] {
            let (x, c) = (llvm::LLVMGetOperand(v, a), llvm::LLVMGetOperand(v, b));
            if let (Some(c), Some((x, t))) = (ir::const_int(c), shl(x)) {
                if c % (1i64 << t) == 0 {
                    return Some((x, c >> t, t));
                }
            }
        }
        None
    }
}

/// Whether an integer value may wrap before it is extended.
fn wraps(v: LLVMValueRef) -> bool {
    unsafe {
        if llvm::LLVMIsAInstruction(v).is_null() {
            return false;
        }
        match llvm::LLVMGetInstructionOpcode(v) {
            LLVMOpcode::LLVMAdd
            | LLVMOpcode::LLVMSub
            | LLVMOpcode::LLVMMul
            | LLVMOpcode::LLVMShl => llvm::LLVMGetNSW(v) == 0 && llvm::LLVMGetNUW(v) == 0,
            _ => false,
        }
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

/// What the alloca `slot` holds when `call` (which gets it as one argument) starts: the last
/// store before the call up its block's chain of single predecessors, or the slot's only store
/// when that is in the entry block. None when another call could write it (the slot is handed
/// to another call, or twice to this one).
fn stored_before(call: LLVMValueRef, slot: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe {
        let mut stores = Vec::new();
        for u in ir::users(slot) {
            if ir::is_store_to(u, slot) && llvm::LLVMGetOperand(u, 0) != slot {
                stores.push(u);
            } else if !(ir::is_load_of(u, slot)
                || u == call
                || ir::callee_name(InstructionValue::new(u))
                    .is_some_and(|n| n.starts_with("llvm.lifetime.")))
            {
                return None;
            }
        }
        let n = llvm::LLVMGetNumArgOperands(call);
        if (0..n)
            .filter(|&i| ir::strip_casts(llvm::LLVMGetOperand(call, i)) == slot)
            .count()
            != 1
        {
            return None;
        }
        if let Some(v) = last_store_before(call, slot) {
            return Some(v);
        }
        let [store] = stores.as_slice() else {
            return None;
        };
        let caller = llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(call));
        let entry = llvm::LLVMGetEntryBasicBlock(caller);
        // An entry-block store reaches every later block; in the call's own block
        // last_store_before would have found it.
        (llvm::LLVMGetInstructionParent(*store) == entry
            && llvm::LLVMGetInstructionParent(call) != entry)
            .then(|| llvm::LLVMGetOperand(*store, 0))
    }
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

fn swapped(p: LLVMIntPredicate) -> LLVMIntPredicate {
    use LLVMIntPredicate::*;
    match p {
        LLVMIntSLT => LLVMIntSGT,
        LLVMIntSGT => LLVMIntSLT,
        LLVMIntSLE => LLVMIntSGE,
        LLVMIntSGE => LLVMIntSLE,
        LLVMIntULT => LLVMIntUGT,
        LLVMIntUGT => LLVMIntULT,
        LLVMIntULE => LLVMIntUGE,
        LLVMIntUGE => LLVMIntULE,
        other => other,
    }
}

fn inverse(p: LLVMIntPredicate) -> LLVMIntPredicate {
    use LLVMIntPredicate::*;
    match p {
        LLVMIntEQ => LLVMIntNE,
        LLVMIntNE => LLVMIntEQ,
        LLVMIntSLT => LLVMIntSGE,
        LLVMIntSGE => LLVMIntSLT,
        LLVMIntSGT => LLVMIntSLE,
        LLVMIntSLE => LLVMIntSGT,
        LLVMIntULT => LLVMIntUGE,
        LLVMIntUGE => LLVMIntULT,
        LLVMIntUGT => LLVMIntULE,
        LLVMIntULE => LLVMIntUGT,
    }
}

/// ` at file:line` of an instruction, when it has a location.
fn where_(inst: InstructionValue<'_>) -> String {
    crate::openmp::debug_loc(inst)
        .map(|l| format!(" at {}:{}", l.file, l.line))
        .unwrap_or_default()
}
