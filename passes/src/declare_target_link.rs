//! Declare target link: device code reaches a `declare target link` variable through its
//! reference pointer, which the runtime points at the variable's device copy when it is mapped.
//!
//! Clang's host IR (ptxcc's device code comes from it) names the variable itself; for the device
//! it made `@X_decl_tgt_ref_ptr` (initialised with `@X` on the host, registered as an offload
//! entry with the link flag) and maps `X` as `PTR_AND_OBJ` with that pointer as its base, so
//! that mapping `X` makes the device's reference pointer point at the device copy (pointer
//! attachment). This pass makes the device code use the reference pointer: one load of it at the
//! top of each function that names `X` (marked `!invariant.load`: nothing on the device writes
//! it), constant expressions over `@X` rebuilt as instructions over that load. The variable
//! itself leaves the device module (the device has no storage of its own for it), and the
//! reference pointer starts null on the device:
//!
//! ```llvm
//! @g_decl_tgt_ref_ptr = global ptr @g                 @g_decl_tgt_ref_ptr = global ptr null
//! @g = global [100 x i32] zeroinitializer             ; (@g removed)
//! define i32 @get(i64 %i) {                           define i32 @get(i64 %i) {
//!                                                       %g.ref = load ptr, ptr @g_decl_tgt_ref_ptr, !invariant.load
//!   %p = getelementptr [100 x i32], ptr @g, 0, %i       %p = getelementptr [100 x i32], ptr %g.ref, 0, %i
//!   %v = load i32, ptr getelementptr (i8, ptr @g, i64 12)   %1 = getelementptr i8, ptr %g.ref, i64 12
//!                                                       %v = load i32, ptr %1
//! ```
//!
//! The link variables are the ones device extraction lists in `!ptxcc.declare_target_link`.
//! A use the pass cannot rewrite (the variable's address in the initializer of another device
//! global) is an error naming the variable and that global.
use crate::device_extraction::link_vars;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, InstructionOpcode, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBuilderRef, LLVMValueRef};
use llvm_sys::LLVMOpcode;
use std::collections::HashMap;

fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0;
    unsafe {
        let p = llvm::LLVMGetValueName2(v, &mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// Rewrites every device use of the link variables. Returns how many operands were rewritten.
pub fn rewrite_link_vars(device: &Module<'_>) -> Result<usize, Diagnostics> {
    let mut count = 0;
    let mut diags = Vec::new();
    for ref_name in link_vars(device) {
        let Some(ref_ptr) = device.get_global(&ref_name) else {
            continue;
        };
        // Clang initialises the reference pointer with the variable's address.
        let var_ref = unsafe { llvm::LLVMGetInitializer(ref_ptr.as_value_ref()) };
        if var_ref.is_null() || unsafe { llvm::LLVMIsAGlobalVariable(var_ref) }.is_null() {
            return Err(internal(format!(
                "the reference pointer '{ref_name}' does not point at a variable"
            )));
        }
        let name = value_name(var_ref);
        // The device's pointer is unset until the runtime maps the variable.
        let ptr_ty = device
            .get_context()
            .ptr_type(inkwell::AddressSpace::default());
        ref_ptr.set_initializer(&ptr_ty.const_null());
        for f in device.get_functions() {
            count += rewrite_function(device, f, var_ref, ref_ptr, &name)
                .map_err(|e| internal(format!("{e:#}")))?;
        }
        // What is left names the variable outside any function: another global's initializer,
        // or constant expressions no instruction uses any more.
        match ir::users(var_ref).into_iter().find_map(holding_global) {
            None => unsafe {
                llvm::LLVMReplaceAllUsesWith(var_ref, llvm::LLVMGetPoison(llvm::LLVMTypeOf(var_ref)));
                llvm::LLVMDeleteGlobal(var_ref);
            },
            Some(holder) => diags.push(Diagnostic {
                // Where device code uses the global that holds the address.
                loc: device
                    .get_global(&holder)
                    .and_then(|h| unsafe {
                        crate::device_check::first_instruction_user(h.as_value_ref())
                    })
                    .and_then(crate::openmp::debug_loc),
                message: format!(
                    "ptxcc does not support the address of the 'declare target link' variable '{name}' in the \
                     initializer of '{holder}' on the device (the variable has no device address until it is \
                     mapped); assign it in code instead"
                ),
            }),
        }
    }
    if diags.is_empty() {
        Ok(count)
    } else {
        Err(Diagnostics(diags))
    }
}

fn internal(message: String) -> Diagnostics {
    Diagnostics(vec![Diagnostic {
        loc: None,
        message: format!("internal error in declare-target-link: {message}"),
    }])
}

/// The name of the global whose initializer holds `v` (through constants), if any.
fn holding_global(v: LLVMValueRef) -> Option<String> {
    let mut work = vec![v];
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        unsafe {
            if !llvm::LLVMIsAGlobalVariable(v).is_null() {
                return Some(value_name(v));
            }
            if !llvm::LLVMIsAConstant(v).is_null() {
                work.extend(ir::users(v));
            }
        }
    }
    None
}

/// Whether constant `c` is `var` or an expression over it.
fn refers_to(c: LLVMValueRef, var: LLVMValueRef, memo: &mut HashMap<LLVMValueRef, bool>) -> bool {
    if c == var {
        return true;
    }
    unsafe {
        if llvm::LLVMIsAConstantExpr(c).is_null() {
            return false;
        }
    }
    if let Some(&r) = memo.get(&c) {
        return r;
    }
    let n = unsafe { llvm::LLVMGetNumOperands(c) }.max(0) as u32;
    let r = (0..n).any(|i| refers_to(unsafe { llvm::LLVMGetOperand(c, i) }, var, memo));
    memo.insert(c, r);
    r
}

/// Rewrites the operands of `f` that refer to `var`; returns how many.
fn rewrite_function(
    device: &Module<'_>,
    f: FunctionValue<'_>,
    var: LLVMValueRef,
    ref_ptr: inkwell::values::GlobalValue<'_>,
    name: &str,
) -> anyhow::Result<usize> {
    let mut memo = HashMap::new();
    let mut uses: Vec<(InstructionValue<'_>, u32)> = Vec::new();
    for inst in ir::instructions(f) {
        let v = inst.as_value_ref();
        let n = unsafe { llvm::LLVMGetNumOperands(v) }.max(0) as u32;
        for i in 0..n {
            let op = unsafe { llvm::LLVMGetOperand(v, i) };
            if !op.is_null() && refers_to(op, var, &mut memo) {
                uses.push((inst, i));
            }
        }
    }
    if uses.is_empty() {
        return Ok(0);
    }
    let ctx = device.get_context();
    let b = ctx.create_builder();
    let entry = f
        .get_first_basic_block()
        .ok_or_else(|| anyhow::anyhow!("function without blocks uses '{name}'"))?;
    match entry.get_first_instruction() {
        Some(first) => b.position_before(&first),
        None => b.position_at_end(entry),
    }
    let ptr_ty = ctx.ptr_type(inkwell::AddressSpace::default());
    let load = b.build_load(ptr_ty, ref_ptr.as_pointer_value(), &format!("{name}.ref"))?;
    let load_inst = load
        .into_pointer_value()
        .as_instruction()
        .ok_or_else(|| anyhow::anyhow!("the load of the reference pointer is no instruction"))?;
    load_inst
        .set_alignment(8)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let kind = ctx.get_kind_id("invariant.load");
    load_inst
        .set_metadata(ctx.metadata_node(&[]), kind)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let loaded = load.as_value_ref();
    for &(inst, i) in &uses {
        // A phi's operand is computed at the end of its incoming block.
        if inst.get_opcode() == InstructionOpcode::Phi {
            let block = unsafe { llvm::LLVMGetIncomingBlock(inst.as_value_ref(), i) };
            let term = unsafe { llvm::LLVMGetBasicBlockTerminator(block) };
            unsafe { llvm::LLVMPositionBuilderBefore(b.as_mut_ptr(), term) };
        } else {
            b.position_before(&inst);
        }
        let op = unsafe { llvm::LLVMGetOperand(inst.as_value_ref(), i) };
        let new = materialize(b.as_mut_ptr(), op, var, loaded, &mut memo)?;
        unsafe { llvm::LLVMSetOperand(inst.as_value_ref(), i, new) };
    }
    Ok(uses.len())
}

/// `c` with `var` replaced by `loaded`, as instructions at the builder's position.
fn materialize(
    b: LLVMBuilderRef,
    c: LLVMValueRef,
    var: LLVMValueRef,
    loaded: LLVMValueRef,
    memo: &mut HashMap<LLVMValueRef, bool>,
) -> anyhow::Result<LLVMValueRef> {
    if c == var {
        return Ok(loaded);
    }
    if !refers_to(c, var, memo) {
        return Ok(c);
    }
    let n = unsafe { llvm::LLVMGetNumOperands(c) }.max(0) as u32;
    let mut ops = Vec::with_capacity(n as usize);
    for i in 0..n {
        ops.push(materialize(
            b,
            unsafe { llvm::LLVMGetOperand(c, i) },
            var,
            loaded,
            memo,
        )?);
    }
    let op = unsafe { llvm::LLVMGetConstOpcode(c) };
    let ty = unsafe { llvm::LLVMTypeOf(c) };
    use LLVMOpcode::*;
    Ok(unsafe {
        match op {
            LLVMGetElementPtr => {
                let src = llvm::LLVMGetGEPSourceElementType(c);
                let flags = llvm::LLVMGEPGetNoWrapFlags(c);
                let mut idx = ops[1..].to_vec();
                llvm::LLVMBuildGEPWithNoWrapFlags(
                    b,
                    src,
                    ops[0],
                    idx.as_mut_ptr(),
                    idx.len() as u32,
                    c"".as_ptr(),
                    flags,
                )
            }
            LLVMAddrSpaceCast | LLVMBitCast | LLVMPtrToInt | LLVMIntToPtr | LLVMTrunc => {
                llvm::LLVMBuildCast(b, op, ops[0], ty, c"".as_ptr())
            }
            LLVMAdd | LLVMSub | LLVMMul | LLVMXor | LLVMShl | LLVMAnd | LLVMOr => {
                llvm::LLVMBuildBinOp(b, op, ops[0], ops[1], c"".as_ptr())
            }
            _ => anyhow::bail!("unexpected constant expression over a link variable"),
        }
    })
}
