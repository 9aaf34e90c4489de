//! Host side of the layout pass (host IR, before device extraction): which kernel parameter
//! carries which `trans` array.
//!
//! ```llvm
//! ; before                                          ; after
//! call void @__ptxcc_layout_begin(ptr @a, i64 0, ptr @.str)   (unchanged; the element size is
//!                                                               written in by set_element_sizes)
//! %r = call i32 @__tgt_target_kernel(…, @.K.region_id, …)     call void @__ptxcc_layout_expect(i32 0, ptr @a)
//!                                                             %r = call i32 @__tgt_target_kernel(…)
//! call void @K(ptr @a)          ; host fallback             (unchanged)
//! define internal void @K(ptr %0) { … }                     define internal void @K(ptr %0) #N
//!                                                           ; #N: "ptxcc-layout"="0=a;8,6,5;1,3,2;x.c:3:9"
//! ```
//!
//! Run-time extents (`a;?,?,4;…`): the begin call carries the extents' values (its 4th
//! argument, an array of every extent) and a null 5th argument, which becomes the address of a
//! new internal global `__ptxcc_layout_ext_<hash>` ([rank x i64], recorded in
//! `!omp_offload.info` as a `declare target` global, so device extraction registers it and
//! gives the device module its copy). libptxrt writes the extents there and into its device
//! copies at the begin; the rewrite loads them from the device copy.
//!
//! ```llvm
//! call void @__ptxcc_layout_begin(ptr %a, i64 0, ptr @.str, ptr %ext, ptr null)
//! ; after
//! @__ptxcc_layout_ext_<hash> = internal global [3 x i64] zeroinitializer
//! call void @__ptxcc_layout_begin(ptr %a, i64 0, ptr @.str, ptr %ext, ptr @__ptxcc_layout_ext_<hash>)
//! !omp_offload.info = !{…, !{i32 1, !"__ptxcc_layout_ext_<hash>", i32 0, i32 N}}
//! ```
//!
//! The kernels launched between a begin and its end (the instructions reachable from the
//! begin call without passing the end call of the same description) are the ones the block
//! contains. A parameter carries the array when the host fallback call passes the begin call's
//! value: the same SSA value, or a load of the same variable (`double *a` is loaded once for
//! the marker and once for the launch). The attribute goes with the function into the device
//! module; `__ptxcc_layout_expect` lets libptxrt check, at the launch, that the parameter
//! really points at the converted device copy.
use super::desc::LayoutDesc;
use super::{ATTR, BEGIN, END, EXPECT, LAUNCH, VARIANT, VARIANT_DESC, VARIANT_ELEM};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use inkwell::attributes::AttributeLoc;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use std::collections::{BTreeMap, HashSet};

/// One `trans` block in one host function.
struct Region<'ctx> {
    begin: InstructionValue<'ctx>,
    value: LLVMValueRef,
    desc_text: String,
}

/// The same value, loads of the same address, or the same cast of such values (`sext` of
/// `n` loaded twice: a data region's `p[0:n]` and a compute construct's inside it compute
/// their lengths each from its own load of `n`).
pub(super) fn same_value(a: LLVMValueRef, b: LLVMValueRef) -> bool {
    if a == b {
        return true;
    }
    unsafe {
        let la = llvm::LLVMIsALoadInst(a);
        let lb = llvm::LLVMIsALoadInst(b);
        if !la.is_null() && !lb.is_null() {
            return ir::strip_casts(llvm::LLVMGetOperand(a, 0))
                == ir::strip_casts(llvm::LLVMGetOperand(b, 0));
        }
        let (ca, cb) = (llvm::LLVMIsACastInst(a), llvm::LLVMIsACastInst(b));
        !ca.is_null()
            && !cb.is_null()
            && llvm::LLVMGetInstructionOpcode(a) == llvm::LLVMGetInstructionOpcode(b)
            && llvm::LLVMTypeOf(a) == llvm::LLVMTypeOf(b)
            && same_value(llvm::LLVMGetOperand(a, 0), llvm::LLVMGetOperand(b, 0))
    }
}

fn desc_of(call: InstructionValue<'_>, arg: u32) -> Option<(String, LayoutDesc)> {
    let text = ir::global_c_string(ir::call_arg_raw(call, arg))?;
    let d = LayoutDesc::decode(&text)?;
    Some((text, d))
}

/// The instructions of the block from `begin` to the matching end call.
fn region_instructions<'ctx>(
    begin: InstructionValue<'ctx>,
    desc_text: &str,
) -> Vec<InstructionValue<'ctx>> {
    reachable_until(begin, |i| {
        ir::callee_name(i).as_deref() == Some(END)
            && desc_of(i, 1).is_some_and(|(t, _)| t == desc_text)
    })
}

/// The instructions reachable from `begin` (after it) without passing one that `is_end`.
pub(super) fn reachable_until<'ctx>(
    begin: InstructionValue<'ctx>,
    is_end: impl Fn(InstructionValue<'_>) -> bool,
) -> Vec<InstructionValue<'ctx>> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut work: Vec<(
        Option<InstructionValue<'ctx>>,
        llvm_sys::prelude::LLVMBasicBlockRef,
    )> = Vec::new();
    let Some(bb) = begin.get_parent() else {
        return out;
    };
    work.push((begin.get_next_instruction(), bb.as_mut_ptr()));
    while let Some((first, bb)) = work.pop() {
        let mut inst = first;
        let mut ended = false;
        while let Some(i) = inst {
            if is_end(i) {
                ended = true;
                break;
            }
            out.push(i);
            inst = i.get_next_instruction();
        }
        if ended {
            continue;
        }
        for s in ir::successors(unsafe { llvm::LLVMGetBasicBlockTerminator(bb) }) {
            if seen.insert(s) {
                let first = unsafe { llvm::LLVMGetFirstInstruction(s) };
                let first = (!first.is_null()).then(|| unsafe { InstructionValue::new(first) });
                work.push((first, s));
            }
        }
    }
    out
}

/// Annotates the kernels launched inside every `trans` block of `host` and inserts the launch
/// expectations. Returns the kernels annotated (name → attribute value).
pub fn plan_host(host: &Module<'_>) -> Result<BTreeMap<String, String>, Diagnostics> {
    let ctx = host.get_context();
    let mut regions: Vec<Region<'_>> = Vec::new();
    let mut diags = Vec::new();
    for f in host.get_functions() {
        for (call, name) in ir::calls(f) {
            if name != BEGIN {
                continue;
            }
            match desc_of(call, 2) {
                Some((_, d)) if d.has_runtime_extents() && ir::call_arg_count(call) < 5 => {
                    diags.push(Diagnostic {
                        loc: Some(d.loc.clone()),
                        message: format!(
                            "the trans of '{}' has run-time extents but its begin call does not pass them                              (write the directive, not the call)",
                            d.name
                        ),
                    })
                }
                Some((desc_text, d)) => {
                    if d.has_runtime_extents() {
                        let g = extents_global(host, &desc_text, d.dims.len());
                        unsafe { llvm::LLVMSetOperand(call.as_value_ref(), 4, g) };
                    }
                    regions.push(Region {
                    begin: call,
                        value: ir::call_arg_raw(call, 0),
                        desc_text,
                    })
                }
                None => diags.push(Diagnostic {
                    loc: crate::openmp::debug_loc(call),
                    message: "a call of __ptxcc_layout_begin without a valid trans description (write the directive, \
                              not the call)"
                        .into(),
                }),
            }
        }
    }
    // A `declare target` global is reached in device code by its symbol, not through a
    // kernel parameter the rewrite follows.
    let declared: Vec<String> = crate::openmp::declared_globals(host)
        .into_iter()
        .map(|g| g.name)
        .collect();
    for r in &regions {
        let v = ir::strip_casts(r.value);
        let is_global = unsafe { !llvm::LLVMIsAGlobalVariable(v).is_null() };
        if is_global && declared.contains(&ir::value_name(v)) {
            let d = LayoutDesc::decode(&r.desc_text);
            diags.push(Diagnostic {
                loc: d.as_ref().map(|d| d.loc.clone()),
                message: format!(
                    "ptxcc does not support a trans of '{}', a 'declare target' global: device code reaches it by its \
                     symbol, which the layout rewrite does not follow; map the array with data clauses instead",
                    d.map(|d| d.name).unwrap_or_default()
                ),
            });
        }
    }
    let mut attrs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in &regions {
        for inst in region_instructions(r.begin, &r.desc_text) {
            let callee = ir::callee_name(inst);
            if callee.as_deref() == Some("__kmpc_omp_target_task_alloc") {
                let name = LayoutDesc::decode(&r.desc_text)
                    .map(|d| d.name)
                    .unwrap_or_default();
                diags.push(Diagnostic {
                    loc: crate::openmp::debug_loc(inst),
                    message: format!(
                        "ptxcc does not support 'nowait' (or OpenACC 'async') target regions inside the trans block of \
                         '{name}': the region is launched from a task the layout rewrite does not follow; drop 'nowait' \
                         or end the block before the region"
                    ),
                });
                continue;
            }
            if callee.as_deref() != Some(LAUNCH) {
                continue;
            }
            // A launch of auto's region that offers a version for this layout keeps its kernel
            // as it is (`auto.rs`, `Region::version_local`).
            if offers_version(inst, ir::call_arg_raw(r.begin, 2)) {
                continue;
            }
            let kernel = ir::launched_kernel(inst);
            let Some(kf) = host.get_function(&kernel) else {
                continue;
            };
            let params = fallback_params(kf, r.value);
            for p in params {
                attrs
                    .entry(kernel.clone())
                    .or_default()
                    .push(format!("{p}={}", r.desc_text));
                insert_expect(host, inst, p, r.value);
            }
        }
    }
    if !diags.is_empty() {
        return Err(Diagnostics(diags));
    }
    // The kernels of functions a block calls get layout versions (`versions.rs`); those of
    // `-fptxcc-layout=auto`'s regions have theirs from `plan_auto` already.
    let launching = super::auto::launching_functions(host);
    let mut wanted = super::versions::Wanted::default();
    for r in &regions {
        if LayoutDesc::decode(&r.desc_text).is_none_or(|d| d.auto) {
            continue;
        }
        let inside = region_instructions(r.begin, &r.desc_text);
        // What versions do not reach, libptxrt's launch check stops.
        let remote = super::versions::remote_launches(host, &inside, &launching);
        let desc = ir::call_arg_raw(r.begin, 2);
        for (launch, site) in remote.launches {
            let carried = super::versions::carried_by(
                host,
                launch,
                Some(site),
                ir::strip_casts(r.value),
                desc,
                &r.desc_text,
            );
            // Nested blocks around one call: one version for all their arrays.
            wanted.add(launch, Some(site), carried);
        }
    }
    for (version, _) in super::versions::make_versions(host, wanted)? {
        if let Some(a) = host
            .get_function(&version)
            .and_then(|f| f.get_string_attribute(AttributeLoc::Function, ATTR))
        {
            attrs
                .entry(version)
                .or_default()
                .push(a.get_string_value().to_string_lossy().into_owned());
        }
    }
    let mut out = BTreeMap::new();
    for (kernel, list) in attrs {
        let value = list.join("|");
        if let Some(f) = host.get_function(&kernel) {
            let a = ctx.create_string_attribute(ATTR, &value);
            f.add_attribute(AttributeLoc::Function, a);
        }
        out.insert(kernel, value);
    }
    Ok(out)
}

/// Is `launch` preceded by an offer (`__ptxcc_layout_variant`) of a version for the layout
/// described by the global `desc`? Offers sit right before their launch.
fn offers_version(launch: InstructionValue<'_>, desc: LLVMValueRef) -> bool {
    let mut at = launch.get_previous_instruction();
    while let Some(i) = at {
        match ir::callee_name(i).as_deref() {
            Some(VARIANT) => {
                if ir::strip_casts(ir::call_arg_raw(i, VARIANT_DESC)) == ir::strip_casts(desc) {
                    return true;
                }
            }
            Some(EXPECT) => {}
            _ => return false,
        }
        at = i.get_previous_instruction();
    }
    false
}

/// The extents global of description `desc_text` (created with its `!omp_offload.info`
/// record the first time).
fn extents_global(host: &Module<'_>, desc_text: &str, rank: usize) -> LLVMValueRef {
    let name = LayoutDesc::ext_global_name(desc_text);
    if let Some(g) = host.get_global(&name) {
        return g.as_value_ref();
    }
    let ctx = host.get_context();
    let ty = ctx.i64_type().array_type(rank as u32);
    let g = host.add_global(ty, None, &name);
    g.set_initializer(&ty.const_zero());
    g.set_linkage(inkwell::module::Linkage::Internal);
    g.set_alignment(8);
    let i32t = ctx.i32_type();
    let order = host.get_global_metadata(crate::openmp::OFFLOAD_INFO).len() as u64;
    let node = ctx.metadata_node(&[
        i32t.const_int(1, false).into(),
        ctx.metadata_string(&name).into(),
        i32t.const_int(0, false).into(),
        i32t.const_int(order, false).into(),
    ]);
    let _ = host.add_global_metadata(crate::openmp::OFFLOAD_INFO, &node);
    g.as_value_ref()
}

/// The parameters of kernel `kf` that its host-fallback calls pass `value` in.
fn fallback_params(kf: FunctionValue<'_>, value: LLVMValueRef) -> Vec<u32> {
    let mut out = Vec::new();
    for u in ir::users(kf.as_value_ref()) {
        unsafe {
            if llvm::LLVMIsACallInst(u).is_null() {
                continue;
            }
            let n = llvm::LLVMGetNumArgOperands(u);
            for i in 0..n {
                if same_value(llvm::LLVMGetOperand(u, i), value) && !out.contains(&i) {
                    out.push(i);
                }
            }
        }
    }
    out
}

fn insert_expect(host: &Module<'_>, launch: InstructionValue<'_>, param: u32, value: LLVMValueRef) {
    let ctx = host.get_context();
    let i32t = ctx.i32_type();
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    super::runtime_call(
        host,
        EXPECT,
        &[i32t.into(), ptr.into()],
        &mut [i32t.const_int(param as u64, false).as_value_ref(), value],
        &launch,
    );
}

/// Writes the element size the device rewrite found for each description into the begin
/// calls of `host` (`sizes`: description text → bytes), and checks the shape against the
/// array's size where the host knows it (a global or local array).
pub fn set_element_sizes(
    host: &Module<'_>,
    sizes: &BTreeMap<String, super::rewrite::Resolved>,
) -> Result<(), Diagnostics> {
    let i64t = host.get_context().i64_type();
    let mut diags = Vec::new();
    // The layout versions' offers (`versions.rs`) name the element size too: 0 where the
    // version was left as its kernel is.
    for f in host.get_functions() {
        for (call, name) in ir::calls(f) {
            let Some(resolved) = (name == VARIANT)
                .then(|| desc_of(call, VARIANT_DESC))
                .flatten()
                .and_then(|(text, _)| sizes.get(&text))
            else {
                continue;
            };
            unsafe {
                llvm::LLVMSetOperand(
                    call.as_value_ref(),
                    VARIANT_ELEM,
                    i64t.const_int(resolved.elem, false).as_value_ref(),
                );
            }
        }
    }
    for f in host.get_functions() {
        for (call, name) in ir::calls(f) {
            if name != BEGIN {
                continue;
            }
            let Some((text, desc)) = desc_of(call, 2) else {
                continue;
            };
            let Some(resolved) = sizes.get(&text) else {
                continue;
            };
            let elem = resolved.elem;
            if elem == 0 {
                // Left as it is (auto found no gain): nothing to convert.
                if let Some(new_text) = &resolved.desc {
                    replace_desc(host, &text, new_text);
                }
                continue;
            }
            // soa: the struct's fields count as one more dimension.
            let desc = match resolved.desc.as_deref().and_then(LayoutDesc::decode) {
                Some(d) => d,
                None => desc,
            };
            let count: Option<u64> = desc.const_dims().map(|d| d.iter().product());
            if let (Some(size), Some(count)) = (object_size(host, ir::call_arg_raw(call, 0)), count)
            {
                if count * elem != size {
                    diags.push(Diagnostic {
                        loc: Some(desc.loc.clone()),
                        message: format!(
                            "the trans directive describes '{}' as {} elements of {elem} bytes ({} bytes), but the array \
                             has {size} bytes: the section must cover the whole array (the rank or an extent does not \
                             match)",
                            desc.name,
                            LayoutDesc::shape_text(&desc.dims),
                            count * elem
                        ),
                    });
                    continue;
                }
            }
            let mut size = i64t.const_int(elem, false).as_value_ref();
            if let Some(c) = auto_section_count(call, &text) {
                if resolved.len_divisor > 1 {
                    // A flat section reshaped to [len/k][k]: the extent is len / k (the host
                    // proved len a multiple of k).
                    let b = host.get_context().create_builder();
                    b.position_before(&call);
                    unsafe {
                        let q = llvm::LLVMBuildUDiv(
                            b.as_mut_ptr(),
                            c,
                            i64t.const_int(resolved.len_divisor, false).as_value_ref(),
                            c"layout.rows".as_ptr(),
                        );
                        let st = llvm::LLVMBuildStore(b.as_mut_ptr(), q, ir::call_arg_raw(call, 3));
                        llvm::LLVMSetAlignment(st, 8);
                    }
                }
                // -fptxcc-layout=auto of a pointer section: an empty section stays as it is
                // (element size 0 at run time: nothing to convert, no extent to refuse).
                let b = host.get_context().create_builder();
                b.position_before(&call);
                unsafe {
                    let empty = llvm::LLVMBuildICmp(
                        b.as_mut_ptr(),
                        llvm_sys::LLVMIntPredicate::LLVMIntEQ,
                        c,
                        i64t.const_zero().as_value_ref(),
                        c"layout.empty".as_ptr(),
                    );
                    size = llvm::LLVMBuildSelect(
                        b.as_mut_ptr(),
                        empty,
                        i64t.const_zero().as_value_ref(),
                        size,
                        c"layout.elem".as_ptr(),
                    );
                }
            }
            unsafe {
                llvm::LLVMSetOperand(call.as_value_ref(), 1, size);
            }
            if let Some(new_text) = &resolved.desc {
                replace_desc(host, &text, new_text);
            }
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(diags))
    }
}

/// The run-time length a begin call of an `auto` pointer-section description (`text`) passes
/// (loaded from its extents array before the call).
fn auto_section_count(call: InstructionValue<'_>, text: &str) -> Option<LLVMValueRef> {
    let d = LayoutDesc::decode(text)?;
    if !(d.auto && d.section.is_some() && d.has_runtime_extents()) {
        return None;
    }
    let values = ir::call_arg_raw(call, 3);
    if unsafe { llvm::LLVMIsAConstantPointerNull(values).is_null() } {
        let b = call.get_parent()?.get_context().create_builder();
        b.position_before(&call);
        let i64t = call.get_parent()?.get_context().i64_type();
        Some(unsafe {
            llvm::LLVMBuildLoad2(
                b.as_mut_ptr(),
                inkwell::types::AsTypeRef::as_type_ref(&i64t),
                values,
                c"layout.len".as_ptr(),
            )
        })
    } else {
        None
    }
}

/// Points the begin and end calls that pass description `old` at a new string `new`.
fn replace_desc(host: &Module<'_>, old: &str, new: &str) {
    let g = ir::private_c_string(host, ".ptxcc.layout.desc", new);
    for f in host.get_functions() {
        for (call, name) in ir::calls(f) {
            let arg = match name.as_str() {
                BEGIN => 2,
                END => 1,
                VARIANT => VARIANT_DESC,
                _ => continue,
            };
            if desc_of(call, arg).is_some_and(|(t, _)| t == old) {
                unsafe {
                    llvm::LLVMSetOperand(call.as_value_ref(), arg, g.as_value_ref());
                }
            }
        }
    }
}

/// Bytes of a global or local array (None for a pointer's target).
fn object_size(host: &Module<'_>, v: LLVMValueRef) -> Option<u64> {
    unsafe {
        let v = ir::strip_casts(v);
        let ty = if !llvm::LLVMIsAGlobalVariable(v).is_null() {
            llvm::LLVMGlobalGetValueType(v)
        } else if !llvm::LLVMIsAAllocaInst(v).is_null() {
            llvm::LLVMGetAllocatedType(v)
        } else {
            return None;
        };
        if llvm::LLVMGetTypeKind(ty) != llvm_sys::LLVMTypeKind::LLVMArrayTypeKind {
            return None;
        }
        let td = llvm_sys::target::LLVMGetModuleDataLayout(host.as_mut_ptr());
        Some(llvm_sys::target::LLVMABISizeOfType(td, ty))
    }
}
