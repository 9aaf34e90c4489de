//! Math library: C math calls in device code → NVIDIA's libdevice or libclc, linked.
//!
//! Two implementations of C's math functions for nvptx64 can be linked in:
//!
//! - **libdevice** (`libdevice.10.bc`, CUDA's own, what nvcc and Clang's CUDA and OpenMP
//!   offloading link): each C function `f` is `__nv_f` with C's signature. It is the default
//!   where a CUDA installation has it ([`find_libdevice`]: `PTXCC_LIBDEVICE`, `$CUDA_HOME`,
//!   the CUDA wheels `scripts/setup.sh` installs in `.cuda-venv`, `/usr/local/cuda`). Its
//!   functions are about half the instructions of libclc's (ptxsim, `sin + cos + exp + log` of a
//!   double: 173 PTX instructions a thread against 356), with CUDA's documented error bounds.
//!   Its `__nvvm_reflect` queries are answered by LLVM's NVVMReflect pass, which the NVPTX
//!   target adds at the start of the `optimize` pipeline.
//! - **libclc** (`/usr/lib/clc/nvptx64--nvidiacl.bc`, Debian package libclc-19), OpenCL's
//!   overloaded builtins under Itanium-mangled names: the fallback without a CUDA installation,
//!   and what `-fptxcc-math-library=libclc` asks for.
//!
//! ```llvm
//! %y = call double @sin(double %x)  →  %y = call double @__nv_sin(double %x)   ; libdevice, internal
//!                                   →  %y = call double @_Z3sind(double %x)    ; libclc
//! %z = call float @powf(float %a, float %b)  →  @__nv_powf / @_Z3powff
//! ```
//!
//! For libclc, `frexp`, `modf` and `remquo` map to the overloads on generic pointers, `scalbn`
//! to `ldexp`. `lround`, `lrint` and their `ll`/`f` forms, which libclc lacks, are
//! `llvm.round`/`llvm.rint` and a conversion, inline, whichever library is linked.
//!
//! The emulator does not use this pass: SIMT-lowered code calls the host's libm.
use crate::ir;
use inkwell::module::Module;
use inkwell::types::{AnyTypeEnum, BasicMetadataTypeEnum};
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::prelude::LLVMValueRef;
use std::path::{Path, PathBuf};

/// Where Debian's libclc-19 installs the nvptx64 library; `PTXCC_LIBCLC` overrides it.
pub const DEFAULT_LIBCLC: &str = "/usr/lib/clc/nvptx64--nvidiacl.bc";

/// Which implementation of C's math functions device code gets (`-fptxcc-math-library=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MathLibrary {
    /// libdevice where [`find_libdevice`] finds it, else libclc.
    #[default]
    Auto,
    Libdevice,
    Libclc,
}

impl MathLibrary {
    /// The value of `-fptxcc-math-library=` (`auto`, `libdevice`, `libclc`).
    pub fn parse(value: &str) -> Option<MathLibrary> {
        match value {
            "auto" => Some(MathLibrary::Auto),
            "libdevice" => Some(MathLibrary::Libdevice),
            "libclc" => Some(MathLibrary::Libclc),
            _ => None,
        }
    }
}

/// The library a compilation links: its kind and file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Library {
    Libdevice(PathBuf),
    Libclc(PathBuf),
}

/// libdevice's file in a CUDA installation rooted at `root`.
fn libdevice_under(root: &Path) -> PathBuf {
    root.join("nvvm").join("libdevice").join("libdevice.10.bc")
}

/// CUDA's libdevice: `$PTXCC_LIBDEVICE` (an error when it names no file), else under
/// `$CUDA_HOME` or `$CUDA_PATH`, the CUDA wheels of this source tree (`.cuda-venv/cuda`, which
/// `scripts/setup.sh` installs), `/usr/local/cuda`, or Debian's `nvidia-cuda-toolkit`.
pub fn find_libdevice() -> Result<Option<PathBuf>, String> {
    if let Some(value) = std::env::var_os("PTXCC_LIBDEVICE").filter(|v| !v.is_empty()) {
        let path = PathBuf::from(value);
        return if path.is_file() {
            Ok(Some(path))
        } else {
            Err(format!(
                "PTXCC_LIBDEVICE names '{}', which does not exist",
                path.display()
            ))
        };
    }
    let mut candidates: Vec<PathBuf> = ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(|v| std::env::var_os(v).filter(|v| !v.is_empty()))
        .map(|root| libdevice_under(Path::new(&root)))
        .collect();
    candidates.push(libdevice_under(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(".cuda-venv")
            .join("cuda"),
    ));
    candidates.push(libdevice_under(Path::new("/usr/local/cuda")));
    candidates.push(PathBuf::from(
        "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc",
    ));
    Ok(candidates.into_iter().find(|p| p.is_file()))
}

/// The library `choice` links: an error when libdevice is asked for and not found.
pub fn resolve(choice: MathLibrary) -> Result<Library, String> {
    if choice == MathLibrary::Libclc {
        return Ok(Library::Libclc(libclc_path()));
    }
    match (choice, find_libdevice()?) {
        (_, Some(p)) => Ok(Library::Libdevice(p)),
        (MathLibrary::Libdevice, None) => Err("-fptxcc-math-library=libdevice: cannot find CUDA's libdevice.10.bc; install the CUDA tools (scripts/setup.sh does), set PTXCC_LIBDEVICE or CUDA_HOME, or use -fptxcc-math-library=libclc".into()),
        (_, None) => Ok(Library::Libclc(libclc_path())),
    }
}

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

/// Renames the math calls of `device` and links the functions of `lib` they need.
/// Returns the names of the C functions that were mapped.
pub fn link_math(device: &Module<'_>, lib: &Library) -> anyhow::Result<Vec<String>> {
    match lib {
        Library::Libdevice(path) => link_libdevice(device, path),
        Library::Libclc(path) => link_libclc(device, path),
    }
}

/// The C math functions `device` declares and calls, with the name of their implementation.
fn declared_math<'ctx>(
    device: &Module<'ctx>,
    implementation: impl Fn(&str, FunctionValue<'ctx>) -> Option<String>,
) -> Vec<(FunctionValue<'ctx>, String, String)> {
    device
        .get_functions()
        .filter(|f| f.count_basic_blocks() == 0)
        .filter_map(|f| {
            let name = ir::fn_name(f);
            let target = implementation(&name, f)?;
            Some((f, name, target))
        })
        .collect()
}

/// Points each declaration at its implementation in `lib` (same type), links `lib` in.
fn rename_and_link<'ctx>(
    device: &Module<'ctx>,
    lib: Module<'ctx>,
    renames: Vec<(FunctionValue<'ctx>, String, String)>,
    what: &str,
) -> anyhow::Result<Vec<String>> {
    ir::copy_target(device, &lib);
    let mut mapped = Vec::new();
    for (f, name, target) in renames {
        let Some(lib_fn) = lib.get_function(&target) else {
            continue;
        };
        if AnyTypeEnum::FunctionType(lib_fn.get_type()) != AnyTypeEnum::FunctionType(f.get_type()) {
            continue;
        }
        match device.get_function(&target) {
            Some(existing) => {
                f.replace_all_uses_with(existing);
                unsafe { f.delete() };
            }
            None => f.as_global_value().set_name(&target),
        }
        mapped.push(name);
    }
    device
        .link_in_module(lib)
        .map_err(|e| anyhow::anyhow!("cannot link {what}: {}", e.to_string()))?;
    Ok(mapped)
}

/// libdevice: `f` → `__nv_f` (`sinf` → `__nv_sinf`), its definitions internal so that what
/// nothing calls goes away, and device code's own functions of those names stay its own.
fn link_libdevice(device: &Module<'_>, path: &Path) -> anyhow::Result<Vec<String>> {
    lower_integer_rounding(device)?;
    fuse_sincos(device)?;
    let renames = declared_math(device, |name, _| {
        libclc_name_for(name).map(|_| format!("__nv_{name}"))
    });
    let fused = ["__nv_sincos", "__nv_sincosf"]
        .iter()
        .any(|n| device.get_function(n).is_some());
    if renames.is_empty() && !fused {
        return Ok(Vec::new());
    }
    let lib = read_bitcode(
        device,
        path,
        "libdevice",
        "set PTXCC_LIBDEVICE or use -fptxcc-math-library=libclc",
    )?;
    // Linked external, then internal: the declarations must resolve to the definitions first.
    let mapped = rename_and_link(device, lib, renames, "libdevice")?;
    let from_libdevice =
        |f: FunctionValue<'_>| f.count_basic_blocks() > 0 && ir::fn_name(f).starts_with("__nv_");
    for f in device.get_functions().filter(|f| from_libdevice(*f)) {
        f.set_linkage(inkwell::module::Linkage::Internal);
    }
    // Until none is left: a libdevice function may be used only by others nothing calls.
    let count = || {
        device
            .get_functions()
            .filter(|f| from_libdevice(*f))
            .count()
    };
    loop {
        let before = count();
        ir::delete_unused_functions(device, from_libdevice);
        if count() == before {
            break;
        }
    }
    Ok(mapped)
}

/// `sin(x)` and `cos(x)` of one `x` in one basic block → one `__nv_sincos(x, &s, &c)` where
/// the first of them was (`sinf`/`cosf` → `__nv_sincosf`): libdevice's sincos reduces the
/// argument once and evaluates both polynomials, where the two calls reduce it twice and read
/// the coefficient table twice (nvcc makes the same fusion). A Fourier term or a rotation
/// (`re = cos(phi); im = -sin(phi)`, RSBench's `calculate_sig_T`) is the usual case.
///
/// ```llvm
/// %c = call double @cos(double %phi)        %s.p = alloca double ; %c.p = alloca double  (entry)
/// %s = call double @sin(double %phi)   →    call void @__nv_sincos(double %phi, ptr %s.p, ptr %c.p)
///                                           %c = load double, ptr %c.p ; %s = load double, ptr %s.p
/// ```
fn fuse_sincos(device: &Module<'_>) -> anyhow::Result<()> {
    use std::collections::HashMap;
    let ctx = device.get_context();
    let b = ctx.create_builder();
    for f in device.get_functions() {
        let Some(entry) = f.get_first_basic_block() else {
            continue;
        };
        // (block, argument) → the calls of sin and of cos, in block order.
        let mut groups: HashMap<(LLVMValueRef, LLVMValueRef), [Vec<InstructionValue<'_>>; 2]> =
            HashMap::new();
        let mut order = Vec::new();
        // Each call's place in the function (ir::calls lists them in order).
        let mut place: HashMap<LLVMValueRef, usize> = HashMap::new();
        for (i, (call, name)) in ir::calls(f).into_iter().enumerate() {
            place.insert(call.as_value_ref(), i);
            let which = match name.as_str() {
                "sin" | "sinf" => 0,
                "cos" | "cosf" => 1,
                _ => continue,
            };
            let [x] = ir::call_args(call)[..] else {
                continue;
            };
            if !x.is_float_value() {
                continue;
            }
            let Some(bb) = call.get_parent() else {
                continue;
            };
            let key = (
                bb.as_mut_ptr() as LLVMValueRef,
                argument_key(x.as_value_ref()),
            );
            let g = groups.entry(key).or_insert_with(|| {
                order.push(key);
                Default::default()
            });
            g[which].push(call);
        }
        for key in order {
            let [sins, coss] = &groups[&key];
            let (Some(&first_sin), Some(&first_cos)) = (sins.first(), coss.first()) else {
                continue;
            };
            if !same_argument_throughout(sins, coss) {
                continue;
            }
            let first_call = if place[&first_sin.as_value_ref()] < place[&first_cos.as_value_ref()]
            {
                first_sin
            } else {
                first_cos
            };
            let x = ir::call_args(first_call)[0].into_float_value();
            let ty = x.get_type();
            let single = ty == ctx.f32_type();
            let name = if single {
                "__nv_sincosf"
            } else {
                "__nv_sincos"
            };
            let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
            let sincos = device.get_function(name).unwrap_or_else(|| {
                device.add_function(
                    name,
                    ctx.void_type()
                        .fn_type(&[ty.into(), ptr.into(), ptr.into()], false),
                    None,
                )
            });
            // The slots in the entry block, the call where the first of the two was.
            match entry.get_first_instruction() {
                Some(i) => b.position_before(&i),
                None => b.position_at_end(entry),
            }
            let s_slot = b.build_alloca(ty, "ptxcc.sin")?;
            let c_slot = b.build_alloca(ty, "ptxcc.cos")?;
            b.position_before(&first_call);
            b.build_call(sincos, &[x.into(), s_slot.into(), c_slot.into()], "")?;
            let s_val = b.build_load(ty, s_slot, "ptxcc.sin.v")?;
            let c_val = b.build_load(ty, c_slot, "ptxcc.cos.v")?;
            for (calls, v) in [(sins, s_val), (coss, c_val)] {
                for &call in calls {
                    ir::replace_and_erase(call, v.as_value_ref());
                }
            }
        }
    }
    Ok(())
}

/// What makes two sin/cos arguments the same value: the value itself, or for a (non-volatile)
/// load — clang's unoptimised code reloads `phi` from its stack slot for each call — the
/// address it reads ([`same_argument_throughout`] checks that nothing writes between).
fn argument_key(x: LLVMValueRef) -> LLVMValueRef {
    unsafe {
        let load = llvm_sys::core::LLVMIsALoadInst(x);
        if !load.is_null() && llvm_sys::core::LLVMGetVolatile(load) == 0 {
            llvm_sys::core::LLVMGetOperand(load, 0)
        } else {
            x
        }
    }
}

/// Whether the sin/cos calls of a group (one block) read the same value: their arguments are
/// one value, or loads of one address with no instruction that may write memory between the
/// first of those loads and the last call (the calls themselves apart: device code has no
/// errno); for a private stack slot (`ir::private_slot`), no store to it.
fn same_argument_throughout(sins: &[InstructionValue<'_>], coss: &[InstructionValue<'_>]) -> bool {
    use llvm_sys::core as llvm;
    let calls: Vec<LLVMValueRef> = sins.iter().chain(coss).map(|c| c.as_value_ref()).collect();
    let args: Vec<LLVMValueRef> = sins
        .iter()
        .chain(coss)
        .filter_map(|c| ir::call_args(*c).first().map(|a| a.as_value_ref()))
        .collect();
    if args.iter().all(|a| *a == args[0]) {
        return true;
    }
    unsafe {
        let Some(&first_call) = calls.first() else {
            return false;
        };
        let bb = llvm::LLVMGetInstructionParent(first_call);
        // Every load must be in the calls' block, the span from the first load or call to the
        // last call free of writes.
        if args.iter().any(|a| {
            llvm::LLVMIsALoadInst(*a).is_null() || llvm::LLVMGetInstructionParent(*a) != bb
        }) {
            return false;
        }
        // A stack slot nothing else can reach is written only by stores to it.
        let slot = argument_key(args[0]);
        let private = ir::private_slot(slot);
        let mut open = false;
        let mut remaining = calls.len();
        let mut inst = llvm::LLVMGetFirstInstruction(bb);
        while !inst.is_null() && remaining > 0 {
            let ours = calls.contains(&inst);
            if ours {
                remaining -= 1;
            }
            if args.contains(&inst) || ours {
                open = true;
            } else if open && private {
                if ir::is_store_to(inst, slot) {
                    return false;
                }
            } else if open {
                let writes = !llvm::LLVMIsAStoreInst(inst).is_null()
                    || !llvm::LLVMIsACallInst(inst).is_null()
                    || !llvm::LLVMIsAAtomicRMWInst(inst).is_null()
                    || !llvm::LLVMIsAAtomicCmpXchgInst(inst).is_null()
                    || !llvm::LLVMIsAFenceInst(inst).is_null();
                if writes {
                    return false;
                }
            }
            inst = llvm::LLVMGetNextInstruction(inst);
        }
        remaining == 0
    }
}

/// libclc: `f` → its OpenCL overload (`sin` → `_Z3sind`); libclc's functions are
/// linkonce_odr: what nothing calls goes away before optimisation.
fn link_libclc(device: &Module<'_>, libclc: &Path) -> anyhow::Result<Vec<String>> {
    lower_integer_rounding(device)?;
    let renames = declared_math(device, |name, f| mangle(libclc_name_for(name)?, f));
    if renames.is_empty() {
        return Ok(Vec::new());
    }
    let lib = read_bitcode(
        device,
        libclc,
        "libclc",
        "install the libclc-19 package or set PTXCC_LIBCLC",
    )?;
    rename_and_link(device, lib, renames, "libclc")
}

/// The bitcode library `what` at `path`, in `device`'s context; an error says `hint`.
fn read_bitcode<'ctx>(
    device: &Module<'ctx>,
    path: &Path,
    what: &str,
    hint: &str,
) -> anyhow::Result<Module<'ctx>> {
    Module::parse_bitcode_from_path(path, device.get_context()).map_err(|e| {
        anyhow::anyhow!(
            "cannot read {what} ({}): {}; {hint}",
            path.display(),
            e.to_string()
        )
    })
}
