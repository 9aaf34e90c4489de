//! `-fptxcc-layout=auto`, host side: what the data clauses of a region say about the arrays
//! its kernels get, for the arrays that are not globals of constant shape — pointer sections
//! (`struct P *p; map(tofrom: p[0:n])`) — and whether `auto` may lay one out.
//!
//! The map entries are read back from clang's offload arrays: a data region's
//! `__tgt_target_data_begin_mapper(loc, dev, n, baseptrs, ptrs, sizes, types, names, mappers)`,
//! or the `__tgt_kernel_arguments` of a compute construct that maps its own data (kernel
//! level). Their elements are the values clang stores into the `alloca`ed arrays (or the
//! constant arrays' elements):
//!
//! ```llvm
//! %len = sext i32 %n to i64
//! %bytes = mul nuw i64 %len, 24                ; the section p[0:n] of 24-byte structs
//! store ptr %p, ptr %baseptrs.0                ; base and begin are the same: p[0:…]
//! store ptr %p.0, ptr %ptrs.0                  ; %p.0 = getelementptr %struct.P, ptr %p, i64 0
//! store i64 %bytes, ptr %sizes.0
//! ; → Section { base: %p, len: Count(%len, 24) } and the description "p;?;auto:24;…"
//! ```
//!
//! Safety on the host side: every other pointer the region's kernels get must be proved to
//! point at another object (`distinct`): the converted device copy is reached only through the
//! array's own parameter, which the rewrite follows. Pointers whose origins
//! (`ir::pointer_origins`) are all globals, `alloca`s, results of allocation calls (`malloc`,
//! … : a `noalias` return) or `noalias` (`restrict`) parameters are told apart by those
//! origins; anything else may alias and the array stays (with a remark).
use crate::ir;
use inkwell::values::InstructionValue;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use std::collections::HashMap;

/// The length of a section, as its map size gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Length {
    /// `len * elem` bytes, `len` known at run time.
    Count { len: LLVMValueRef, elem: u64 },
    /// A constant number of bytes.
    Bytes(u64),
}

/// One map entry of a pointer section.
#[derive(Clone, Debug)]
pub(super) struct Section {
    /// The pointer (the section starts at its element 0).
    pub base: LLVMValueRef,
    pub length: Length,
    /// The name the map clause gives (`p` of `p[0:n]`), if clang recorded one.
    pub name: Option<String>,
}

/// The values stored into the elements of an offload array (an `alloca` of `[n x T]`, or a
/// constant global): index → value; None for an element stored more than once or never.
fn elements(array: LLVMValueRef, n: usize) -> Vec<Option<LLVMValueRef>> {
    let mut out = vec![None; n];
    unsafe {
        let mut a = ir::strip_casts(array);
        if ir::is_zero_gep(a) {
            a = llvm::LLVMGetOperand(a, 0);
        }
        if !llvm::LLVMIsAGlobalVariable(a).is_null() {
            let init = llvm::LLVMGetInitializer(a);
            if init.is_null() || llvm::LLVMIsConstant(init) == 0 {
                return out;
            }
            for (k, slot) in out.iter_mut().enumerate() {
                let e = llvm::LLVMGetAggregateElement(init, k as u32);
                *slot = (!e.is_null()).then_some(e);
            }
            return out;
        }
        if llvm::LLVMIsAAllocaInst(a).is_null() {
            return out;
        }
        let mut count: HashMap<usize, usize> = HashMap::new();
        let mut record = |k: usize, store: LLVMValueRef, out: &mut Vec<Option<LLVMValueRef>>| {
            if k < n {
                *count.entry(k).or_default() += 1;
                out[k] = Some(llvm::LLVMGetOperand(store, 0));
            }
        };
        for u in ir::users(a) {
            if ir::is_store_to(u, a) {
                record(0, u, &mut out);
                continue;
            }
            if llvm::LLVMIsAGetElementPtrInst(u).is_null() || llvm::LLVMGetOperand(u, 0) != a {
                continue;
            }
            let last = llvm::LLVMGetNumOperands(u) as u32 - 1;
            let Some(k) = ir::const_int(llvm::LLVMGetOperand(u, last)) else {
                continue;
            };
            for s in ir::users(u) {
                if ir::is_store_to(s, u) {
                    record(k as usize, s, &mut out);
                }
            }
        }
        for (k, c) in count {
            if c > 1 {
                out[k] = None;
            }
        }
    }
    out
}

/// The value stored into field `field` of the `__tgt_kernel_arguments` a launch passes.
fn kernel_arg_field(launch: InstructionValue<'_>, field: i64) -> Option<LLVMValueRef> {
    let args = ir::strip_casts(ir::call_arg_raw(launch, 5));
    let mut found = None;
    for g in ir::users(args) {
        unsafe {
            if llvm::LLVMIsAGetElementPtrInst(g).is_null()
                || llvm::LLVMGetNumOperands(g) != 3
                || ir::const_int(llvm::LLVMGetOperand(g, 2)) != Some(field)
            {
                continue;
            }
            for s in ir::users(g) {
                if ir::is_store_to(s, g) {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(llvm::LLVMGetOperand(s, 0));
                }
            }
        }
    }
    found
}

/// The expression of a map name (`;p[0:n];x.c;9;32;;` → `p[0:n]`).
fn map_expr(v: LLVMValueRef) -> Option<String> {
    let s = ir::global_c_string(v)?;
    let expr = s.strip_prefix(';')?.split(';').next()?;
    (!expr.is_empty()).then(|| expr.to_string())
}

/// The name in a map name (`;p[0:n];x.c;9;32;;` → `p`).
fn map_name(v: LLVMValueRef) -> Option<String> {
    let expr = map_expr(v)?;
    let name: String = expr
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Does `v` point at element 0 of `base` (the same value, or a GEP of constant 0 indices)?
pub(super) fn starts_at(v: LLVMValueRef, base: LLVMValueRef) -> bool {
    unsafe {
        let v = ir::strip_casts(v);
        if super::host_plan::same_value(v, base) {
            return true;
        }
        ir::is_zero_gep(v) && super::host_plan::same_value(llvm::LLVMGetOperand(v, 0), base)
    }
}

/// A constant `len` is proved a multiple of: the product of the constant factors of a chain
/// of multiplications that cannot wrap (`nsw`/`nuw`; else powers of two only), through sign and
/// zero extensions: `sext(n * 4)` of `a[0:n*4]`: 4.
pub(super) fn constant_factor(len: LLVMValueRef) -> u64 {
    let mut v = len;
    let mut f = 1u64;
    for _ in 0..8 {
        match ir::opcode(v) {
            Some(llvm_sys::LLVMOpcode::LLVMSExt) | Some(llvm_sys::LLVMOpcode::LLVMZExt) => {
                v = unsafe { llvm::LLVMGetOperand(v, 0) };
            }
            Some(llvm_sys::LLVMOpcode::LLVMMul) => {
                let (a, b) = unsafe { (llvm::LLVMGetOperand(v, 0), llvm::LLVMGetOperand(v, 1)) };
                // A product that may wrap keeps only its power-of-two factors.
                let exact = unsafe { llvm::LLVMGetNSW(v) != 0 || llvm::LLVMGetNUW(v) != 0 };
                let keeps = |c: i64| c > 0 && (exact || (c as u64).is_power_of_two());
                match (
                    ir::const_int(a).filter(|&c| keeps(c)),
                    ir::const_int(b).filter(|&c| keeps(c)),
                ) {
                    (_, Some(c)) => {
                        f = f.saturating_mul(c as u64);
                        v = a;
                    }
                    (Some(c), _) => {
                        f = f.saturating_mul(c as u64);
                        v = b;
                    }
                    _ => return f,
                }
            }
            _ => return f,
        }
    }
    f
}

fn length(size: LLVMValueRef) -> Option<Length> {
    if let Some(b) = ir::const_int(size) {
        return (b > 0).then_some(Length::Bytes(b as u64));
    }
    unsafe {
        if ir::opcode(size) != Some(llvm_sys::LLVMOpcode::LLVMMul) {
            return None;
        }
        let (a, b) = (llvm::LLVMGetOperand(size, 0), llvm::LLVMGetOperand(size, 1));
        match (ir::const_int(a), ir::const_int(b)) {
            (None, Some(e)) if e > 0 => Some(Length::Count {
                len: a,
                elem: e as u64,
            }),
            (Some(e), None) if e > 0 => Some(Length::Count {
                len: b,
                elem: e as u64,
            }),
            _ => None,
        }
    }
}

/// The pointer sections of `n` map entries (`base`, `begin`, `size`, `names` arrays).
fn sections(
    n: usize,
    bases: LLVMValueRef,
    begins: LLVMValueRef,
    sizes: LLVMValueRef,
    names: Option<LLVMValueRef>,
) -> Vec<Section> {
    let (b, p, s) = (elements(bases, n), elements(begins, n), elements(sizes, n));
    let names = names
        .map(|v| elements(v, n))
        .unwrap_or_else(|| vec![None; n]);
    let mut out = Vec::new();
    for k in 0..n {
        let (Some(base), Some(begin), Some(size)) = (b[k], p[k], s[k]) else {
            continue;
        };
        let base = ir::strip_casts(base);
        let is_pointer_value = unsafe {
            llvm::LLVMIsAGlobalVariable(base).is_null() && llvm::LLVMIsAAllocaInst(base).is_null()
        };
        if !is_pointer_value || !starts_at(begin, base) {
            continue;
        }
        let Some(length) = length(size) else {
            continue;
        };
        out.push(Section {
            base,
            length,
            name: names[k].and_then(map_name),
        });
    }
    out
}

/// Where one map entry starts (the offload arrays' `ptrs` element; None where the arrays do not
/// say: stored more than once, or never) and the expression its clause gives (`s.p[0:n]`).
#[derive(Clone, Debug)]
pub(super) struct MapEntry {
    pub begin: Option<LLVMValueRef>,
    pub expr: Option<String>,
    /// Its map type (OpenMP's flags), None where the arrays do not say.
    pub ty: Option<u64>,
}

/// The map-type flag of a pointer attached to the object it points into (`s.p[0:n]`).
pub(super) const PTR_AND_OBJ: u64 = 0x10;

impl MapEntry {
    /// Does the entry attach a pointer (the device copy of its base then points at it)? True
    /// where the map type cannot be read.
    pub fn attaches(&self) -> bool {
        self.ty.is_none_or(|t| t & PTR_AND_OBJ != 0)
    }
}

fn map_entries(
    n: usize,
    ptrs: LLVMValueRef,
    types: Option<LLVMValueRef>,
    names: Option<LLVMValueRef>,
) -> Vec<MapEntry> {
    let names = names
        .map(|v| elements(v, n))
        .unwrap_or_else(|| vec![None; n]);
    let types = types
        .map(|v| elements(v, n))
        .unwrap_or_else(|| vec![None; n]);
    elements(ptrs, n)
        .into_iter()
        .zip(names)
        .zip(types)
        .map(|((begin, name), ty)| MapEntry {
            begin,
            expr: name.and_then(map_expr),
            ty: ty.and_then(ir::const_int).map(|t| t as u64),
        })
        .collect()
}

/// Every entry a data region's begin call maps; None when their count is not a constant.
pub(super) fn data_region_entries(begin: InstructionValue<'_>) -> Option<Vec<MapEntry>> {
    let n = ir::const_int(ir::call_arg_raw(begin, 2))?;
    Some(map_entries(
        n.max(0) as usize,
        ir::call_arg_raw(begin, 4),
        Some(ir::call_arg_raw(begin, 6)),
        Some(ir::call_arg_raw(begin, 7)),
    ))
}

/// Every entry a compute construct maps itself; None when the launch's arguments do not say.
pub(super) fn launch_entries(launch: InstructionValue<'_>) -> Option<Vec<MapEntry>> {
    let n = kernel_arg_field(launch, 1).and_then(ir::const_int)?;
    if n <= 0 {
        return Some(Vec::new());
    }
    Some(map_entries(
        n as usize,
        kernel_arg_field(launch, 3)?,
        kernel_arg_field(launch, 5),
        kernel_arg_field(launch, 6),
    ))
}

/// The pointer sections a data region's begin call maps.
pub(super) fn data_region_sections(begin: InstructionValue<'_>) -> Vec<Section> {
    let Some(n) = ir::const_int(ir::call_arg_raw(begin, 2)) else {
        return Vec::new();
    };
    sections(
        n.max(0) as usize,
        ir::call_arg_raw(begin, 3),
        ir::call_arg_raw(begin, 4),
        ir::call_arg_raw(begin, 5),
        Some(ir::call_arg_raw(begin, 7)),
    )
}

/// The pointer sections a compute construct maps itself (its `__tgt_kernel_arguments`).
pub(super) fn launch_sections(launch: InstructionValue<'_>) -> Vec<Section> {
    let Some(n) = kernel_arg_field(launch, 1).and_then(ir::const_int) else {
        return Vec::new();
    };
    let (Some(b), Some(p), Some(s)) = (
        kernel_arg_field(launch, 2),
        kernel_arg_field(launch, 3),
        kernel_arg_field(launch, 4),
    ) else {
        return Vec::new();
    };
    sections(n.max(0) as usize, b, p, s, kernel_arg_field(launch, 6))
}

/// The sizes every map entry of `base` in a launch's own arrays has (0: a pointer the
/// region maps already, passed as a zero-length section).
pub(super) fn launch_sizes_of(
    launch: InstructionValue<'_>,
    base: LLVMValueRef,
) -> Vec<LLVMValueRef> {
    let Some(n) = kernel_arg_field(launch, 1).and_then(ir::const_int) else {
        return Vec::new();
    };
    let n = n.max(0) as usize;
    let (Some(b), Some(s)) = (kernel_arg_field(launch, 2), kernel_arg_field(launch, 4)) else {
        return Vec::new();
    };
    let (b, s) = (elements(b, n), elements(s, n));
    (0..n)
        .filter(|&k| b[k].is_some_and(|v| super::host_plan::same_value(ir::strip_casts(v), base)))
        .filter_map(|k| s[k])
        .collect()
}

/// An origin that names one object: a global, an `alloca`, an allocation call's result (a
/// `noalias` return) or a `noalias` parameter.
fn identified(v: LLVMValueRef) -> bool {
    unsafe {
        if !llvm::LLVMIsAGlobalVariable(v).is_null() || !llvm::LLVMIsAAllocaInst(v).is_null() {
            return true;
        }
        if !llvm::LLVMIsAArgument(v).is_null() {
            return ir::is_noalias_argument(v);
        }
        ir::is_allocation_call(v)
    }
}

/// Are two origins (`ir::pointer_origins`) different objects? Two identified ones that differ
/// are; so are an `alloca` and any parameter of the same function, `noalias` or not: the
/// caller computed the parameter before the frame holding the `alloca` existed (a reduction
/// variable, `&s`, beside an array passed in). (A parameter of another function may be the
/// address of that `alloca`.)
fn distinct_origins(x: LLVMValueRef, y: LLVMValueRef) -> bool {
    x != y
        && ((identified(x) && identified(y))
            || frame_and_parameter(x, y)
            || frame_and_parameter(y, x))
}

/// Is `local` an `alloca` of the function `param` is a parameter of?
fn frame_and_parameter(local: LLVMValueRef, param: LLVMValueRef) -> bool {
    unsafe {
        if llvm::LLVMIsAAllocaInst(local).is_null() || llvm::LLVMIsAArgument(param).is_null() {
            return false;
        }
        llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(local))
            == llvm::LLVMGetParamParent(param)
    }
}

/// Are `a` and `b` proved to point at different objects?
pub(super) fn distinct(a: LLVMValueRef, b: LLVMValueRef) -> bool {
    let (Some(oa), Some(ob)) = (ir::pointer_origins(a), ir::pointer_origins(b)) else {
        return false;
    };
    !oa.is_empty()
        && !ob.is_empty()
        && oa
            .iter()
            .all(|&x| ob.iter().all(|&y| distinct_origins(x, y)))
}
