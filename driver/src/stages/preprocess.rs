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
    let mut cmd = Cmd::new(&ctx.clang, "preprocess (clang -E)");
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
        let boundary = before
            .chars()
            .last()
            .map(|c| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(true);
        let t = tail.trim_start();
        let arg = t.strip_prefix('(').map(|a| a.trim_start());
        match arg
            .and_then(|a| a.strip_prefix("static"))
            .map(|a| a.trim_start())
        {
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

/// The (file, line) of every OpenMP directive in preprocessed `text` with an explicit
/// `dist_schedule(static)` (no chunk), as clang's location strings will name them: the file
/// and line from the text's line markers.
///
/// OpenMP gives each team one contiguous part of such a `distribute` loop. Without the clause
/// the division is the implementation's, and ptxcc fuses `distribute parallel for` into one
/// grid-stride loop over every thread of the grid; clang's IR is the same for both, so the
/// passes are told where the clause was (see `ptxcc_passes::loop_mapping::EXPLICIT_DIST_SCHEDULE`).
pub fn explicit_dist_schedules(text: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    let (mut file, mut line) = (String::new(), 1u32);
    for l in text.lines() {
        let directive = l.trim_start().strip_prefix('#').map(str::trim_start);
        if let Some((n, f)) = directive.and_then(line_marker) {
            (file, line) = (f, n);
            continue;
        }
        let is_omp = directive
            .and_then(|d| d.strip_prefix("pragma"))
            .is_some_and(|r| r.trim_start().starts_with("omp"));
        if is_omp && has_unchunked_dist_schedule(l) {
            out.push((file.clone(), line));
        }
        line += 1;
    }
    out
}

/// `N "file" flags` or `line N "file"` (after the `#`): the next line's number and file.
fn line_marker(rest: &str) -> Option<(u32, String)> {
    let rest = rest
        .strip_prefix("line")
        .map(str::trim_start)
        .unwrap_or(rest);
    let (n, after) = rest.split_once(char::is_whitespace)?;
    let n: u32 = n.parse().ok()?;
    let name = after.trim_start().strip_prefix('"')?;
    // The name as clang escapes it: \ and " inside.
    let mut file = String::new();
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some((n, file)),
            '\\' => file.push(chars.next()?),
            c => file.push(c),
        }
    }
    None
}

/// Whether a directive line has `dist_schedule(static)` without a chunk size.
fn has_unchunked_dist_schedule(line: &str) -> bool {
    let mut rest = line;
    while let Some(pos) = rest.find("dist_schedule") {
        let before = &rest[..pos];
        let boundary = before
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        rest = &rest[pos + "dist_schedule".len()..];
        let arg = rest
            .trim_start()
            .strip_prefix('(')
            .map(str::trim_start)
            .and_then(|a| a.strip_prefix("static"))
            .map(str::trim_start);
        if boundary && arg.is_some_and(|a| a.starts_with(')')) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::mark_explicit_static_schedules as mark;

    #[test]
    fn explicit_dist_schedules_are_located_by_the_line_markers() {
        let text = "# 1 \"t.c\"\nint x;\n# 5 \"dir/t.c\" 2\nvoid f(void) {\n#pragma omp target teams distribute parallel for dist_schedule( static )\n\
                    #pragma omp distribute dist_schedule(static, 4)\n#pragma omp distribute parallel for\n#pragma omp for my_dist_schedule(static)\n\
                    #line 40 \"a \\\"q\\\".c\"\n  #pragma omp distribute dist_schedule(static)\n";
        assert_eq!(
            super::explicit_dist_schedules(text),
            vec![("dir/t.c".to_string(), 6), ("a \"q\".c".to_string(), 40)]
        );
    }

    #[test]
    fn explicit_static_gets_the_monotonic_modifier() {
        let src = "#pragma omp target teams distribute parallel for schedule(static) map(to: x)\nint schedule(static);\n";
        assert_eq!(
            mark(src).as_deref(),
            Some("#pragma omp target teams distribute parallel for schedule(monotonic: static) map(to: x)\nint schedule(static);\n")
        );
        assert_eq!(
            mark("  # pragma omp for schedule ( static )\n").as_deref(),
            Some("  # pragma omp for schedule(monotonic: static)\n")
        );
    }

    #[test]
    fn other_schedules_and_code_stay() {
        assert_eq!(mark("#pragma omp for schedule(static, 4)\n"), None);
        assert_eq!(mark("#pragma omp for schedule(dynamic)\n"), None);
        assert_eq!(mark("#pragma omp for dist_schedule(static)\n"), None);
        assert_eq!(mark("#pragma acc loop\nx = schedule(static);\n"), None);
    }
}
