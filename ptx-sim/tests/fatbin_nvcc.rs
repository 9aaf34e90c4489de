//! The fat binary reader (src/cudart/fatbin.rs) on fat binaries NVIDIA's `fatbinary` makes
//! here: plain, LZ4 (`--compress-mode=speed`) and zstd (the default, `size`) payloads, and the
//! choice between PTX for several architectures. The tool comes from .cuda-venv
//! (scripts/setup-cuda-tools.sh), $CUDA_HOME/bin or PATH; without it each test says so and
//! passes without checking anything.

mod common;

use ptxsim::cudart::fatbin::{self, Compression, Kind};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fatbinary() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = vec![root.join(".cuda-venv/cuda/bin")];
    if let Some(h) = std::env::var_os("CUDA_HOME") {
        dirs.push(Path::new(&h).join("bin"));
    }
    if let Some(p) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&p));
    }
    let found = dirs
        .into_iter()
        .map(|d| d.join("fatbinary"))
        .find(|f| f.is_file());
    if found.is_none() {
        eprintln!(
            "skipped: no fatbinary (run scripts/setup-cuda-tools.sh for NVIDIA's CUDA tools)"
        );
    }
    found
}

/// A kernel for `sm`, PTX ISA 8.0: y[i] = 2 * x[i] + c, c telling the versions apart.
fn kernel_ptx(sm: u32, c: f32) -> String {
    format!(
        r#"//
// a comment fatbinary drops
//
.version 8.0
.target sm_{sm}
.address_size 64

.visible .entry twice(
	.param .u64 x,
	.param .u64 y
)
{{
	.reg .b32 	%r<2>;
	.reg .f32 	%f<3>;
	.reg .b64 	%rd<6>;

	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd5, %r1, 4;
	add.s64 	%rd3, %rd3, %rd5;
	add.s64 	%rd4, %rd4, %rd5;
	ld.global.f32 	%f1, [%rd3];
	fma.rn.f32 	%f2, %f1, 0f40000000, 0f{:08X};
	st.global.f32 	[%rd4], %f2;
	ret;
}}
"#,
        c.to_bits()
    )
}

/// A fat binary made by `fatbinary` from PTX for each (sm, text), with `flags`.
fn make(tool: &Path, images: &[(u32, String)], flags: &[&str], tag: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("ptxsim-fatbin-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out.fatbin");
    let mut cmd = Command::new(tool);
    cmd.arg(format!("--create={}", out.display())).args(flags);
    for (k, (sm, text)) in images.iter().enumerate() {
        let f = dir.join(format!("k{k}.ptx"));
        std::fs::write(&f, text).unwrap();
        cmd.arg(format!("--image3=kind=ptx,sm={sm},file={}", f.display()));
    }
    let st = cmd.status().expect("runs fatbinary");
    assert!(st.success(), "fatbinary {flags:?} failed");
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// Runs the kernel of `ptx` on 32 values and returns y.
fn run(ptx: &str) -> Vec<f32> {
    let m = common::machine();
    let module = m.load(ptx).expect("ptxsim loads the fat binary's PTX");
    let x: Vec<f32> = (0..32).map(|i| i as f32).collect();
    let (dx, dy) = (common::upload(&m, &x), common::upload(&m, &[0f32; 32]));
    let params = [dx.to_le_bytes(), dy.to_le_bytes()].concat();
    m.launch(&module.program, "twice", [1, 1, 1], [32, 1, 1], 0, &params)
        .expect("the kernel runs");
    common::download(dy, 32)
}

#[test]
fn every_compression_gives_the_same_runnable_ptx() {
    let Some(tool) = fatbinary() else { return };
    let ptx = kernel_ptx(90, 1.0);
    let mut texts = Vec::new();
    for (mode, compression) in [
        ("none", Compression::None),
        ("speed", Compression::Lz4),
        ("default", Compression::Zstd),
        ("size", Compression::Zstd),
    ] {
        let bytes = make(
            &tool,
            &[(90, ptx.clone())],
            &[&format!("--compress-mode={mode}")],
            mode,
        );
        let entries = fatbin::entries(&bytes).unwrap();
        assert_eq!(entries.len(), 1, "{mode}");
        assert_eq!(
            (entries[0].kind, entries[0].arch),
            (Kind::Ptx, 90),
            "{mode}"
        );
        assert_eq!(
            entries[0].compression, compression,
            "--compress-mode={mode}"
        );
        texts.push(fatbin::select_ptx(&bytes, 90).unwrap());
    }
    assert!(texts.iter().all(|t| t == &texts[0]));
    assert!(texts[0].contains(".visible .entry twice("));
    let y = run(&texts[0]);
    assert_eq!(y[5], 11.0);
    assert_eq!(y[31], 63.0);
}

#[test]
fn the_device_gets_the_newest_ptx_it_runs() {
    let Some(tool) = fatbinary() else { return };
    let images = [(70, kernel_ptx(70, 7.0)), (80, kernel_ptx(80, 8.0))];
    let bytes = make(&tool, &images, &[], "select");
    assert_eq!(fatbin::entries(&bytes).unwrap().len(), 2);
    assert_eq!(run(&fatbin::select_ptx(&bytes, 90).unwrap())[0], 8.0);
    assert_eq!(run(&fatbin::select_ptx(&bytes, 75).unwrap())[0], 7.0);
    let e = fatbin::select_ptx(&bytes, 60).unwrap_err().0;
    assert!(e.contains("PTX for compute_70, PTX for compute_80"), "{e}");
}
