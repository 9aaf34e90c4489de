//! Where ptxcc finds what it runs and links: clang 19, libptxrt.a and the runtime's headers.
use std::path::{Path, PathBuf};

/// The clang ptxcc runs: `$PTXCC_CLANG`, else `clang-19` on PATH, else LLVM 19's own.
pub fn find_clang() -> Result<PathBuf, String> {
    if let Some(value) = std::env::var_os("PTXCC_CLANG").filter(|v| !v.is_empty()) {
        let path = PathBuf::from(&value);
        if path.components().count() > 1 {
            if path.is_file() {
                return Ok(path);
            }
            return Err(format!(
                "PTXCC_CLANG names '{}', which does not exist",
                path.display()
            ));
        }
        return search_path(&path).ok_or_else(|| {
            format!(
                "PTXCC_CLANG names '{}', which is not on PATH",
                path.display()
            )
        });
    }
    if let Some(path) = search_path(Path::new("clang-19")) {
        return Ok(path);
    }
    let fallback = PathBuf::from("/usr/lib/llvm-19/bin/clang");
    if fallback.is_file() {
        return Ok(fallback);
    }
    Err("cannot find clang 19: install clang-19 (scripts/setup.sh does) or set PTXCC_CLANG".into())
}

/// `name` looked up in the directories of PATH.
fn search_path(name: &Path) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The directory holding the running ptxcc (symbolic links resolved).
fn exe_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let exe = exe.canonicalize().unwrap_or(exe);
    exe.parent().map(Path::to_path_buf)
}

/// libptxrt.a: `$PTXCC_RUNTIME_LIB`, else next to the ptxcc executable (where cargo puts both).
pub fn find_runtime_lib() -> Result<PathBuf, String> {
    if let Some(value) = std::env::var_os("PTXCC_RUNTIME_LIB").filter(|v| !v.is_empty()) {
        let path = PathBuf::from(value);
        if path.is_file() {
            return Ok(path);
        }
        return Err(format!(
            "PTXCC_RUNTIME_LIB names '{}', which does not exist",
            path.display()
        ));
    }
    let dir = exe_dir().unwrap_or_default();
    let candidate = dir.join("libptxrt.a");
    if candidate.is_file() {
        return Ok(candidate);
    }
    Err(format!(
        "cannot find libptxrt.a next to {} ; build it with 'cargo build --release' or set PTXCC_RUNTIME_LIB",
        dir.join("ptxcc").display()
    ))
}

/// The runtime's header directory (`openacc.h`, `ptxcc_abi.h`): `$PTXCC_INCLUDE_DIR`, else
/// `include/` next to the executable (an installed layout), else the source tree's
/// `ptx-runtime/include`. None when there is none.
pub fn find_include_dir() -> Option<PathBuf> {
    if let Some(value) = std::env::var_os("PTXCC_INCLUDE_DIR").filter(|v| !v.is_empty()) {
        let path = PathBuf::from(value);
        return path.is_dir().then_some(path);
    }
    if let Some(dir) = exe_dir() {
        let installed = dir.join("include");
        if installed.join("ptxcc_abi.h").is_file() {
            return Some(installed);
        }
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("ptx-runtime")
        .join("include");
    source
        .is_dir()
        .then(|| source.canonicalize().unwrap_or(source))
}

/// Whether linking `lib` needs the C++ standard library: true when the archive refers to it.
pub fn needs_libstdcxx(lib: &Path) -> bool {
    let Ok(bytes) = std::fs::read(lib) else {
        return false;
    };
    const MARKERS: &[&[u8]] = &[
        b"__gxx_personality_v0",
        b"_ZNSt",
        b"_ZSt",
        b"_Znwm",
        b"_ZdlPv",
    ];
    // Every marker starts with '_': look at those places only.
    bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'_' && MARKERS.iter().any(|m| bytes[i..].starts_with(m)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libstdcxx_detection() {
        let dir = tempfile::tempdir().expect("tempdir");
        let plain = dir.path().join("plain.a");
        std::fs::write(
            &plain,
            b"!<arch>\n_ZN4core3fmt5write __cxa_thread_atexit_impl",
        )
        .expect("write");
        assert!(!needs_libstdcxx(&plain));
        let cxx = dir.path().join("cxx.a");
        std::fs::write(&cxx, b"!<arch>\n__gxx_personality_v0").expect("write");
        assert!(needs_libstdcxx(&cxx));
        assert!(!needs_libstdcxx(&dir.path().join("missing.a")));
    }
}
