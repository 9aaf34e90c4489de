//! Compiles the device-side helpers (device-rt/*.c) to nvptx64 bitcode with clang 19.
use std::path::PathBuf;
use std::process::Command;

fn clang() -> PathBuf {
    if let Some(p) = std::env::var_os("PTXCC_CLANG") {
        return PathBuf::from(p);
    }
    let prefix = std::env::var_os("LLVM_SYS_191_PREFIX")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-19"));
    let in_prefix = prefix.join("bin/clang");
    if in_prefix.exists() {
        return in_prefix;
    }
    PathBuf::from("clang-19")
}

/// The helper sources and the bitcode each becomes (device_rt.rs includes them).
const HELPERS: &[(&str, &str)] = &[
    ("device-rt/reduce.c", "device_rt.bc"),
    ("device-rt/alloc.c", "device_alloc.bc"),
];

fn main() {
    println!("cargo:rerun-if-env-changed=PTXCC_CLANG");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let clang = clang();
    for (source, bitcode) in HELPERS {
        println!("cargo:rerun-if-changed={source}");
        compile(&clang, source, &out_dir.join(bitcode));
    }
}

fn compile(clang: &PathBuf, source: &str, out: &PathBuf) {
    let status = Command::new(clang)
        .args([
            "-target",
            "nvptx64-nvidia-cuda",
            "-march=sm_35",
            "-Xclang",
            "-target-feature",
            "-Xclang",
            "+ptx60",
        ])
        .args([
            "-O2",
            "-ffreestanding",
            "-fno-builtin",
            "-fno-strict-aliasing",
            "-emit-llvm",
            "-c",
            source,
            "-o",
        ])
        .arg(out)
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("{} failed ({s}) compiling {source}", clang.display()),
        Err(e) => panic!(
            "cannot run {} ({e}): install clang-19 (scripts/setup.sh) or set PTXCC_CLANG",
            clang.display()
        ),
    }
}
