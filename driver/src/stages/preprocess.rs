//! Stage 1: `clang -E` with the user's preprocessor flags, OpenMP on, `_OPENACC` defined under
//! -fopenacc. Line markers are kept: they carry file:line to every later diagnostic.
use super::Ctx;
use crate::exec::Cmd;
use crate::options::Stages;
use std::path::Path;

/// The value `_OPENACC` has under -fopenacc: OpenACC 2.7 (November 2018).
pub const OPENACC_VERSION: &str = "201811";

/// The flags every preprocessing gets, before the inputs.
pub fn common_args(ctx: &Ctx, cmd: &mut Cmd) {
    cmd.arg("-E").arg("-fopenmp");
    if let Some(dir) = &ctx.include_dir {
        cmd.arg("-isystem").path(dir);
    }
    if ctx.opts.openacc {
        cmd.arg(format!("-D_OPENACC={OPENACC_VERSION}"));
    }
    if let Some(opt) = &ctx.opts.opt_flag {
        cmd.arg(opt.clone());
    }
    cmd.args(ctx.opts.forwarded_to(Stages::PP));
}

/// Preprocesses one input into `out` on the way to compiling it. `dep` is the dependency file
/// and target to write when the user asked for -MD/-MMD.
pub fn command(
    ctx: &Ctx,
    input: &Path,
    language: Option<&str>,
    out: &Path,
    dep: Option<(&Path, &str)>,
) -> Cmd {
    let mut cmd = Cmd::frontend(&ctx.clang, "preprocess (clang -E)");
    common_args(ctx, &mut cmd);
    if ctx.opts.openacc
        || std::fs::read(input).is_ok_and(|t| {
            crate::layout_directive::mentions_directive(&String::from_utf8_lossy(&t))
        })
    {
        // The front end expands the macros used inside `#pragma acc` (which clang leaves alone)
        // from the #define lines -dD keeps, and blanks those lines; so does the trans directive
        // (crate::layout_directive) for `#pragma ptxcc trans`.
        cmd.arg("-dD");
    }
    if let Some(flag) = &ctx.opts.dep.flag {
        cmd.arg(flag.clone());
        if let Some((file, target)) = dep {
            if !ctx.opts.dep.named {
                cmd.arg("-MF").path(file);
            }
            if !ctx.opts.dep.target_named {
                cmd.arg("-MT").arg(target);
            }
        }
    }
    super::input_arg(&mut cmd, input, language);
    cmd.arg("-o").path(out);
    cmd
}

/// `-E` as the result: every source in one clang run, to `-o` or standard output, with the
/// flags that shape the output (`-P`, `-dM`…) and dependency flags as the user gave them.
pub fn output_command(ctx: &Ctx, inputs: &[(&Path, Option<&str>)], output: Option<&str>) -> Cmd {
    let mut cmd = Cmd::new(&ctx.clang, "preprocess (clang -E)");
    common_args(ctx, &mut cmd);
    cmd.args(ctx.opts.forwarded_to(Stages::PP_OUTPUT));
    if let Some(flag) = &ctx.opts.dep.flag {
        cmd.arg(flag.clone());
    }
    for (input, language) in inputs {
        super::input_arg(&mut cmd, input, *language);
    }
    if let Some(out) = output {
        cmd.arg("-o").arg(out);
    }
    cmd
}
