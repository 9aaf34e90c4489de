//! Steps 4–6: every pointer in address space 1, 4, 5 (or any other non-zero one) → generic.
//!
//! The LLVM-C API cannot change the type of a value in place, so values are rebuilt:
//!
//! * globals in a non-zero address space are re-created in address space 0 and the old ones
//!   replaced by `addrspacecast (ptr @new to ptr addrspace(N))`, which the constant folder
//!   cancels against the front end's `addrspacecast (... to ptr)`;
//! * functions whose signature mentions such pointers get a flat clone; the body moves over
//!   and each changed argument is re-cast to its old type at the top of the entry block;
//! * every instruction producing such a pointer (alloca, GEP, PHI, select, load, inttoptr,
//!   freeze, call) is rebuilt in address space 0 next to the old one; the old one's uses get
//!   `addrspacecast ptr %new to ptr addrspace(N)` (a "back" cast) and it is erased at the end;
//! * consumers that accept any pointer (load/store/atomics, icmp, ptrtoint, calls, ret) get the
//!   generic value directly; `addrspacecast X to ptr` folds to the generic value of X.
//!
//! An operand whose producer has not been visited yet gets a "glue" cast right after its
//! definition, replaced by the rebuilt value once that exists, so the visiting order does not
//! matter. Casts nobody uses are deleted at the end; those that remain (pointers stored in
//! aggregates, vector-of-pointer operations) are no-ops on the host.

use std::collections::{HashMap, HashSet};

use anyhow::{bail, Result};
use llvm_sys::core::*;
use llvm_sys::LLVMOpcode;

use super::ir::*;

/// `ptr addrspace(N)` → `ptr`; every other type unchanged.
fn flat(ir: &Ir, t: Type) -> Type {
    if is_special_ptr(t) {
        ir.ptr()
    } else {
        t
    }
}

fn flat_fn_type(ir: &Ir, fnty: Type) -> Type {
    let params: Vec<Type> = fn_param_types(fnty)
        .into_iter()
        .map(|t| flat(ir, t))
        .collect();
    ir.fn_type(flat(ir, fn_return_type(fnty)), &params, fn_is_vararg(fnty))
}

fn fn_type_is_special(fnty: Type) -> bool {
    is_special_ptr(fn_return_type(fnty)) || fn_param_types(fnty).into_iter().any(is_special_ptr)
}

/// Step 4: globals outside address space 0 (shared ones are already gone).
pub(crate) fn flatten_globals(ir: &Ir) -> Result<()> {
    for g in global_vars(ir.m) {
        if !is_special_ptr(type_of(g)) {
            continue;
        }
        let nm = name(g);
        set_name(g, "");
        let c = cstring(&nm);
        unsafe {
            let ng = LLVMAddGlobalInAddressSpace(ir.m, value_type(g), c.as_ptr(), 0);
            if !is_declaration(g) {
                LLVMSetInitializer(ng, LLVMGetInitializer(g));
            }
            LLVMSetLinkage(ng, LLVMGetLinkage(g));
            LLVMSetVisibility(ng, LLVMGetVisibility(g));
            LLVMSetAlignment(ng, LLVMGetAlignment(g));
            LLVMSetGlobalConstant(ng, LLVMIsGlobalConstant(g));
            LLVMSetThreadLocalMode(ng, LLVMGetThreadLocalMode(g));
            LLVMSetExternallyInitialized(ng, LLVMIsExternallyInitialized(g));
            LLVMSetUnnamedAddress(ng, LLVMGetUnnamedAddress(g));
            LLVMSetDLLStorageClass(ng, LLVMGetDLLStorageClass(g));
            let sec = LLVMGetSection(g);
            if !sec.is_null() && *sec != 0 {
                LLVMSetSection(ng, sec);
            }
            let cd = llvm_sys::comdat::LLVMGetComdat(g);
            if !cd.is_null() {
                llvm_sys::comdat::LLVMSetComdat(ng, cd);
            }
            copy_global_metadata(g, ng);
            rauw(g, LLVMConstAddrSpaceCast(ng, type_of(g)));
            LLVMDeleteGlobal(g);
        }
    }
    Ok(())
}

/// Step 5: functions (definitions and declarations, not intrinsics) whose signature has
/// non-generic pointers get a flat signature.
pub(crate) fn flatten_signatures(ir: &Ir) -> Result<()> {
    for f in functions(ir.m) {
        if intrinsic_id(f) != 0 {
            continue;
        }
        let fnty = value_type(f);
        if !fn_type_is_special(fnty) {
            continue;
        }
        let nty = flat_fn_type(ir, fnty);
        let nm = name(f);
        set_name(f, "");
        let c = cstring(&nm);
        unsafe {
            let nf = LLVMAddFunction(ir.m, c.as_ptr(), nty);
            LLVMSetLinkage(nf, LLVMGetLinkage(f));
            LLVMSetVisibility(nf, LLVMGetVisibility(f));
            LLVMSetFunctionCallConv(nf, LLVMGetFunctionCallConv(f));
            LLVMSetUnnamedAddress(nf, LLVMGetUnnamedAddress(f));
            LLVMSetDLLStorageClass(nf, LLVMGetDLLStorageClass(f));
            LLVMSetAlignment(nf, LLVMGetAlignment(f));
            let sec = LLVMGetSection(f);
            if !sec.is_null() && *sec != 0 {
                LLVMSetSection(nf, sec);
            }
            let gc = LLVMGetGC(f);
            if !gc.is_null() {
                LLVMSetGC(nf, gc);
            }
            if LLVMHasPersonalityFn(f) != 0 {
                LLVMSetPersonalityFn(nf, LLVMGetPersonalityFn(f));
            }
            let cd = llvm_sys::comdat::LLVMGetComdat(f);
            if !cd.is_null() {
                llvm_sys::comdat::LLVMSetComdat(nf, cd);
            }
            let nparams = fn_param_types(fnty).len() as u32;
            let mut idxs = vec![
                llvm_sys::LLVMAttributeFunctionIndex,
                llvm_sys::LLVMAttributeReturnIndex,
            ];
            idxs.extend(1..=nparams);
            for idx in idxs {
                for a in fn_attrs(f, idx) {
                    LLVMAddAttributeAtIndex(nf, idx, a);
                }
            }
            copy_global_metadata(f, nf);

            if !is_declaration(f) {
                let tmp = LLVMAppendBasicBlockInContext(ir.ctx, nf, c"".as_ptr());
                let mut last = tmp;
                for bb in blocks(f) {
                    LLVMMoveBasicBlockAfter(bb, last);
                    last = bb;
                }
                LLVMDeleteBasicBlock(tmp);
                let entry_first = first_non_phi(entry_block(nf))?;
                for (o, n) in params(f).into_iter().zip(params(nf)) {
                    set_name(n, &name(o));
                    if type_of(o) == type_of(n) {
                        rauw(o, n);
                    } else {
                        ir.before(entry_first);
                        let back = ir.addrspacecast(n, type_of(o), "");
                        rauw(o, back);
                    }
                }
            }
            rauw(f, nf);
            LLVMDeleteFunction(f);
        }
    }
    Ok(())
}

/// Step 6: rebuild the instructions (see the module comment).
pub(crate) fn flatten_instructions(ir: &Ir) -> Result<()> {
    let mut fl = Flattener {
        ir,
        map: HashMap::new(),
        glue: HashMap::new(),
        dead: HashSet::new(),
        dead_order: Vec::new(),
        cmemo: HashMap::new(),
    };
    for f in functions(ir.m) {
        for i in insts(f) {
            if !fl.dead.contains(&i) {
                fl.visit(i)?;
            }
        }
    }
    fl.finish()
}

struct Flattener<'a> {
    ir: &'a Ir,
    /// Old instruction with a non-generic pointer result → its generic rebuild.
    map: HashMap<Value, Value>,
    /// Value → `addrspacecast` to generic inserted after its definition.
    glue: HashMap<Value, Value>,
    /// Old instructions to erase once everything is rebuilt (never erased earlier, so that no
    /// key of the maps above is freed and reused while the pass runs).
    dead: HashSet<Value>,
    dead_order: Vec<Value>,
    cmemo: HashMap<Value, Value>,
}

impl Flattener<'_> {
    fn kill(&mut self, i: Value) {
        if self.dead.insert(i) {
            self.dead_order.push(i);
        }
    }

    /// The generic-address-space version of `x`.
    fn cast0(&mut self, x: Value) -> Result<Value> {
        let ir = self.ir;
        if !is_special_ptr(type_of(x)) {
            return Ok(x);
        }
        if let Some(v) = self.map.get(&x) {
            return Ok(*v);
        }
        if is_constant(x) {
            return self.map_const(x);
        }
        if is_instruction(x) && opcode(x) == LLVMOpcode::LLVMAddrSpaceCast {
            let src = operand(x, 0);
            return if ptr_as(type_of(src)) == Some(0) {
                Ok(src)
            } else {
                self.cast0(src)
            };
        }
        if let Some(g) = self.glue.get(&x) {
            return Ok(*g);
        }
        if is_argument(x) {
            let f = unsafe { LLVMGetParamParent(x) };
            ir.before(first_non_phi(entry_block(f))?);
        } else if is_instruction(x) {
            ir.after(x)?;
        } else {
            bail!("internal error: cannot re-address {}", print_value(x));
        }
        let g = ir.addrspacecast(x, ir.ptr(), "");
        self.glue.insert(x, g);
        Ok(g)
    }

    fn map_const(&mut self, c: Value) -> Result<Value> {
        let ir = self.ir;
        if !is_special_ptr(type_of(c)) {
            return Ok(c);
        }
        if let Some(v) = self.cmemo.get(&c) {
            return Ok(*v);
        }
        let p0 = ir.ptr();
        let r = unsafe {
            if LLVMIsNull(c) != 0 {
                LLVMConstPointerNull(p0)
            } else if LLVMIsPoison(c) != 0 {
                LLVMGetPoison(p0)
            } else if LLVMIsUndef(c) != 0 {
                LLVMGetUndef(p0)
            } else if is_const_expr(c) {
                match const_opcode(c) {
                    LLVMOpcode::LLVMAddrSpaceCast | LLVMOpcode::LLVMBitCast => {
                        let src = operand(c, 0);
                        if ptr_as(type_of(src)) == Some(0) {
                            src
                        } else {
                            self.map_const(src)?
                        }
                    }
                    LLVMOpcode::LLVMGetElementPtr => {
                        let base = self.map_const(operand(c, 0))?;
                        let mut idx: Vec<Value> = operands(c)[1..].to_vec();
                        LLVMConstGEPWithNoWrapFlags(
                            LLVMGetGEPSourceElementType(c),
                            base,
                            idx.as_mut_ptr(),
                            idx.len() as u32,
                            LLVMGEPGetNoWrapFlags(c),
                        )
                    }
                    LLVMOpcode::LLVMIntToPtr => LLVMConstIntToPtr(operand(c, 0), p0),
                    _ => LLVMConstAddrSpaceCast(c, p0),
                }
            } else {
                LLVMConstAddrSpaceCast(c, p0)
            }
        };
        self.cmemo.insert(c, r);
        Ok(r)
    }

    /// `old` (non-generic pointer result) is now computed by `new`: hand its uses a back cast.
    fn replace_producer(&mut self, old: Value, new: Value) -> Result<()> {
        let ir = self.ir;
        let nm = name(old);
        set_name(old, "");
        set_name(new, &nm);
        copy_inst_metadata(ir.ctx, old, new);
        self.map.insert(old, new);
        ir.after(new)?;
        let back = ir.addrspacecast(new, type_of(old), "");
        rauw(old, back);
        self.kill(old);
        Ok(())
    }

    /// `old` is now computed by `new`: through a back cast if `old` had a non-generic pointer
    /// type, directly otherwise.
    fn replace(&mut self, old: Value, new: Value) -> Result<()> {
        if is_special_ptr(type_of(old)) {
            return self.replace_producer(old, new);
        }
        let nm = name(old);
        set_name(old, "");
        set_name(new, &nm);
        copy_inst_metadata(self.ir.ctx, old, new);
        rauw(old, new);
        self.kill(old);
        Ok(())
    }

    fn visit(&mut self, i: Value) -> Result<()> {
        use LLVMOpcode::*;
        let ir = self.ir;
        let special_result = is_special_ptr(type_of(i));
        match opcode(i) {
            LLVMAddrSpaceCast => {
                let src = operand(i, 0);
                if ptr_as(type_of(i)) == Some(0) && is_special_ptr(type_of(src)) {
                    let v = self.cast0(src)?;
                    rauw(i, v);
                    self.kill(i);
                }
                // Casts into a non-generic space stay; cast0 looks through them.
            }
            // Also `alloca ptr addrspace(1)` / `getelementptr ptr addrspace(1), ...`: the memory
            // type says the same bytes with a generic pointer.
            LLVMAlloca if special_result || is_special_ptr(unsafe { LLVMGetAllocatedType(i) }) => {
                let n = operand(i, 0);
                ir.before(i);
                let new = unsafe {
                    let a = LLVMBuildArrayAlloca(
                        ir.b,
                        flat(ir, LLVMGetAllocatedType(i)),
                        n,
                        c"".as_ptr(),
                    );
                    LLVMSetAlignment(a, LLVMGetAlignment(i));
                    a
                };
                self.replace(i, new)?;
            }
            LLVMGetElementPtr
                if (special_result
                    || is_special_ptr(unsafe { LLVMGetGEPSourceElementType(i) }))
                    && ptr_as(type_of(i)).is_some() =>
            {
                let base = self.cast0(operand(i, 0))?;
                let mut idx: Vec<Value> = operands(i)[1..].to_vec();
                ir.before(i);
                let new = unsafe {
                    LLVMBuildGEPWithNoWrapFlags(
                        ir.b,
                        flat(ir, LLVMGetGEPSourceElementType(i)),
                        base,
                        idx.as_mut_ptr(),
                        idx.len() as u32,
                        c"".as_ptr(),
                        LLVMGEPGetNoWrapFlags(i),
                    )
                };
                self.replace(i, new)?;
            }
            LLVMPHI if special_result => {
                let mut inc = Vec::new();
                for (v, b) in phi_incoming(i) {
                    inc.push((self.cast0(v)?, b));
                }
                ir.before(i);
                let new = unsafe { LLVMBuildPhi(ir.b, ir.ptr(), c"".as_ptr()) };
                for (mut v, mut b) in inc {
                    unsafe { LLVMAddIncoming(new, &mut v, &mut b, 1) };
                }
                self.replace_producer(i, new)?;
            }
            LLVMSelect if special_result => {
                let t = self.cast0(operand(i, 1))?;
                let e = self.cast0(operand(i, 2))?;
                ir.before(i);
                let new = unsafe { LLVMBuildSelect(ir.b, operand(i, 0), t, e, c"".as_ptr()) };
                self.replace_producer(i, new)?;
            }
            LLVMFreeze if special_result => {
                let v = self.cast0(operand(i, 0))?;
                ir.before(i);
                let new = unsafe { LLVMBuildFreeze(ir.b, v, c"".as_ptr()) };
                self.replace_producer(i, new)?;
            }
            LLVMIntToPtr if special_result => {
                ir.before(i);
                let new = ir.cast(LLVMIntToPtr, operand(i, 0), ir.ptr(), "");
                self.replace_producer(i, new)?;
            }
            LLVMLoad => {
                let p = operand(i, 0);
                let p0 = self.cast0(p)?;
                if special_result {
                    ir.before(i);
                    let new = unsafe {
                        let l = LLVMBuildLoad2(ir.b, ir.ptr(), p0, c"".as_ptr());
                        LLVMSetAlignment(l, LLVMGetAlignment(i));
                        LLVMSetVolatile(l, LLVMGetVolatile(i));
                        let ord = LLVMGetOrdering(i);
                        if ord != llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
                            LLVMSetOrdering(l, ord);
                        }
                        l
                    };
                    self.replace_producer(i, new)?;
                } else if p0 != p {
                    set_operand(i, 0, p0);
                }
            }
            LLVMStore => {
                for k in 0..2 {
                    let v = operand(i, k);
                    let v0 = self.cast0(v)?;
                    if v0 != v {
                        set_operand(i, k, v0);
                    }
                }
            }
            LLVMAtomicRMW | LLVMAtomicCmpXchg | LLVMPtrToInt => {
                let p = operand(i, 0);
                let p0 = self.cast0(p)?;
                if p0 != p {
                    set_operand(i, 0, p0);
                }
            }
            LLVMICmp if is_special_ptr(type_of(operand(i, 0))) => {
                let a = self.cast0(operand(i, 0))?;
                let b = self.cast0(operand(i, 1))?;
                set_operand(i, 0, a);
                set_operand(i, 1, b);
            }
            LLVMRet if num_operands(i) == 1 => {
                let v = operand(i, 0);
                let want = fn_return_type(value_type(parent_fn(i)));
                if type_of(v) != want && is_special_ptr(type_of(v)) && ptr_as(want) == Some(0) {
                    let v0 = self.cast0(v)?;
                    set_operand(i, 0, v0);
                }
            }
            LLVMCall => self.visit_call(i)?,
            _ => {}
        }
        Ok(())
    }

    fn visit_call(&mut self, i: Value) -> Result<()> {
        let ir = self.ir;
        let fnty = called_fn_type(i);
        let callee = called_value(i);
        let nargs = num_args(i);
        let args: Vec<Value> = (0..nargs).map(|k| arg(i, k)).collect();
        let special = fn_type_is_special(fnty)
            || args.iter().any(|a| is_special_ptr(type_of(*a)))
            || is_special_ptr(type_of(callee));
        if !special || is_inline_asm(callee) {
            return Ok(());
        }
        let nfnty = flat_fn_type(ir, fnty);
        let new_callee = match called_function(i) {
            Some(f) if intrinsic_id(f) != 0 => match self.flat_intrinsic(f, nfnty)? {
                Some(nf) => nf,
                // An overload we cannot re-mangle keeps its non-generic operands (valid IR).
                None => return Ok(()),
            },
            _ => self.cast0(callee)?,
        };
        let mut nargs_v = Vec::with_capacity(args.len());
        for a in &args {
            nargs_v.push(self.cast0(*a)?);
        }
        ir.before(i);
        let new = unsafe {
            let nb = LLVMGetNumOperandBundles(i);
            if nb == 0 {
                LLVMBuildCall2(
                    ir.b,
                    nfnty,
                    new_callee,
                    nargs_v.as_mut_ptr(),
                    nargs_v.len() as u32,
                    c"".as_ptr(),
                )
            } else {
                let mut bundles: Vec<_> =
                    (0..nb).map(|k| LLVMGetOperandBundleAtIndex(i, k)).collect();
                let c = LLVMBuildCallWithOperandBundles(
                    ir.b,
                    nfnty,
                    new_callee,
                    nargs_v.as_mut_ptr(),
                    nargs_v.len() as u32,
                    bundles.as_mut_ptr(),
                    nb,
                    c"".as_ptr(),
                );
                for b in bundles {
                    LLVMDisposeOperandBundle(b);
                }
                c
            }
        };
        unsafe {
            LLVMSetInstructionCallConv(new, LLVMGetInstructionCallConv(i));
            LLVMSetTailCallKind(new, LLVMGetTailCallKind(i));
            let mut idxs = vec![
                llvm_sys::LLVMAttributeFunctionIndex,
                llvm_sys::LLVMAttributeReturnIndex,
            ];
            idxs.extend(1..=nargs);
            for idx in idxs {
                for a in call_attrs(i, idx) {
                    LLVMAddCallSiteAttribute(new, idx, a);
                }
            }
            if LLVMCanValueUseFastMathFlags(i) != 0 {
                LLVMSetFastMathFlags(new, LLVMGetFastMathFlags(i));
            }
        }
        if is_special_ptr(type_of(i)) {
            self.replace_producer(i, new)?;
        } else {
            copy_inst_metadata(ir.ctx, i, new);
            if type_kind(type_of(i)) != llvm_sys::LLVMTypeKind::LLVMVoidTypeKind {
                let nm = name(i);
                set_name(i, "");
                set_name(new, &nm);
                rauw(i, new);
            }
            self.kill(i);
        }
        Ok(())
    }

    /// The generic-address-space overload of intrinsic `f`: its name with each `pN` type
    /// suffix made `p0`, declared with the flat type. `None` when there is nothing to rename
    /// or LLVM does not recognise the result as the same intrinsic.
    fn flat_intrinsic(&mut self, f: Value, nfnty: Type) -> Result<Option<Value>> {
        let ir = self.ir;
        let id = intrinsic_id(f);
        let base = intrinsic_base_name(id);
        let full = name(f);
        let Some(suffix) = full.strip_prefix(&base) else {
            return Ok(None);
        };
        let remapped: Vec<String> = suffix
            .split('.')
            .map(|t| {
                let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
                // pN, or a vector of pointers vKpN / nxvKpN.
                if let Some(n) = t.strip_prefix('p') {
                    if digits(n) {
                        return "p0".to_string();
                    }
                }
                if let Some(pos) = t.rfind('p') {
                    let (head, tail) = t.split_at(pos);
                    let vec_head = head.strip_prefix("nx").unwrap_or(head);
                    if vec_head.starts_with('v') && digits(&vec_head[1..]) && digits(&tail[1..]) {
                        return format!("{head}p0");
                    }
                }
                t.to_string()
            })
            .collect();
        let new_name = format!("{base}{}", remapped.join("."));
        if new_name == full {
            return Ok(None);
        }
        let nf = match ir.named_function(&new_name) {
            Some(nf) if value_type(nf) == nfnty => nf,
            Some(_) => return Ok(None),
            None => unsafe {
                let c = cstring(&new_name);
                LLVMAddFunction(ir.m, c.as_ptr(), nfnty)
            },
        };
        if intrinsic_id(nf) != id {
            if !has_uses(nf) {
                unsafe { LLVMDeleteFunction(nf) };
            }
            return Ok(None);
        }
        Ok(Some(nf))
    }

    fn finish(self) -> Result<()> {
        let ir = self.ir;
        for (x, g) in &self.glue {
            if let Some(n) = self.map.get(x) {
                rauw(*g, *n);
                erase(*g);
            }
        }
        for d in &self.dead_order {
            if has_uses(*d) {
                bail!(
                    "internal error: {} still has uses after address-space flattening",
                    print_value(*d)
                );
            }
        }
        for d in self.dead_order {
            erase(d);
        }
        // Drop every address-space cast left without users (back casts, glue, front-end casts).
        loop {
            let mut changed = false;
            for f in functions(ir.m) {
                for i in insts(f) {
                    if opcode(i) == LLVMOpcode::LLVMAddrSpaceCast && !has_uses(i) {
                        erase(i);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        // Intrinsic declarations replaced by their generic overloads.
        for f in functions(ir.m) {
            if intrinsic_id(f) != 0 && !has_live_uses(f) && fn_type_is_special(value_type(f)) {
                delete_global_value(f);
            }
        }
        Ok(())
    }
}
