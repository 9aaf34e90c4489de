//! Access ranges (`-fptxcc-multi-device`, issue 19): for each kernel split-range made
//! splittable, which bytes of each pointer argument a sub-range `[lo, hi)` of the split loop's
//! iterations reads and writes, so that the runtime moves only those to each device. The loops
//! `-fopenmp-offload-parallel-for` offloaded get a table too, with or without the split
//! (split-range marks them `!ptxcc.ranges`): the runtime evaluates it over the whole loop to map
//! the pointers the loop reaches without a visible extent (ptx-runtime `split/access_maps.rs`).
//!
//! The pass runs after split-range, before loop mapping, on a clone of the device module
//! simplified with `sroa,instcombine` (the loop's normalised iteration is still a phi there).
//! Every load, store and atomic whose address is a kernel pointer argument (followed up the
//! outlined functions' arguments to the kernel's) plus an offset is expressed as
//! `c0 + c1*i + Σ ck*vk`, `i` the split loop's iteration, `vk` the variables of inner loops,
//! every coefficient a product of constants and scalar arguments (`analyze.rs`). The kernel's
//! table (`table.rs`) becomes a constant in the device module, which the pipeline moves into
//! the host registration (`ptxrt_kernel_desc::accesses`):
//!
//! ```llvm
//! ; before (a part of the clone, simplified): y[i] = x[i-1] + x[i] + x[i+1], i = iv + 1
//! %iv = phi i32 [ %lb, %pre ], [ %iv.next, %latch ]         ; %lb = load i32, ptr %lb.slot
//! %p0 = getelementptr inbounds double, ptr %x, i64 %iv.64  ; x[i-1]
//! store double %s, ptr (getelementptr inbounds double, ptr %y, i64 %i.64)
//! ; after (the original module)
//! @__ptxcc_access___omp_offloading_..._l5 = internal constant [N x i64] [i64 1, ...]
//! !ptxcc.remarks: "st.c:5:1: access ranges of kernel ...: argument 2: read [8*i, 8*i + 24);
//!                   argument 3: written [8*i + 8, 8*i + 16)"
//! ```
//!
//! Collapsed loops: clang recovers the indices from the one normalised iteration by divisions
//! and by subtractions (`r = it - (it / d) * d`, `j = r / l`, `k = r - j * l`); `it / d` is a
//! variable, such a subtraction is rewritten as the remainder `it % d`, and a quotient or
//! remainder of those is one more variable (table version 2), so a `collapse(3)` loop's range
//! is bounded by planes of its outer index.
//!
//! `int` arithmetic: clang computes C's `int` subscripts in 32 bits and passes `int` bounds in
//! 64 (masked, sign-extended by `ashr (shl x, 32), 32`, truncated back). A truncation is read
//! modulo 2^bits (its operand computed narrowed as it goes), a mask `arg & (2^k - 1)` as the
//! argument's low k bits zero-extended (table version 3), and every value held narrower than
//! 64 bits that may have wrapped (a truncation, an add/sub/mul/shl without nsw) becomes a
//! guard: its polynomial must stay in the signed range, which the runtime checks for each part,
//! making the table's accesses whole sections where one may not (`analyze/narrow.rs`).
//!
//! Nested regions: a `distribute` loop whose body is a `parallel for` region (OpenACC's gang
//! loop with an inner vector loop) passes the inner outlined function its captured variables
//! by reference; a load of one is what the caller stored before the call (when nothing else
//! can write the slot), and the inner worksharing loop's variable ranges over every iteration
//! its static-init was given (`analyze/captured.rs`).
//!
//! An access the analysis cannot express (a subscript that is not affine, an indirect
//! `a[idx[i]]`, a pointer handed to a function it cannot see) makes its argument "whole
//! section": correct, not minimal, and said in the remark.
pub mod analyze;
pub mod poly;
pub mod table;

use inkwell::module::{Linkage, Module};
use inkwell::values::AsValueRef;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::registry::DeviceUnit;

/// Prefix of the tables' names in the device module (the rest is the kernel's name).
pub const TABLE_PREFIX: &str = "__ptxcc_access_";

pub fn table_name(kernel: &str) -> String {
    format!("{TABLE_PREFIX}{kernel}")
}

/// Analyses every split kernel of `unit` (those split-range gave a split global) and adds its
/// table and remark. Returns the number of tables made.
pub fn access_ranges(unit: &mut DeviceUnit<'_>, arch: &str) -> Result<usize, Diagnostics> {
    let module = &unit.module;
    // Split kernels, and the offloaded `parallel for` loops split-range marked for their
    // pointers without an extent (no split global: the loop runs whole on one device).
    let split: Vec<String> = unit
        .kernels
        .iter()
        .map(|k| k.name.clone())
        .filter(|n| {
            module
                .get_global(&crate::split_range::global_name(n))
                .is_some()
                || module
                    .get_function(n)
                    .is_some_and(|f| marked_call(module, f).is_some())
        })
        .collect();
    if split.is_empty() {
        return Ok(0);
    }
    let fail = |m: String| {
        Diagnostics(vec![Diagnostic {
            loc: None,
            message: format!("internal error in access-ranges: {m}"),
        }])
    };
    let clone = module.clone();
    let tm = crate::nvptx_codegen::target_machine(arch).map_err(|e| fail(e.to_string()))?;
    clone
        .run_passes(
            // Without the fixpoint check: LLVM 19's `instcombine` aborts the process ("did not
            // reach a fixpoint after 1 iterations") on kernels one round does not settle (an
            // OpenACC parallel region of several loops); the analysis only needs it simplified.
            "sroa,instcombine<no-verify-fixpoint>",
            &tm,
            inkwell::passes::PassBuilderOptions::create(),
        )
        .map_err(|e| fail(e.to_string()))?;
    let td = unsafe { llvm_sys::target::LLVMGetModuleDataLayout(clone.as_mut_ptr()) };
    let mut count = 0;
    for name in split {
        let Some(kernel) = clone.get_function(&name) else {
            continue;
        };
        let table = match marked_call(&clone, kernel) {
            Some(marked) => analyze::Analysis::new(kernel.as_value_ref(), marked, td).run(),
            None => continue,
        };
        add_table(module, &name, &table);
        let loc = unit.locs.get(&name);
        crate::remarks::add(module, loc, &remark(&name, &table));
        count += 1;
    }
    Ok(count)
}

/// The static-init call split-range marked (for a split or for the access ranges alone) in a
/// function `kernel` reaches.
fn marked_call(
    module: &Module<'_>,
    kernel: inkwell::values::FunctionValue<'_>,
) -> Option<llvm_sys::prelude::LLVMValueRef> {
    let ctx = module.get_context();
    let split = ctx.get_kind_id(crate::split_range::SPLIT_MD);
    let ranges = ctx.get_kind_id(crate::split_range::RANGES_MD);
    let mut funcs = vec![kernel];
    let mut i = 0;
    while i < funcs.len() {
        for (call, _) in crate::ir::calls(funcs[i]) {
            if call.get_metadata(split).is_some() || call.get_metadata(ranges).is_some() {
                return Some(call.as_value_ref());
            }
            if let Some(g) = crate::ir::called_function(call) {
                if g.count_basic_blocks() > 0 && !funcs.contains(&g) {
                    funcs.push(g);
                }
            }
        }
        i += 1;
    }
    None
}

fn add_table(module: &Module<'_>, kernel: &str, table: &table::Table) {
    let ctx = module.get_context();
    let i64t = ctx.i64_type();
    let words: Vec<_> = table
        .encode()
        .into_iter()
        .map(|w| i64t.const_int(w as u64, true))
        .collect();
    let init = i64t.const_array(&words);
    let g = module.add_global(init.get_type(), None, &table_name(kernel));
    g.set_initializer(&init);
    g.set_constant(true);
    g.set_linkage(Linkage::Internal);
}

/// `access ranges of kernel K: argument 2: read [8*i, 8*i + 24); ...` (i: the loop's
/// normalised iteration, vN: inner loop variables, argN: scalar arguments).
pub fn remark(kernel: &str, table: &table::Table) -> String {
    let mut parts: Vec<String> = table.accesses.iter().map(|a| a.describe()).collect();
    if parts.is_empty() {
        parts.push("no argument is accessed".into());
    }
    let vars: Vec<String> = table
        .vars
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, v)| format!("v{i} = {}", table::describe_var(v)))
        .collect();
    let vars = if vars.is_empty() {
        String::new()
    } else {
        format!(" ({})", vars.join(", "))
    };
    // The guards (`analyze.rs`): the narrow values the ranges read as exact, which the runtime
    // checks for each part (whole sections where one may leave its range).
    let guards = match table.guards.len() {
        0 => String::new(),
        1 => "; 1 narrow integer value checked at run time".to_string(),
        n => format!("; {n} narrow integer values checked at run time"),
    };
    format!(
        "access ranges of kernel '{kernel}': {}{vars}{guards}",
        parts.join("; ")
    )
}

/// Takes the tables out of a device module (they are host data): kernel name → words.
pub fn take_tables(module: &Module<'_>) -> std::collections::HashMap<String, Vec<i64>> {
    let mut out = std::collections::HashMap::new();
    let globals: Vec<_> = module
        .get_globals()
        .filter(|g| {
            g.get_name()
                .to_str()
                .is_ok_and(|n| n.starts_with(TABLE_PREFIX))
        })
        .collect();
    for g in globals {
        let name = g.get_name().to_string_lossy().into_owned();
        let kernel = name[TABLE_PREFIX.len()..].to_string();
        if let Some(words) = read_table(g) {
            out.insert(kernel, words);
        }
        unsafe { g.delete() };
    }
    out
}

/// A table's words (see `take_tables`).
pub fn read_table(g: inkwell::values::GlobalValue<'_>) -> Option<Vec<i64>> {
    use llvm_sys::core as llvm;
    let init = g.get_initializer()?.as_value_ref();
    unsafe {
        let n = llvm::LLVMGetArrayLength2(llvm::LLVMTypeOf(init));
        let mut out = Vec::with_capacity(n as usize);
        for i in 0..n as u32 {
            let e = llvm::LLVMGetAggregateElement(init, i);
            out.push(crate::ir::const_int(e)?);
        }
        Some(out)
    }
}
