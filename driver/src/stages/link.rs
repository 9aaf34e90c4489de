//! Stage 5: the link. The objects and the user's link-line items keep their order; libptxrt.a and
//! the system libraries it needs come after them, so that every object that launches kernels
//! finds the runtime.
use super::Ctx;
use crate::exec::Cmd;
use crate::options::Stages;
use std::path::{Path, PathBuf};

/// One word of the link line before the runtime.
pub enum Item {
    File(PathBuf),
    Args(Vec<String>),
}

pub fn command(ctx: &Ctx, items: &[Item], runtime: &Path, needs_cxx: bool, out: &str) -> Cmd {
    let o = ctx.opts;
    let mut cmd = Cmd::new(&ctx.clang, "link (clang)");
    cmd.arg("-fopenmp");
    if let Some(opt) = &o.opt_flag {
        cmd.arg(opt.clone());
    }
    cmd.args(o.forwarded_to(Stages::LD));
    for item in items {
        match item {
            Item::File(p) => {
                cmd.path(p);
            }
            Item::Args(a) => {
                cmd.args(a.iter().cloned());
            }
        }
    }
    cmd.path(runtime).args(["-lpthread", "-ldl", "-lm"]);
    // The host fallback of a reduction on a 16-byte type (_Complex double) uses clang's generic
    // __atomic_* calls, which live in libatomic; linked only when something needs it.
    cmd.args([
        "-Wl,--push-state,--as-needed",
        "-latomic",
        "-Wl,--pop-state",
    ]);
    if needs_cxx {
        cmd.arg("-lstdc++");
    }
    cmd.arg("-Wno-unused-command-line-argument");
    cmd.arg("-o").arg(out);
    cmd
}
