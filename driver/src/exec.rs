//! Running the tools: each stage builds a [`Cmd`]; [`Runner`] prints it under `-v`/`-###`, runs it
//! (unless `-###`) and turns a failure into [`Error::Tool`] with the tool's own status.
use crate::cmdline::quote;
use crate::error::{Error, Result};
use ptxcc_passes::time_report::{self, Group};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cmd {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// What it does, as -fptxcc-time-report names it (`host object (clang -c)`).
    pub stage: &'static str,
    /// A clang front-end command (preprocessing, host IR), which may run in ptxcc's process
    /// ([`crate::clang_in_process`]).
    pub frontend: bool,
}

impl Cmd {
    pub fn new(program: &Path, stage: &'static str) -> Cmd {
        Cmd {
            program: program.to_path_buf(),
            args: Vec::new(),
            stage,
            frontend: false,
        }
    }

    /// A command of clang's front end (`-E`, `-c -emit-llvm`, `-fsyntax-only`), which runs in
    /// ptxcc's process where it can ([`crate::clang_in_process`]).
    pub fn frontend(program: &Path, stage: &'static str) -> Cmd {
        Cmd {
            frontend: true,
            ..Cmd::new(program, stage)
        }
    }

    pub fn arg(&mut self, a: impl Into<String>) -> &mut Cmd {
        self.args.push(a.into());
        self
    }

    pub fn path(&mut self, p: &Path) -> &mut Cmd {
        self.args.push(p.to_string_lossy().into_owned());
        self
    }

    pub fn args<I, S>(&mut self, items: I) -> &mut Cmd
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(items.into_iter().map(Into::into));
        self
    }

    /// The line `-v` and `-###` print: every word quoted, as clang prints its jobs.
    pub fn display(&self) -> String {
        let mut s = format!(" {}", quote(&self.program.to_string_lossy()));
        for a in &self.args {
            s.push(' ');
            s.push_str(&quote(a));
        }
        s
    }
}

/// Runs (or, under `-###`, only shows) the stages.
#[derive(Clone, Copy, Debug)]
pub struct Runner {
    pub verbose: bool,
    pub dry_run: bool,
}

impl Runner {
    /// Whether commands are printed.
    pub fn shows(&self) -> bool {
        self.verbose || self.dry_run
    }

    /// Runs `cmd` with inherited stdio; a non-zero status becomes `Error::Tool(status)`.
    pub fn run(&self, cmd: &Cmd) -> Result<()> {
        if self.shows() {
            eprintln!("{}", cmd.display());
        }
        if self.dry_run {
            return Ok(());
        }
        if cmd.frontend
            && !self.verbose
            && crate::clang_in_process::applies(&cmd.program, &cmd.args)
        {
            // `preprocess (clang -E)` → `preprocess (clang -E, in process)`
            let stage = match cmd.stage.strip_suffix(')') {
                Some(s) => format!("{s}, in process)"),
                None => format!("{} (in process)", cmd.stage),
            };
            let _time = time_report::start(Group::Driver, stage);
            match crate::clang_in_process::run(&cmd.program, &cmd.args) {
                crate::clang_in_process::Ran::Status(0) => return Ok(()),
                crate::clang_in_process::Ran::Status(code) => return Err(Error::Tool(code)),
                crate::clang_in_process::Ran::NotHere => {}
            }
        }
        let _time = time_report::start(Group::Driver, cmd.stage);
        let status = Command::new(&cmd.program)
            .args(&cmd.args)
            .status()
            .map_err(|e| Error::usage(format!("cannot run '{}': {e}", cmd.program.display())))?;
        status_result(cmd, status)
    }

    /// Runs `cmd` as `run` does, but with its standard error captured and written to ours through
    /// `rewrite` once it has ended (clang's diagnostics on text ptxcc generated, diag_relay.rs).
    pub fn run_rewriting_stderr(&self, cmd: &Cmd, rewrite: &dyn Fn(&str) -> String) -> Result<()> {
        use std::io::{Read, Write};
        if self.shows() {
            eprintln!("{}", cmd.display());
        }
        if self.dry_run {
            return Ok(());
        }
        let _time = time_report::start(Group::Driver, cmd.stage);
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| Error::usage(format!("cannot run '{}': {e}", cmd.program.display())))?;
        // Only standard error is a pipe: reading it to the end cannot block the child.
        let mut bytes = Vec::new();
        if let Some(mut err) = child.stderr.take() {
            let _ = err.read_to_end(&mut bytes);
        }
        let status = child
            .wait()
            .map_err(|e| Error::usage(format!("cannot run '{}': {e}", cmd.program.display())))?;
        if !bytes.is_empty() {
            let text = String::from_utf8_lossy(&bytes);
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(rewrite(&text).as_bytes());
            let _ = err.flush();
        }
        status_result(cmd, status)
    }

    /// Announces a stage ptxcc runs in its own process (the directive front end, the passes).
    pub fn note_in_process(&self, what: &str) {
        if self.shows() {
            eprintln!("ptxcc: {what} (in process)");
        }
    }
}

/// A tool's exit status as ptxcc's result: its own status, or the signal that ended it.
fn status_result(cmd: &Cmd, status: std::process::ExitStatus) -> Result<()> {
    if status.success() {
        return Ok(());
    }
    match status.code() {
        Some(code) => Err(Error::Tool(code)),
        None => {
            use std::os::unix::process::ExitStatusExt;
            let sig = status.signal().unwrap_or(0);
            Err(Error::usage(format!(
                "{} terminated by signal {sig}",
                tool_name(&cmd.program)
            )))
        }
    }
}

fn tool_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_quotes_every_word() {
        let mut c = Cmd::new(Path::new("/usr/bin/clang-19"), "test");
        c.arg("-E").arg("-DX=a b").path(Path::new("x.c"));
        assert_eq!(
            c.display(),
            " \"/usr/bin/clang-19\" \"-E\" \"-DX=a b\" \"x.c\""
        );
    }

    #[test]
    fn status_passes_through() {
        let r = Runner {
            verbose: false,
            dry_run: false,
        };
        let mut c = Cmd::new(Path::new("sh"), "test");
        c.args(["-c", "exit 3"]);
        assert!(matches!(r.run(&c), Err(Error::Tool(3))));
        let mut ok = Cmd::new(Path::new("true"), "test");
        ok.args(Vec::<String>::new());
        assert!(r.run(&ok).is_ok());
        let dry = Runner {
            verbose: false,
            dry_run: true,
        };
        assert!(dry.run(&c).is_ok());
    }
}
