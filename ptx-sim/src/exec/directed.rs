//! Floating-point arithmetic in a directed rounding mode (`add.rz.f32`, `fma.rm.f32`,
//! `sqrt.rp.f64`, …), as PTX defines it: the exact result rounded toward zero, down or up. CUDA's
//! libdevice uses these in `expf`, `powf`, `fmodf`, `lgamma`, `round` and others.
//!
//! The host's SSE unit computes them exactly: each operation runs in one inline-assembly block
//! that sets MXCSR's rounding control, executes the one instruction and restores MXCSR, so no
//! other floating-point code ever runs in the directed mode (LLVM could move its own
//! operations across a separate mode switch). IEEE 754's directed results, subnormals,
//! infinities and NaNs included, are the hardware's. `fma` needs the host's FMA3 extension.
//! On other hosts (or without FMA3 for `fma`), `supported` says no and the instruction is
//! refused when the PTX loads, as before this existed.

use crate::program::Round;

/// The operations with a directed form: binary `add`/`sub`/`mul`/`div`, `fma`, unary
/// `sqrt`/`rcp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectedOp {
    Add,
    Sub,
    Mul,
    Div,
    Fma,
    Sqrt,
    Rcp,
}

/// Whether this host computes `op` in a directed mode.
pub fn supported(op: DirectedOp) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        op != DirectedOp::Fma || std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = op;
        false
    }
}

/// MXCSR's rounding-control field (bits 13–14) for `round`.
#[cfg(target_arch = "x86_64")]
fn rounding_control(round: Round) -> u32 {
    let rc = match round {
        Round::Nearest => 0,
        Round::Down => 1,
        Round::Up => 2,
        Round::Zero => 3,
    };
    rc << 13
}

/// The current MXCSR with its rounding control set to `round`, and the current one.
#[cfg(target_arch = "x86_64")]
fn mxcsr(round: Round) -> (u32, u32) {
    let mut old = 0u32;
    // SAFETY: stores the 32-bit MXCSR into `old`.
    unsafe {
        std::arch::asm!("stmxcsr [{p}]", p = in(reg) &mut old as *mut u32, options(nostack));
    }
    ((old & !0x6000) | rounding_control(round), old)
}

/// One SSE instruction `$ins x, y` (`x` in and out) under `round`.
#[cfg(target_arch = "x86_64")]
macro_rules! sse2 {
    ($ins:literal, $round:expr, $x:expr, $y:expr) => {{
        let (new, old) = mxcsr($round);
        let mut x = $x;
        // SAFETY: loads MXCSR from `new`, runs one arithmetic instruction on registers, and
        // loads the saved MXCSR back; both words are live for the block.
        unsafe {
            std::arch::asm!(
                "ldmxcsr [{new}]",
                concat!($ins, " {x}, {y}"),
                "ldmxcsr [{old}]",
                new = in(reg) &new as *const u32,
                old = in(reg) &old as *const u32,
                x = inout(xmm_reg) x,
                y = in(xmm_reg) $y,
                options(nostack, readonly),
            );
        }
        x
    }};
}

/// `vfmadd213` `x = y * x + z` under `round` (FMA3).
#[cfg(target_arch = "x86_64")]
macro_rules! fma3 {
    ($ins:literal, $round:expr, $x:expr, $y:expr, $z:expr) => {{
        let (new, old) = mxcsr($round);
        let mut x = $x;
        // SAFETY: as `sse2`; the caller checked FMA3 (`supported`).
        unsafe {
            std::arch::asm!(
                "ldmxcsr [{new}]",
                concat!($ins, " {x}, {y}, {z}"),
                "ldmxcsr [{old}]",
                new = in(reg) &new as *const u32,
                old = in(reg) &old as *const u32,
                x = inout(xmm_reg) x,
                y = in(xmm_reg) $y,
                z = in(xmm_reg) $z,
                options(nostack, readonly),
            );
        }
        x
    }};
}

/// `op` on single-precision operands (`c` only for `fma`; `b` and `c` unused by `sqrt`/`rcp`),
/// rounded as `round`. Only where `supported(op)`.
#[cfg(target_arch = "x86_64")]
pub fn f32(op: DirectedOp, round: Round, a: f32, b: f32, c: f32) -> f32 {
    match op {
        DirectedOp::Add => sse2!("addss", round, a, b),
        DirectedOp::Sub => sse2!("subss", round, a, b),
        DirectedOp::Mul => sse2!("mulss", round, a, b),
        DirectedOp::Div => sse2!("divss", round, a, b),
        DirectedOp::Rcp => sse2!("divss", round, 1.0f32, a),
        DirectedOp::Sqrt => sse2!("sqrtss", round, a, a),
        DirectedOp::Fma => fma3!("vfmadd213ss", round, a, b, c),
    }
}

/// `op` on double-precision operands, as [`f32`].
#[cfg(target_arch = "x86_64")]
pub fn f64(op: DirectedOp, round: Round, a: f64, b: f64, c: f64) -> f64 {
    match op {
        DirectedOp::Add => sse2!("addsd", round, a, b),
        DirectedOp::Sub => sse2!("subsd", round, a, b),
        DirectedOp::Mul => sse2!("mulsd", round, a, b),
        DirectedOp::Div => sse2!("divsd", round, a, b),
        DirectedOp::Rcp => sse2!("divsd", round, 1.0f64, a),
        DirectedOp::Sqrt => sse2!("sqrtsd", round, a, a),
        DirectedOp::Fma => fma3!("vfmadd213sd", round, a, b, c),
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub fn f32(_: DirectedOp, _: Round, _: f32, _: f32, _: f32) -> f32 {
    unreachable!("directed rounding is refused at load time on this host")
}

#[cfg(not(target_arch = "x86_64"))]
pub fn f64(_: DirectedOp, _: Round, _: f64, _: f64, _: f64) -> f64 {
    unreachable!("directed rounding is refused at load time on this host")
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    #[test]
    fn directed_results_bracket_the_exact_one() {
        // 1 + 2^-30 is not a float: down and toward zero give 1, up the next float.
        let tiny = f32::from_bits(0x3080_0000); // 2^-30
        let up = f32::from_bits(1.0f32.to_bits() + 1);
        assert_eq!(f32(DirectedOp::Add, Round::Down, 1.0, tiny, 0.0), 1.0);
        assert_eq!(f32(DirectedOp::Add, Round::Zero, 1.0, tiny, 0.0), 1.0);
        assert_eq!(f32(DirectedOp::Add, Round::Up, 1.0, tiny, 0.0), up);
        assert_eq!(f32(DirectedOp::Add, Round::Nearest, 1.0, tiny, 0.0), 1.0);
        // Negative: down moves away from zero, toward zero does not.
        let down = -f32::from_bits(1.0f32.to_bits() + 1);
        assert_eq!(f32(DirectedOp::Sub, Round::Down, -1.0, tiny, 0.0), down);
        assert_eq!(f32(DirectedOp::Sub, Round::Zero, -1.0, tiny, 0.0), -1.0);
        // 1/3 in double: down and up are one ulp apart, nearest is one of them.
        let (lo, hi) = (
            f64(DirectedOp::Div, Round::Down, 1.0, 3.0, 0.0),
            f64(DirectedOp::Div, Round::Up, 1.0, 3.0, 0.0),
        );
        assert_eq!(hi.to_bits(), lo.to_bits() + 1);
        assert_eq!(f64(DirectedOp::Rcp, Round::Zero, 3.0, 0.0, 0.0), lo);
        // sqrt(2) likewise; an exact square root is the same in every mode.
        let (lo, hi) = (
            f64(DirectedOp::Sqrt, Round::Down, 2.0, 0.0, 0.0),
            f64(DirectedOp::Sqrt, Round::Up, 2.0, 0.0, 0.0),
        );
        assert_eq!(hi.to_bits(), lo.to_bits() + 1);
        assert_eq!(f32(DirectedOp::Sqrt, Round::Up, 16.0, 0.0, 0.0), 4.0);
        // Overflow: toward zero stops at the largest finite number, up goes to infinity.
        assert_eq!(
            f32(DirectedOp::Mul, Round::Zero, f32::MAX, 2.0, 0.0),
            f32::MAX
        );
        assert_eq!(
            f32(DirectedOp::Mul, Round::Up, f32::MAX, 2.0, 0.0),
            f32::INFINITY
        );
        // The mode is restored: plain arithmetic afterwards rounds to nearest.
        let third = std::hint::black_box(1.0f64) / std::hint::black_box(3.0f64);
        assert_eq!(third, 1.0 / 3.0);
    }

    #[test]
    fn fused_multiply_add_rounds_once() {
        if !supported(DirectedOp::Fma) {
            return;
        }
        // (1 + 2^-23)(1 - 2^-23) = 1 - 2^-46 exactly: down gives the float below 1, up gives 1.
        let e = f32::EPSILON;
        let below = f32::from_bits(1.0f32.to_bits() - 1);
        assert_eq!(
            f32(DirectedOp::Fma, Round::Down, 1.0 + e, 1.0 - e, 0.0),
            below
        );
        assert_eq!(f32(DirectedOp::Fma, Round::Up, 1.0 + e, 1.0 - e, 0.0), 1.0);
        assert_eq!(
            f32(DirectedOp::Fma, Round::Zero, 1.0 + e, 1.0 - e, 0.0),
            below
        );
        let e = f64::EPSILON;
        let below = f64::from_bits(1.0f64.to_bits() - 1);
        assert_eq!(
            f64(DirectedOp::Fma, Round::Down, 1.0 + e, 1.0 - e, 0.0),
            below
        );
        assert_eq!(f64(DirectedOp::Fma, Round::Up, 1.0 + e, 1.0 - e, 0.0), 1.0);
    }
}
