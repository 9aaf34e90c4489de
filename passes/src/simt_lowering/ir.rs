//! Thin helpers over the LLVM-C API used by the SIMT-lowering steps.
//!
//! inkwell has no generic "walk every operand / replace this operand / rebuild this instruction
//! with another type" interface, which is most of what this pass does, so the steps work on raw
//! `llvm-sys` references. Every reference handed to these helpers must be a live object of the
//! module being lowered (obtained from it during this pass); under that invariant the calls below
//! are sound, which is why the helpers are safe functions.

use std::collections::HashSet;
use std::ffi::{c_char, CStr};

use anyhow::{anyhow, bail, Result};
use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

pub(crate) type Value = LLVMValueRef;
pub(crate) type Type = LLVMTypeRef;
pub(crate) type Block = LLVMBasicBlockRef;

/// Bytes → String without assuming UTF-8 (symbol names may hold anything).
fn lossy(p: *const c_char, len: usize) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: LLVM returns `len` readable bytes at `p`.
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

pub(crate) fn name(v: Value) -> String {
    let mut len = 0usize;
    // SAFETY: see module comment.
    let p = unsafe { LLVMGetValueName2(v, &mut len) };
    lossy(p, len)
}

pub(crate) fn set_name(v: Value, n: &str) {
    // SAFETY: see module comment.
    unsafe { LLVMSetValueName2(v, n.as_ptr() as *const c_char, n.len()) }
}

pub(crate) fn type_of(v: Value) -> Type {
    unsafe { LLVMTypeOf(v) }
}

pub(crate) fn type_kind(t: Type) -> LLVMTypeKind {
    unsafe { LLVMGetTypeKind(t) }
}

/// Address space of a scalar pointer type, `None` for every other type.
pub(crate) fn ptr_as(t: Type) -> Option<u32> {
    if type_kind(t) == LLVMTypeKind::LLVMPointerTypeKind {
        Some(unsafe { LLVMGetPointerAddressSpace(t) })
    } else {
        None
    }
}

/// A scalar pointer outside the generic address space.
pub(crate) fn is_special_ptr(t: Type) -> bool {
    matches!(ptr_as(t), Some(a) if a != 0)
}

pub(crate) fn print_type(t: Type) -> String {
    // SAFETY: LLVMPrintTypeToString returns an owned C string.
    unsafe {
        let p = LLVMPrintTypeToString(t);
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        LLVMDisposeMessage(p);
        s
    }
}

pub(crate) fn print_value(v: Value) -> String {
    unsafe {
        let p = LLVMPrintValueToString(v);
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        LLVMDisposeMessage(p);
        s.trim().to_string()
    }
}

pub(crate) fn num_operands(v: Value) -> u32 {
    let n = unsafe { LLVMGetNumOperands(v) };
    n.max(0) as u32
}

pub(crate) fn operand(v: Value, i: u32) -> Value {
    unsafe { LLVMGetOperand(v, i) }
}

pub(crate) fn operands(v: Value) -> Vec<Value> {
    (0..num_operands(v)).map(|i| operand(v, i)).collect()
}

pub(crate) fn set_operand(v: Value, i: u32, new: Value) {
    unsafe { LLVMSetOperand(v, i, new) }
}

pub(crate) fn is_instruction(v: Value) -> bool {
    !unsafe { LLVMIsAInstruction(v) }.is_null()
}

pub(crate) fn is_constant(v: Value) -> bool {
    unsafe { LLVMIsConstant(v) != 0 }
}

pub(crate) fn is_const_expr(v: Value) -> bool {
    !unsafe { LLVMIsAConstantExpr(v) }.is_null()
}

pub(crate) fn is_function(v: Value) -> bool {
    !unsafe { LLVMIsAFunction(v) }.is_null()
}

pub(crate) fn is_global_var(v: Value) -> bool {
    !unsafe { LLVMIsAGlobalVariable(v) }.is_null()
}

pub(crate) fn is_argument(v: Value) -> bool {
    !unsafe { LLVMIsAArgument(v) }.is_null()
}

pub(crate) fn is_call(v: Value) -> bool {
    !unsafe { LLVMIsACallInst(v) }.is_null()
}

pub(crate) fn is_call_base(v: Value) -> bool {
    unsafe {
        !LLVMIsACallInst(v).is_null()
            || !LLVMIsAInvokeInst(v).is_null()
            || !LLVMIsACallBrInst(v).is_null()
    }
}

pub(crate) fn is_inline_asm(v: Value) -> bool {
    !unsafe { LLVMIsAInlineAsm(v) }.is_null()
}

pub(crate) fn opcode(inst: Value) -> LLVMOpcode {
    unsafe { LLVMGetInstructionOpcode(inst) }
}

pub(crate) fn const_opcode(ce: Value) -> LLVMOpcode {
    unsafe { LLVMGetConstOpcode(ce) }
}

pub(crate) fn is_declaration(g: Value) -> bool {
    unsafe { LLVMIsDeclaration(g) != 0 }
}

pub(crate) fn functions(m: LLVMModuleRef) -> Vec<Value> {
    let mut out = Vec::new();
    let mut f = unsafe { LLVMGetFirstFunction(m) };
    while !f.is_null() {
        out.push(f);
        f = unsafe { LLVMGetNextFunction(f) };
    }
    out
}

pub(crate) fn global_vars(m: LLVMModuleRef) -> Vec<Value> {
    let mut out = Vec::new();
    let mut g = unsafe { LLVMGetFirstGlobal(m) };
    while !g.is_null() {
        out.push(g);
        g = unsafe { LLVMGetNextGlobal(g) };
    }
    out
}

pub(crate) fn aliases(m: LLVMModuleRef) -> Vec<Value> {
    let mut out = Vec::new();
    let mut a = unsafe { LLVMGetFirstGlobalAlias(m) };
    while !a.is_null() {
        out.push(a);
        a = unsafe { LLVMGetNextGlobalAlias(a) };
    }
    out
}

pub(crate) fn blocks(f: Value) -> Vec<Block> {
    let mut out = Vec::new();
    let mut b = unsafe { LLVMGetFirstBasicBlock(f) };
    while !b.is_null() {
        out.push(b);
        b = unsafe { LLVMGetNextBasicBlock(b) };
    }
    out
}

pub(crate) fn block_insts(b: Block) -> Vec<Value> {
    let mut out = Vec::new();
    let mut i = unsafe { LLVMGetFirstInstruction(b) };
    while !i.is_null() {
        out.push(i);
        i = unsafe { LLVMGetNextInstruction(i) };
    }
    out
}

pub(crate) fn insts(f: Value) -> Vec<Value> {
    blocks(f).into_iter().flat_map(block_insts).collect()
}

pub(crate) fn params(f: Value) -> Vec<Value> {
    let n = unsafe { LLVMCountParams(f) };
    (0..n).map(|i| unsafe { LLVMGetParam(f, i) }).collect()
}

pub(crate) fn parent_block(inst: Value) -> Block {
    unsafe { LLVMGetInstructionParent(inst) }
}

pub(crate) fn parent_fn(inst: Value) -> Value {
    unsafe { LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst)) }
}

pub(crate) fn entry_block(f: Value) -> Block {
    unsafe { LLVMGetEntryBasicBlock(f) }
}

pub(crate) fn terminator(b: Block) -> Value {
    unsafe { LLVMGetBasicBlockTerminator(b) }
}

/// Distinct users of `v`, in use-list order.
pub(crate) fn users(v: Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut u = unsafe { LLVMGetFirstUse(v) };
    while !u.is_null() {
        let user = unsafe { LLVMGetUser(u) };
        if seen.insert(user) {
            out.push(user);
        }
        u = unsafe { LLVMGetNextUse(u) };
    }
    out
}

pub(crate) fn has_uses(v: Value) -> bool {
    !unsafe { LLVMGetFirstUse(v) }.is_null()
}

/// Used by an instruction, a global's initializer or an alias, directly or through constants.
/// (Constants that nothing uses any more linger in the context and still show up as users.)
pub(crate) fn has_live_uses(v: Value) -> bool {
    users(v).into_iter().any(|u| {
        is_instruction(u)
            || !unsafe { LLVMIsAGlobalValue(u) }.is_null()
            || (is_constant(u) && has_live_uses(u))
    })
}

/// Delete a function or global variable that nothing live uses. Lingering dead constants are
/// first pointed at poison, so that no constant is left referring to the deleted object.
pub(crate) fn delete_global_value(g: Value) {
    unsafe {
        if has_uses(g) {
            rauw(g, LLVMGetPoison(type_of(g)));
        }
        if is_function(g) {
            LLVMDeleteFunction(g);
        } else {
            LLVMDeleteGlobal(g);
        }
    }
}

pub(crate) fn rauw(old: Value, new: Value) {
    unsafe { LLVMReplaceAllUsesWith(old, new) }
}

pub(crate) fn erase(inst: Value) {
    unsafe { LLVMInstructionEraseFromParent(inst) }
}

pub(crate) fn called_value(call: Value) -> Value {
    unsafe { LLVMGetCalledValue(call) }
}

/// The directly called function of a call, if the callee is one.
pub(crate) fn called_function(call: Value) -> Option<Value> {
    let c = called_value(call);
    if !c.is_null() && is_function(c) {
        Some(c)
    } else {
        None
    }
}

pub(crate) fn called_fn_type(call: Value) -> Type {
    unsafe { LLVMGetCalledFunctionType(call) }
}

pub(crate) fn num_args(call: Value) -> u32 {
    unsafe { LLVMGetNumArgOperands(call) }
}

pub(crate) fn arg(call: Value, i: u32) -> Value {
    operand(call, i)
}

pub(crate) fn intrinsic_id(f: Value) -> u32 {
    unsafe { LLVMGetIntrinsicID(f) }
}

pub(crate) fn value_type(g: Value) -> Type {
    unsafe { LLVMGlobalGetValueType(g) }
}

pub(crate) fn fn_param_types(fnty: Type) -> Vec<Type> {
    let n = unsafe { LLVMCountParamTypes(fnty) } as usize;
    let mut v: Vec<Type> = vec![std::ptr::null_mut(); n];
    if n > 0 {
        unsafe { LLVMGetParamTypes(fnty, v.as_mut_ptr()) };
    }
    v
}

pub(crate) fn fn_return_type(fnty: Type) -> Type {
    unsafe { LLVMGetReturnType(fnty) }
}

pub(crate) fn fn_is_vararg(fnty: Type) -> bool {
    unsafe { LLVMIsFunctionVarArg(fnty) != 0 }
}

pub(crate) fn int_width(t: Type) -> Option<u32> {
    if type_kind(t) == LLVMTypeKind::LLVMIntegerTypeKind {
        Some(unsafe { LLVMGetIntTypeWidth(t) })
    } else {
        None
    }
}

pub(crate) fn const_int_value(v: Value) -> Option<u64> {
    if unsafe { LLVMIsAConstantInt(v) }.is_null() {
        None
    } else {
        Some(unsafe { LLVMConstIntGetZExtValue(v) })
    }
}

pub(crate) use crate::ir::metadata_kind;

/// Copy the debug location and all other metadata of `from` onto `to`.
pub(crate) fn copy_inst_metadata(ctx: LLVMContextRef, from: Value, to: Value) {
    unsafe {
        let loc = LLVMInstructionGetDebugLoc(from);
        if !loc.is_null() {
            LLVMInstructionSetDebugLoc(to, loc);
        }
        let mut n = 0usize;
        let entries = LLVMInstructionGetAllMetadataOtherThanDebugLoc(from, &mut n);
        if !entries.is_null() {
            for i in 0..n as u32 {
                let kind = LLVMValueMetadataEntriesGetKind(entries, i);
                let md = LLVMValueMetadataEntriesGetMetadata(entries, i);
                LLVMSetMetadata(to, kind, LLVMMetadataAsValue(ctx, md));
            }
            LLVMDisposeValueMetadataEntries(entries);
        }
    }
}

/// Copy all metadata attachments of one global object to another.
pub(crate) fn copy_global_metadata(from: Value, to: Value) {
    unsafe {
        let mut n = 0usize;
        let entries = LLVMGlobalCopyAllMetadata(from, &mut n);
        if !entries.is_null() {
            for i in 0..n as u32 {
                let kind = LLVMValueMetadataEntriesGetKind(entries, i);
                let md = LLVMValueMetadataEntriesGetMetadata(entries, i);
                LLVMGlobalSetMetadata(to, kind, md);
            }
            LLVMDisposeValueMetadataEntries(entries);
        }
    }
}

/// `@fn` plus ` (file:line:col)` when the instruction carries a debug location: the prefix of
/// every diagnostic about an instruction.
pub(crate) fn describe(inst: Value) -> String {
    let f = parent_fn(inst);
    let mut s = format!("in @{}", name(f));
    unsafe {
        let loc = LLVMInstructionGetDebugLoc(inst);
        if !loc.is_null()
            && matches!(
                LLVMGetMetadataKind(loc),
                llvm_sys::debuginfo::LLVMMetadataKind::LLVMDILocationMetadataKind
            )
        {
            let line = LLVMDILocationGetLine(loc);
            let col = LLVMDILocationGetColumn(loc);
            let scope = LLVMDILocationGetScope(loc);
            let mut file_name = String::new();
            if !scope.is_null() {
                let file = LLVMDIScopeGetFile(scope);
                if !file.is_null() {
                    let mut len = 0u32;
                    let p = LLVMDIFileGetFilename(file, &mut len);
                    file_name = lossy(p, len as usize);
                }
            }
            s.push_str(&format!(" ({}:{}:{})", file_name, line, col));
        }
    }
    s
}

/// String function attribute value at function index, if present.
pub(crate) fn fn_string_attr(f: Value, key: &str) -> Option<String> {
    unsafe {
        let a = LLVMGetStringAttributeAtIndex(
            f,
            llvm_sys::LLVMAttributeFunctionIndex,
            key.as_ptr() as *const c_char,
            key.len() as u32,
        );
        if a.is_null() {
            return None;
        }
        let mut len = 0u32;
        let p = LLVMGetStringAttributeValue(a, &mut len);
        Some(lossy(p, len as usize))
    }
}

/// Keys of all string attributes at `idx` of a function.
pub(crate) fn string_attr_keys(f: Value, idx: u32) -> Vec<String> {
    unsafe {
        let n = LLVMGetAttributeCountAtIndex(f, idx) as usize;
        if n == 0 {
            return Vec::new();
        }
        let mut attrs: Vec<LLVMAttributeRef> = vec![std::ptr::null_mut(); n];
        LLVMGetAttributesAtIndex(f, idx, attrs.as_mut_ptr());
        attrs
            .into_iter()
            .filter(|a| LLVMIsStringAttribute(*a) != 0)
            .map(|a| {
                let mut len = 0u32;
                let p = LLVMGetStringAttributeKind(a, &mut len);
                lossy(p, len as usize)
            })
            .collect()
    }
}

pub(crate) fn remove_fn_string_attr(f: Value, idx: u32, key: &str) {
    unsafe {
        LLVMRemoveStringAttributeAtIndex(f, idx, key.as_ptr() as *const c_char, key.len() as u32)
    }
}

/// All attributes at index `idx` of a function.
pub(crate) fn fn_attrs(f: Value, idx: u32) -> Vec<LLVMAttributeRef> {
    unsafe {
        let n = LLVMGetAttributeCountAtIndex(f, idx) as usize;
        let mut attrs: Vec<LLVMAttributeRef> = vec![std::ptr::null_mut(); n];
        if n > 0 {
            LLVMGetAttributesAtIndex(f, idx, attrs.as_mut_ptr());
        }
        attrs
    }
}

/// All attributes at index `idx` of a call site.
pub(crate) fn call_attrs(call: Value, idx: u32) -> Vec<LLVMAttributeRef> {
    unsafe {
        let n = LLVMGetCallSiteAttributeCount(call, idx) as usize;
        let mut attrs: Vec<LLVMAttributeRef> = vec![std::ptr::null_mut(); n];
        if n > 0 {
            LLVMGetCallSiteAttributes(call, idx, attrs.as_mut_ptr());
        }
        attrs
    }
}

pub(crate) fn enum_attr_kind(name: &str) -> Result<u32> {
    let k = unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr() as *const c_char, name.len()) };
    if k == 0 {
        bail!("internal error: LLVM does not know the attribute `{name}`");
    }
    Ok(k)
}

/// An owned IR builder plus the module/context it works on, with the few typed constructors the
/// steps need.
pub(crate) struct Ir {
    pub m: LLVMModuleRef,
    pub ctx: LLVMContextRef,
    pub b: LLVMBuilderRef,
}

impl Drop for Ir {
    fn drop(&mut self) {
        unsafe { LLVMDisposeBuilder(self.b) }
    }
}

impl Ir {
    pub fn new(m: LLVMModuleRef) -> Ir {
        unsafe {
            let ctx = LLVMGetModuleContext(m);
            let b = LLVMCreateBuilderInContext(ctx);
            Ir { m, ctx, b }
        }
    }

    pub fn void(&self) -> Type {
        unsafe { LLVMVoidTypeInContext(self.ctx) }
    }
    pub fn i8(&self) -> Type {
        unsafe { LLVMInt8TypeInContext(self.ctx) }
    }
    pub fn i32(&self) -> Type {
        unsafe { LLVMInt32TypeInContext(self.ctx) }
    }
    pub fn i64(&self) -> Type {
        unsafe { LLVMInt64TypeInContext(self.ctx) }
    }
    pub fn f32(&self) -> Type {
        unsafe { LLVMFloatTypeInContext(self.ctx) }
    }
    pub fn ptr(&self) -> Type {
        unsafe { LLVMPointerTypeInContext(self.ctx, 0) }
    }
    pub fn fn_type(&self, ret: Type, params: &[Type], vararg: bool) -> Type {
        let mut p = params.to_vec();
        unsafe { LLVMFunctionType(ret, p.as_mut_ptr(), p.len() as u32, vararg as i32) }
    }
    pub fn c32(&self, v: u64) -> Value {
        unsafe { LLVMConstInt(self.i32(), v, 0) }
    }
    pub fn c64(&self, v: u64) -> Value {
        unsafe { LLVMConstInt(self.i64(), v, 0) }
    }

    /// Insert before `inst`.
    pub fn before(&self, inst: Value) {
        unsafe { LLVMPositionBuilderBefore(self.b, inst) }
    }

    /// Insert right after the definition of `inst` (after the PHI group for a PHI).
    pub fn after(&self, inst: Value) -> Result<()> {
        if opcode(inst) == LLVMOpcode::LLVMPHI {
            self.before(first_non_phi(parent_block(inst))?);
            return Ok(());
        }
        let next = unsafe { LLVMGetNextInstruction(inst) };
        if next.is_null() {
            bail!(
                "{}: cannot insert after the terminator {}",
                describe(inst),
                print_value(inst)
            );
        }
        self.before(next);
        Ok(())
    }

    /// Insert at the top of the entry block of `f`, after its leading static allocas.
    pub fn at_entry(&self, f: Value) -> Result<()> {
        let entry = entry_block(f);
        for i in block_insts(entry) {
            if opcode(i) != LLVMOpcode::LLVMAlloca {
                self.before(i);
                return Ok(());
            }
        }
        bail!("@{}: entry block has no terminator", name(f))
    }

    pub fn set_debug_loc_from(&self, inst: Value) {
        unsafe { LLVMSetCurrentDebugLocation2(self.b, LLVMInstructionGetDebugLoc(inst)) }
    }
    pub fn clear_debug_loc(&self) {
        unsafe { LLVMSetCurrentDebugLocation2(self.b, std::ptr::null_mut()) }
    }

    pub fn call(&self, f: Value, args: &[Value], nm: &str) -> Value {
        let fnty = value_type(f);
        let mut a = args.to_vec();
        let nm = cstring(nm);
        unsafe { LLVMBuildCall2(self.b, fnty, f, a.as_mut_ptr(), a.len() as u32, nm.as_ptr()) }
    }

    pub fn cast(&self, op: LLVMOpcode, v: Value, to: Type, nm: &str) -> Value {
        let nm = cstring(nm);
        unsafe { LLVMBuildCast(self.b, op, v, to, nm.as_ptr()) }
    }

    pub fn addrspacecast(&self, v: Value, to: Type, nm: &str) -> Value {
        self.cast(LLVMOpcode::LLVMAddrSpaceCast, v, to, nm)
    }

    pub fn binop(&self, op: LLVMOpcode, a: Value, b: Value, nm: &str) -> Value {
        let nm = cstring(nm);
        unsafe { LLVMBuildBinOp(self.b, op, a, b, nm.as_ptr()) }
    }

    pub fn icmp(&self, pred: llvm_sys::LLVMIntPredicate, a: Value, b: Value, nm: &str) -> Value {
        let nm = cstring(nm);
        unsafe { LLVMBuildICmp(self.b, pred, a, b, nm.as_ptr()) }
    }

    pub fn gep(&self, elem: Type, base: Value, idx: &[Value], inbounds: bool, nm: &str) -> Value {
        let nm = cstring(nm);
        let mut i = idx.to_vec();
        unsafe {
            if inbounds {
                LLVMBuildInBoundsGEP2(
                    self.b,
                    elem,
                    base,
                    i.as_mut_ptr(),
                    i.len() as u32,
                    nm.as_ptr(),
                )
            } else {
                LLVMBuildGEP2(
                    self.b,
                    elem,
                    base,
                    i.as_mut_ptr(),
                    i.len() as u32,
                    nm.as_ptr(),
                )
            }
        }
    }

    pub fn load(&self, ty: Type, p: Value, align: u32, nm: &str) -> Value {
        let nm = cstring(nm);
        unsafe {
            let l = LLVMBuildLoad2(self.b, ty, p, nm.as_ptr());
            if align > 0 {
                LLVMSetAlignment(l, align);
            }
            l
        }
    }

    /// Get or declare `name` with exactly `fnty`; a clash with another type is an error.
    pub fn get_or_declare(&self, fname: &str, fnty: Type) -> Result<(Value, bool)> {
        let c = cstring(fname);
        unsafe {
            let f = LLVMGetNamedFunction(self.m, c.as_ptr());
            if !f.is_null() {
                if value_type(f) != fnty {
                    bail!(
                        "@{fname} is already declared as `{}`, but the emulator ABI needs `{}`",
                        print_type(value_type(f)),
                        print_type(fnty)
                    );
                }
                return Ok((f, false));
            }
            Ok((LLVMAddFunction(self.m, c.as_ptr(), fnty), true))
        }
    }

    pub fn enum_attr(&self, kind: &str, val: u64) -> Result<LLVMAttributeRef> {
        Ok(unsafe { LLVMCreateEnumAttribute(self.ctx, enum_attr_kind(kind)?, val) })
    }

    pub fn add_fn_attr(&self, f: Value, idx: u32, kind: &str, val: u64) -> Result<()> {
        let a = self.enum_attr(kind, val)?;
        unsafe { LLVMAddAttributeAtIndex(f, idx, a) };
        Ok(())
    }

    pub fn add_call_attr(&self, call: Value, idx: u32, kind: &str, val: u64) -> Result<()> {
        let a = self.enum_attr(kind, val)?;
        unsafe { LLVMAddCallSiteAttribute(call, idx, a) };
        Ok(())
    }

    /// `!{T lo, T hi}` as a `!range` attachment.
    pub fn set_range(&self, inst: Value, ty: Type, lo: u64, hi: u64) {
        unsafe {
            let mut mds = [
                LLVMValueAsMetadata(LLVMConstInt(ty, lo, 0)),
                LLVMValueAsMetadata(LLVMConstInt(ty, hi, 0)),
            ];
            let node = LLVMMDNodeInContext2(self.ctx, mds.as_mut_ptr(), 2);
            LLVMSetMetadata(
                inst,
                metadata_kind(self.ctx, "range"),
                LLVMMetadataAsValue(self.ctx, node),
            );
        }
    }

    pub fn named_global(&self, n: &str) -> Option<Value> {
        let c = cstring(n);
        let g = unsafe { LLVMGetNamedGlobal(self.m, c.as_ptr()) };
        (!g.is_null()).then_some(g)
    }

    pub fn named_function(&self, n: &str) -> Option<Value> {
        let c = cstring(n);
        let f = unsafe { LLVMGetNamedFunction(self.m, c.as_ptr()) };
        (!f.is_null()).then_some(f)
    }

    pub fn intrinsic(&self, iname: &str, overloads: &[Type]) -> Result<Value> {
        let id = unsafe { LLVMLookupIntrinsicID(iname.as_ptr() as *const c_char, iname.len()) };
        if id == 0 {
            bail!("internal error: LLVM has no intrinsic {iname}");
        }
        let mut o = overloads.to_vec();
        Ok(unsafe { LLVMGetIntrinsicDeclaration(self.m, id, o.as_mut_ptr(), o.len()) })
    }
}

/// First instruction of `b` that is not a PHI.
pub(crate) fn first_non_phi(b: Block) -> Result<Value> {
    block_insts(b)
        .into_iter()
        .find(|i| opcode(*i) != LLVMOpcode::LLVMPHI)
        .ok_or_else(|| anyhow!("basic block without terminator"))
}

pub(crate) fn cstring(s: &str) -> std::ffi::CString {
    // Names with interior NULs cannot come from LLVM; strip them rather than fail.
    std::ffi::CString::new(s.replace('\0', "")).unwrap_or_default()
}

/// Number of incoming edges of a PHI.
pub(crate) fn phi_incoming(phi: Value) -> Vec<(Value, Block)> {
    let n = unsafe { LLVMCountIncoming(phi) };
    (0..n)
        .map(|i| unsafe { (LLVMGetIncomingValue(phi, i), LLVMGetIncomingBlock(phi, i)) })
        .collect()
}

/// Run the verifier; `Err` with its report on failure.
pub(crate) fn verify(m: LLVMModuleRef) -> std::result::Result<(), String> {
    use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
    unsafe {
        let mut msg: *mut c_char = std::ptr::null_mut();
        let broken = LLVMVerifyModule(
            m,
            LLVMVerifierFailureAction::LLVMReturnStatusAction,
            &mut msg,
        ) != 0;
        let text = if msg.is_null() {
            String::new()
        } else {
            let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
            LLVMDisposeMessage(msg);
            s
        };
        if broken {
            Err(text)
        } else {
            Ok(())
        }
    }
}

extern "C" {
    /// `void llvm::NamedMDNode::eraseFromParent()`. The LLVM-C API can read and append to named
    /// metadata but cannot remove it, and `!nvvm.annotations` must not reach the host module.
    /// This non-virtual member takes only `this`, which the Itanium C++ ABI passes exactly like
    /// the first argument of a C function; libLLVM-19.so exports it.
    #[link_name = "_ZN4llvm11NamedMDNode15eraseFromParentEv"]
    fn llvm_named_md_node_erase_from_parent(node: LLVMNamedMDNodeRef);
}

/// Remove the named metadata `name` from the module, if present.
pub(crate) fn erase_named_metadata(m: LLVMModuleRef, nm: &str) {
    unsafe {
        let node = LLVMGetNamedMetadata(m, nm.as_ptr() as *const c_char, nm.len());
        if !node.is_null() {
            llvm_named_md_node_erase_from_parent(node);
        }
    }
}

/// Names of all named metadata nodes of the module.
pub(crate) fn named_metadata_names(m: LLVMModuleRef) -> Vec<String> {
    let mut out = Vec::new();
    unsafe {
        let mut n = LLVMGetFirstNamedMetadata(m);
        while !n.is_null() {
            let mut len = 0usize;
            let p = LLVMGetNamedMetadataName(n, &mut len);
            out.push(lossy(p, len));
            n = LLVMGetNextNamedMetadata(n);
        }
    }
    out
}

/// Operands (as values wrapping MDNodes) of a named metadata node.
pub(crate) fn named_metadata_operands(m: LLVMModuleRef, nm: &str) -> Vec<Value> {
    let c = cstring(nm);
    unsafe {
        let n = LLVMGetNamedMetadataNumOperands(m, c.as_ptr()) as usize;
        let mut v: Vec<Value> = vec![std::ptr::null_mut(); n];
        if n > 0 {
            LLVMGetNamedMetadataOperands(m, c.as_ptr(), v.as_mut_ptr());
        }
        v
    }
}

pub(crate) use crate::ir::md_node_operands;

pub(crate) fn md_string(v: Value) -> Option<String> {
    if v.is_null() {
        return None;
    }
    unsafe {
        if LLVMIsAMDString(v).is_null() {
            return None;
        }
        let mut len = 0u32;
        let p = LLVMGetMDString(v, &mut len);
        if p.is_null() {
            None
        } else {
            Some(lossy(p, len as usize))
        }
    }
}

pub(crate) fn inline_asm_string(v: Value) -> String {
    let mut len = 0usize;
    let p = unsafe { LLVMGetInlineAsmAsmString(v, &mut len) };
    lossy(p, len)
}

pub(crate) fn intrinsic_base_name(id: u32) -> String {
    let mut len = 0usize;
    let p = unsafe { LLVMIntrinsicGetName(id, &mut len) };
    lossy(p, len)
}
