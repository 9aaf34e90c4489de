//! Tasks in device code: every `task` is undeferred — the thread that meets it runs it at once,
//! to completion — which OpenMP allows for any task (an implementation may execute a task
//! immediately; 5.2 §12.5). Then a `taskgroup` or `taskwait` has nothing left to wait for and a
//! `depend` clause is satisfied when the task is created (every earlier task has completed).
//!
//! Clang's code allocates the task with the runtime, fills its shareds and privates, and
//! hands it over; this pass gives the task a stack slot in the creating function and calls the
//! task's entry itself:
//!
//! ```llvm
//! %t = call ptr @__kmpc_omp_task_alloc(ptr @loc, i32 %gtid, i32 1, i64 48, i64 8, ptr @.omp_task_entry.)
//! ...                                                   ; stores to the shareds and privates
//! %r = call i32 @__kmpc_omp_task(ptr @loc, i32 %gtid, ptr %t)
//!   →
//! %ptxcc.task = alloca [56 x i8], align 16              ; entry block: kmp_task_t + privates, shareds
//! call void @llvm.memset.p0.i64(ptr %ptxcc.task, i8 0, i64 56, i1 false)
//! store ptr %shareds, ptr %ptxcc.task                   ; task->shareds = task + 48
//! store ptr @.omp_task_entry., ptr %routine             ; task->routine
//! ...
//! %r = call i32 @.omp_task_entry.(i32 %gtid, ptr %ptxcc.task)
//! ```
//!
//! `__kmpc_omp_task_with_deps` is the same call; `task if(0)`'s `__kmpc_omp_task_begin_if0` /
//! `_complete_if0` (clang calls the entry itself between them), `__kmpc_taskgroup` and
//! `__kmpc_end_taskgroup` go, and so does `affinity`'s `__kmpc_omp_reg_task_with_affinity` (a
//! hint; its result is 0) (`taskwait` is device_builtins'). Clang's task body receives the
//! function that finds its privates as an argument and calls it through a pointer; with one
//! known entry per task that call becomes direct.
//!
//! Task reductions (`task_reduction` on a taskgroup, the `task` modifier of `reduction`,
//! `in_reduction` on a task; 5.2 §5.5.8–5.5.10) need no private copies: a participating task
//! runs at once on the thread that makes it, so no two of them run at the same time on one
//! list item (each thread of a `reduction(task, …)` region has its own), and updating the item
//! itself gives what combining a private copy into it at the end would. The runtime's
//! descriptor is the clause's input array, which lives until the construct's end:
//!
//! ```llvm
//! %tg = call ptr @__kmpc_taskred_init(i32 %gtid, i32 1, ptr %in)      →  (uses of %tg: %in)
//! %tg = call ptr @__kmpc_taskred_modifier_init(ptr @loc, i32 %gtid, i32 0, i32 1, ptr %in)
//!                                                                     →  (uses: %in)
//! %p = call ptr @__kmpc_task_reduction_get_th_data(i32 %gtid, ptr %tg, ptr %s)  →  (uses: %s)
//! call void @__kmpc_task_reduction_modifier_fini(ptr @loc, i32 %gtid, i32 0)    →  (nothing)
//! ```
//!
//! `taskloop` makes its tasks in a loop here too (`taskloop.rs`). Left to device_check, which
//! names the construct: `detach`.
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use crate::openmp;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use std::collections::HashMap;

const TASK_ALLOC: &str = "__kmpc_omp_task_alloc";
/// Calls that hand a task over: (name, index of the task argument).
const TASK_RUN: &[(&str, u32)] = &[("__kmpc_omp_task", 2), ("__kmpc_omp_task_with_deps", 2)];
/// Calls that have nothing to do when every task runs at once.
const NOTHING_TO_DO: &[&str] = &[
    "__kmpc_omp_task_begin_if0",
    "__kmpc_omp_task_complete_if0",
    "__kmpc_taskgroup",
    "__kmpc_end_taskgroup",
];
/// Task reduction calls: (name, the argument that stands for the result; None: no result).
const TASK_REDUCTION: &[(&str, Option<u32>)] = &[
    ("__kmpc_taskred_init", Some(2)),
    ("__kmpc_task_reduction_init", Some(2)),
    ("__kmpc_taskred_modifier_init", Some(4)),
    ("__kmpc_task_reduction_modifier_init", Some(4)),
    ("__kmpc_task_reduction_get_th_data", Some(2)),
    ("__kmpc_task_reduction_modifier_fini", None),
];
/// `task affinity(…)`: a hint where to run the task (`__kmpc_omp_reg_task_with_affinity(loc,
/// gtid, task, n, list)`, whose i32 result is always 0); a task run at once by the thread that
/// creates it has no other place to go.
const AFFINITY: &str = "__kmpc_omp_reg_task_with_affinity";

/// Lowers every task of the device module. Returns how many tasks were made undeferred.
pub fn lower_tasks(device: &Module<'_>) -> Result<usize, Diagnostics> {
    let mut diags = Vec::new();
    // The task's slot → its entry.
    let mut entries: HashMap<LLVMValueRef, FunctionValue<'_>> = HashMap::new();
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            if name != TASK_ALLOC {
                continue;
            }
            match allocate(device, f, call) {
                Ok((slot, entry)) => {
                    entries.insert(slot, entry);
                }
                Err(message) => diags.push(Diagnostic {
                    loc: openmp::call_loc(call),
                    message,
                }),
            }
        }
    }
    let mut count = 0;
    let ctx = device.get_context();
    let b = ctx.create_builder();
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            if NOTHING_TO_DO.contains(&name.as_str()) {
                ir::erase(call);
                continue;
            }
            if name == AFFINITY {
                ir::replace_and_erase(call, ctx.i32_type().const_zero().as_value_ref());
                continue;
            }
            if let Some(&(_, result)) = TASK_REDUCTION.iter().find(|(n, _)| *n == name) {
                match result {
                    Some(arg) => ir::replace_and_erase(call, ir::call_arg_raw(call, arg)),
                    None => ir::erase(call),
                }
                continue;
            }
            if name == crate::taskloop::TASKLOOP {
                let task = ir::strip_casts(ir::call_arg_raw(call, 2));
                let lowered = match entries.get(&task) {
                    Some(&entry) => crate::taskloop::lower(device, f, call, entry),
                    None => Err(
                        "its task does not come from __kmpc_omp_task_alloc in the same function"
                            .into(),
                    ),
                };
                match lowered {
                    Ok(()) => count += 1,
                    Err(why) => diags.push(Diagnostic {
                        loc: openmp::call_loc(call),
                        message: format!(
                            "ptxcc does not support this taskloop in target regions: {why}"
                        ),
                    }),
                }
                continue;
            }
            let Some(&(_, arg)) = TASK_RUN.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            let task = ir::strip_casts(ir::call_arg_raw(call, arg));
            // An untied task's body hands its own task back to run its next part.
            let entry = entries
                .get(&task)
                .copied()
                .or_else(|| untied_self(f, entries.values()));
            let Some(entry) = entry else {
                diags.push(Diagnostic {
                    loc: openmp::call_loc(call),
                    message: "ptxcc does not support this task construct in target regions: its task does not \
                              come from __kmpc_omp_task_alloc in the same function"
                        .into(),
                });
                continue;
            };
            b.position_before(&call);
            let gtid = ir::call_arg_raw(call, 1);
            let args = [gtid, task];
            let r = unsafe {
                llvm::LLVMBuildCall2(
                    b.as_mut_ptr(),
                    llvm::LLVMGlobalGetValueType(entry.as_value_ref()),
                    entry.as_value_ref(),
                    args.as_ptr() as *mut LLVMValueRef,
                    2,
                    c"".as_ptr(),
                )
            };
            if let Some(dbg) = call.get_debug_location() {
                unsafe { InstructionValue::new(r) }.set_debug_location(Some(dbg));
            }
            // The runtime's result (0: the task was queued) is never the task's own.
            ir::replace_and_erase(call, ctx.i32_type().const_zero().as_value_ref());
            count += 1;
        }
    }
    for entry in entries.values() {
        direct_privates_calls(*entry);
    }
    ir::delete_unused_functions(device, |f| {
        let name = ir::fn_name(f);
        f.count_basic_blocks() == 0
            && (name == TASK_ALLOC
                || name == AFFINITY
                || name == crate::taskloop::TASKLOOP
                || TASK_REDUCTION.iter().any(|(n, _)| *n == name)
                || TASK_RUN.iter().any(|(n, _)| *n == name)
                || NOTHING_TO_DO.contains(&name.as_str()))
    });
    if diags.is_empty() {
        Ok(count)
    } else {
        Err(Diagnostics(diags))
    }
}

/// The task of an untied task's body `body`, which hands it back to the runtime after each part
/// (`*part_id = n; __kmpc_omp_task(loc, gtid, task)`): the entry that alone calls `body`.
/// Running that entry again at once runs the next part, as the runtime would.
fn untied_self<'a, 'ctx: 'a>(
    body: FunctionValue<'ctx>,
    mut entries: impl Iterator<Item = &'a FunctionValue<'ctx>>,
) -> Option<FunctionValue<'ctx>> {
    let users = ir::users(body.as_value_ref());
    let [user] = users.as_slice() else {
        return None;
    };
    let caller = unsafe { InstructionValue::new(*user) }
        .get_parent()
        .and_then(|b| b.get_parent())?;
    entries.find(|e| **e == caller).copied()
}

/// Replaces `__kmpc_omp_task_alloc(loc, gtid, flags, size, shareds_size, entry)` by a zeroed
/// stack slot of the function with `shareds` and `routine` set; returns the slot and the entry.
fn allocate<'ctx>(
    device: &Module<'ctx>,
    f: FunctionValue<'ctx>,
    call: InstructionValue<'ctx>,
) -> Result<(LLVMValueRef, FunctionValue<'ctx>), String> {
    let size = ir::const_int(ir::call_arg_raw(call, 3));
    let shareds = ir::const_int(ir::call_arg_raw(call, 4));
    let (Some(size), Some(shareds)) = (size, shareds) else {
        return Err(
            "ptxcc does not support a task whose size is not a constant in target regions".into(),
        );
    };
    let entry_v = ir::strip_casts(ir::call_arg_raw(call, 5));
    if unsafe { llvm::LLVMIsAFunction(entry_v) }.is_null() {
        return Err(
            "ptxcc does not support a task without a known entry function in target regions".into(),
        );
    }
    let entry = unsafe { FunctionValue::new(entry_v) }
        .ok_or_else(|| "task entry is not a function".to_string())?;
    let ctx = device.get_context();
    let i8t = ctx.i8_type();
    let i64t = ctx.i64_type();
    // Shareds after the task (kmp_task_t and its privates), pointer-aligned.
    let shareds_at = (size as u64).div_ceil(8) * 8;
    let total = shareds_at + shareds.max(0) as u64;
    let b = ctx.create_builder();
    let first = f
        .get_first_basic_block()
        .and_then(|bb| bb.get_first_instruction())
        .ok_or_else(|| "function without instructions".to_string())?;
    b.position_before(&first);
    let arr = i8t.array_type(total.max(16) as u32);
    let slot = b
        .build_alloca(arr, "ptxcc.task")
        .map_err(|e| e.to_string())?;
    if let Some(i) = slot.as_instruction() {
        i.set_alignment(16).map_err(|e| e.to_string())?;
    }
    b.position_before(&call);
    b.build_memset(slot, 16, i8t.const_zero(), i64t.const_int(total, false))
        .map_err(|e| e.to_string())?;
    let shareds_ptr = if shareds > 0 {
        unsafe {
            b.build_in_bounds_gep(
                i8t,
                slot,
                &[i64t.const_int(shareds_at, false)],
                "ptxcc.shareds",
            )
        }
        .map_err(|e| e.to_string())?
    } else {
        ctx.ptr_type(inkwell::AddressSpace::default()).const_null()
    };
    b.build_store(slot, shareds_ptr)
        .map_err(|e| e.to_string())?;
    let routine = unsafe { b.build_in_bounds_gep(i8t, slot, &[i64t.const_int(8, false)], "") }
        .map_err(|e| e.to_string())?;
    b.build_store(routine, entry.as_global_value().as_pointer_value())
        .map_err(|e| e.to_string())?;
    ir::replace_and_erase(call, slot.as_value_ref());
    Ok((slot.as_value_ref(), entry))
}

/// In the functions `entry` calls with a function as argument (clang's task body receives
/// `.omp_task_privates_map.` so), calls through that parameter — directly, or through the
/// local it was stored in — call the function itself.
fn direct_privates_calls(entry: FunctionValue<'_>) {
    for (call, _) in ir::calls(entry) {
        let Some(body) = ir::called_function(call) else {
            continue;
        };
        if body.count_basic_blocks() == 0 {
            continue;
        }
        for (i, param) in body.get_params().iter().enumerate() {
            let arg = ir::strip_casts(ir::call_arg_raw(call, i as u32));
            if unsafe { llvm::LLVMIsAFunction(arg) }.is_null() {
                continue;
            }
            // One caller: the parameter is always that function.
            if ir::users(body.as_value_ref()).len() != 1 {
                continue;
            }
            let p = param.as_value_ref();
            let mut callees = vec![p];
            for u in ir::users(p) {
                let is_store_to_local = unsafe {
                    !llvm::LLVMIsAStoreInst(u).is_null()
                        && llvm::LLVMGetOperand(u, 0) == p
                        && !llvm::LLVMIsAAllocaInst(llvm::LLVMGetOperand(u, 1)).is_null()
                };
                if is_store_to_local {
                    let local = unsafe { llvm::LLVMGetOperand(u, 1) };
                    let only_store = ir::users(local)
                        .iter()
                        .filter(|&&v| unsafe { !llvm::LLVMIsAStoreInst(v).is_null() })
                        .count()
                        == 1;
                    if only_store {
                        callees.extend(
                            ir::users(local)
                                .into_iter()
                                .filter(|&v| unsafe { !llvm::LLVMIsALoadInst(v).is_null() }),
                        );
                    }
                }
            }
            for v in callees {
                for u in ir::users(v) {
                    unsafe {
                        if llvm::LLVMIsACallInst(u).is_null() {
                            continue;
                        }
                        let n = llvm::LLVMGetNumOperands(u);
                        // The callee is a call's last operand.
                        if n > 0 && llvm::LLVMGetOperand(u, (n - 1) as u32) == v {
                            llvm::LLVMSetOperand(u, (n - 1) as u32, arg);
                        }
                    }
                }
            }
        }
    }
}
