//! Stage 3: clang 19 compiles the (translated) preprocessed source for the host with OpenMP
//! offload, as LLVM IR. `-disable-llvm-passes` keeps the host-fallback outlined functions that the
//! passes extract from being inlined; line tables are always on so that the passes can name
//! file:line:col in their errors (they are stripped again without -g). The IR is bitcode, which
//! the passes read three times faster than text (stream_omp.c: 4 ms against 14), except under
//! -save-temps, which keeps it as text.
use super::Ctx;
use crate::exec::Cmd;
use crate::options::Stages;
use std::path::Path;

/// The offload flags shared by the host-IR and the syntax-only commands.
fn offload_args(ctx: &Ctx, cmd: &mut Cmd) {
    let o = ctx.opts;
    cmd.arg("-fopenmp")
        .arg(format!("--offload-arch={}", o.arch))
        .arg("--offload-host-only");
    if let Some(opt) = &o.opt_flag {
        cmd.arg(opt.clone());
    }
}

/// How clang writes the host IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Bitcode (`-c -emit-llvm`, `NAME.hostir.bc`): what the passes read fastest.
    Bitcode,
    /// IR text (`-S -emit-llvm`, `NAME.host.ll`): kept by -save-temps.
    Text,
}

impl Form {
    /// The file's suffix after the input's stem.
    pub fn suffix(self) -> &'static str {
        match self {
            Form::Bitcode => ".hostir.bc",
            Form::Text => ".host.ll",
        }
    }
}

/// `input` is preprocessed C; `language` is the user's `-x` for it when it is the user's file.
pub fn command(ctx: &Ctx, input: &Path, language: Option<&str>, out: &Path, form: Form) -> Cmd {
    let o = ctx.opts;
    let mut cmd = Cmd::frontend(&ctx.clang, "host IR (clang -emit-llvm)");
    offload_args(ctx, &mut cmd);
    if o.opt_level == 0 {
        // Without this clang marks every function optnone at -O0, and the device code would
        // never be optimised.
        cmd.args(["-Xclang", "-disable-O0-optnone"]);
    }
    cmd.args(["-Xclang", "-disable-llvm-passes"]);
    cmd.args(o.debug_flags.iter().cloned());
    if !o.debug_info {
        cmd.arg("-gline-tables-only");
    }
    cmd.args(o.forwarded_to(Stages::CC));
    cmd.arg(match form {
        Form::Bitcode => "-c",
        Form::Text => "-S",
    })
    .arg("-emit-llvm");
    super::input_arg(&mut cmd, input, language);
    cmd.arg("-o").path(out);
    cmd
}

/// `-fsyntax-only`: clang checks the program and writes nothing.
pub fn syntax_only_command(ctx: &Ctx, input: &Path, language: Option<&str>) -> Cmd {
    let mut cmd = Cmd::new(&ctx.clang, "syntax check (clang -fsyntax-only)");
    offload_args(ctx, &mut cmd);
    cmd.args(ctx.opts.forwarded_to(Stages::CC));
    cmd.arg("-fsyntax-only");
    super::input_arg(&mut cmd, input, language);
    cmd
}
