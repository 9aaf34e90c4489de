//! Real programs compiled by ptxcc (tests/programs/*.c) and linked against the libptxrt.a this
//! test run built, run on the emulator. Skipped, with a note, where ptxcc is not built (set
//! $PTXCC or build the workspace: cargo build --release).

use std::path::PathBuf;
use std::process::{Command, Output};

mod common;
use common::{compiler, ptxcc, staticlib};

/// Compiles tests/programs/NAME.c with ptxcc (`-c`), links it with this runtime. None: no ptxcc.
fn build(name: &str, flags: &[&str]) -> Option<PathBuf> {
    let Some(ptxcc) = ptxcc() else {
        eprintln!("note: ptxcc is not built (set PTXCC=...): skipping the ptxcc-compiled program {name}.c");
        return None;
    };
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/programs/{name}.c"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("programs");
    std::fs::create_dir_all(&dir).expect("create the output directory");
    let obj = dir.join(format!("{name}.o"));
    let exe = dir.join(name);
    let o = Command::new(&ptxcc)
        .args(["-fopenmp", "-O2", "-c"])
        .args(flags)
        .arg(&src)
        .arg("-o")
        .arg(&obj)
        .output()
        .expect("run ptxcc");
    assert!(
        o.status.success(),
        "ptxcc {} failed:\n{}",
        src.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let (cc, _) = compiler();
    let o = Command::new(cc)
        .args(["-fopenmp", "-O2"])
        .arg(&obj)
        .arg(staticlib())
        .args([
            "-lpthread",
            "-ldl",
            "-lm",
            "-Wl,--push-state,--as-needed",
            "-latomic",
            "-Wl,--pop-state",
            "-o",
        ])
        .arg(&exe)
        .output()
        .expect("run the linker");
    assert!(
        o.status.success(),
        "linking {name} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    Some(exe)
}

fn run(exe: &PathBuf, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(exe);
    cmd.env("PTXRT_DEVICE", "emu")
        .env("OMP_TARGET_OFFLOAD", "MANDATORY")
        .env("PTXRT_EMU_THREADS", "2")
        .env_remove("PTXRT_UNMAPPED_POINTERS")
        .env_remove("PTXRT_DEBUG")
        .env_remove("PTXRT_PROFILE")
        .env_remove("PTXRT_ASYNC");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run the program")
}

fn passes(o: &Output, what: &str) {
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("ok"),
        "{what}: status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn pointer_used_without_map_is_a_not_mapped_error() {
    let Some(exe) = build("unmapped_pointer", &[]) else {
        return;
    };
    let o = run(&exe, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(1),
        "exit status 1 expected; stderr:\n{err}"
    );
    assert!(
        !String::from_utf8_lossy(&o.stdout).contains("ok"),
        "the program must not go on"
    );
    for needle in [
        "ptxrt: error: ",
        "unmapped_pointer.c:12:1: pointer",
        "pointer 'x' (host 0x",
        "is used in the target region but the data it points to is not present (not mapped) on device 0 (emulator",
        "map it, e.g. map(tofrom: x[0:n]), or enclose the region in a target data region that maps it",
    ] {
        assert!(err.contains(needle), "stderr lacks {needle:?}:\n{err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    // The standard OpenMP 5.1 behaviour on request: the emulator reads the host address.
    passes(
        &run(&exe, &[("PTXRT_UNMAPPED_POINTERS", "pass")]),
        "PTXRT_UNMAPPED_POINTERS=pass",
    );
}

#[test]
fn requires_unified_shared_memory_passes_host_pointers() {
    let Some(exe) = build("requires_usm", &[]) else {
        return;
    };
    passes(&run(&exe, &[]), "requires unified_shared_memory");
    let o = run(&exe, &[("PTXRT_UNMAPPED_POINTERS", "error")]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn pointers_that_are_valid_without_a_map() {
    let Some(exe) = build("pointers_without_map", &[]) else {
        return;
    };
    passes(&run(&exe, &[]), "pointers without map");
}

#[test]
fn openmp_nowait_task_chains_and_taskwait() {
    let Some(exe) = build("omp_nowait", &[]) else {
        return;
    };
    for _ in 0..3 {
        passes(&run(&exe, &[]), "omp nowait");
    }
    passes(
        &run(&exe, &[("PTXRT_ASYNC", "0")]),
        "omp nowait, PTXRT_ASYNC=0",
    );
}

#[test]
fn openacc_async_queues_wait_and_test() {
    let Some(exe) = build("acc_async_queues", &["-fopenacc"]) else {
        return;
    };
    for _ in 0..3 {
        passes(&run(&exe, &[]), "acc async");
    }
}

#[test]
fn launch_report_says_how_each_grid_and_block_was_chosen() {
    let Some(exe) = build("launch_report", &[]) else {
        return;
    };
    let o = run(&exe, &[("PTXRT_DEBUG", "1")]);
    passes(&o, "launch report");
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("ptxrt: launch "))
        .collect();
    assert_eq!(lines.len(), 5, "one line per launch:\n{err}");
    let expect: [&[&str]; 5] = [
        &[
            "launch_report.c:8:1: kernel '__omp_offloading_",
            "SPMD (teams + parallel) on device 0 (emulator",
            "grid 7 x block 64; grid: num_teams clause (7",
            "block: thread_limit/num_threads clause (64",
        ],
        &[
            "launch_report.c:10:1",
            "grid 8 x block 128; grid: trip count 1000 / block 128 = 8 blocks",
            "the device default (128)",
        ],
        &["launch_report.c:12:1", "single thread", "grid 1 x block 1"],
        &[
            "launch_report.c:14:1",
            "SPMD in one team",
            "grid 1 x block 32",
            "clause (32",
        ],
        &[
            "launch_report.c:16:1",
            "teams only",
            "grid 16 x block 1; grid: trip count 1000 / block 1 = 1000 blocks, capped at 16",
        ],
    ];
    for (l, needles) in lines.iter().zip(expect) {
        for n in needles {
            assert!(l.contains(n), "{n:?} not in\n{l}");
        }
    }
    // Without PTXRT_DEBUG: silent.
    let o = run(&exe, &[]);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("ptxrt: launch"));
    // The environment overrides are named as the reason.
    let o = run(
        &exe,
        &[
            ("PTXRT_DEBUG", "1"),
            ("PTXRT_THREADS", "32"),
            ("PTXRT_TEAMS", "5"),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("grid 5 x block 32; grid: PTXRT_TEAMS=5; block: PTXRT_THREADS=32"),
        "{err}"
    );
}

/// Compiles tests/programs/NAME.c without OpenMP (the pragmas are ignored): the reference output.
fn build_serial(name: &str) -> PathBuf {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/programs/{name}.c"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("programs");
    std::fs::create_dir_all(&dir).expect("create the output directory");
    let exe = dir.join(format!("{name}.serial"));
    let (cc, _) = compiler();
    let o = Command::new(cc)
        .args(["-O2", "-w"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .expect("run the C compiler");
    assert!(
        o.status.success(),
        "serial build of {name} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    exe
}

/// Issue 3's end-to-end programs: run on the emulator with OMP_TARGET_OFFLOAD=MANDATORY, the
/// output must be the serial program's.
fn same_as_serial(name: &str) {
    let Some(exe) = build(name, &[]) else { return };
    let serial = Command::new(build_serial(name))
        .output()
        .expect("run the serial program");
    assert!(serial.status.success(), "serial {name} failed");
    let o = run(&exe, &[]);
    assert!(
        o.status.success(),
        "{name}: status {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&serial.stdout),
        "{name}: offloaded output (left) differs from the serial build's (right); stderr:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn e2e_saxpy_with_target_data_and_update() {
    same_as_serial("e2e_saxpy_data_update");
}
#[test]
fn e2e_stencil_iterated_in_a_data_region() {
    same_as_serial("e2e_stencil2d");
}
#[test]
fn e2e_matrix_product() {
    same_as_serial("e2e_matmul");
}
#[test]
fn e2e_math_functions() {
    same_as_serial("e2e_math");
}
#[test]
fn e2e_enter_exit_data_reference_counts() {
    same_as_serial("e2e_refcount");
}
#[test]
fn e2e_firstprivate_scalars() {
    same_as_serial("e2e_firstprivate");
}
#[test]
fn e2e_declare_target_globals() {
    same_as_serial("e2e_globals");
}
