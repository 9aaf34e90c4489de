//! Device check: after the device passes, every call left in device code must be something the
//! NVPTX back end or the math library provides. Anything else is an OpenMP feature ptxcc does not
//! support yet (reported with the construct's source line) or a function the device cannot call.
//!
//! ```text
//! saxpy.c:9:3: error: ptxcc does not support reduction clauses in target regions yet
//! saxpy.c:12:5: error: function 'fputs' called in a target region is not available on the device
//! ```
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use crate::math_library;
use crate::openmp;
use inkwell::module::Module;
use inkwell::values::InstructionOpcode;

/// The OpenMP construct behind a runtime entry point, for the message.
pub(crate) fn construct_of(name: &str) -> Option<&'static str> {
    let table: &[(&str, &str)] = &[
        ("__kmpc_reduce", "reduction clauses in target regions"),
        ("__kmpc_end_reduce", "reduction clauses in target regions"),
        ("__kmpc_nvptx_", "reduction clauses in target regions"),
        // critical is lowered in parallel regions; team code, which every thread runs, cannot take a lock.
        ("__kmpc_critical", "'critical' outside the parallel regions of a target region"),
        ("__kmpc_dispatch_", "schedule(dynamic), schedule(guided), schedule(auto) and schedule(runtime) in target regions"),
        ("__kmpc_task_allow_completion_event", "the detach clause of tasks in target regions"),
        ("__kmpc_omp_task", "tasks in target regions"),
        ("__kmpc_taskred", "task reductions (task_reduction, in_reduction) in target regions"),
        ("__kmpc_task_reduction", "task reductions (task_reduction, in_reduction) in target regions"),
        ("__kmpc_taskgroup", "taskgroup in target regions"),
        ("__kmpc_taskloop", "taskloop in target regions"),
        ("__kmpc_ordered", "'ordered' in target regions"),
        ("__kmpc_serialized_parallel", "a 'parallel' construct with an if clause in a function called from a target region"),
        ("__kmpc_atomic_", "this kind of atomic operation in target regions"),
        ("__kmpc_cancel", "cancellation in target regions"),
        ("__kmpc_doacross", "doacross loops in target regions"),
        // Lowered by the allocators pass; kernel formation, before it, meets them in team code.
        ("__kmpc_alloc", "the allocate directive or clause in the code of a teams region around its parallel loop"),
        ("__kmpc_aligned_alloc", "the allocate directive or clause in the code of a teams region around its parallel loop"),
        ("__kmpc_threadprivate", "threadprivate variables in target regions"),
        ("__kmpc_copyprivate", "copyprivate in target regions"),
        ("__kmpc_fork_call", "nested parallel regions in target regions"),
        ("__kmpc_fork_teams", "nested teams regions in target regions"),
        ("__tgt_", "target constructs nested in target regions"),
    ];
    table
        .iter()
        .find(|(p, _)| name.starts_with(p))
        .map(|(_, c)| *c)
}

/// Whether `f` is clang's code for a task: its entry point and what only that calls (the task's
/// body, which reaches its privates through a function pointer).
fn is_task_code(f: inkwell::values::FunctionValue<'_>) -> bool {
    let task_fn = |f: inkwell::values::FunctionValue<'_>| ir::fn_name(f).starts_with(".omp_task_");
    if task_fn(f) {
        return true;
    }
    let users = ir::users(inkwell::values::AsValueRef::as_value_ref(&f));
    !users.is_empty()
        && users.iter().all(|u| unsafe {
            !llvm_sys::core::LLVMIsAInstruction(*u).is_null()
                && inkwell::values::InstructionValue::new(*u)
                    .get_parent()
                    .and_then(|b| b.get_parent())
                    .is_some_and(task_fn)
        })
}

/// Whether task constructs are left that the tasks pass did not lower (taskloop, say).
fn has_task_calls(device: &Module<'_>) -> bool {
    device.get_functions().any(|f| {
        let n = ir::fn_name(f);
        f.count_basic_blocks() == 0 && (n.starts_with("__kmpc_omp_task") || n == "__kmpc_taskloop")
    })
}

/// Runtime calls that end a construct whose beginning `construct_of` reports.
const CONSTRUCT_ENDS: &[&str] = &[
    "__kmpc_end_critical",
    "__kmpc_end_ordered",
    "__kmpc_end_taskgroup",
    "__kmpc_end_serialized_parallel",
    "__kmpc_free",
    "__kmpc_dispatch_deinit",
    "__kmpc_dispatch_fini_4",
    "__kmpc_dispatch_fini_4u",
    "__kmpc_dispatch_fini_8",
    "__kmpc_dispatch_fini_8u",
    "__kmpc_dispatch_next_4",
    "__kmpc_dispatch_next_4u",
    "__kmpc_dispatch_next_8",
    "__kmpc_dispatch_next_8u",
];

/// Whether `name` ends a construct (reported with its beginning).
pub(crate) fn is_construct_end(name: &str) -> bool {
    CONSTRUCT_ENDS.contains(&name)
}

/// Whether a `__kmpc_dispatch_init_*(loc, gtid, schedule, ...)` is the loop of an `ordered`
/// clause (libomp's ordered schedule kinds, 65 to 74), not a dynamic schedule.
fn ordered_schedule(call: inkwell::values::InstructionValue<'_>) -> bool {
    matches!(
        ir::const_int(ir::call_arg_raw(call, 2)).map(|k| k & 0x7fff_ffff),
        Some(65..=74)
    )
}

/// Whether a declared function may stay in device code.
fn provided_on_device(name: &str) -> bool {
    name.starts_with("llvm.")
        || math_library::provides(name)
        || name.starts_with("__ptxemu_")
        // CUDA's vprintf and __assertfail in the PTX (device_libc), the host's in the emulator.
        || name == "printf"
        || name == crate::device_libc::ASSERT_FAIL
        // The CUDA driver's device heap in the PTX, the host's in the emulator.
        || name == "malloc"
        || name == "free"
        || name == crate::device_libc::WTIME
        || name == crate::device_libc::WTICK
}

/// Checks the device module; returns every problem found.
pub fn check_device_module(device: &Module<'_>) -> Result<(), Diagnostics> {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut push = |d: Diagnostic| {
        if !diags.contains(&d) {
            diags.push(d);
        }
    };
    let mut wide_float_lines = std::collections::HashSet::new();
    for f in device.get_functions() {
        // ptxcc's own helpers (device_rt) call only what they are given; the entry points of
        // a task construct the tasks pass could not lower are reported where the task is made.
        let fname = ir::fn_name(f);
        if fname.starts_with("__ptxcc_") || (is_task_code(f) && has_task_calls(device)) {
            continue;
        }
        // Code no path reaches (e.g. a reduction branch the lowering ruled out) needs nothing.
        let live = ir::reachable_blocks(f);
        for inst in ir::instructions(f) {
            if !inst
                .get_parent()
                .map(|b| live.contains(&b.as_mut_ptr()))
                .unwrap_or(false)
            {
                continue;
            }
            let loc = openmp::debug_loc(inst);
            // One report per source line (a statement has several such instructions).
            if uses_wide_float(inst) {
                let line = loc.as_ref().map(|l| (l.file.clone(), l.line));
                if !wide_float_lines.insert(line) {
                    continue;
                }
                push(Diagnostic {
                    loc: loc.clone(),
                    message: "ptxcc does not support 'long double' (or __float128) in target regions: the GPU \
                              has no 80- or 128-bit floating point; use double (for the host \
                              copy too: the device cannot read the host's long double bytes)"
                        .into(),
                });
                continue;
            }
            let op = inst.get_opcode();
            if op != InstructionOpcode::Call && op != InstructionOpcode::Invoke {
                continue;
            }
            match ir::called_function(inst) {
                None => {
                    let is_asm = unsafe {
                        let callee = llvm_sys::core::LLVMGetCalledValue(
                            inkwell::values::AsValueRef::as_value_ref(&inst),
                        );
                        !llvm_sys::core::LLVMIsAInlineAsm(callee).is_null()
                    };
                    if !is_asm {
                        push(Diagnostic { loc, message: "ptxcc does not support indirect calls (function pointers) in target regions".into() });
                    }
                }
                Some(callee) if callee.count_basic_blocks() > 0 => {}
                Some(callee) => {
                    let name = ir::fn_name(callee);
                    // The end of a construct is reported with its beginning.
                    if provided_on_device(&name) || is_construct_end(&name) {
                        continue;
                    }
                    if let Some(what) = construct_of(&name) {
                        push(Diagnostic {
                            loc: openmp::call_loc(inst).or(loc),
                            message: if name.starts_with("__kmpc_dispatch_init")
                                && ordered_schedule(inst)
                            {
                                "ptxcc does not support loops with an 'ordered' clause in target regions yet".to_string()
                            } else if name.starts_with("__kmpc_dispatch_") {
                                format!("ptxcc does not support {what} yet; use schedule(static) or schedule(static, N)")
                            } else {
                                format!("ptxcc does not support {what} yet")
                            },
                        });
                    } else {
                        // The OpenMP library is no translation unit of the user's.
                        let message = if name.starts_with("omp_") {
                            format!("ptxcc does not support the OpenMP routine '{name}' in target regions yet; move the call out of the region")
                        } else {
                            format!(
                                "function '{name}' called in a target region is not available on the device; \
                                 define it in this translation unit (ptxcc compiles it for the device) or move the call out of the region"
                            )
                        };
                        push(Diagnostic { loc, message });
                    }
                }
            }
        }
    }
    // Device extraction keeps `declare target` globals external and makes every other global
    // the device code reaches internal: a writable one of those would be a separate device copy
    // the host never sees (clang refuses such a program at link time).
    for g in device.get_globals() {
        let name = ir::global_name(g);
        let internal = matches!(
            g.get_linkage(),
            inkwell::module::Linkage::Internal | inkwell::module::Linkage::Private
        );
        let shared_memory = unsafe {
            llvm_sys::core::LLVMGetPointerAddressSpace(llvm_sys::core::LLVMTypeOf(
                inkwell::values::AsValueRef::as_value_ref(&g),
            ))
        } == 3;
        if !internal
            || g.is_constant()
            || shared_memory
            || name.starts_with("__ptxcc")
            || name.starts_with("llvm.")
            || g.is_declaration()
        {
            continue;
        }
        // The lock of a 'critical' construct, which is reported itself.
        if name.starts_with(".gomp_critical_user_") {
            continue;
        }
        // A static local of a function the device code calls (or of the target region) is
        // implicitly 'declare target': the device has its own copy, which the host cannot name.
        if is_function_static(&name) {
            continue;
        }
        let user = unsafe { first_instruction_user(inkwell::values::AsValueRef::as_value_ref(&g)) };
        let Some(inst) = user else { continue };
        let func = inst
            .get_parent()
            .and_then(|b| b.get_parent())
            .map(ir::fn_name)
            .unwrap_or_default();
        push(Diagnostic {
            loc: openmp::debug_loc(inst),
            message: format!(
                "variable '{name}' is used on the device (in '{func}') but is not 'declare target': \
                 wrap its declaration in '#pragma omp declare target' / '#pragma omp end declare target', or pass it to the region"
            ),
        });
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(diags))
    }
}

/// Whether `inst` computes or takes a `long double` value (x86_fp80, or fp128 where the host's
/// long double is that), which NVPTX cannot select (LLVM aborts in code generation).
fn uses_wide_float(inst: inkwell::values::InstructionValue<'_>) -> bool {
    use llvm_sys::core::{LLVMGetElementType, LLVMGetTypeKind, LLVMTypeOf};
    use llvm_sys::LLVMTypeKind as K;
    let wide = |ty: llvm_sys::prelude::LLVMTypeRef| unsafe {
        let mut ty = ty;
        loop {
            match LLVMGetTypeKind(ty) {
                K::LLVMX86_FP80TypeKind | K::LLVMFP128TypeKind | K::LLVMPPC_FP128TypeKind => {
                    return true
                }
                K::LLVMVectorTypeKind | K::LLVMArrayTypeKind => ty = LLVMGetElementType(ty),
                K::LLVMStructTypeKind => {
                    let n = llvm_sys::core::LLVMCountStructElementTypes(ty);
                    return (0..n).any(|i| {
                        let e = llvm_sys::core::LLVMStructGetTypeAtIndex(ty, i);
                        matches!(
                            LLVMGetTypeKind(e),
                            K::LLVMX86_FP80TypeKind
                                | K::LLVMFP128TypeKind
                                | K::LLVMPPC_FP128TypeKind
                        )
                    });
                }
                _ => return false,
            }
        }
    };
    let v = inkwell::values::AsValueRef::as_value_ref(&inst);
    if wide(unsafe { LLVMTypeOf(v) }) {
        return true;
    }
    (0..unsafe { llvm_sys::core::LLVMGetNumOperands(v) })
        .any(|i| wide(unsafe { LLVMTypeOf(llvm_sys::core::LLVMGetOperand(v, i as u32)) }))
}

/// Whether a global's name is one clang gives a function's static local: `function.variable`,
/// with `.N` after it for a second one of the same name. C identifiers have no dots, so no
/// file-scope variable is named so (clang's own globals start with a dot or are constants).
fn is_function_static(name: &str) -> bool {
    let is_ident = |s: &str| {
        let mut chars = s.chars();
        matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
            && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
    };
    let mut parts = name.split('.');
    let (Some(function), Some(variable)) = (parts.next(), parts.next()) else {
        return false;
    };
    let rest: Vec<&str> = parts.collect();
    is_ident(function)
        && is_ident(variable)
        && (rest.is_empty()
            || (rest.len() == 1
                && rest[0].chars().all(|c| c.is_ascii_digit())
                && !rest[0].is_empty()))
}

/// The first instruction that uses `v`, directly or through constant expressions.
pub(crate) unsafe fn first_instruction_user<'ctx>(
    v: llvm_sys::prelude::LLVMValueRef,
) -> Option<inkwell::values::InstructionValue<'ctx>> {
    use llvm_sys::core::*;
    let mut work = vec![v];
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        for user in ir::users(v) {
            if !LLVMIsAInstruction(user).is_null() {
                return Some(inkwell::values::InstructionValue::new(user));
            }
            if !LLVMIsAConstantExpr(user).is_null() {
                work.push(user);
            }
        }
    }
    None
}
