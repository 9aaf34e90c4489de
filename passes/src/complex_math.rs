//! Complex math: C99 `<complex.h>` functions in device code → real arithmetic on the two parts
//! and real math calls (which `math_library` maps to libclc for the PTX; the emulator calls the
//! host's libm):
//!
//! ```llvm
//! %w = call { double, double } @cexp(double %x, double %y)
//!   →  %e = call double @exp(double %x) ; %c = call double @cos(double %y) ; %s = call double @sin(double %y)
//!      %w = { %e * %c, %e * %s }
//! %a = call float @cabsf(<2 x float> %z)  →  %a = call float @hypotf(float %z.re, float %z.im)
//! ```
//!
//! The host ABI passes a `double _Complex` as two doubles and returns it as `{ double, double }`,
//! a `float _Complex` as `<2 x float>`; the replacement takes and returns the same shapes. The
//! formulas are the textbook ones (CUDA's cuComplex does the same): `csqrt` takes the root of
//! the larger part first, `cpow(z, w)` is `cexp(w * clog(z))` as in glibc, `ctan`/`ctanh`
//! divide by `cos 2x + cosh 2y`; C99 Annex G's special cases for infinities and NaNs are not
//! reproduced.
use crate::ir;
use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::types::FloatType;
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, BasicValueEnum, FloatValue, InstructionValue,
};

/// The functions this pass lowers: name and number of complex arguments.
const FUNCTIONS: &[(&str, usize)] = &[
    ("cabs", 1),
    ("carg", 1),
    ("cexp", 1),
    ("clog", 1),
    ("csqrt", 1),
    ("csin", 1),
    ("ccos", 1),
    ("ctan", 1),
    ("csinh", 1),
    ("ccosh", 1),
    ("ctanh", 1),
    ("cpow", 2),
];

/// The function `name` is (without its `f` suffix) and its number of complex arguments.
fn function(name: &str) -> Option<(&'static str, usize)> {
    FUNCTIONS
        .iter()
        .find(|(f, _)| name == *f || name.strip_suffix('f') == Some(f))
        .copied()
}

/// Whether this pass lowers calls to `name`.
pub fn lowers(name: &str) -> bool {
    function(name).is_some()
}

/// A complex value as its two parts.
#[derive(Clone, Copy)]
struct Complex<'ctx> {
    re: FloatValue<'ctx>,
    im: FloatValue<'ctx>,
}

/// Builds real math at one call site, in the call's element type.
struct Real<'a, 'ctx> {
    m: &'a Module<'ctx>,
    b: &'a Builder<'ctx>,
    ty: FloatType<'ctx>,
    /// `"f"` for float, `""` for double: the suffix of the C math functions.
    suffix: &'static str,
}

impl<'ctx> Real<'_, 'ctx> {
    /// `name(args)` of the C math library, declared with the element type.
    fn libm(&self, name: &str, args: &[FloatValue<'ctx>]) -> anyhow::Result<FloatValue<'ctx>> {
        let full = format!("{name}{}", self.suffix);
        let f = self.m.get_function(&full).unwrap_or_else(|| {
            let params: Vec<_> = args.iter().map(|_| self.ty.into()).collect();
            self.m
                .add_function(&full, self.ty.fn_type(&params, false), None)
        });
        let args: Vec<BasicMetadataValueEnum<'ctx>> = args.iter().map(|a| (*a).into()).collect();
        Ok(self
            .b
            .build_call(f, &args, "")?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| anyhow::anyhow!("{full} returns nothing"))?
            .into_float_value())
    }

    /// An LLVM intrinsic on the element type.
    fn intrinsic(&self, name: &str, args: &[FloatValue<'ctx>]) -> anyhow::Result<FloatValue<'ctx>> {
        let f = inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(self.m, &[self.ty.into()]))
            .ok_or_else(|| anyhow::anyhow!("LLVM does not know {name}"))?;
        let args: Vec<BasicMetadataValueEnum<'ctx>> = args.iter().map(|a| (*a).into()).collect();
        Ok(self
            .b
            .build_call(f, &args, "")?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| anyhow::anyhow!("{name} returns nothing"))?
            .into_float_value())
    }

    fn c(&self, v: f64) -> FloatValue<'ctx> {
        self.ty.const_float(v)
    }
    fn add(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> anyhow::Result<FloatValue<'ctx>> {
        Ok(self.b.build_float_add(a, b, "")?)
    }
    fn sub(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> anyhow::Result<FloatValue<'ctx>> {
        Ok(self.b.build_float_sub(a, b, "")?)
    }
    fn mul(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> anyhow::Result<FloatValue<'ctx>> {
        Ok(self.b.build_float_mul(a, b, "")?)
    }
    fn div(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> anyhow::Result<FloatValue<'ctx>> {
        Ok(self.b.build_float_div(a, b, "")?)
    }

    fn exp(&self, z: Complex<'ctx>) -> anyhow::Result<Complex<'ctx>> {
        let e = self.libm("exp", &[z.re])?;
        Ok(Complex {
            re: self.mul(e, self.libm("cos", &[z.im])?)?,
            im: self.mul(e, self.libm("sin", &[z.im])?)?,
        })
    }

    fn log(&self, z: Complex<'ctx>) -> anyhow::Result<Complex<'ctx>> {
        let r = self.libm("hypot", &[z.re, z.im])?;
        Ok(Complex {
            re: self.libm("log", &[r])?,
            im: self.libm("atan2", &[z.im, z.re])?,
        })
    }

    /// t = sqrt((|x| + |z|) / 2); x >= 0: (t, y / 2t), else (|y| / 2t, copysign(t, y));
    /// z = 0: (0, y).
    fn sqrt(&self, z: Complex<'ctx>) -> anyhow::Result<Complex<'ctx>> {
        let ax = self.intrinsic("llvm.fabs", &[z.re])?;
        let t = self.libm(
            "sqrt",
            &[self.mul(
                self.add(ax, self.libm("hypot", &[z.re, z.im])?)?,
                self.c(0.5),
            )?],
        )?;
        let q = self.div(z.im, self.add(t, t)?)?;
        let aq = self.intrinsic("llvm.fabs", &[q])?;
        let st = self.intrinsic("llvm.copysign", &[t, z.im])?;
        let nonneg =
            self.b
                .build_float_compare(inkwell::FloatPredicate::OGE, z.re, self.c(0.0), "")?;
        let re = self.b.build_select(nonneg, t, aq, "")?.into_float_value();
        let im = self.b.build_select(nonneg, q, st, "")?.into_float_value();
        let zero = self.b.build_and(
            self.b
                .build_float_compare(inkwell::FloatPredicate::OEQ, z.re, self.c(0.0), "")?,
            self.b
                .build_float_compare(inkwell::FloatPredicate::OEQ, z.im, self.c(0.0), "")?,
            "",
        )?;
        Ok(Complex {
            re: self
                .b
                .build_select(zero, self.c(0.0), re, "")?
                .into_float_value(),
            im: self.b.build_select(zero, z.im, im, "")?.into_float_value(),
        })
    }

    /// sin, cos, sinh, cosh of the two parts, as the formulas below need them.
    fn parts(&self, z: Complex<'ctx>) -> anyhow::Result<[FloatValue<'ctx>; 4]> {
        Ok([
            self.libm("sin", &[z.re])?,
            self.libm("cos", &[z.re])?,
            self.libm("sinh", &[z.im])?,
            self.libm("cosh", &[z.im])?,
        ])
    }

    /// The function `base` of the complex arguments `z`: a complex result, or a real one
    /// (`cabs`, `carg`) as its real part.
    fn apply(&self, base: &str, z: &[Complex<'ctx>]) -> anyhow::Result<Complex<'ctx>> {
        let zero = self.c(0.0);
        let z0 = z[0];
        let (x, y) = (z0.re, z0.im);
        Ok(match base {
            "cabs" => Complex {
                re: self.libm("hypot", &[x, y])?,
                im: zero,
            },
            "carg" => Complex {
                re: self.libm("atan2", &[y, x])?,
                im: zero,
            },
            "cexp" => self.exp(z0)?,
            "clog" => self.log(z0)?,
            "csqrt" => self.sqrt(z0)?,
            // (sin x cosh y, cos x sinh y)
            "csin" => {
                let [s, c, sh, ch] = self.parts(z0)?;
                Complex {
                    re: self.mul(s, ch)?,
                    im: self.mul(c, sh)?,
                }
            }
            // (cos x cosh y, -sin x sinh y)
            "ccos" => {
                let [s, c, sh, ch] = self.parts(z0)?;
                Complex {
                    re: self.mul(c, ch)?,
                    im: self.b.build_float_neg(self.mul(s, sh)?, "")?,
                }
            }
            // csinh(z) = -i csin(iz): (sinh x cos y, cosh x sin y)
            "csinh" => {
                let [s, c, sh, ch] = self.parts(Complex { re: y, im: x })?;
                Complex {
                    re: self.mul(sh, c)?,
                    im: self.mul(ch, s)?,
                }
            }
            // ccosh(z) = ccos(iz): (cosh x cos y, sinh x sin y)
            "ccosh" => {
                let [s, c, sh, ch] = self.parts(Complex { re: y, im: x })?;
                Complex {
                    re: self.mul(ch, c)?,
                    im: self.mul(sh, s)?,
                }
            }
            // (sin 2x, sinh 2y) / (cos 2x + cosh 2y)
            "ctan" => {
                let (x2, y2) = (self.add(x, x)?, self.add(y, y)?);
                let d = self.add(self.libm("cos", &[x2])?, self.libm("cosh", &[y2])?)?;
                Complex {
                    re: self.div(self.libm("sin", &[x2])?, d)?,
                    im: self.div(self.libm("sinh", &[y2])?, d)?,
                }
            }
            // (sinh 2x, sin 2y) / (cosh 2x + cos 2y)
            "ctanh" => {
                let (x2, y2) = (self.add(x, x)?, self.add(y, y)?);
                let d = self.add(self.libm("cosh", &[x2])?, self.libm("cos", &[y2])?)?;
                Complex {
                    re: self.div(self.libm("sinh", &[x2])?, d)?,
                    im: self.div(self.libm("sin", &[y2])?, d)?,
                }
            }
            // cexp(w * clog(z))
            "cpow" => {
                let l = self.log(z0)?;
                let w = z[1];
                let re = self.sub(self.mul(w.re, l.re)?, self.mul(w.im, l.im)?)?;
                let im = self.add(self.mul(w.re, l.im)?, self.mul(w.im, l.re)?)?;
                self.exp(Complex { re, im })?
            }
            other => anyhow::bail!("no formula for {other}"),
        })
    }
}

/// The call's arguments as complex values: pairs of scalars or `<2 x T>` vectors.
fn complex_args<'ctx>(
    m: &Module<'ctx>,
    b: &Builder<'ctx>,
    call: InstructionValue<'ctx>,
) -> anyhow::Result<Vec<Complex<'ctx>>> {
    let mut parts = Vec::new();
    let i32t = m.get_context().i32_type();
    for a in ir::call_args(call) {
        match a {
            BasicValueEnum::FloatValue(f) => parts.push(f),
            BasicValueEnum::VectorValue(v) if v.get_type().get_size() == 2 => {
                for i in 0..2 {
                    let e = b.build_extract_element(v, i32t.const_int(i, false), "")?;
                    if !e.is_float_value() {
                        anyhow::bail!("complex argument of a non-floating type");
                    }
                    parts.push(e.into_float_value());
                }
            }
            _ => anyhow::bail!("unexpected complex argument shape"),
        }
    }
    if parts.len() % 2 != 0 {
        anyhow::bail!("odd number of complex parts");
    }
    Ok(parts
        .chunks(2)
        .map(|p| Complex { re: p[0], im: p[1] })
        .collect())
}

/// `v` shaped like the call's result: a scalar (its real part), `{ T, T }` or `<2 x T>`.
fn result_like(
    b: &Builder<'_>,
    call: InstructionValue<'_>,
    v: Complex<'_>,
) -> anyhow::Result<llvm_sys::prelude::LLVMValueRef> {
    use llvm_sys::core::*;
    let ret_ty = unsafe { LLVMTypeOf(call.as_value_ref()) };
    unsafe {
        Ok(match LLVMGetTypeKind(ret_ty) {
            llvm_sys::LLVMTypeKind::LLVMFloatTypeKind
            | llvm_sys::LLVMTypeKind::LLVMDoubleTypeKind => v.re.as_value_ref(),
            llvm_sys::LLVMTypeKind::LLVMVectorTypeKind => {
                let i32t = LLVMInt32TypeInContext(LLVMGetTypeContext(ret_ty));
                let mut r = LLVMGetPoison(ret_ty);
                r = LLVMBuildInsertElement(
                    b.as_mut_ptr(),
                    r,
                    v.re.as_value_ref(),
                    LLVMConstInt(i32t, 0, 0),
                    c"".as_ptr(),
                );
                LLVMBuildInsertElement(
                    b.as_mut_ptr(),
                    r,
                    v.im.as_value_ref(),
                    LLVMConstInt(i32t, 1, 0),
                    c"".as_ptr(),
                )
            }
            llvm_sys::LLVMTypeKind::LLVMStructTypeKind => {
                let mut r = LLVMGetPoison(ret_ty);
                r = LLVMBuildInsertValue(b.as_mut_ptr(), r, v.re.as_value_ref(), 0, c"".as_ptr());
                LLVMBuildInsertValue(b.as_mut_ptr(), r, v.im.as_value_ref(), 1, c"".as_ptr())
            }
            _ => anyhow::bail!("unexpected complex result shape"),
        })
    }
}

/// Lowers every call of a `<complex.h>` function this pass knows. Returns how many were lowered.
pub fn lower_complex_math(device: &Module<'_>) -> anyhow::Result<usize> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    let mut count = 0;
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            let Some((base, arity)) = function(&name) else {
                continue;
            };
            if ir::called_function(call).is_some_and(|g| g.count_basic_blocks() > 0) {
                continue; // the program's own function of that name
            }
            b.position_before(&call);
            let z = complex_args(device, &b, call)?;
            if z.len() != arity {
                anyhow::bail!("{name} called with {} complex arguments", z.len());
            }
            let ty = z[0].re.get_type();
            let (double, float) = (ctx.f64_type(), ctx.f32_type());
            let suffix = if ty == double {
                ""
            } else if ty == float {
                "f"
            } else {
                continue; // long double: left for device_check to report
            };
            let real = Real {
                m: device,
                b: &b,
                ty,
                suffix,
            };
            let v = real.apply(base, &z)?;
            let r = result_like(&b, call, v)?;
            ir::replace_and_erase(call, r);
            count += 1;
        }
    }
    ir::delete_unused_functions(device, |f| {
        f.count_basic_blocks() == 0 && lowers(&ir::fn_name(f))
    });
    Ok(count)
}
