//! Small helpers over inkwell/llvm-sys that every pass needs: walking calls, reading constant
//! strings, deleting values safely.
// Its helpers take LLVM value handles (LLVMValueRef) from inkwell, which are valid for the
// module's lifetime by construction; marking each helper unsafe would only move that fact.
#![allow(clippy::not_unsafe_ptr_arg_deref)]
use inkwell::module::Module;
use inkwell::values::{
    AsValueRef, BasicValueEnum, FunctionValue, GlobalValue, InstructionOpcode, InstructionValue,
};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use std::ffi::CStr;

/// Every instruction of `f`, in order.
pub fn instructions<'ctx>(f: FunctionValue<'ctx>) -> Vec<InstructionValue<'ctx>> {
    let mut out = Vec::new();
    for bb in f.get_basic_blocks() {
        let mut inst = bb.get_first_instruction();
        while let Some(i) = inst {
            out.push(i);
            inst = i.get_next_instruction();
        }
    }
    out
}

/// The function a call instruction calls directly (after stripping pointer casts), if any.
pub fn called_function<'ctx>(call: InstructionValue<'ctx>) -> Option<FunctionValue<'ctx>> {
    if call.get_opcode() != InstructionOpcode::Call
        && call.get_opcode() != InstructionOpcode::Invoke
    {
        return None;
    }
    unsafe {
        let callee = llvm::LLVMGetCalledValue(call.as_value_ref());
        let stripped = strip_casts(callee);
        if llvm::LLVMIsAFunction(stripped).is_null() {
            None
        } else {
            FunctionValue::new(stripped)
        }
    }
}

/// Whether `inst` calls through a pointer: a call or invoke whose callee is neither a function
/// nor inline assembly (what it reaches is unknown to an analysis of the module).
pub fn is_indirect_call(inst: InstructionValue<'_>) -> bool {
    if inst.get_opcode() != InstructionOpcode::Call
        && inst.get_opcode() != InstructionOpcode::Invoke
    {
        return false;
    }
    unsafe {
        let callee = strip_casts(llvm::LLVMGetCalledValue(inst.as_value_ref()));
        llvm::LLVMIsAFunction(callee).is_null() && llvm::LLVMIsAInlineAsm(callee).is_null()
    }
}

/// The names of the functions (defined in the module) a call passes as arguments: the outlined
/// body handed to `__kmpc_fork_call`, a task's entry, a callback. The callee may call them.
pub fn passed_functions(call: InstructionValue<'_>) -> Vec<String> {
    if called_function(call).is_none() {
        return Vec::new();
    }
    (0..call_arg_count(call))
        .filter_map(|k| unsafe {
            let a = strip_casts(call_arg_raw(call, k));
            if llvm::LLVMIsAFunction(a).is_null() || llvm::LLVMCountBasicBlocks(a) == 0 {
                return None;
            }
            FunctionValue::new(a).map(|f| f.get_name().to_string_lossy().into_owned())
        })
        .collect()
}

/// Name of the function a call calls directly.
pub fn callee_name(call: InstructionValue<'_>) -> Option<String> {
    called_function(call).map(|f| f.get_name().to_string_lossy().into_owned())
}

/// [`callee_name`] of a value in llvm-sys terms (None when it is not an instruction).
pub fn callee_name_raw(call: LLVMValueRef) -> Option<String> {
    if unsafe { llvm::LLVMIsAInstruction(call).is_null() } {
        return None;
    }
    callee_name(unsafe { InstructionValue::new(call) })
}

/// Every direct call in `f` together with the callee's name.
pub fn calls<'ctx>(f: FunctionValue<'ctx>) -> Vec<(InstructionValue<'ctx>, String)> {
    instructions(f)
        .into_iter()
        .filter_map(|i| callee_name(i).map(|n| (i, n)))
        .collect()
}

/// Strips bitcasts/addrspacecasts (instructions or constant expressions) from a value.
pub fn strip_casts(mut v: LLVMValueRef) -> LLVMValueRef {
    unsafe {
        loop {
            if !llvm::LLVMIsAConstantExpr(v).is_null() {
                let op = llvm::LLVMGetConstOpcode(v);
                if op == llvm_sys::LLVMOpcode::LLVMBitCast
                    || op == llvm_sys::LLVMOpcode::LLVMAddrSpaceCast
                {
                    v = llvm::LLVMGetOperand(v, 0);
                    continue;
                }
            }
            return v;
        }
    }
}

/// Every user of `v` (instructions and constants), in use-list order.
pub fn users(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    unsafe {
        let mut u = llvm::LLVMGetFirstUse(v);
        while !u.is_null() {
            out.push(llvm::LLVMGetUser(u));
            u = llvm::LLVMGetNextUse(u);
        }
    }
    out
}

/// Deletes the functions of `module` that nothing uses and `pick` selects (the runtime entry
/// points and helpers a pass has just replaced everywhere).
pub fn delete_unused_functions(module: &Module<'_>, pick: impl Fn(FunctionValue<'_>) -> bool) {
    let unused: Vec<_> = module
        .get_functions()
        .filter(|f| pick(*f) && unsafe { llvm::LLVMGetFirstUse(f.as_value_ref()).is_null() })
        .collect();
    for f in unused {
        unsafe { f.delete() };
    }
}

/// The argument operands of a call (without the callee operand).
pub fn call_args<'ctx>(call: InstructionValue<'ctx>) -> Vec<BasicValueEnum<'ctx>> {
    let n = unsafe { llvm::LLVMGetNumArgOperands(call.as_value_ref()) };
    (0..n)
        .filter_map(|i| call.get_operand(i).and_then(|o| o.value()))
        .collect()
}

/// The raw value of argument `i` of a call.
/// Number of arguments of a call (not counting the callee).
pub fn call_arg_count(call: InstructionValue<'_>) -> u32 {
    unsafe { llvm::LLVMGetNumArgOperands(call.as_value_ref()) }
}

pub fn call_arg_raw(call: InstructionValue<'_>, i: u32) -> LLVMValueRef {
    unsafe { llvm::LLVMGetOperand(call.as_value_ref(), i) }
}

/// A constant integer's value, if `v` is one.
pub fn const_int(v: LLVMValueRef) -> Option<i64> {
    unsafe {
        if llvm::LLVMIsAConstantInt(v).is_null() {
            None
        } else {
            Some(llvm::LLVMConstIntGetSExtValue(v))
        }
    }
}

/// The C string a global constant holds (`c"...\00"`), without the terminating NUL.
pub fn global_c_string(global: LLVMValueRef) -> Option<String> {
    unsafe {
        let g = strip_casts(global);
        if llvm::LLVMIsAGlobalVariable(g).is_null() {
            return None;
        }
        let init = llvm::LLVMGetInitializer(g);
        if init.is_null()
            || llvm::LLVMIsAConstantDataSequential(init).is_null()
            || llvm::LLVMIsConstantString(init) == 0
        {
            return None;
        }
        let mut len = 0usize;
        let ptr = llvm::LLVMGetAsString(init, &mut len);
        let bytes = std::slice::from_raw_parts(ptr as *const u8, len);
        let bytes = bytes.strip_suffix(&[0]).unwrap_or(bytes);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// The name of any LLVM value.
pub fn value_name(v: LLVMValueRef) -> String {
    unsafe {
        let mut len = 0usize;
        let p = llvm::LLVMGetValueName2(v, &mut len);
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// Name of a function as an owned string.
pub fn fn_name(f: FunctionValue<'_>) -> String {
    f.get_name().to_string_lossy().into_owned()
}

/// Name of a global as an owned string.
pub fn global_name(g: GlobalValue<'_>) -> String {
    g.get_name().to_string_lossy().into_owned()
}

/// Replaces every use of `old` by `new`, then erases `old` (an instruction).
pub fn replace_and_erase(old: InstructionValue<'_>, new: LLVMValueRef) {
    unsafe {
        llvm::LLVMReplaceAllUsesWith(old.as_value_ref(), new);
        llvm::LLVMInstructionEraseFromParent(old.as_value_ref());
    }
}

/// Erases an instruction after replacing any remaining uses with poison.
pub fn erase(inst: InstructionValue<'_>) {
    unsafe {
        let v = inst.as_value_ref();
        let ty = llvm::LLVMTypeOf(v);
        if llvm::LLVMGetTypeKind(ty) != llvm_sys::LLVMTypeKind::LLVMVoidTypeKind {
            llvm::LLVMReplaceAllUsesWith(v, llvm::LLVMGetPoison(ty));
        }
        llvm::LLVMInstructionEraseFromParent(v);
    }
}

/// Makes `f`'s body one block that returns at once (`ret void`, or poison for a value): what
/// it called loses those users.
pub fn empty_body(f: FunctionValue<'_>) {
    unsafe {
        let fv = f.as_value_ref();
        for inst in instructions(f).into_iter().rev() {
            erase(inst);
        }
        for bb in f.get_basic_blocks() {
            llvm::LLVMDeleteBasicBlock(bb.as_mut_ptr());
        }
        let ctx = llvm::LLVMGetTypeContext(llvm::LLVMTypeOf(fv));
        let entry = llvm::LLVMAppendBasicBlockInContext(ctx, fv, c"entry".as_ptr());
        let b = llvm::LLVMCreateBuilderInContext(ctx);
        llvm::LLVMPositionBuilderAtEnd(b, entry);
        let ret = llvm::LLVMGetReturnType(llvm::LLVMGlobalGetValueType(fv));
        if llvm::LLVMGetTypeKind(ret) == llvm_sys::LLVMTypeKind::LLVMVoidTypeKind {
            llvm::LLVMBuildRetVoid(b);
        } else {
            llvm::LLVMBuildRet(b, llvm::LLVMGetPoison(ret));
        }
        llvm::LLVMDisposeBuilder(b);
    }
}

/// Whether the module defines or declares a function with this name.
pub fn has_function(module: &Module<'_>, name: &str) -> bool {
    module.get_function(name).is_some()
}

/// Reads a C string from LLVM (for error messages).
pub fn cstr(p: &CStr) -> String {
    p.to_string_lossy().into_owned()
}

/// Parses LLVM IR text into a module of `ctx` (for tests and ptxcc-opt).
pub fn parse_ir<'ctx>(
    ctx: &'ctx inkwell::context::Context,
    text: &str,
    name: &str,
) -> anyhow::Result<Module<'ctx>> {
    let buf =
        inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), name);
    ctx.create_module_from_ir(buf)
        .map_err(|e| anyhow::anyhow!("{name}: invalid LLVM IR: {}", e.to_string()))
}

/// Basic blocks reachable from `start` without passing through `stop` (`stop` excluded).
pub fn blocks_between(
    start: llvm_sys::prelude::LLVMBasicBlockRef,
    stop: llvm_sys::prelude::LLVMBasicBlockRef,
) -> std::collections::HashSet<llvm_sys::prelude::LLVMBasicBlockRef> {
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![start];
    unsafe {
        while let Some(bb) = work.pop() {
            if bb == stop || !seen.insert(bb) {
                continue;
            }
            let term = llvm::LLVMGetBasicBlockTerminator(bb);
            if !term.is_null() {
                for i in 0..llvm::LLVMGetNumSuccessors(term) {
                    work.push(llvm::LLVMGetSuccessor(term, i));
                }
            }
        }
    }
    seen
}

/// Basic blocks of `f` reachable from its entry.
pub fn reachable_blocks(
    f: FunctionValue<'_>,
) -> std::collections::HashSet<llvm_sys::prelude::LLVMBasicBlockRef> {
    match f.get_first_basic_block() {
        Some(entry) => blocks_between(entry.as_mut_ptr(), std::ptr::null_mut()),
        None => Default::default(),
    }
}

/// Gives `to` the triple and data layout of `from` (before linking one into the other).
pub fn copy_target(from: &Module<'_>, to: &Module<'_>) {
    unsafe {
        let dl = llvm::LLVMGetDataLayoutStr(from.as_mut_ptr());
        llvm::LLVMSetDataLayout(to.as_mut_ptr(), dl);
        let triple = llvm::LLVMGetTarget(from.as_mut_ptr());
        llvm::LLVMSetTarget(to.as_mut_ptr(), triple);
    }
}

/// The data layout string of a module.
pub fn data_layout(module: &Module<'_>) -> String {
    unsafe {
        let p = llvm::LLVMGetDataLayoutStr(module.as_mut_ptr());
        if p.is_null() {
            String::new()
        } else {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        }
    }
}

/// Whether `v` is a load from `slot`.
pub fn is_load_of(v: LLVMValueRef, slot: LLVMValueRef) -> bool {
    unsafe { !llvm::LLVMIsALoadInst(v).is_null() && llvm::LLVMGetOperand(v, 0) == slot }
}

/// Whether `v` is a store to `slot`.
pub fn is_store_to(v: LLVMValueRef, slot: LLVMValueRef) -> bool {
    unsafe { !llvm::LLVMIsAStoreInst(v).is_null() && llvm::LLVMGetOperand(v, 1) == slot }
}

/// Whether the use `u` of `slot` is a load from it, a store to it (as the address) or a lifetime
/// marker: a use through which nothing but those stores can change what the slot holds.
pub fn is_slot_access(u: LLVMValueRef, slot: LLVMValueRef) -> bool {
    unsafe {
        is_load_of(u, slot)
            || (is_store_to(u, slot) && llvm::LLVMGetOperand(u, 0) != slot)
            || callee_name(InstructionValue::new(u))
                .is_some_and(|n| n.starts_with("llvm.lifetime."))
    }
}

/// Whether `v` is an argument its function marks `noalias` (C's `restrict` on a parameter).
pub fn is_noalias_argument(v: LLVMValueRef) -> bool {
    unsafe {
        if llvm::LLVMIsAArgument(v).is_null() {
            return false;
        }
        let f = llvm::LLVMGetParamParent(v);
        let Some(i) = (0..llvm::LLVMCountParams(f)).find(|&i| llvm::LLVMGetParam(f, i) == v) else {
            return false;
        };
        let noalias = llvm::LLVMGetEnumAttributeKindForName(c"noalias".as_ptr(), 7);
        !llvm::LLVMGetEnumAttributeAtIndex(f, i + 1, noalias).is_null()
    }
}

/// Whether `v` is the result of an allocation call: a call whose return is `noalias` (at the
/// call, or on the function it calls: `malloc`), a new object no other pointer reaches.
pub fn is_allocation_call(v: LLVMValueRef) -> bool {
    unsafe {
        if llvm::LLVMIsACallInst(v).is_null() {
            return false;
        }
        let noalias = llvm::LLVMGetEnumAttributeKindForName(c"noalias".as_ptr(), 7);
        let callee = llvm::LLVMGetCalledValue(v);
        !llvm::LLVMGetCallSiteEnumAttribute(v, 0, noalias).is_null()
            || (!llvm::LLVMIsAFunction(callee).is_null()
                && !llvm::LLVMGetEnumAttributeAtIndex(callee, 0, noalias).is_null())
    }
}

/// Whether `slot` is an `alloca` whose address only loads, stores (as the address) and lifetime
/// markers use: nothing but those stores can change what a load from it reads.
pub fn private_slot(slot: LLVMValueRef) -> bool {
    unsafe {
        !llvm::LLVMIsAAllocaInst(slot).is_null()
            && users(slot).into_iter().all(|u| is_slot_access(u, slot))
    }
}

/// Every value stored to a private slot (see `private_slot`), or None when `slot` is not one.
pub fn slot_values(slot: LLVMValueRef) -> Option<Vec<LLVMValueRef>> {
    if !private_slot(slot) {
        return None;
    }
    let stores = users(slot).into_iter().filter(|u| is_store_to(*u, slot));
    Some(
        stores
            .map(|s| unsafe { llvm::LLVMGetOperand(s, 0) })
            .collect(),
    )
}

/// The values a pointer may come from. They are followed through GEPs and casts (instructions
/// or constant expressions), PHIs, selects and reloads of a private slot (clang keeps the
/// address of an array-section reduction's private copy in one); what is left — `alloca`s,
/// arguments, globals, loads from memory, calls — are its origins. None when more than 256
/// values would have to be followed.
///
/// ```llvm
/// %priv = alloca [10 x double]
/// %p = getelementptr double, ptr %priv, i64 %offset
/// store ptr %p, ptr %slot              ; %slot: a private slot
/// %q = load ptr, ptr %slot             ; origins of %q: [%priv]
/// ```
pub fn pointer_origins(v: LLVMValueRef) -> Option<Vec<LLVMValueRef>> {
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![v];
    let mut out = Vec::new();
    unsafe {
        while let Some(v) = work.pop() {
            if !seen.insert(v) {
                continue;
            }
            if seen.len() > 256 {
                return None;
            }
            let address_arithmetic = !llvm::LLVMIsAGetElementPtrInst(v).is_null()
                || !llvm::LLVMIsABitCastInst(v).is_null()
                || !llvm::LLVMIsAAddrSpaceCastInst(v).is_null()
                || (!llvm::LLVMIsAConstantExpr(v).is_null()
                    && matches!(
                        llvm::LLVMGetConstOpcode(v),
                        llvm_sys::LLVMOpcode::LLVMGetElementPtr
                            | llvm_sys::LLVMOpcode::LLVMBitCast
                            | llvm_sys::LLVMOpcode::LLVMAddrSpaceCast
                    ));
            if address_arithmetic {
                work.push(llvm::LLVMGetOperand(v, 0));
            } else if !llvm::LLVMIsAPHINode(v).is_null() {
                work.extend(
                    (0..llvm::LLVMCountIncoming(v)).map(|i| llvm::LLVMGetIncomingValue(v, i)),
                );
            } else if !llvm::LLVMIsASelectInst(v).is_null() {
                work.push(llvm::LLVMGetOperand(v, 1));
                work.push(llvm::LLVMGetOperand(v, 2));
            } else if let Some(stored) = (!llvm::LLVMIsALoadInst(v).is_null())
                .then(|| slot_values(llvm::LLVMGetOperand(v, 0)))
                .flatten()
                .filter(|s| !s.is_empty())
            {
                work.extend(stored);
            } else {
                out.push(v);
            }
        }
    }
    Some(out)
}

fn is_alloca(v: &LLVMValueRef) -> bool {
    unsafe { !llvm::LLVMIsAAllocaInst(*v).is_null() }
}

/// Whether pointer `v` can only point into the function's own stack: all its origins
/// (`pointer_origins`) are `alloca`s.
pub fn points_to_local(v: LLVMValueRef) -> bool {
    pointer_origins(v).is_some_and(|o| o.iter().all(is_alloca))
}

/// Whether pointer `v` may point into the function's own stack: one of its origins is an
/// `alloca`, or there are too many to tell.
pub fn may_point_to_local(v: LLVMValueRef) -> bool {
    pointer_origins(v).is_none_or(|o| o.iter().any(is_alloca))
}

/// Is `v` a GEP instruction all of whose indices are constant 0 (the address of element 0:
/// its base, typed otherwise)?
pub fn is_zero_gep(v: LLVMValueRef) -> bool {
    unsafe {
        !llvm::LLVMIsAGetElementPtrInst(v).is_null()
            && (1..llvm::LLVMGetNumOperands(v) as u32)
                .all(|i| const_int(llvm::LLVMGetOperand(v, i)) == Some(0))
    }
}

/// A private constant global `name` holding `text` and its NUL.
pub fn private_c_string<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    text: &str,
) -> inkwell::values::GlobalValue<'ctx> {
    let init = module.get_context().const_string(text.as_bytes(), true);
    let g = module.add_global(init.get_type(), None, name);
    g.set_initializer(&init);
    g.set_constant(true);
    g.set_linkage(inkwell::module::Linkage::Private);
    g
}

/// The index of the parameter a pointer is (a GEP of, or a reload of the spill slot of).
pub fn param_behind(mut v: LLVMValueRef, params: &[LLVMValueRef]) -> Option<usize> {
    unsafe {
        for _ in 0..16 {
            v = strip_casts(v);
            if let Some(i) = params.iter().position(|p| *p == v) {
                return Some(i);
            }
            if !llvm::LLVMIsAGetElementPtrInst(v).is_null() || !llvm::LLVMIsACastInst(v).is_null() {
                v = llvm::LLVMGetOperand(v, 0);
            } else if !llvm::LLVMIsALoadInst(v).is_null() {
                // clang spills parameters at -O0 style: %p.addr = alloca ptr; store ptr %p, ptr %p.addr
                let slot = llvm::LLVMGetOperand(v, 0);
                if llvm::LLVMIsAAllocaInst(slot).is_null() {
                    return None;
                }
                let mut stored = None;
                for user in users(slot) {
                    if !llvm::LLVMIsAStoreInst(user).is_null()
                        && llvm::LLVMGetOperand(user, 1) == slot
                    {
                        if stored.is_some() {
                            return None;
                        }
                        stored = Some(llvm::LLVMGetOperand(user, 0));
                    }
                }
                v = stored?;
            } else {
                return None;
            }
        }
    }
    None
}

/// The parameters a pointer is derived from by address arithmetic (GEPs, casts, phis and selects,
/// reloads of a parameter's spill slot), or None when any of its origins is something else (a
/// global, a pointer loaded from memory, a local). Unlike `param_behind` it follows the phis of
/// clang's element-by-element loops (array-section reductions and copies).
pub fn param_roots(v: LLVMValueRef, params: &[LLVMValueRef]) -> Option<Vec<usize>> {
    let (roots, complete) = param_origins(v, params);
    complete.then_some(roots)
}

/// The parameters among a pointer's origins (see `param_roots`), and whether every origin is one.
pub fn param_origins(v: LLVMValueRef, params: &[LLVMValueRef]) -> (Vec<usize>, bool) {
    let mut out = Vec::new();
    let mut complete = true;
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![v];
    unsafe {
        while let Some(v) = work.pop() {
            let v = strip_casts(v);
            if !seen.insert(v) {
                continue;
            }
            if seen.len() > 256 {
                return (out, false);
            }
            if !llvm::LLVMIsAPHINode(v).is_null() {
                work.extend(
                    (0..llvm::LLVMCountIncoming(v)).map(|i| llvm::LLVMGetIncomingValue(v, i)),
                );
            } else if !llvm::LLVMIsASelectInst(v).is_null() {
                work.push(llvm::LLVMGetOperand(v, 1));
                work.push(llvm::LLVMGetOperand(v, 2));
            } else if !llvm::LLVMIsAGetElementPtrInst(v).is_null()
                || !llvm::LLVMIsACastInst(v).is_null()
            {
                work.push(llvm::LLVMGetOperand(v, 0));
            } else {
                // The parameter itself or a reload of its spill slot; anything else is not one.
                match param_behind(v, params) {
                    Some(i) if !out.contains(&i) => out.push(i),
                    Some(_) => {}
                    None => complete = false,
                }
            }
        }
    }
    (out, complete)
}

/// The blocks a terminator branches to.
pub fn successors(term: LLVMValueRef) -> Vec<llvm_sys::prelude::LLVMBasicBlockRef> {
    unsafe {
        (0..llvm::LLVMGetNumSuccessors(term))
            .map(|i| llvm::LLVMGetSuccessor(term, i))
            .collect()
    }
}

/// `C PRED x` as `x PRED' C` (the operands of an integer comparison exchanged).
pub fn swapped_predicate(p: llvm_sys::LLVMIntPredicate) -> llvm_sys::LLVMIntPredicate {
    use llvm_sys::LLVMIntPredicate::*;
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

/// `!(x PRED C)` as `x PRED' C`.
pub fn inverse_predicate(p: llvm_sys::LLVMIntPredicate) -> llvm_sys::LLVMIntPredicate {
    use llvm_sys::LLVMIntPredicate::*;
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

/// The natural loop of the back edge `latch → header`: the header and every block that reaches
/// the latch without passing through the header.
pub fn natural_loop(
    header: llvm_sys::prelude::LLVMBasicBlockRef,
    latch: llvm_sys::prelude::LLVMBasicBlockRef,
) -> Vec<llvm_sys::prelude::LLVMBasicBlockRef> {
    unsafe {
        let f = llvm::LLVMGetBasicBlockParent(header);
        let mut preds: std::collections::HashMap<_, Vec<_>> = Default::default();
        let mut bb = llvm::LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let term = llvm::LLVMGetBasicBlockTerminator(bb);
            if !term.is_null() {
                for s in successors(term) {
                    preds.entry(s).or_default().push(bb);
                }
            }
            bb = llvm::LLVMGetNextBasicBlock(bb);
        }
        let mut body = vec![header];
        let mut work = vec![latch];
        while let Some(b) = work.pop() {
            if body.contains(&b) {
                continue;
            }
            body.push(b);
            work.extend(preds.get(&b).into_iter().flatten().copied());
        }
        body
    }
}

/// Copies `blocks` (of one function) into new blocks after `after`, in the same order, each
/// named after its original with `suffix` (unnamed ones stay unnamed). In the
/// copy, every use of a value or block of `blocks` refers to its copy, a branch to a block
/// outside `blocks` goes where `exits` says (or stays), and values defined outside are shared.
/// Returns the map from each original instruction and block (as a value) to its copy. The
/// caller must make sure no value of `blocks` is used outside them (the copy does not merge
/// into the original's users) and that their phis take no value from outside.
pub fn clone_blocks(
    blocks: &[llvm_sys::prelude::LLVMBasicBlockRef],
    after: llvm_sys::prelude::LLVMBasicBlockRef,
    exits: &std::collections::HashMap<
        llvm_sys::prelude::LLVMBasicBlockRef,
        llvm_sys::prelude::LLVMBasicBlockRef,
    >,
    suffix: &str,
) -> std::collections::HashMap<LLVMValueRef, LLVMValueRef> {
    let mut map = std::collections::HashMap::new();
    unsafe {
        let ctx = llvm::LLVMGetTypeContext(llvm::LLVMTypeOf(llvm::LLVMBasicBlockAsValue(after)));
        for (&from, &to) in exits {
            map.insert(
                llvm::LLVMBasicBlockAsValue(from),
                llvm::LLVMBasicBlockAsValue(to),
            );
        }
        let mut last = after;
        let mut copies = Vec::new();
        for &bb in blocks {
            let name = CStr::from_ptr(llvm::LLVMGetBasicBlockName(bb))
                .to_string_lossy()
                .into_owned();
            let copy = llvm::LLVMInsertBasicBlockInContext(ctx, bb, c"".as_ptr());
            if !name.is_empty() {
                let name = format!("{name}{suffix}");
                llvm::LLVMSetValueName2(
                    llvm::LLVMBasicBlockAsValue(copy),
                    name.as_ptr() as *const _,
                    name.len(),
                );
            }
            llvm::LLVMMoveBasicBlockAfter(copy, last);
            last = copy;
            copies.push((bb, copy));
        }
        copy_instructions(ctx, &copies, &mut map);
    }
    map
}

/// The kind number of the metadata named `name` (`!prof`, `!llvm.loop`, ...) in `ctx`.
pub fn metadata_kind(ctx: llvm_sys::prelude::LLVMContextRef, name: &str) -> u32 {
    unsafe { llvm::LLVMGetMDKindIDInContext(ctx, name.as_ptr() as *const _, name.len() as u32) }
}

/// The metadata kind that marks the instructions of a loop's version
/// ([`mark_loop_copy`]).
const LOOP_COPY_MD: &str = "ptxcc.loop_copy";

/// Marks every instruction [`clone_blocks`] made (its `map`'s values) as a copy of a loop
/// that runs instead of its original for some threads: analyses that weigh a kernel's
/// accesses (automatic layout) count each access once, where a rewrite takes them all.
pub fn mark_loop_copy(map: &std::collections::HashMap<LLVMValueRef, LLVMValueRef>) {
    for &copy in map.values() {
        if unsafe { !llvm::LLVMIsAInstruction(copy).is_null() } {
            set_mark(copy, LOOP_COPY_MD);
        }
    }
}

/// Whether `inst` belongs to a loop's version ([`mark_loop_copy`]).
pub fn is_loop_copy(inst: LLVMValueRef) -> bool {
    has_mark(inst, LOOP_COPY_MD)
}

/// Marks instruction `inst` with an empty metadata node of kind `kind` (`!ptxcc.loop_copy !{}`),
/// for a later pass to find it by [`has_mark`].
pub fn set_mark(inst: LLVMValueRef, kind: &str) {
    unsafe {
        let ctx = llvm::LLVMGetTypeContext(llvm::LLVMTypeOf(inst));
        let mark = llvm::LLVMMetadataAsValue(
            ctx,
            llvm::LLVMMDNodeInContext2(ctx, std::ptr::null_mut(), 0),
        );
        llvm::LLVMSetMetadata(inst, metadata_kind(ctx, kind), mark);
    }
}

/// Whether `inst` is an instruction that [`set_mark`] marked with `kind`.
pub fn has_mark(inst: LLVMValueRef, kind: &str) -> bool {
    unsafe {
        if llvm::LLVMIsAInstruction(inst).is_null() {
            return false;
        }
        let ctx = llvm::LLVMGetTypeContext(llvm::LLVMTypeOf(inst));
        !llvm::LLVMGetMetadata(inst, metadata_kind(ctx, kind)).is_null()
    }
}

/// The one block outside the loop `body` that its test `term` leaves to, when no phi starts
/// it (a latch made to leave the loop there needs no incoming value): None otherwise.
pub fn single_exit(
    term: LLVMValueRef,
    body: &[llvm_sys::prelude::LLVMBasicBlockRef],
) -> Option<llvm_sys::prelude::LLVMBasicBlockRef> {
    let outside: Vec<_> = successors(term)
        .into_iter()
        .filter(|s| !body.contains(s))
        .collect();
    let [exit] = outside[..] else {
        return None;
    };
    let first = unsafe { llvm::LLVMGetFirstInstruction(exit) };
    (!first.is_null() && unsafe { llvm::LLVMIsAPHINode(first) }.is_null()).then_some(exit)
}

/// Copies the instructions of each `(block, copy)` pair's block into its (empty) copy. `map`
/// holds the replacements known beforehand (values and blocks, as values); every copied
/// instruction and block is added, and the copies' operands and phis refer to the copies.
unsafe fn copy_instructions(
    ctx: llvm_sys::prelude::LLVMContextRef,
    pairs: &[(
        llvm_sys::prelude::LLVMBasicBlockRef,
        llvm_sys::prelude::LLVMBasicBlockRef,
    )],
    map: &mut std::collections::HashMap<LLVMValueRef, LLVMValueRef>,
) {
    let b = llvm::LLVMCreateBuilderInContext(ctx);
    for &(bb, copy) in pairs {
        map.insert(
            llvm::LLVMBasicBlockAsValue(bb),
            llvm::LLVMBasicBlockAsValue(copy),
        );
    }
    let mut phis = Vec::new();
    for &(bb, copy) in pairs {
        llvm::LLVMPositionBuilderAtEnd(b, copy);
        let mut inst = llvm::LLVMGetFirstInstruction(bb);
        while !inst.is_null() {
            let new = if !llvm::LLVMIsAPHINode(inst).is_null() {
                let phi = llvm::LLVMBuildPhi(b, llvm::LLVMTypeOf(inst), c"".as_ptr());
                phis.push((inst, phi));
                phi
            } else {
                let c = llvm::LLVMInstructionClone(inst);
                llvm::LLVMInsertIntoBuilder(b, c);
                c
            };
            map.insert(inst, new);
            inst = llvm::LLVMGetNextInstruction(inst);
        }
    }
    let mapped = |v: LLVMValueRef| map.get(&v).copied().unwrap_or(v);
    for &(_, copy) in pairs {
        let mut inst = llvm::LLVMGetFirstInstruction(copy);
        while !inst.is_null() {
            if llvm::LLVMIsAPHINode(inst).is_null() {
                for i in 0..llvm::LLVMGetNumOperands(inst).max(0) as u32 {
                    let op = llvm::LLVMGetOperand(inst, i);
                    let new = mapped(op);
                    if new != op {
                        llvm::LLVMSetOperand(inst, i, new);
                    }
                }
            }
            inst = llvm::LLVMGetNextInstruction(inst);
        }
    }
    for (old, phi) in phis {
        for i in 0..llvm::LLVMCountIncoming(old) {
            let mut v = mapped(llvm::LLVMGetIncomingValue(old, i));
            let from = llvm::LLVMGetIncomingBlock(old, i);
            let mut bb = llvm::LLVMValueAsBasicBlock(mapped(llvm::LLVMBasicBlockAsValue(from)));
            llvm::LLVMAddIncoming(phi, &mut v, &mut bb, 1);
        }
    }
    llvm::LLVMDisposeBuilder(b);
}

/// A copy of the defined function `f` named `name`, with internal linkage and `f`'s
/// attributes; calls in the copy still call what `f` calls. The copy has no debug subprogram
/// (one may belong to one function only); its instructions keep their source locations.
pub fn clone_function<'ctx>(
    module: &Module<'ctx>,
    f: FunctionValue<'ctx>,
    name: &str,
) -> Option<FunctionValue<'ctx>> {
    unsafe {
        let fv = f.as_value_ref();
        let cname = std::ffi::CString::new(name).ok()?;
        let copy = llvm::LLVMAddFunction(
            module.as_mut_ptr(),
            cname.as_ptr(),
            llvm::LLVMGlobalGetValueType(fv),
        );
        llvm::LLVMSetLinkage(copy, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
        let nparams = llvm::LLVMCountParams(fv);
        // Function (~0), return (0) and parameter (1..) attributes.
        for idx in std::iter::once(u32::MAX).chain(0..=nparams) {
            let n = llvm::LLVMGetAttributeCountAtIndex(fv, idx);
            if n == 0 {
                continue;
            }
            let mut attrs = vec![std::ptr::null_mut(); n as usize];
            llvm::LLVMGetAttributesAtIndex(fv, idx, attrs.as_mut_ptr());
            for a in attrs {
                llvm::LLVMAddAttributeAtIndex(copy, idx, a);
            }
        }
        let mut map = std::collections::HashMap::new();
        for i in 0..nparams {
            let (p, q) = (llvm::LLVMGetParam(fv, i), llvm::LLVMGetParam(copy, i));
            let mut len = 0;
            let pname = llvm::LLVMGetValueName2(p, &mut len);
            llvm::LLVMSetValueName2(q, pname, len);
            map.insert(p, q);
        }
        let ctx = llvm::LLVMGetModuleContext(module.as_mut_ptr());
        let mut pairs = Vec::new();
        let mut bb = llvm::LLVMGetFirstBasicBlock(fv);
        while !bb.is_null() {
            let copy_bb =
                llvm::LLVMAppendBasicBlockInContext(ctx, copy, llvm::LLVMGetBasicBlockName(bb));
            pairs.push((bb, copy_bb));
            bb = llvm::LLVMGetNextBasicBlock(bb);
        }
        copy_instructions(ctx, &pairs, &mut map);
        for (&from, &to) in &map {
            if !llvm::LLVMIsAInstruction(from).is_null() {
                let mut len = 0;
                let name = llvm::LLVMGetValueName2(from, &mut len);
                if len > 0 {
                    llvm::LLVMSetValueName2(to, name, len);
                }
            }
        }
        FunctionValue::new(copy)
    }
}

/// The blocks whose terminator branches to `bb`.
pub fn predecessors(
    bb: llvm_sys::prelude::LLVMBasicBlockRef,
) -> Vec<llvm_sys::prelude::LLVMBasicBlockRef> {
    let mut out = Vec::new();
    unsafe {
        let f = llvm::LLVMGetBasicBlockParent(bb);
        let mut b = llvm::LLVMGetFirstBasicBlock(f);
        while !b.is_null() {
            let term = llvm::LLVMGetBasicBlockTerminator(b);
            if !term.is_null() && successors(term).contains(&bb) {
                out.push(b);
            }
            b = llvm::LLVMGetNextBasicBlock(b);
        }
    }
    out
}

/// Whether block `a` is laid out before block `b` in their function.
pub fn precedes(
    a: llvm_sys::prelude::LLVMBasicBlockRef,
    b: llvm_sys::prelude::LLVMBasicBlockRef,
) -> bool {
    unsafe {
        let mut bb = llvm::LLVMGetPreviousBasicBlock(b);
        while !bb.is_null() {
            if bb == a {
                return true;
            }
            bb = llvm::LLVMGetPreviousBasicBlock(bb);
        }
        false
    }
}

/// Asks LLVM's loop unroller to unroll the loop whose back edge is `latch` `count` times, and
/// says that the loop terminates (`!llvm.loop !{self, !{"llvm.loop.mustprogress"},
/// !{"llvm.loop.unroll.count", i32 count}}`). The unroller adds the remainder loop when the trip
/// count is known only at run time; `mustprogress` (what clang states for every C11 loop whose
/// condition is not a constant) lets scalar evolution count trips whose step it cannot prove
/// non-zero. Replaces the loop's other hints.
pub fn set_loop_unroll_count(latch: LLVMValueRef, count: u32) {
    set_loop_unroll(latch, Some(count))
}

/// Like [`set_loop_unroll_count`], with `None` asking the unroller to leave the loop alone
/// (`!{"llvm.loop.unroll.disable"}`).
pub fn set_loop_unroll(latch: LLVMValueRef, count: Option<u32>) {
    unsafe {
        let ctx = llvm::LLVMGetTypeContext(llvm::LLVMTypeOf(latch));
        let md_string =
            |s: &str| llvm::LLVMMDStringInContext2(ctx, s.as_ptr() as *const _, s.len());
        let mut progress = [md_string("llvm.loop.mustprogress")];
        let progress = llvm::LLVMMDNodeInContext2(ctx, progress.as_mut_ptr(), 1);
        let unroll = match count {
            Some(count) => {
                let value = llvm::LLVMValueAsMetadata(llvm::LLVMConstInt(
                    llvm::LLVMInt32TypeInContext(ctx),
                    count as u64,
                    0,
                ));
                let mut unroll = [md_string("llvm.loop.unroll.count"), value];
                llvm::LLVMMDNodeInContext2(ctx, unroll.as_mut_ptr(), 2)
            }
            None => {
                let mut unroll = [md_string("llvm.loop.unroll.disable")];
                llvm::LLVMMDNodeInContext2(ctx, unroll.as_mut_ptr(), 1)
            }
        };
        let id = loop_id(ctx, &[progress, unroll]);
        let kind = metadata_kind(ctx, "llvm.loop");
        llvm::LLVMSetMetadata(latch, kind, llvm::LLVMMetadataAsValue(ctx, id));
    }
}

/// A loop ID with `hints`: `distinct !{!self, hints...}`. A loop ID refers to itself, so it is
/// built around a placeholder whose uses then become the node.
pub fn loop_id(
    ctx: llvm_sys::prelude::LLVMContextRef,
    hints: &[llvm_sys::prelude::LLVMMetadataRef],
) -> llvm_sys::prelude::LLVMMetadataRef {
    unsafe {
        let placeholder = llvm_sys::debuginfo::LLVMTemporaryMDNode(ctx, std::ptr::null_mut(), 0);
        let mut ops: Vec<_> = std::iter::once(placeholder)
            .chain(hints.iter().copied())
            .collect();
        let id = llvm::LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), ops.len());
        llvm_sys::debuginfo::LLVMMetadataReplaceAllUsesWith(placeholder, id);
        id
    }
}

/// Operands of an MDNode (wrapped as a value): constants come back as themselves, other metadata
/// wrapped as values, absent operands as null; none for a value that is no MDNode.
pub fn md_node_operands(node: LLVMValueRef) -> Vec<LLVMValueRef> {
    unsafe {
        if llvm::LLVMIsAMDNode(node).is_null() {
            return Vec::new();
        }
        let n = llvm::LLVMGetMDNodeNumOperands(node) as usize;
        let mut v: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); n];
        if n > 0 {
            llvm::LLVMGetMDNodeOperands(node, v.as_mut_ptr());
        }
        v
    }
}

/// Splits `inst`'s block before `inst`: what precedes `inst` (phis included) moves to a new
/// block laid out right before, which takes the block's name and which the predecessors now
/// branch to; the old block, renamed `name`, keeps `inst`, what follows and its terminator, so
/// the successors' phis stay right. The new block is left without a terminator, for the
/// caller to end. Returns it.
///
/// ```llvm
/// bb:  %p = phi .. ; %a = ... ; %i = ... ; br ..     →     bb:   %p = phi .. ; %a = ...   ; (no terminator)
///                                                          name: %i = ... ; br ..
/// ```
pub fn split_before(
    inst: InstructionValue<'_>,
    name: &CStr,
) -> anyhow::Result<llvm_sys::prelude::LLVMBasicBlockRef> {
    unsafe {
        let v = inst.as_value_ref();
        let bb = llvm::LLVMGetInstructionParent(v);
        if bb.is_null() || !llvm::LLVMIsAPHINode(v).is_null() {
            anyhow::bail!("cannot split a block before a phi or an instruction outside a block");
        }
        let ctx = llvm::LLVMGetTypeContext(llvm::LLVMTypeOf(v));
        let head = llvm::LLVMInsertBasicBlockInContext(ctx, bb, c"".as_ptr());
        let old_name = llvm::LLVMGetBasicBlockName(bb);
        let old_name = if old_name.is_null() {
            Vec::new()
        } else {
            CStr::from_ptr(old_name).to_bytes().to_vec()
        };
        llvm::LLVMSetValueName2(
            llvm::LLVMBasicBlockAsValue(bb),
            name.as_ptr(),
            name.to_bytes().len(),
        );
        llvm::LLVMSetValueName2(
            llvm::LLVMBasicBlockAsValue(head),
            old_name.as_ptr() as *const _,
            old_name.len(),
        );
        // The predecessors' branches, operand by operand (a replace-all-uses of the block would
        // also make the successors' phis name `head`).
        let (old, new) = (
            llvm::LLVMBasicBlockAsValue(bb),
            llvm::LLVMBasicBlockAsValue(head),
        );
        for user in users(old) {
            if llvm::LLVMIsAInstruction(user).is_null() {
                continue;
            }
            for k in 0..llvm::LLVMGetNumOperands(user) {
                if llvm::LLVMGetOperand(user, k as u32) == old {
                    llvm::LLVMSetOperand(user, k as u32, new);
                }
            }
        }
        let b = llvm::LLVMCreateBuilderInContext(ctx);
        llvm::LLVMPositionBuilderAtEnd(b, head);
        let mut i = llvm::LLVMGetFirstInstruction(bb);
        while !i.is_null() && i != v {
            let following = llvm::LLVMGetNextInstruction(i);
            // (Inserting through a builder renames: keep the instruction's name.)
            let mut len = 0;
            let name = std::ffi::CString::new(std::slice::from_raw_parts(
                llvm::LLVMGetValueName2(i, &mut len) as *const u8,
                len,
            ))
            .unwrap_or_default();
            llvm::LLVMInstructionRemoveFromParent(i);
            llvm::LLVMInsertIntoBuilderWithName(b, i, name.as_ptr());
            i = following;
        }
        llvm::LLVMDisposeBuilder(b);
        Ok(head)
    }
}

/// Tells the optimiser that the conditional branch `br` takes its first successor almost
/// always (`!prof !{!"branch_weights", i32 2000, i32 1}`): SimplifyCFG then keeps the rare side
/// on its own path instead of computing both sides and selecting.
pub fn set_branch_likely_taken(br: LLVMValueRef) {
    unsafe {
        let ctx = llvm::LLVMGetTypeContext(llvm::LLVMTypeOf(br));
        let i32t = llvm::LLVMInt32TypeInContext(ctx);
        let name = "branch_weights";
        let mut ops = [
            llvm::LLVMMDStringInContext2(ctx, name.as_ptr() as *const _, name.len()),
            llvm::LLVMValueAsMetadata(llvm::LLVMConstInt(i32t, 2000, 0)),
            llvm::LLVMValueAsMetadata(llvm::LLVMConstInt(i32t, 1, 0)),
        ];
        let node = llvm::LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), ops.len());
        llvm::LLVMSetMetadata(
            br,
            metadata_kind(ctx, "prof"),
            llvm::LLVMMetadataAsValue(ctx, node),
        );
    }
}

/// The opcode of an instruction (None: not an instruction).
pub fn opcode(v: LLVMValueRef) -> Option<llvm_sys::LLVMOpcode> {
    unsafe {
        if llvm::LLVMIsAInstruction(v).is_null() {
            None
        } else {
            Some(llvm::LLVMGetInstructionOpcode(v))
        }
    }
}

/// The kernel a `__tgt_target_kernel` call launches: the name behind its region id argument
/// (`.NAME.region_id` → `NAME`).
pub fn launched_kernel(call: InstructionValue<'_>) -> String {
    let region_id = strip_casts(call_arg_raw(call, 4));
    value_name(region_id)
        .trim_start_matches('.')
        .trim_end_matches(".region_id")
        .to_string()
}
