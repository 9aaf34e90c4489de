//! The performance counters and the time model (`PTXSIM_STATS`), on kernels written in PTX:
//! coalescing as Nsight Compute counts sectors, warp-level instruction counts under divergence,
//! shared-memory bank conflicts, and a STREAM triad the model must estimate near its DRAM
//! bandwidth.

mod common;

use common::{download, upload};
use ptxsim::machine::{Config, Machine};
use ptxsim::stats::model::DeviceModel;
use ptxsim::stats::LaunchStats;

const HEADER: &str = ".version 8.5\n.target sm_90\n.address_size 64\n";

fn counting_machine(lockstep: Option<bool>) -> Machine {
    Machine::new(Config {
        memory_bytes: 1 << 30,
        workers: 2,
        lockstep,
        model: Some(DeviceModel::named("h100-sxm").unwrap()),
        ..Config::default()
    })
}

fn run(m: &Machine, body: &str, kernel: &str, grid: u32, block: u32, args: &[u64]) -> LaunchStats {
    let module = m
        .load(&format!("{HEADER}{body}"))
        .unwrap_or_else(|e| panic!("PTX does not load: {e}"));
    let bytes: Vec<[u8; 8]> = args.iter().map(|a| a.to_le_bytes()).collect();
    let refs: Vec<&[u8]> = bytes.iter().map(|b| &b[..]).collect();
    let k = module.program.function_index[kernel];
    let params = Machine::parameters(&module.program, k, &refs).unwrap();
    let outcome = m
        .launch(
            &module.program,
            kernel,
            [grid, 1, 1],
            [block, 1, 1],
            0,
            &params,
        )
        .unwrap_or_else(|e| panic!("launch fails: {e:?}"));
    outcome.stats.expect("counted")
}

/// out[tid] = in[tid * stride] (f64).
const STRIDED: &str = r#"
.visible .entry strided(.param .u64 in, .param .u64 out, .param .u64 stride)
{
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<8>;
	.reg .f64 	%fd<2>;
	ld.param.u64 	%rd1, [in];
	ld.param.u64 	%rd2, [out];
	ld.param.u64 	%rd3, [stride];
	mov.u32 	%r1, %tid.x;
	cvt.u64.u32 	%rd4, %r1;
	mul.lo.s64 	%rd5, %rd4, %rd3;
	shl.b64 	%rd5, %rd5, 3;
	add.s64 	%rd6, %rd1, %rd5;
	ld.global.f64 	%fd1, [%rd6];
	shl.b64 	%rd4, %rd4, 3;
	add.s64 	%rd7, %rd2, %rd4;
	st.global.f64 	[%rd7], %fd1;
	ret;
}
"#;

fn strided(lockstep: Option<bool>, stride: u64) -> LaunchStats {
    let m = counting_machine(lockstep);
    let input = upload(&m, &vec![1.0f64; 32 * 17]);
    let out = upload(&m, &[0.0f64; 32]);
    run(&m, STRIDED, "strided", 1, 32, &[input, out, stride])
}

#[test]
fn coalescing_counts_sectors_per_request() {
    for lockstep in [Some(false), Some(true)] {
        for (stride, sectors) in [(1, 8), (16, 32), (0, 1)] {
            let s = strided(lockstep, stride);
            let c = &s.counters;
            assert_eq!(c.global_load_requests, 1, "stride {stride}");
            assert_eq!(c.global_load_sectors, sectors, "stride {stride}");
            assert_eq!((c.global_store_requests, c.global_store_sectors), (1, 8));
            // 13 instructions, one warp, every lane active.
            assert_eq!(c.warp_instructions, 13);
            assert_eq!(c.thread_instructions, 13 * 32);
            assert_eq!(c.active_lanes(), 32.0);
        }
    }
}

#[test]
fn dram_bytes_count_distinct_sectors() {
    // Stride 0: every lane reads one sector; the stores write 8.
    let s = strided(None, 0);
    assert_eq!(s.dram_bytes, 32 * (1 + 8));
    let s = strided(None, 16);
    assert_eq!(s.dram_bytes, 32 * (32 + 8));
}

/// Lane i runs a loop i+1 times, loading a[i] each time; lanes 0..15 then store.
const DIVERGE: &str = r#"
.visible .entry diverge(.param .u64 a)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;
	.reg .f32 	%f<3>;
	ld.param.u64 	%rd1, [a];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	mov.u32 	%r2, 0;
	mov.f32 	%f1, 0f00000000;
$L_loop:
	ld.global.f32 	%f2, [%rd3];
	add.f32 	%f1, %f1, %f2;
	add.s32 	%r2, %r2, 1;
	setp.le.u32 	%p1, %r2, %r1;
	@%p1 bra 	$L_loop;
	setp.ge.u32 	%p2, %r1, 16;
	@%p2 bra 	$L_end;
	st.global.f32 	[%rd3], %f1;
$L_end:
	ret;
}
"#;

#[test]
fn divergent_lanes_count_as_one_warp() {
    for lockstep in [Some(false), Some(true)] {
        let m = counting_machine(lockstep);
        let a = upload(&m, &[1.0f32; 32]);
        let s = run(&m, DIVERGE, "diverge", 1, 32, &[a]);
        let c = &s.counters;
        // 6 before the loop, 5 per iteration (32 for the warp: its longest lane), 2 after,
        // the store once, ret once.
        assert_eq!(
            c.warp_instructions,
            6 + 5 * 32 + 2 + 1 + 1,
            "lockstep {lockstep:?}"
        );
        // Lane i: 6 + 5(i+1) + 2 + (store if i < 16) + 1.
        let threads: u64 = (0..32u64).map(|i| 9 + 5 * (i + 1) + (i < 16) as u64).sum();
        assert_eq!(c.thread_instructions, threads);
        // One load request per iteration (32), each one sector (fewer lanes as it goes).
        assert_eq!(c.global_load_requests, 32);
        assert_eq!(c.global_load_sectors, expected_loop_sectors());
        assert_eq!((c.global_store_requests, c.global_store_sectors), (1, 2));
        let out: Vec<f32> = download(a, 32);
        assert_eq!(out[3], 4.0);
    }
}

/// Sectors of the loop's loads: iteration j (0-based) has lanes j..31 active, reading 4 bytes
/// each: the sectors of bytes [4j, 128).
fn expected_loop_sectors() -> u64 {
    (0..32u64).map(|j| 4 - (4 * j) / 32).sum()
}

/// Each lane stores to and loads from shared word `tid * stride` (f32).
const BANKS: &str = r#"
.visible .entry banks(.param .u64 out, .param .u32 stride)
{
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<4>;
	.reg .f32 	%f<2>;
	.shared .align 4 .b8 buf[8192];
	ld.param.u64 	%rd1, [out];
	ld.param.u32 	%r1, [stride];
	mov.u32 	%r2, %tid.x;
	mul.lo.s32 	%r3, %r2, %r1;
	shl.b32 	%r3, %r3, 2;
	mov.u32 	%r4, buf;
	add.s32 	%r5, %r4, %r3;
	cvt.rn.f32.u32 	%f1, %r2;
	st.shared.f32 	[%r5], %f1;
	bar.sync 	0;
	ld.shared.f32 	%f1, [%r5];
	mul.wide.u32 	%rd2, %r2, 4;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.f32 	[%rd3], %f1;
	ret;
}
"#;

#[test]
fn shared_bank_conflicts() {
    for (stride, conflicts) in [(1u64, 0u64), (2, 1), (32, 31)] {
        let m = counting_machine(None);
        let out = upload(&m, &[0.0f32; 64]);
        let s = run(&m, BANKS, "banks", 1, 64, &[out, stride]);
        let c = &s.counters;
        // Two warps, a store and a load each.
        assert_eq!(c.shared_requests, 4, "stride {stride}");
        assert_eq!(c.shared_bank_conflicts, 4 * conflicts, "stride {stride}");
        let v: Vec<f32> = download(out, 64);
        assert_eq!(v[63], 63.0);
    }
}

/// STREAM's triad: a[i] = b[i] + s * c[i].
const TRIAD: &str = r#"
.visible .entry triad(.param .u64 a, .param .u64 b, .param .u64 c, .param .f64 s, .param .u32 n)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f64 	%fd<5>;
	.reg .b64 	%rd<11>;
	ld.param.u32 	%r2, [n];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L_end;
	ld.param.u64 	%rd1, [a];
	ld.param.u64 	%rd2, [b];
	ld.param.u64 	%rd3, [c];
	ld.param.f64 	%fd1, [s];
	mul.wide.s32 	%rd4, %r1, 8;
	add.s64 	%rd5, %rd2, %rd4;
	ld.global.f64 	%fd2, [%rd5];
	add.s64 	%rd6, %rd3, %rd4;
	ld.global.f64 	%fd3, [%rd6];
	fma.rn.f64 	%fd4, %fd3, %fd1, %fd2;
	add.s64 	%rd7, %rd1, %rd4;
	st.global.f64 	[%rd7], %fd4;
$L_end:
	ret;
}
"#;

#[test]
fn stream_triad_reaches_the_model_bandwidth() {
    let n: usize = 1 << 21;
    let m = counting_machine(None);
    let a = upload(&m, &vec![0.0f64; n]);
    let b = upload(&m, &vec![1.0f64; n]);
    let c = upload(&m, &vec![2.0f64; n]);
    let s = run(
        &m,
        TRIAD,
        "triad",
        (n / 256) as u32,
        256,
        &[a, b, c, 3.0f64.to_bits(), n as u64],
    );
    let out: Vec<f64> = download(a, n);
    assert!(out.iter().all(|v| *v == 7.0));
    let k = &s.counters;
    let warps = (n / 32) as u64;
    assert_eq!(k.global_load_requests, 2 * warps);
    assert_eq!(k.global_load_sectors, 2 * 8 * warps);
    assert_eq!(k.global_store_sectors, 8 * warps);
    let bytes = (3 * 8 * n) as u64;
    assert_eq!(s.dram_bytes, bytes);
    let model = DeviceModel::named("h100-sxm").unwrap();
    let bandwidth = bytes as f64 / s.estimate.time_s;
    assert!(
        bandwidth >= 0.85 * model.dram_bw,
        "triad at {bandwidth:.3e} B/s, under 85% of {:.3e}: {:?}",
        model.dram_bw,
        s.estimate
    );
    assert!(s.estimate.dram_s > s.estimate.issue_s);
    assert_eq!(s.occupancy, 1.0);
}

/// Four iterations; lane l loads a[l] in iteration i when i + l is odd, so lane 0 first loads in
/// the second iteration and lane 1 in the first.
const SKIP: &str = r#"
.visible .entry skip(.param .u64 a)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<4>;
	.reg .f32 	%f<3>;
	ld.param.u64 	%rd1, [a];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	mov.u32 	%r2, 0;
$L_loop:
	add.s32 	%r3, %r2, %r1;
	and.b32 	%r4, %r3, 1;
	setp.eq.s32 	%p1, %r4, 1;
	@%p1 ld.global.f32 	%f1, [%rd3];
	add.s32 	%r2, %r2, 1;
	setp.lt.u32 	%p2, %r2, 4;
	@%p2 bra 	$L_loop;
	ret;
}
"#;

#[test]
fn predicated_off_instances_still_group_lanes() {
    for lockstep in [Some(false), Some(true)] {
        let m = counting_machine(lockstep);
        let a = upload(&m, &[1.0f32; 32]);
        let s = run(&m, SKIP, "skip", 1, 32, &[a]);
        let c = &s.counters;
        // One request per iteration, of 16 lanes reading every other word of 128 bytes.
        assert_eq!(c.global_load_requests, 4, "lockstep {lockstep:?}");
        assert_eq!(c.global_load_sectors, 16);
        assert_eq!(c.warp_instructions, 5 + 7 * 4 + 1);
    }
}
