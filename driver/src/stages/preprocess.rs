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
pub fn command(ctx: &Ctx, input: &Path, language: Option<&str>, out: &Path, dep: Option<(&Path, &str)>) -> Cmd {
    let mut cmd = Cmd::new(&ctx.clang);
    common_args(ctx, &mut cmd);
    if ctx.opts.openacc {
        // The front end expands the macros used inside `#pragma acc` (which clang leaves alone)
        // from the #define lines -dD keeps, and blanks those lines.
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
    let mut cmd = Cmd::new(&ctx.clang);
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

/// Marks every explicit `schedule(static)` of an OpenMP directive as `schedule(monotonic: static)`.
///
/// Without a schedule clause, ptxcc deals a worksharing loop's iterations to the threads of a
/// block cyclically, so that adjacent threads touch adjacent elements (what clang's own GPU
/// code generation does too); an explicit `schedule(static)` asks for one contiguous block per
/// thread. Clang's IR is the same for both, so the explicit form is told apart here, by the
/// modifier that static schedules have anyway (OpenMP 5.2, 11.5.3: static is monotonic).
/// Returns None when nothing changed.
pub fn mark_explicit_static_schedules(text: &str) -> Option<String> {
    let mut changed = false;
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let is_omp = trimmed
            .strip_prefix('#')
            .map(|r| r.trim_start())
            .and_then(|r| r.strip_prefix("pragma"))
            .map(|r| r.trim_start().starts_with("omp"))
            .unwrap_or(false);
        if is_omp {
            if let Some(new) = mark_line(line) {
                out.push_str(&new);
                changed = true;
                continue;
            }
        }
        out.push_str(line);
    }
    changed.then_some(out)
}

/// `schedule ( static )` (any spacing) → `schedule(monotonic: static)` in one directive line.
fn mark_line(line: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = line;
    let mut changed = false;
    while let Some(pos) = rest.find("schedule") {
        let (before, after) = rest.split_at(pos);
        out.push_str(before);
        let tail = &after["schedule".len()..];
        let boundary = before.chars().last().map(|c| !(c.is_alphanumeric() || c == '_')).unwrap_or(true);
        let t = tail.trim_start();
        let arg = t.strip_prefix('(').map(|a| a.trim_start());
        match arg.and_then(|a| a.strip_prefix("static")).map(|a| a.trim_start()) {
            Some(close) if boundary && close.starts_with(')') => {
                out.push_str("schedule(monotonic: static)");
                rest = &close[1..];
                changed = true;
            }
            _ => {
                out.push_str("schedule");
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::mark_explicit_static_schedules as mark;

    #[test]
    fn explicit_static_gets_the_monotonic_modifier() {
        let src = "#pragma omp target teams distribute parallel for schedule(static) map(to: x)\nint schedule(static);\n";
        assert_eq!(
            mark(src).as_deref(),
            Some("#pragma omp target teams distribute parallel for schedule(monotonic: static) map(to: x)\nint schedule(static);\n")
        );
        assert_eq!(mark("  # pragma omp for schedule ( static )\n").as_deref(), Some("  # pragma omp for schedule(monotonic: static)\n"));
    }

    #[test]
    fn other_schedules_and_code_stay() {
        assert_eq!(mark("#pragma omp for schedule(static, 4)\n"), None);
        assert_eq!(mark("#pragma omp for schedule(dynamic)\n"), None);
        assert_eq!(mark("#pragma omp for dist_schedule(static)\n"), None);
        assert_eq!(mark("#pragma acc loop\nx = schedule(static);\n"), None);
    }
}
