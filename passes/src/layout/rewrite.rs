//! Device side of the layout pass: the address computations of a `trans` array in the kernels
//! the host plan annotated, rewritten for the device layout.
//!
//! ```llvm
//! ; kernel K: "ptxcc-layout"="0=a;8,6,5;1,3,2;x.c:3:9"   (a[8][6][5] → a[8][5][6] on the device)
//! ; before
//! %p = getelementptr inbounds [8 x [6 x [5 x double]]], ptr %a, i64 0, i64 %i
//! %q = getelementptr inbounds [6 x [5 x double]], ptr %p, i64 0, i64 %j
//! %r = getelementptr inbounds [5 x double], ptr %q, i64 0, i64 %k
//! %v = load double, ptr %r
//! ; after: the subscripts, permuted (multi-dimensional: LLVM still strength-reduces it)
//! %r.layout = getelementptr inbounds [5 x [6 x double]], ptr %a, i64 %i, i64 %k, i64 %j
//! %v = load double, ptr %r.layout
//!
//! ; a flat access b[(i*J + j)*K + k] of a `double *b` described as b[0:I][0:J][0:K]:
//! %e = getelementptr inbounds double, ptr %b, i64 %lin
//! ; after: the linear index split by the extents (exact for every index; constant divisors)
//! %x0 = udiv i64 %lin, 30      %x1 = urem (udiv %lin, 5), 6      %x2 = urem %lin, 5
//! %e.layout = getelementptr inbounds double, ptr %b, i64 (%x0*30 + %x2*6 + %x1)
//! ```
//!
//! The array pointer is followed from the kernel parameter through the locals clang keeps it
//! in (an alloca stored once per path and loaded), into the outlined functions it is passed
//! to, and through GEP chains to the loads and stores. A GEP chain whose subscripts each index
//! an array level of the described extent (C's `a[i][j][k]`) keeps its subscripts (C requires
//! each subscript to be inside its dimension); any other chain is reduced to its linear element
//! index and split exactly. Anything the rewrite cannot follow — the pointer stored to memory,
//! passed to an external function, merged in a phi/select, converted to an integer, a chain
//! into a struct element, an access not aligned to the element — is a located error naming
//! the array, never a wrong address.
use super::align;
use super::desc::{Extent, LayoutDesc};
use super::ATTR;
use crate::diagnostics::{Diagnostic, Diagnostics, SourceLoc};
use crate::ir;
use crate::ir::opcode;
use crate::openmp::debug_loc;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBuilderRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::LLVMOpcode;
use std::collections::{BTreeMap, HashMap, HashSet};

/// One load or store of the array: the instruction, which operand is its address, the GEP
/// chain from a value equal to the array's base, and that base value.
#[derive(Clone)]
pub(super) struct Access {
    pub(super) inst: LLVMValueRef,
    operand: u32,
    pub(super) chain: Vec<LLVMValueRef>,
    root: LLVMValueRef,
}

/// One term of an address: `value * stride` bytes; `level`: the extent of the array level the
/// subscript indexes (None for the leading, pointer-arithmetic index).
pub(super) struct Term {
    pub(super) value: LLVMValueRef,
    pub(super) stride: u64,
    pub(super) level: Option<u64>,
}

struct Tracker<'a> {
    desc: &'a LayoutDesc,
    bases: Vec<LLVMValueRef>,
    seen: HashSet<LLVMValueRef>,
    slots: HashSet<LLVMValueRef>,
    /// (function, parameter index) the array reaches.
    params: HashSet<(LLVMValueRef, u32)>,
    accesses: Vec<Access>,
    errors: Vec<Diagnostic>,
}

fn loc_of(v: LLVMValueRef) -> Option<SourceLoc> {
    unsafe {
        if llvm::LLVMIsAInstruction(v).is_null() {
            return None;
        }
        debug_loc(InstructionValue::new(v))
    }
}

fn is_ignorable_call(v: LLVMValueRef) -> bool {
    let name = unsafe { ir::callee_name(InstructionValue::new(v)) };
    name.is_some_and(|n| {
        n.starts_with("llvm.lifetime.")
            || n.starts_with("llvm.dbg.")
            || n == "llvm.assume"
            || n.starts_with("llvm.experimental.noalias")
    })
}

impl<'a> Tracker<'a> {
    fn escape(&mut self, at: LLVMValueRef, how: &str) {
        let d = Diagnostic {
            loc: loc_of(at).or_else(|| Some(self.desc.loc.clone())),
            message: format!(
                "the address of '{}' (laid out by the trans at {}) {how}, where ptxcc cannot rewrite it for the new \
                 layout; use '{}' only through subscripts in the target regions of the trans block",
                self.desc.name, self.desc.loc, self.desc.name
            ),
        };
        if !self.errors.contains(&d) {
            self.errors.push(d);
        }
    }

    fn add_base(&mut self, v: LLVMValueRef) {
        if self.seen.insert(v) {
            self.bases.push(v);
        }
    }

    fn run(&mut self) {
        while let Some(v) = self.bases.pop() {
            for u in ir::users(v) {
                self.base_use(v, u);
            }
        }
    }

    fn base_use(&mut self, v: LLVMValueRef, u: LLVMValueRef) {
        unsafe {
            match opcode(u) {
                Some(LLVMOpcode::LLVMStore) => {
                    if llvm::LLVMGetOperand(u, 1) == v {
                        self.accesses.push(Access {
                            inst: u,
                            operand: 1,
                            chain: Vec::new(),
                            root: v,
                        });
                    }
                    if llvm::LLVMGetOperand(u, 0) == v {
                        let slot = llvm::LLVMGetOperand(u, 1);
                        if llvm::LLVMIsAAllocaInst(slot).is_null() {
                            self.escape(u, "is stored to memory");
                        } else if self.slots.insert(slot) {
                            self.slot_uses(slot);
                        }
                    }
                }
                Some(LLVMOpcode::LLVMLoad) => self.accesses.push(Access {
                    inst: u,
                    operand: 0,
                    chain: Vec::new(),
                    root: v,
                }),
                Some(LLVMOpcode::LLVMGetElementPtr) if llvm::LLVMGetOperand(u, 0) == v => {
                    self.derived(u, vec![u], v)
                }
                Some(LLVMOpcode::LLVMCall) if is_ignorable_call(u) => {}
                Some(LLVMOpcode::LLVMCall) => {
                    let call = InstructionValue::new(u);
                    match ir::called_function(call) {
                        Some(f) if f.count_basic_blocks() > 0 => {
                            let n = llvm::LLVMGetNumArgOperands(u);
                            for i in 0..n {
                                if llvm::LLVMGetOperand(u, i) == v
                                    && self.params.insert((f.as_value_ref(), i))
                                {
                                    self.add_base(llvm::LLVMGetParam(f.as_value_ref(), i));
                                }
                            }
                        }
                        Some(f) => self.escape(
                            u,
                            &format!(
                                "is passed to '{}', which ptxcc cannot see into",
                                f.get_name().to_string_lossy()
                            ),
                        ),
                        None => self.escape(u, "is passed to a call through a pointer"),
                    }
                }
                Some(LLVMOpcode::LLVMICmp) => {}
                Some(LLVMOpcode::LLVMPHI) | Some(LLVMOpcode::LLVMSelect) => {
                    self.escape(u, "is merged with other pointers (a phi or a select)")
                }
                Some(LLVMOpcode::LLVMPtrToInt) => self.escape(u, "is converted to an integer"),
                _ => self.escape(u, "is used in a way"),
            }
        }
    }

    /// The uses of a local that holds the array's address: loads give the address again; every
    /// store into it must store the address.
    fn slot_uses(&mut self, slot: LLVMValueRef) {
        for u in ir::users(slot) {
            unsafe {
                match opcode(u) {
                    Some(LLVMOpcode::LLVMLoad) => self.add_base(u),
                    Some(LLVMOpcode::LLVMStore) if llvm::LLVMGetOperand(u, 1) == slot => {}
                    Some(LLVMOpcode::LLVMCall) if is_ignorable_call(u) => {}
                    _ => self.escape(u, "is kept in a variable whose address is taken"),
                }
            }
        }
    }

    /// After the walk: every store into a tracked local stores a tracked value, and every call
    /// of a function the array reaches passes the array there.
    fn check_closed(&mut self) {
        let slots: Vec<LLVMValueRef> = self.slots.iter().copied().collect();
        for slot in slots {
            for u in ir::users(slot) {
                unsafe {
                    if opcode(u) == Some(LLVMOpcode::LLVMStore)
                        && llvm::LLVMGetOperand(u, 1) == slot
                        && !self.seen.contains(&llvm::LLVMGetOperand(u, 0))
                    {
                        self.escape(
                            u,
                            "is held in a variable that is also assigned another pointer",
                        );
                    }
                }
            }
        }
        let params: Vec<(LLVMValueRef, u32)> = self.params.iter().copied().collect();
        for (f, i) in params {
            for u in ir::users(f) {
                unsafe {
                    if opcode(u) == Some(LLVMOpcode::LLVMCall)
                        && llvm::LLVMGetCalledValue(u) == f
                        && !self.seen.contains(&llvm::LLVMGetOperand(u, i))
                    {
                        let name = ir::value_name(f);
                        self.escape(
                            u,
                            &format!(
                                "reaches function '{name}', which is also called with another pointer in its place"
                            ),
                        );
                    }
                }
            }
        }
    }

    fn derived(&mut self, d: LLVMValueRef, chain: Vec<LLVMValueRef>, root: LLVMValueRef) {
        for u in ir::users(d) {
            unsafe {
                match opcode(u) {
                    Some(LLVMOpcode::LLVMGetElementPtr) if llvm::LLVMGetOperand(u, 0) == d => {
                        let mut c = chain.clone();
                        c.push(u);
                        self.derived(u, c, root);
                    }
                    Some(LLVMOpcode::LLVMLoad) => self.accesses.push(Access {
                        inst: u,
                        operand: 0,
                        chain: chain.clone(),
                        root,
                    }),
                    Some(LLVMOpcode::LLVMStore) if llvm::LLVMGetOperand(u, 1) == d => {
                        if llvm::LLVMGetOperand(u, 0) == d {
                            self.escape(u, "is stored to memory");
                        }
                        self.accesses.push(Access {
                            inst: u,
                            operand: 1,
                            chain: chain.clone(),
                            root,
                        })
                    }
                    Some(LLVMOpcode::LLVMStore) => {
                        self.escape(u, "(an element's address) is stored to memory")
                    }
                    Some(LLVMOpcode::LLVMCall) if is_ignorable_call(u) => {}
                    Some(LLVMOpcode::LLVMCall) => {
                        self.escape(u, "(an element's address) is passed to a function")
                    }
                    Some(LLVMOpcode::LLVMICmp) => {}
                    Some(LLVMOpcode::LLVMPHI) | Some(LLVMOpcode::LLVMSelect) => self.escape(
                        u,
                        "(an element's address) is merged with other pointers (a phi or a select)",
                    ),
                    _ => self.escape(u, "(an element's address) is used in a way"),
                }
            }
        }
    }
}

/// The terms of a GEP chain, or an error message.
/// `soa`: (fields, unit) of the struct an `soa` array holds — a field index then counts as a
/// subscript of an array of `fields` units.
pub(super) fn terms(
    td: llvm_sys::target::LLVMTargetDataRef,
    chain: &[LLVMValueRef],
    soa: Option<(u64, u64)>,
) -> Result<Vec<Term>, String> {
    let mut out = Vec::new();
    for &g in chain {
        unsafe {
            let mut ty = llvm::LLVMGetGEPSourceElementType(g);
            let n = llvm::LLVMGetNumOperands(g);
            for i in 1..n {
                let idx = llvm::LLVMGetOperand(g, i as u32);
                let level = if i == 1 {
                    None
                } else {
                    match llvm::LLVMGetTypeKind(ty) {
                        llvm_sys::LLVMTypeKind::LLVMArrayTypeKind => {
                            let len = llvm::LLVMGetArrayLength2(ty);
                            ty = llvm::LLVMGetElementType(ty);
                            Some(len)
                        }
                        llvm_sys::LLVMTypeKind::LLVMStructTypeKind if soa.is_some() => {
                            let (fields, unit) = soa.unwrap_or((1, 1));
                            let Some(f) = ir::const_int(idx) else {
                                return Err("a field chosen at run time".into());
                            };
                            let off = llvm_sys::target::LLVMOffsetOfElement(td, ty, f as u32);
                            ty = llvm::LLVMStructGetTypeAtIndex(ty, f as u32);
                            let i64t = llvm::LLVMInt64TypeInContext(llvm::LLVMGetTypeContext(ty));
                            out.push(Term {
                                value: llvm::LLVMConstInt(i64t, off / unit, 0),
                                stride: unit,
                                level: Some(fields),
                            });
                            continue;
                        }
                        _ => {
                            return Err("an element that is a struct or a vector (transpose moves scalar elements; \
                                        use 'soa' for an array of structs)"
                                .into())
                        }
                    }
                };
                out.push(Term {
                    value: idx,
                    stride: llvm_sys::target::LLVMABISizeOfType(td, ty),
                    level,
                });
            }
        }
    }
    Ok(out)
}

/// The access's element type and size.
pub(super) fn access_type(
    td: llvm_sys::target::LLVMTargetDataRef,
    a: &Access,
) -> (LLVMTypeRef, u64) {
    unsafe {
        let ty = if a.operand == 0 {
            llvm::LLVMTypeOf(a.inst)
        } else {
            llvm::LLVMTypeOf(llvm::LLVMGetOperand(a.inst, 0))
        };
        (ty, llvm_sys::target::LLVMABISizeOfType(td, ty))
    }
}

/// The subscript of each dimension when every term indexes one dimension of the described
/// extent (C's multi-dimensional subscripts); None otherwise. Constant extents only: the
/// rewrite builds the device layout's array type from them.
fn per_dimension(
    desc: &LayoutDesc,
    terms: &[Term],
    elem: u64,
) -> Option<Vec<Option<LLVMValueRef>>> {
    desc.const_dims()?;
    dimension_subscripts(desc, terms, elem)
}

/// `per_dimension` where the outermost extent may come at run time (the strides do not depend
/// on it): what `auto` decides from, for an array mapped as a pointer section.
pub(super) fn dimension_subscripts(
    desc: &LayoutDesc,
    terms: &[Term],
    elem: u64,
) -> Option<Vec<Option<LLVMValueRef>>> {
    let inner: Vec<u64> = desc.dims[1..]
        .iter()
        .map(|e| e.value())
        .collect::<Option<_>>()?;
    let mut known = vec![1];
    known.extend(inner.iter().copied());
    let strides = super::desc::row_major_strides(&known);
    let mut x: Vec<Option<LLVMValueRef>> = vec![None; desc.dims.len()];
    for t in terms {
        if ir::const_int(t.value) == Some(0) {
            continue;
        }
        let d = strides.iter().position(|&s| s * elem == t.stride)?;
        let fits = match t.level {
            Some(n) => desc.dims[d] == Extent::Const(n),
            None => d == 0,
        };
        if !fits || x[d].is_some() {
            return None;
        }
        x[d] = Some(t.value);
    }
    Some(x)
}

struct Emit {
    b: LLVMBuilderRef,
    i64t: LLVMTypeRef,
}

impl Emit {
    fn c(&self, v: u64) -> LLVMValueRef {
        unsafe { llvm::LLVMConstInt(self.i64t, v, 0) }
    }
    fn to_i64(&self, v: LLVMValueRef) -> LLVMValueRef {
        unsafe {
            let ty = llvm::LLVMTypeOf(v);
            if ty == self.i64t {
                v
            } else {
                llvm::LLVMBuildSExt(self.b, v, self.i64t, c"layout.idx".as_ptr())
            }
        }
    }
    fn mul(&self, a: LLVMValueRef, k: u64) -> LLVMValueRef {
        if k == 1 {
            return a;
        }
        unsafe { llvm::LLVMBuildMul(self.b, a, self.c(k), c"layout.mul".as_ptr()) }
    }
    fn add(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { llvm::LLVMBuildAdd(self.b, a, b, c"layout.add".as_ptr()) }
    }
    /// a * b of two i64 values (constants fold; a factor 1 is left out).
    fn mul_v(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        if ir::const_int(b) == Some(1) {
            return a;
        }
        if ir::const_int(a) == Some(1) {
            return b;
        }
        unsafe { llvm::LLVMBuildMul(self.b, a, b, c"layout.mul".as_ptr()) }
    }
    /// Extent d of the description: its constant, or its value loaded from the extents global
    /// (invariant for the whole launch: LLVM hoists and merges the loads).
    fn extent(
        &self,
        desc: &LayoutDesc,
        ext: Option<LLVMValueRef>,
        d: usize,
    ) -> Result<LLVMValueRef, String> {
        match desc.dims[d] {
            Extent::Const(n) => Ok(self.c(n)),
            Extent::Runtime => {
                let g = ext.ok_or("its run-time extents have no device global (a compiler bug)")?;
                unsafe {
                    let mut idx = [self.c(d as u64)];
                    let p = llvm::LLVMBuildInBoundsGEP2(
                        self.b,
                        self.i64t,
                        g,
                        idx.as_mut_ptr(),
                        1,
                        c"layout.extp".as_ptr(),
                    );
                    let v = llvm::LLVMBuildLoad2(self.b, self.i64t, p, c"layout.ext".as_ptr());
                    llvm::LLVMSetAlignment(v, 8);
                    let ctx = llvm::LLVMGetTypeContext(self.i64t);
                    let kind = ir::metadata_kind(ctx, "invariant.load");
                    let empty = llvm::LLVMMDNodeInContext2(ctx, std::ptr::null_mut(), 0);
                    llvm::LLVMSetMetadata(v, kind, llvm::LLVMMetadataAsValue(ctx, empty));
                    Ok(v)
                }
            }
        }
    }
}

/// Would `rewrite_access` take every access of `accesses` for `desc` (one element size, terms
/// it can follow, addresses of whole elements)? Ok(the element size); Err(why not). What
/// `auto` checks before it commits to a layout: for the directive these are errors, for
/// `auto` the reason the array stays.
pub(super) fn rewritable(
    td: llvm_sys::target::LLVMTargetDataRef,
    desc: &LayoutDesc,
    accesses: &[Access],
    soa: Option<(u64, u64)>,
) -> Result<u64, String> {
    let mut elem: Option<u64> = None;
    for a in accesses {
        let (_, size) = access_type(td, a);
        match elem {
            None => elem = Some(size),
            Some(e) if e == size => {}
            Some(e) => {
                return Err(format!(
                    "it is accessed as {size}-byte and as {e}-byte elements"
                ))
            }
        }
    }
    let elem = elem.ok_or("no kernel of the region accesses it")?;
    for a in accesses {
        let ts = terms(td, &a.chain, soa)?;
        if per_dimension(desc, &ts, elem).is_none() && ts.iter().any(|t| t.stride % elem != 0) {
            return Err(format!(
                "an address that is not a whole number of its {elem}-byte elements"
            ));
        }
    }
    Ok(elem)
}

/// What every access of one array is rewritten for.
#[derive(Clone, Copy)]
struct DeviceLayout<'a> {
    desc: &'a LayoutDesc,
    /// The element size in bytes.
    elem: u64,
    /// `soa`: (fields, unit) of the struct.
    soa: Option<(u64, u64)>,
    /// The extents global of run-time extents.
    ext: Option<LLVMValueRef>,
    /// The alignment of the device copy's start the accesses may assume (`align.rs`).
    start_align: u64,
}

/// Rewrites one access. Err: the message.
fn rewrite_access(
    module: &Module<'_>,
    td: llvm_sys::target::LLVMTargetDataRef,
    layout: &DeviceLayout<'_>,
    a: &Access,
) -> Result<bool, String> {
    let DeviceLayout {
        desc,
        elem,
        soa,
        ext,
        start_align,
    } = *layout;
    if a.chain.is_empty() {
        return Ok(false); // element 0 stays element 0
    }
    let terms = terms(td, &a.chain, soa)?;
    let (acc_ty, _) = access_type(td, a);
    unsafe {
        let ctx = llvm::LLVMGetModuleContext(module.as_mut_ptr());
        let b = llvm::LLVMCreateBuilderInContext(ctx);
        llvm::LLVMPositionBuilderBefore(b, a.inst);
        let e = Emit {
            b,
            i64t: llvm::LLVMInt64TypeInContext(ctx),
        };
        let order = desc.order().ok_or("an inconsistent permutation")?;
        let new_ptr = match per_dimension(desc, &terms, elem) {
            Some(x) => {
                // GEP over the device layout's array type, the subscripts in device order
                // (per_dimension answers only for constant extents).
                let dev_dims = desc.device_dims();
                let mut ty = acc_ty;
                for p in (1..dev_dims.len()).rev() {
                    ty = llvm::LLVMArrayType2(ty, dev_dims[p].value().unwrap_or(0));
                }
                let mut idx: Vec<LLVMValueRef> = order
                    .iter()
                    .map(|&d| match x[d] {
                        Some(v) => e.to_i64(v),
                        None => e.c(0),
                    })
                    .collect();
                let p = llvm::LLVMBuildInBoundsGEP2(
                    b,
                    ty,
                    a.root,
                    idx.as_mut_ptr(),
                    idx.len() as u32,
                    c"layout.elem".as_ptr(),
                );
                // More than the element's only from the start alignment the launch checks.
                let align = device_alignment(desc, &x, elem, start_align);
                return Ok(finish(
                    a,
                    p,
                    elem,
                    (align > align::natural(elem)).then_some(align),
                    b,
                ));
            }
            None => {
                // The linear element index, split exactly by the extents.
                let mut lin = e.c(0);
                for t in &terms {
                    if t.stride % elem != 0 {
                        llvm::LLVMDisposeBuilder(b);
                        return Err(format!(
                            "an address that is not a whole number of its {elem}-byte elements"
                        ));
                    }
                    let v = e.to_i64(t.value);
                    lin = e.add(lin, e.mul(v, t.stride / elem));
                }
                // Extents (constants, or loaded from the extents global) and the strides of
                // both layouts as values; constants fold.
                let r = desc.dims.len();
                let dims: Vec<LLVMValueRef> = (0..r)
                    .map(|d| e.extent(desc, ext, d))
                    .collect::<Result<_, _>>()
                    .inspect_err(|_| llvm::LLVMDisposeBuilder(b))?;
                let mut strides = vec![e.c(1); r];
                for d in (0..r.saturating_sub(1)).rev() {
                    strides[d] = e.mul_v(strides[d + 1], dims[d + 1]);
                }
                let mut dstrides = vec![e.c(1); r];
                for p in (0..r.saturating_sub(1)).rev() {
                    dstrides[order[p]] = e.mul_v(dstrides[order[p + 1]], dims[order[p + 1]]);
                }
                let mut off = e.c(0);
                // C's subscripts of a run-time outermost extent (`p[i].y` of an soa with n
                // known at run time): each subscript is in its dimension, no split needed.
                if let Some(x) = dimension_subscripts(desc, &terms, elem) {
                    for d in 0..r {
                        if let Some(v) = x[d] {
                            off = e.add(off, e.mul_v(e.to_i64(v), dstrides[d]));
                        }
                    }
                    let mut idx = [off];
                    let p = llvm::LLVMBuildInBoundsGEP2(
                        b,
                        acc_ty,
                        a.root,
                        idx.as_mut_ptr(),
                        1,
                        c"layout.elem".as_ptr(),
                    );
                    return Ok(finish(a, p, elem, None, b));
                }
                for d in 0..r {
                    let q = if ir::const_int(strides[d]) == Some(1) {
                        lin
                    } else {
                        llvm::LLVMBuildUDiv(b, lin, strides[d], c"layout.q".as_ptr())
                    };
                    let x = if d == 0 {
                        q
                    } else {
                        llvm::LLVMBuildURem(b, q, dims[d], c"layout.x".as_ptr())
                    };
                    off = e.add(off, e.mul_v(x, dstrides[d]));
                }
                let mut idx = [off];
                llvm::LLVMBuildInBoundsGEP2(
                    b,
                    acc_ty,
                    a.root,
                    idx.as_mut_ptr(),
                    1,
                    c"layout.elem".as_ptr(),
                )
            }
        };
        Ok(finish(a, new_ptr, elem, None, b))
    }
}

/// The alignment of an access whose subscripts (per original dimension, `x`) address the
/// device layout from a start aligned to `start` (`align.rs`); the element's own where the
/// device strides are not constants.
fn device_alignment(desc: &LayoutDesc, x: &[Option<LLVMValueRef>], elem: u64, start: u64) -> u64 {
    let Some(strides) = desc.device_strides() else {
        return align::natural(elem);
    };
    let terms = x
        .iter()
        .zip(strides)
        .filter_map(|(v, s)| v.map(|v| (ir::const_int(v), s * elem)));
    align::at_offset(start, align::offset_divisor(terms))
}

/// Would an access be better aligned than its element if the device copy started on an
/// [`align::ASSUMED`]-byte boundary (see `align.rs`)?
fn gains_from_start_alignment(
    td: llvm_sys::target::LLVMTargetDataRef,
    desc: &LayoutDesc,
    a: &Access,
    elem: u64,
    soa: Option<(u64, u64)>,
) -> bool {
    let Ok(ts) = terms(td, &a.chain, soa) else {
        return false;
    };
    per_dimension(desc, &ts, elem)
        .is_some_and(|x| device_alignment(desc, &x, elem, align::ASSUMED) > align::natural(elem))
}

/// Points the access at its new address (`new_ptr`) and disposes of the builder. The
/// alignment clang derived from the original place (16 for a[i][j][k][0] of a float[..][4])
/// does not hold at the new one: `proven` where `device_alignment` proved more than the
/// element's, else the element's own (or clang's, where that is less: a packed struct).
unsafe fn finish(
    a: &Access,
    new_ptr: LLVMValueRef,
    elem: u64,
    proven: Option<u64>,
    b: LLVMBuilderRef,
) -> bool {
    llvm::LLVMSetOperand(a.inst, a.operand, new_ptr);
    let natural = align::natural(elem) as u32;
    let align = llvm::LLVMGetAlignment(a.inst);
    match proven {
        Some(n) => llvm::LLVMSetAlignment(a.inst, n as u32),
        None if align == 0 || align > natural => llvm::LLVMSetAlignment(a.inst, natural),
        None => {}
    }
    llvm::LLVMDisposeBuilder(b);
    true
}

/// (parameter, description text, description) of an annotation value.
pub fn parse_attr(value: &str) -> Vec<(u32, String, LayoutDesc)> {
    value
        .split('|')
        .filter_map(|item| {
            let (p, text) = item.split_once('=')?;
            let d = LayoutDesc::decode(text)?;
            Some((p.parse().ok()?, text.to_string(), d))
        })
        .collect()
}

fn kernel_attr(f: FunctionValue<'_>) -> Option<String> {
    f.get_string_attribute(inkwell::attributes::AttributeLoc::Function, ATTR)
        .map(|a| a.get_string_value().to_string_lossy().into_owned())
}

/// The device copy of the extents global of description `text`: named as host_plan named it,
/// or as device extraction renamed it (`__ptxcc_static_<unit>_<name>`: it is internal on the
/// host).
fn extents_global(device: &Module<'_>, text: &str) -> Option<LLVMValueRef> {
    let name = LayoutDesc::ext_global_name(text);
    let suffix = format!("_{name}");
    device
        .get_globals()
        .find(|g| {
            let n = g.get_name().to_string_lossy();
            n == name.as_str()
                || (n.starts_with(crate::device_extraction::STATIC_GLOBAL_PREFIX)
                    && n.ends_with(&suffix))
        })
        .map(|g| g.as_value_ref())
}

/// What the host's marker calls need from the rewrite for one description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Bytes of one element (of one field for `soa`).
    pub elem: u64,
    /// For `soa`: the transpose description that replaces it (`p;n,fields;2,1;loc`).
    pub desc: Option<String>,
    /// What the host divides the run-time length it passes by (`auto::section_divisor`: a
    /// flat section reshaped to `[len/k][k]`); 1 otherwise.
    pub len_divisor: u64,
}

/// The (fields, unit) of the struct an `soa` array's accesses index: every field a scalar of
/// the same size. Err: the message.
pub(super) fn soa_struct(
    td: llvm_sys::target::LLVMTargetDataRef,
    accesses: &[Access],
) -> Result<(u64, u64), String> {
    let mut found: Option<LLVMTypeRef> = None;
    for a in accesses {
        if let Some(&g) = a.chain.first() {
            // `p[i].x` starts at the struct; `a[i].x` of a global `P a[n]` at the array of them.
            let mut ty = unsafe { llvm::LLVMGetGEPSourceElementType(g) };
            while unsafe { llvm::LLVMGetTypeKind(ty) } == llvm_sys::LLVMTypeKind::LLVMArrayTypeKind
            {
                ty = unsafe { llvm::LLVMGetElementType(ty) };
            }
            if unsafe { llvm::LLVMGetTypeKind(ty) } == llvm_sys::LLVMTypeKind::LLVMStructTypeKind {
                match found {
                    None => found = Some(ty),
                    Some(t) if t == ty => {}
                    Some(_) => return Err("its accesses index two different struct types".into()),
                }
            }
        }
    }
    let Some(ty) = found else {
        return Err(
            "no access selects a field of a struct (soa lays out an array of structs)".into(),
        );
    };
    unsafe {
        let n = llvm::LLVMCountStructElementTypes(ty);
        let mut unit = None;
        for i in 0..n {
            let f = llvm::LLVMStructGetTypeAtIndex(ty, i);
            let kind = llvm::LLVMGetTypeKind(f);
            if matches!(
                kind,
                llvm_sys::LLVMTypeKind::LLVMStructTypeKind
                    | llvm_sys::LLVMTypeKind::LLVMArrayTypeKind
                    | llvm_sys::LLVMTypeKind::LLVMVectorTypeKind
            ) {
                return Err("a field that is not a scalar".into());
            }
            let size = llvm_sys::target::LLVMABISizeOfType(td, f);
            match unit {
                None => unit = Some(size),
                Some(u) if u == size => {}
                Some(_) => {
                    return Err(
                        "fields of different sizes (ptxcc's soa needs one size for every field)"
                            .into(),
                    )
                }
            }
        }
        let unit = unit.ok_or("a struct without fields")?;
        if llvm_sys::target::LLVMABISizeOfType(td, ty) != n as u64 * unit {
            return Err("padding between the fields".into());
        }
        Ok((n as u64, unit))
    }
}

/// Rewrites the annotated kernels of `device`. Returns, for each description (text), what
/// the host's begin and end calls need.
pub fn rewrite_device(device: &Module<'_>) -> Result<BTreeMap<String, Resolved>, Diagnostics> {
    let td = unsafe { llvm_sys::target::LLVMGetModuleDataLayout(device.as_mut_ptr()) };
    let mut sizes: BTreeMap<String, Resolved> = BTreeMap::new();
    let mut errors = Vec::new();
    let mut per_desc: HashMap<String, (LayoutDesc, Vec<LLVMValueRef>)> = HashMap::new();
    let mut kernels_of: HashMap<String, Vec<String>> = HashMap::new();
    for f in device.get_functions() {
        let Some(value) = kernel_attr(f) else {
            continue;
        };
        for (p, text, desc) in parse_attr(&value) {
            if p >= f.count_params() {
                continue;
            }
            let entry = per_desc.entry(text.clone()).or_insert((desc, Vec::new()));
            entry
                .1
                .push(unsafe { llvm::LLVMGetParam(f.as_value_ref(), p) });
            kernels_of
                .entry(text)
                .or_default()
                .push(f.get_name().to_string_lossy().into_owned());
        }
    }
    let mut texts: Vec<&String> = per_desc.keys().collect();
    texts.sort();
    for text in texts {
        let (desc, roots) = &per_desc[text];
        let mut t = Tracker {
            desc,
            bases: Vec::new(),
            seen: HashSet::new(),
            slots: HashSet::new(),
            params: HashSet::new(),
            accesses: Vec::new(),
            errors: Vec::new(),
        };
        for &r in roots {
            t.add_base(r);
        }
        t.run();
        t.check_closed();
        // -fptxcc-layout=auto: an array the rewrite cannot follow stays; else the decision.
        let chosen = if desc.auto {
            let escape = t.errors.first().map(|e| e.message.as_str());
            match super::auto::choose(td, desc, &t.accesses, escape) {
                Ok((chosen, why)) => {
                    crate::remarks::add(device, Some(&desc.loc), &why);
                    Some(chosen)
                }
                Err(why) => {
                    crate::remarks::add(device, Some(&desc.loc), &why);
                    let kept = LayoutDesc {
                        auto: false,
                        ..desc.clone()
                    };
                    sizes.insert(
                        text.clone(),
                        Resolved {
                            elem: 0,
                            desc: Some(super::desc::mark_chosen(&kept.encode())),
                            len_divisor: 1,
                        },
                    );
                    continue;
                }
            }
        } else {
            None
        };
        if !t.errors.is_empty() {
            errors.append(&mut t.errors);
            continue;
        }
        let was_auto = chosen.is_some();
        let desc = chosen.as_ref().unwrap_or(desc);
        // soa(p[0:n]) of a struct of w fields of u bytes is the transpose [n][w] → [w][n].
        let (desc, soa) = if desc.soa {
            match soa_struct(td, &t.accesses) {
                Ok((w, u)) => (
                    LayoutDesc {
                        dims: vec![desc.dims[0], Extent::Const(w)],
                        goes_to: vec![2, 1],
                        soa: false,
                        ..desc.clone()
                    },
                    Some((w, u)),
                ),
                Err(why) => {
                    errors.push(Diagnostic {
                        loc: Some(desc.loc.clone()),
                        message: format!(
                            "ptxcc cannot lay out '{}' as one array per field: {why}",
                            desc.name
                        ),
                    });
                    continue;
                }
            }
        } else {
            (desc.clone(), None)
        };
        let desc = &desc;
        // One element size for every access.
        let mut elem: Option<u64> = None;
        for a in &t.accesses {
            let (_, size) = access_type(td, a);
            match elem {
                None => elem = Some(size),
                Some(e) if e == size => {}
                Some(e) => {
                    errors.push(Diagnostic {
                        loc: loc_of(a.inst).or_else(|| Some(desc.loc.clone())),
                        message: format!(
                            "'{}' (laid out by the trans at {}) is accessed as {size}-byte and as {e}-byte elements; \
                             a transposed array must be accessed as one element type",
                            desc.name, desc.loc
                        ),
                    });
                }
            }
        }
        let Some(elem) = elem else {
            continue;
        };
        let ext = if desc.has_runtime_extents() {
            match extents_global(device, text) {
                Some(g) => Some(g),
                None => {
                    errors.push(Diagnostic {
                        loc: Some(desc.loc.clone()),
                        message: format!(
                            "the device module has no global holding the run-time extents of '{}' ({}; the layout-plan pass creates it)",
                            desc.name,
                            LayoutDesc::ext_global_name(text)
                        ),
                    });
                    continue;
                }
            }
        } else {
            None
        };
        // The start alignment the accesses may assume (align.rs): more than the element's
        // only where an access gains from it, and then written into the description for
        // libptxrt's launch check.
        let start_align = if t
            .accesses
            .iter()
            .any(|a| gains_from_start_alignment(td, desc, a, elem, soa))
        {
            align::ASSUMED.max(align::natural(elem))
        } else {
            align::natural(elem)
        };
        let assumed = (start_align > align::natural(elem)).then_some(start_align);
        let desc = &LayoutDesc {
            base_align: assumed,
            ..desc.clone()
        };
        let layout = DeviceLayout {
            desc,
            elem,
            soa,
            ext,
            start_align,
        };
        let mut rewritten = 0;
        for a in &t.accesses {
            // (A loop copy's access repeats one of its loop's: the remark counts it once.)
            let copy = ir::is_loop_copy(a.inst);
            match rewrite_access(device, td, &layout, a) {
                Ok(true) if !copy => rewritten += 1,
                Ok(_) => {}
                Err(why) => errors.push(Diagnostic {
                    loc: loc_of(a.inst).or_else(|| Some(desc.loc.clone())),
                    message: format!(
                        "ptxcc cannot rewrite this access to '{}' (laid out by the trans at {}): {why}",
                        desc.name, desc.loc
                    ),
                }),
            }
        }
        sizes.insert(
            text.clone(),
            Resolved {
                elem,
                desc: (soa.is_some() || was_auto || assumed.is_some()).then(|| {
                    let text = desc.encode();
                    if was_auto {
                        super::desc::mark_chosen(&text)
                    } else {
                        text
                    }
                }),
                len_divisor: chosen
                    .as_ref()
                    .map(|c| super::auto::section_divisor(&per_desc[text].0, c))
                    .unwrap_or(1),
            },
        );
        let kernels = kernels_of.get(text).map(Vec::len).unwrap_or(0);
        crate::remarks::add(
            device,
            Some(&desc.loc),
            &format!(
                "trans: '{}' is {}{} on the device; {rewritten} access{} in {kernels} kernel{} rewritten{}",
                desc.name,
                desc.name,
                LayoutDesc::shape_text(&desc.device_dims()),
                if rewritten == 1 { "" } else { "es" },
                if kernels == 1 { "" } else { "s" },
                match assumed {
                    Some(n) => format!(
                        "; they read it in {n}-byte vectors, so its device copy must start on a {n}-byte boundary \
                         (checked at each launch)"
                    ),
                    None => String::new(),
                }
            ),
        );
    }
    if errors.is_empty() {
        Ok(sizes)
    } else {
        Err(Diagnostics(errors))
    }
}
