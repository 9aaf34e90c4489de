//! Math library: C math calls in device code → libclc's nvptx64 implementations.
//!
//! libclc (`/usr/lib/clc/nvptx64--nvidiacl.bc`, Debian package libclc-19) implements OpenCL's
//! overloaded math builtins under Itanium-mangled names. This pass renames each C math function
//! the device code calls to the overload with the same signature, links libclc in and drops what
//! is not used:
//!
//! ```llvm
//! %y = call double @sin(double %x)    →   %y = call double @_Z3sind(double %x)   ; + libclc body
//! %z = call float @powf(float %a, float %b)  →  %z = call float @_Z3powff(float %a, float %b)
//! ```
//!
//! `frexp`, `modf` and `remquo` map to the overloads on generic pointers, `scalbn` to `ldexp`;
//! `lround`, `lrint` and their `ll`/`f` forms, which libclc lacks, are `llvm.round`/`llvm.rint`
//! and a conversion, inline.
//!
//! The emulator does not use this pass: SIMT-lowered code calls the host's libm.
use crate::ir;
use inkwell::module::Module;
use inkwell::types::{AnyTypeEnum, BasicMetadataTypeEnum};
use inkwell::values::FunctionValue;
use std::path::{Path, PathBuf};

/// Where Debian's libclc-19 installs the nvptx64 library; `PTXCC_LIBCLC` overrides it.
pub const DEFAULT_LIBCLC: &str = "/usr/lib/clc/nvptx64--nvidiacl.bc";

/// C math functions of one, two or three floating-point arguments that libclc provides.
const FP_FUNCTIONS: &[&str] = &[
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "cbrt",
    "ceil",
    "cos",
    "cosh",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "exp10",
    "expm1",
    "fabs",
    "floor",
    "lgamma",
    "log",
    "log10",
    "log1p",
    "log2",
    "logb",
    "rint",
    "round",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "tgamma",
    "trunc",
    "atan2",
    "copysign",
    "fdim",
    "fmax",
    "fmin",
    "fmod",
    "hypot",
    "nextafter",
    "pow",
    "remainder",
    "fma",
    "ldexp",
    "ilogb",
    "nearbyint",
    "frexp",
    "modf",
    "remquo",
];

/// C functions that are another libclc function under another name.
const ALIASES: &[(&str, &str)] = &[("scalbn", "ldexp")];

/// C functions rounding to an integer, which this pass computes inline (libclc has none):
/// the name and whether it rounds as `rint` (the current mode) rather than `round` (halves away
/// from zero).
const INTEGER_ROUNDING: &[(&str, bool)] = &[
    ("lround", false),
    ("llround", false),
    ("lrint", true),
    ("llrint", true),
];

/// The libclc function implementing the C function `name` (`sinf` → `sin`, overloaded on
/// float), if there is one. Only the name is considered here; `mangle` checks the signature.
pub fn libclc_name_for(name: &str) -> Option<&'static str> {
    let matches = |f: &str| name == f || name.strip_suffix('f') == Some(f);
    FP_FUNCTIONS
        .iter()
        .find(|f| matches(f))
        .copied()
        .or_else(|| {
            ALIASES
                .iter()
                .find(|(c, _)| matches(c))
                .map(|(_, clc)| *clc)
        })
}

/// Whether device code may call the C math function `name` (through libclc or inline).
pub fn provides(name: &str) -> bool {
    libclc_name_for(name).is_some()
        || integer_rounding(name).is_some()
        || crate::complex_math::lowers(name)
}

/// For `lround`, `llroundf`, `lrint`, …: whether it rounds as `rint`.
fn integer_rounding(name: &str) -> Option<bool> {
    INTEGER_ROUNDING
        .iter()
        .find(|(f, _)| name == *f || name.strip_suffix('f') == Some(f))
        .map(|(_, rint)| *rint)
}

/// Itanium mangling of the OpenCL overload with `f`'s parameter types, or None when a parameter
/// is not float, double, int or the pointer of `frexp`, `modf` or `remquo` (an `int *` for
/// the exponent or quotient, a pointer to the argument's type for the integral part).
fn mangle(base: &str, f: FunctionValue<'_>) -> Option<String> {
    let mut s = format!("_Z{}{}", base.len(), base);
    let mut first = None;
    for p in f.get_type().get_param_types() {
        let code = match p {
            BasicMetadataTypeEnum::FloatType(t) if t == t.get_context().f64_type() => "d",
            BasicMetadataTypeEnum::FloatType(t) if t == t.get_context().f32_type() => "f",
            BasicMetadataTypeEnum::IntType(t) if t.get_bit_width() == 32 => "i",
            BasicMetadataTypeEnum::PointerType(_) => match base {
                "frexp" | "remquo" => "Pi",
                "modf" if first == Some("d") => "Pd",
                "modf" if first == Some("f") => "Pf",
                _ => return None,
            },
            _ => return None,
        };
        first.get_or_insert(code);
        s.push_str(code);
    }
    Some(s)
}

/// `lround(x)` → `fptosi(llvm.round(x))`, `lrint(x)` → `fptosi(llvm.rint(x))` (and the `ll`
/// and `f` forms), inline: libclc has no integer-valued rounding.
fn lower_integer_rounding(device: &Module<'_>) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            let Some(rint) = integer_rounding(&name) else {
                continue;
            };
            let Some(x) = ir::call_args(call)
                .first()
                .filter(|a| a.is_float_value())
                .map(|a| a.into_float_value())
            else {
                continue;
            };
            let inkwell::types::AnyTypeEnum::IntType(ret) = call.get_type() else {
                continue;
            };
            let intrinsic = if rint { "llvm.rint" } else { "llvm.round" };
            let round = inkwell::intrinsics::Intrinsic::find(intrinsic)
                .and_then(|i| i.get_declaration(device, &[x.get_type().into()]))
                .ok_or_else(|| anyhow::anyhow!("LLVM does not know {intrinsic}"))?;
            b.position_before(&call);
            let r = b
                .build_call(round, &[x.into()], "")?
                .try_as_basic_value()
                .basic()
                .ok_or_else(|| anyhow::anyhow!("{intrinsic} returns nothing"))?
                .into_float_value();
            let v = b.build_float_to_signed_int(r, ret, &name)?;
            ir::replace_and_erase(call, inkwell::values::AsValueRef::as_value_ref(&v));
        }
    }
    ir::delete_unused_functions(device, |f| {
        f.count_basic_blocks() == 0 && integer_rounding(&ir::fn_name(f)).is_some()
    });
    Ok(())
}

/// The libclc bitcode to link.
pub fn libclc_path() -> PathBuf {
    std::env::var_os("PTXCC_LIBCLC")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_LIBCLC))
}

/// Renames the math calls of `device` and links the libclc functions they need.
/// Returns the names of the C functions that were mapped.
pub fn link_math(device: &Module<'_>, libclc: &Path) -> anyhow::Result<Vec<String>> {
    lower_integer_rounding(device)?;
    let mut renames = Vec::new();
    for f in device.get_functions() {
        if f.count_basic_blocks() > 0 {
            continue;
        }
        let name = ir::fn_name(f);
        let Some(base) = libclc_name_for(&name) else {
            continue;
        };
        let Some(mangled) = mangle(base, f) else {
            continue;
        };
        renames.push((f, name, mangled));
    }
    if renames.is_empty() {
        return Ok(Vec::new());
    }
    let ctx = device.get_context();
    let lib = inkwell::module::Module::parse_bitcode_from_path(libclc, ctx).map_err(|e| {
        anyhow::anyhow!(
            "cannot read libclc ({}): {}; install the libclc-19 package or set PTXCC_LIBCLC",
            libclc.display(),
            e.to_string()
        )
    })?;
    ir::copy_target(device, &lib);
    let mut mapped = Vec::new();
    for (f, name, mangled) in renames {
        let Some(lib_fn) = lib.get_function(&mangled) else {
            continue;
        };
        if AnyTypeEnum::FunctionType(lib_fn.get_type()) != AnyTypeEnum::FunctionType(f.get_type()) {
            continue;
        }
        match device.get_function(&mangled) {
            Some(existing) => {
                f.replace_all_uses_with(existing);
                unsafe { f.delete() };
            }
            None => f.as_global_value().set_name(&mangled),
        }
        mapped.push(name);
    }
    device
        .link_in_module(lib)
        .map_err(|e| anyhow::anyhow!("cannot link libclc: {}", e.to_string()))?;
    // libclc's functions are linkonce_odr: what nothing calls goes away before optimisation.
    Ok(mapped)
}
