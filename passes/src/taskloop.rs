//! `taskloop` in device code: the loop's tasks made and run at once, in order, by the thread
//! that meets the construct (every device task is undeferred: `tasks.rs`), each task getting
//! its own copy of the task clang built, its firstprivates set by clang's task-dup function and
//! its share of the iterations, as libomp's `__kmp_taskloop_linear` makes them.
//!
//! ```llvm
//! call void @__kmpc_taskloop(ptr @loc, i32 %gtid, ptr %task, i32 %if, ptr %lb, ptr %ub, i64 %st,
//!                            i32 %nogroup, i32 %sched, i64 %grain, ptr @.omp_task_dup.)
//!   →
//! ; trip = (ub - lb) / st + 1 (0 when ub is behind lb); tasks = 1, or by grainsize: trip / g
//! ; (at least 1), or by num_tasks: min(n, trip)
//! taskloop.body:                                       ; t = 0 .. tasks-1
//!   memcpy(%copy, %task, size)                         ; %copy: a stack slot like %task's
//!   call @.omp_task_dup.(%copy, %task, i32 last)        ; firstprivates, the lastprivate flag
//!   store lb + first(t) * st, (copy + (lb - task)); store lb + (first(t) + count(t) - 1) * st, …
//!   call @.omp_task_entry.(%gtid, %copy)
//! ```
//!
//! The iterations are dealt as OpenMP 5.2 §12.6 asks: with `grainsize(g)` each task gets at
//! least g (or all, when fewer) and fewer than 2g; `num_tasks(n)` makes min(n, trip) tasks, the
//! first `trip % tasks` one iteration more; without either, one task. (Clang 19 drops the
//! `strict` modifier of both: it calls `__kmpc_taskloop` as without it, for libomp on the host
//! too; `__kmpc_taskloop_5`, which carries it, is what later clangs call, and it stays an
//! error here.)
use crate::ir;
use inkwell::module::Module;
use inkwell::types::AsTypeRef;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue, IntValue, PointerValue};
use inkwell::IntPredicate;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;

pub const TASKLOOP: &str = "__kmpc_taskloop";

/// What `lower` needs of a taskloop call.
struct Call {
    gtid: LLVMValueRef,
    task: LLVMValueRef,
    lb: LLVMValueRef,
    ub: LLVMValueRef,
    st: LLVMValueRef,
    sched: LLVMValueRef,
    grain: LLVMValueRef,
    dup: LLVMValueRef,
}

fn read(call: InstructionValue<'_>) -> Call {
    let a = |i| ir::call_arg_raw(call, i);
    Call {
        gtid: a(1),
        task: ir::strip_casts(a(2)),
        lb: a(4),
        ub: a(5),
        st: a(6),
        sched: a(8),
        grain: a(9),
        dup: ir::strip_casts(a(10)),
    }
}

/// Replaces the taskloop `call` of `f`, whose task (a stack slot `tasks.rs` made) runs `entry`,
/// by the loop that makes and runs its tasks (see the module comment).
pub fn lower<'ctx>(
    device: &Module<'ctx>,
    f: FunctionValue<'ctx>,
    call: InstructionValue<'ctx>,
    entry: FunctionValue<'ctx>,
) -> Result<(), String> {
    let c = read(call);
    let ctx = device.get_context();
    let (i8t, i32t, i64t) = (ctx.i8_type(), ctx.i32_type(), ctx.i64_type());
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let slot_ty = unsafe {
        let ty = if llvm::LLVMIsAAllocaInst(c.task).is_null() {
            std::ptr::null_mut()
        } else {
            llvm::LLVMGetAllocatedType(c.task)
        };
        if ty.is_null() || llvm::LLVMGetTypeKind(ty) != llvm_sys::LLVMTypeKind::LLVMArrayTypeKind {
            return Err("its task is not a stack slot".into());
        }
        ty
    };
    // Clang passes the addresses of the task's own lb and ub fields.
    for p in [c.lb, c.ub] {
        if !inside(p, c.task) {
            return Err("its bounds are not fields of its task".into());
        }
    }
    // `tasks.rs` makes the slot [size x i8].
    let size = i64t.const_int(unsafe { llvm::LLVMGetArrayLength2(slot_ty) }, false);
    let b = ctx.create_builder();
    // The copies' slot, in the entry block as the task's.
    let first = f
        .get_first_basic_block()
        .and_then(|bb| bb.get_first_instruction())
        .ok_or("function without instructions")?;
    b.position_before(&first);
    let copy = unsafe {
        PointerValue::new(llvm::LLVMBuildAlloca(
            b.as_mut_ptr(),
            slot_ty,
            c"ptxcc.taskloop.task".as_ptr(),
        ))
    };
    if let Some(i) = copy.as_instruction() {
        i.set_alignment(16).map_err(|e| e.to_string())?;
    }
    let v = |x: LLVMValueRef| unsafe { IntValue::new(x) };
    // Before the call: the trip count and the number of tasks.
    b.position_before(&call);
    let lb0 = e(b.build_load(i64t, unsafe { PointerValue::new(c.lb) }, "lb"))?.into_int_value();
    let ub0 = e(b.build_load(i64t, unsafe { PointerValue::new(c.ub) }, "ub"))?.into_int_value();
    let st = v(c.st);
    let one = i64t.const_int(1, false);
    let zero = i64t.const_zero();
    // A step of 0 cannot come from a loop; keep the division defined.
    let st_nz = e(b.build_select(
        e(b.build_int_compare(IntPredicate::EQ, st, zero, ""))?,
        one,
        st,
        "",
    ))?
    .into_int_value();
    // (ub - lb) / st + 1 iterations where ub is on st's side of lb, else none.
    let diff = e(b.build_int_sub(ub0, lb0, ""))?;
    let q = e(b.build_int_signed_div(diff, st_nz, ""))?;
    let trip_raw = e(b.build_int_add(q, one, ""))?;
    let up = e(b.build_int_compare(IntPredicate::SGT, st_nz, zero, ""))?;
    let ahead_up = e(b.build_int_compare(IntPredicate::SGE, diff, zero, ""))?;
    let ahead_down = e(b.build_int_compare(IntPredicate::SLE, diff, zero, ""))?;
    let ahead = e(b.build_select(up, ahead_up, ahead_down, ""))?.into_int_value();
    let trip = e(b.build_select(ahead, trip_raw, zero, "trip"))?.into_int_value();
    let grain = pick(&b, IntPredicate::SGT, v(c.grain), one)?;
    let sched = v(c.sched);
    // grainsize: trip / g tasks (at least 1); num_tasks: min(n, trip); neither: 1.
    let by_grain = pick(
        &b,
        IntPredicate::SGT,
        e(b.build_int_unsigned_div(trip, grain, ""))?,
        one,
    )?;
    let by_num = pick(&b, IntPredicate::SLT, grain, trip)?;
    let is = |k: u64| b.build_int_compare(IntPredicate::EQ, sched, i32t.const_int(k, false), "");
    let tasks0 = e(b.build_select(e(is(1))?, by_grain, one, ""))?.into_int_value();
    let tasks1 = e(b.build_select(e(is(2))?, by_num, tasks0, ""))?.into_int_value();
    let tasks = pick(&b, IntPredicate::SLT, tasks1, trip)?;
    let divisor = pick(&b, IntPredicate::SGT, tasks, one)?;
    let chunk = e(b.build_int_unsigned_div(trip, divisor, "chunk"))?;
    let extra = e(b.build_int_unsigned_rem(trip, divisor, "extra"))?;
    // Where lb and ub sit in the task (clang passes their addresses in it).
    let task_at = e(b.build_ptr_to_int(unsafe { PointerValue::new(c.task) }, i64t, ""))?;
    let off = |p: LLVMValueRef| -> Result<IntValue<'ctx>, String> {
        let a = e(b.build_ptr_to_int(unsafe { PointerValue::new(p) }, i64t, ""))?;
        e(b.build_int_sub(a, task_at, ""))
    };
    let lb_off = off(c.lb)?;
    let ub_off = off(c.ub)?;
    // The loop, between the code before the call and the call.
    let head = ir::split_before(call, c"taskloop.done").map_err(|e| e.to_string())?;
    let done = call.get_parent().ok_or("call without a block")?;
    let body = ctx.prepend_basic_block(done, "taskloop.task");
    b.position_at_end(unsafe { inkwell::basic_block::BasicBlock::new(head) }.ok_or("no block")?);
    let any = e(b.build_int_compare(IntPredicate::UGT, tasks, zero, ""))?;
    e(b.build_conditional_branch(any, body, done))?;
    b.position_at_end(body);
    let t = e(b.build_phi(i64t, "t"))?;
    let head_bb = unsafe { inkwell::basic_block::BasicBlock::new(head) }.ok_or("no block")?;
    t.add_incoming(&[(&zero, head_bb)]);
    let tv = t.as_basic_value().into_int_value();
    let before = pick(&b, IntPredicate::SLT, tv, extra)?;
    let start = e(b.build_int_add(e(b.build_int_mul(tv, chunk, ""))?, before, "first"))?;
    let more = e(b.build_int_compare(IntPredicate::ULT, tv, extra, ""))?;
    let count = e(b.build_int_add(chunk, e(b.build_int_z_extend(more, i64t, ""))?, ""))?;
    e(b.build_memcpy(copy, 16, unsafe { PointerValue::new(c.task) }, 16, size))?;
    let next = e(b.build_int_add(tv, one, ""))?;
    let last = e(b.build_int_compare(IntPredicate::EQ, next, tasks, ""))?;
    if unsafe { llvm::LLVMIsAConstantPointerNull(c.dup).is_null() } {
        let dup_ty = ctx
            .void_type()
            .fn_type(&[ptr.into(), ptr.into(), i32t.into()], false);
        let flag = e(b.build_int_z_extend(last, i32t, ""))?;
        let mut args = [copy.as_value_ref(), c.task, flag.as_value_ref()];
        unsafe {
            llvm::LLVMBuildCall2(
                b.as_mut_ptr(),
                dup_ty.as_type_ref(),
                c.dup,
                args.as_mut_ptr(),
                3,
                c"".as_ptr(),
            )
        };
    }
    let at = |o: IntValue<'ctx>| unsafe { b.build_in_bounds_gep(i8t, copy, &[o], "") };
    let my_lb = e(b.build_int_add(lb0, e(b.build_int_mul(start, st, ""))?, ""))?;
    let last_iter = e(b.build_int_sub(e(b.build_int_add(start, count, ""))?, one, ""))?;
    let my_ub = e(b.build_int_add(lb0, e(b.build_int_mul(last_iter, st, ""))?, ""))?;
    e(b.build_store(e(at(lb_off))?, my_lb))?;
    e(b.build_store(e(at(ub_off))?, my_ub))?;
    let mut args = [c.gtid, copy.as_value_ref()];
    let r = unsafe {
        llvm::LLVMBuildCall2(
            b.as_mut_ptr(),
            llvm::LLVMGlobalGetValueType(entry.as_value_ref()),
            entry.as_value_ref(),
            args.as_mut_ptr(),
            2,
            c"".as_ptr(),
        )
    };
    if let Some(dbg) = call.get_debug_location() {
        unsafe { InstructionValue::new(r) }.set_debug_location(Some(dbg));
    }
    let again = e(b.build_int_compare(IntPredicate::ULT, next, tasks, ""))?;
    let from = b.get_insert_block().ok_or("no block")?;
    t.add_incoming(&[(&next, from)]);
    e(b.build_conditional_branch(again, body, done))?;
    ir::erase(call);
    Ok(())
}

/// Is `p` an address inside `object`: `object` itself, or in-bounds element addresses of it?
fn inside(mut p: LLVMValueRef, object: LLVMValueRef) -> bool {
    loop {
        p = ir::strip_casts(p);
        if p == object {
            return true;
        }
        unsafe {
            if llvm::LLVMIsAGetElementPtrInst(p).is_null() || llvm::LLVMIsInBounds(p) == 0 {
                return false;
            }
            p = llvm::LLVMGetOperand(p, 0);
        }
    }
}

fn e<T>(r: Result<T, inkwell::builder::BuilderError>) -> Result<T, String> {
    r.map_err(|e| e.to_string())
}

/// `x` where `x pred y` holds, else `y` (a signed max with SGT, min with SLT).
fn pick<'ctx>(
    b: &inkwell::builder::Builder<'ctx>,
    pred: IntPredicate,
    x: IntValue<'ctx>,
    y: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, String> {
    let holds = e(b.build_int_compare(pred, x, y, ""))?;
    Ok(e(b.build_select(holds, x, y, ""))?.into_int_value())
}
