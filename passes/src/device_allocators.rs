//! The OpenMP memory allocators in device code (5.2 §6.2, §18.13): the allocation routines, the
//! `allocate` directive and clause (clang's `__kmpc_alloc`), and user-defined allocators made by
//! `omp_init_allocator` or by `uses_allocators(a(traits))` on a target construct (clang's
//! `__kmpc_init_allocator` at the region's start). Every call becomes a call of ptxcc's device
//! helpers (passes/device-rt/alloc.c): every allocator takes device heap memory — what `malloc`
//! uses (the CUDA driver's heap on a GPU, the host's in the emulator), which OpenMP lets an
//! implementation give any memory space — and honours the alignment asked for and a user
//! allocator's alignment, pool_size and fallback traits. A header before each allocation tells
//! `omp_free`/`omp_realloc` where the block came from, whatever allocator they are given.
//!
//! ```llvm
//! %p = call ptr @omp_alloc(i64 %n, i64 1)                  →  %p = call ptr @__ptxcc_omp_alloc(i64 0, i64 %n, i64 1)
//! %r = call ptr @omp_aligned_alloc(i64 64, i64 %n, i64 %a) →  %r = call ptr @__ptxcc_omp_alloc(i64 64, i64 %n, i64 %a)
//! %q = call ptr @omp_calloc(i64 %k, i64 %n, i64 1)         →  %q = call ptr @__ptxcc_omp_calloc(i64 0, i64 %k, i64 %n, i64 1)
//! %x = call ptr @__kmpc_alloc(i32 %gtid, i64 4, ptr inttoptr (i64 7 to ptr))
//!                                                          →  %x = call ptr @__ptxcc_omp_alloc(i64 0, i64 4, i64 7)
//! call void @omp_free(ptr %p, i64 1)                       →  call void @__ptxcc_omp_free(ptr %p)
//! %a = call i64 @omp_init_allocator(i64 0, i32 1, ptr %t)  →  %a = call i64 @__ptxcc_omp_init_allocator(i64 0, i32 1, ptr %t)
//! %u = call ptr @__kmpc_init_allocator(i32 %gtid, ptr null, i32 2, ptr %t)
//!                                                          →  %h = call i64 @__ptxcc_omp_init_allocator(i64 0, i32 2, ptr %t)
//!                                                             %u = inttoptr i64 %h to ptr
//! ```
use crate::device_rt;
use crate::diagnostics::Diagnostic;
use crate::ir;
use crate::openmp;
use inkwell::builder::Builder;
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, BasicValueEnum, InstructionValue};

/// An argument of the helper: the routine's argument `i`, or a constant.
#[derive(Clone, Copy)]
enum Arg {
    At(u32),
    Const(u64),
}

/// The helper a routine becomes and the arguments it gets.
struct Routine {
    helper: &'static str,
    args: &'static [Arg],
}

fn routine(name: &str) -> Option<Routine> {
    use Arg::{At, Const};
    let (helper, args): (&'static str, &'static [Arg]) = match name {
        "omp_alloc" => ("__ptxcc_omp_alloc", &[Const(0), At(0), At(1)]),
        "__kmpc_alloc" => ("__ptxcc_omp_alloc", &[Const(0), At(1), At(2)]),
        "omp_aligned_alloc" => ("__ptxcc_omp_alloc", &[At(0), At(1), At(2)]),
        "__kmpc_aligned_alloc" => ("__ptxcc_omp_alloc", &[At(1), At(2), At(3)]),
        "omp_calloc" => ("__ptxcc_omp_calloc", &[Const(0), At(0), At(1), At(2)]),
        "omp_aligned_calloc" => ("__ptxcc_omp_calloc", &[At(0), At(1), At(2), At(3)]),
        "omp_realloc" => ("__ptxcc_omp_realloc", &[At(0), At(1), At(2), At(3)]),
        "omp_free" => ("__ptxcc_omp_free", &[At(0)]),
        "__kmpc_free" => ("__ptxcc_omp_free", &[At(1)]),
        "omp_init_allocator" => ("__ptxcc_omp_init_allocator", &[At(0), At(1), At(2)]),
        "__kmpc_init_allocator" => ("__ptxcc_omp_init_allocator", &[At(1), At(2), At(3)]),
        "omp_destroy_allocator" => ("__ptxcc_omp_destroy_allocator", &[At(0)]),
        "__kmpc_destroy_allocator" => ("__ptxcc_omp_destroy_allocator", &[At(1)]),
        _ => return None,
    };
    debug_assert!(helper.starts_with(device_rt::ALLOC_PREFIX));
    Some(Routine { helper, args })
}

/// Lowers every allocator routine call of the device module; returns how many, or the calls
/// that cannot be lowered.
pub fn lower_allocators(device: &inkwell::module::Module<'_>) -> Result<usize, Vec<Diagnostic>> {
    let b = device.get_context().create_builder();
    let mut count = 0;
    let mut diags = Vec::new();
    for f in device.get_functions() {
        if ir::fn_name(f).starts_with(device_rt::ALLOC_PREFIX) {
            continue;
        }
        for (call, name) in ir::calls(f) {
            let Some(r) = routine(&name) else { continue };
            match lower_call(device, &b, call, &name, &r) {
                Ok(()) => count += 1,
                Err(e) => diags.push(Diagnostic {
                    loc: openmp::debug_loc(call),
                    message: e.to_string(),
                }),
            }
        }
    }
    ir::delete_unused_functions(device, |f| {
        f.count_basic_blocks() == 0 && routine(&ir::fn_name(f)).is_some()
    });
    if diags.is_empty() {
        Ok(count)
    } else {
        Err(diags)
    }
}

/// Replaces `call` of routine `name` by the call of its helper.
fn lower_call<'ctx>(
    device: &inkwell::module::Module<'ctx>,
    b: &Builder<'ctx>,
    call: InstructionValue<'ctx>,
    name: &str,
    r: &Routine,
) -> anyhow::Result<()> {
    let helper = device_rt::helper(device, r.helper)?;
    let params = helper.get_type().get_param_types();
    if params.len() != r.args.len() {
        anyhow::bail!(
            "ptxcc's device helper {} takes {} arguments",
            r.helper,
            params.len()
        );
    }
    b.position_before(&call);
    let given = ir::call_args(call);
    let mut args: Vec<BasicMetadataValueEnum<'ctx>> = Vec::new();
    for (a, ty) in r.args.iter().zip(&params) {
        let v: BasicValueEnum<'ctx> = match *a {
            Arg::Const(c) => device.get_context().i64_type().const_int(c, false).into(),
            Arg::At(i) => *given
                .get(i as usize)
                .ok_or_else(|| anyhow::anyhow!("{name} without argument {i}"))?,
        };
        args.push(convert(b, v, *ty)?.into());
    }
    let m = b.build_call(helper, &args, "")?;
    if let Some(i) = m.try_as_basic_value().instruction() {
        i.set_debug_location(call.get_debug_location());
    }
    match (m.try_as_basic_value().basic(), call.get_type()) {
        (Some(v), t) if !t.is_void_type() => {
            let t = inkwell::types::BasicTypeEnum::try_from(t)
                .map_err(|()| anyhow::anyhow!("{name} returns a value of no basic type"))?;
            let v = convert(b, v, t.into())?;
            ir::replace_and_erase(call, v.as_value_ref());
        }
        _ => ir::erase(call),
    }
    Ok(())
}

/// `v` as a value of type `ty`: integers widened or narrowed, pointers and integers converted
/// into each other (clang passes allocator handles both ways).
fn convert<'ctx>(
    b: &Builder<'ctx>,
    v: BasicValueEnum<'ctx>,
    ty: inkwell::types::BasicMetadataTypeEnum<'ctx>,
) -> anyhow::Result<BasicValueEnum<'ctx>> {
    use inkwell::types::BasicMetadataTypeEnum as T;
    Ok(match (v, ty) {
        (BasicValueEnum::IntValue(i), T::IntType(t)) => {
            let (from, to) = (i.get_type().get_bit_width(), t.get_bit_width());
            if from < to {
                b.build_int_z_extend(i, t, "")?.into()
            } else if from > to {
                b.build_int_truncate(i, t, "")?.into()
            } else {
                i.into()
            }
        }
        (BasicValueEnum::PointerValue(p), T::IntType(t)) => b.build_ptr_to_int(p, t, "")?.into(),
        (BasicValueEnum::IntValue(i), T::PointerType(t)) => b.build_int_to_ptr(i, t, "")?.into(),
        (BasicValueEnum::PointerValue(p), T::PointerType(_)) => p.into(),
        _ => anyhow::bail!("an allocator routine's argument of an unexpected type"),
    })
}
