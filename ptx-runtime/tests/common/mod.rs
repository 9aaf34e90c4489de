//! Helpers shared by the integration tests: the freshly built libptxrt.a and a C compiler.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The staticlib cargo built for this test run (target/<profile>/deps/libptxrt-*.a).
pub fn staticlib() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps dir");
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for dir in [
        deps.to_path_buf(),
        deps.parent().unwrap_or(deps).to_path_buf(),
    ] {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("libptxrt") && name.ends_with(".a") {
                let t = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                if best.as_ref().is_none_or(|(bt, _)| t > *bt) {
                    best = Some((t, e.path()));
                }
            }
        }
    }
    best.expect("libptxrt.a not found next to the test executable")
        .1
}

/// clang-19 (or clang), and whether it is clang; else cc.
pub fn compiler() -> (String, bool) {
    for cc in ["clang-19", "clang"] {
        if Command::new(cc)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return (cc.to_string(), true);
        }
    }
    ("cc".to_string(), false)
}

/// The ptxcc to compile test programs with: $PTXCC, else the workspace's release build.
pub fn ptxcc() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXCC") {
        let p = PathBuf::from(p);
        return p.exists().then_some(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let p = root.join("target/release/ptxcc");
    p.exists().then_some(p)
}
