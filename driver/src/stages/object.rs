//! Stage 4: clang compiles the host bitcode the passes wrote to an object (or, for -S, to
//! assembly), optimising at the user's level. Also assembles `.s`/`.S` inputs.
use super::{Ctx, Output};
use crate::exec::Cmd;
use crate::options::Stages;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `-c`: an object file (bitcode with -emit-llvm).
    Object,
    /// `-S`: assembly (IR text with -emit-llvm).
    Assembly,
}

pub fn command(ctx: &Ctx, input: &Path, out: &Output, kind: Kind) -> Cmd {
    let o = ctx.opts;
    let stage = match kind {
        Kind::Object => "host object (clang -c)",
        Kind::Assembly => "host assembly (clang -S)",
    };
    let mut cmd = Cmd::new(&ctx.clang, stage);
    cmd.arg(match kind {
        Kind::Object => "-c",
        Kind::Assembly => "-S",
    });
    if o.emit_llvm {
        cmd.arg("-emit-llvm");
    }
    if let Some(opt) = &o.opt_flag {
        cmd.arg(opt.clone());
    }
    cmd.args(o.debug_flags.iter().cloned());
    cmd.args(o.forwarded_to(Stages::CG));
    // The compile flags the user gave (-Wall, -std=…) mean nothing for bitcode; don't warn.
    cmd.arg("-Wno-unused-command-line-argument");
    // The host bitcode has no line tables (unless -g), so the optimizer's "loop not vectorized"
    // failures would come out with no location, once per copy of a simd loop (the host
    // fallback and the emulator's code): only when asked for, then located.
    if !o.wants_optimization_remarks() {
        cmd.arg("-Wno-pass-failed");
    }
    cmd.path(input).arg("-o").arg(out.as_arg());
    cmd
}

/// An assembler input (`.s`, or `.S` through the preprocessor) to an object.
pub fn assemble_command(ctx: &Ctx, input: &Path, language: Option<&str>, out: &Path) -> Cmd {
    let o = ctx.opts;
    let mut cmd = Cmd::new(&ctx.clang, "assemble (clang -c)");
    cmd.arg("-c");
    cmd.args(o.forwarded_to(Stages::PP));
    cmd.args(o.debug_flags.iter().cloned());
    cmd.args(o.forwarded_to(Stages::CG));
    cmd.arg("-Wno-unused-command-line-argument");
    super::input_arg(&mut cmd, input, language);
    cmd.arg("-o").path(out);
    cmd
}
