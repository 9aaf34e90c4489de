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
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh", "erf", "erfc", "exp", "exp2",
    "exp10", "expm1", "fabs", "floor", "lgamma", "log", "log10", "log1p", "log2", "logb", "rint", "round", "sin",
    "sinh", "sqrt", "tan", "tanh", "tgamma", "trunc", "atan2", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot",
    "nextafter", "pow", "remainder", "fma", "ldexp", "ilogb", "nearbyint",
];

/// The libclc symbol implementing the C function `name` (`sinf` → `_Z3sinf`), if there is one.
/// Only the name is considered here; `mangle` checks the signature.
pub fn libclc_name_for(name: &str) -> Option<&'static str> {
    FP_FUNCTIONS
        .iter()
        .find(|f| name == **f || name.strip_suffix('f') == Some(**f))
        .copied()
}

/// Itanium mangling of the OpenCL overload with `f`'s parameter types, or None when a parameter
/// is not float, double or int.
fn mangle(base: &str, f: FunctionValue<'_>) -> Option<String> {
    let mut s = format!("_Z{}{}", base.len(), base);
    for p in f.get_type().get_param_types() {
        s.push(match p {
            BasicMetadataTypeEnum::FloatType(t) if t == t.get_context().f64_type() => 'd',
            BasicMetadataTypeEnum::FloatType(t) if t == t.get_context().f32_type() => 'f',
            BasicMetadataTypeEnum::IntType(t) if t.get_bit_width() == 32 => 'i',
            _ => return None,
        });
    }
    Some(s)
}

/// The libclc bitcode to link.
pub fn libclc_path() -> PathBuf {
    std::env::var_os("PTXCC_LIBCLC").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(DEFAULT_LIBCLC))
}

/// Renames the math calls of `device` and links the libclc functions they need.
/// Returns the names of the C functions that were mapped.
pub fn link_math(device: &Module<'_>, libclc: &Path) -> anyhow::Result<Vec<String>> {
    let mut renames = Vec::new();
    for f in device.get_functions() {
        if f.count_basic_blocks() > 0 {
            continue;
        }
        let name = ir::fn_name(f);
        let Some(base) = libclc_name_for(&name) else { continue };
        let Some(mangled) = mangle(base, f) else { continue };
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
        let Some(lib_fn) = lib.get_function(&mangled) else { continue };
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
