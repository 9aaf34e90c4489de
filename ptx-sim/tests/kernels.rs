//! Kernels written in PTX the way LLVM's NVPTX back end writes it, run on the simulator through
//! its library API: each pins one part of the machine (memory spaces, barriers, warp
//! collectives, atomics, calls, printf) or one fault it must report.

mod common;

use common::{download, machine, upload};
use ptxsim::exec::thread::FaultKind;
use ptxsim::machine::{Config, LaunchError, Machine};

const HEADER: &str = ".version 8.5\n.target sm_90\n.address_size 64\n";

/// Loads `body` (after the header) and launches `kernel` with 8-byte arguments.
fn run(
    m: &Machine,
    body: &str,
    kernel: &str,
    grid: u32,
    block: u32,
    args: &[u64],
) -> Result<ptxsim::exec::grid::Outcome, LaunchError> {
    let module = m
        .load(&format!("{HEADER}{body}"))
        .unwrap_or_else(|e| panic!("PTX does not load: {e}"));
    let bytes: Vec<[u8; 8]> = args.iter().map(|a| a.to_le_bytes()).collect();
    let refs: Vec<&[u8]> = bytes.iter().map(|b| &b[..]).collect();
    let k = module.program.function_index[kernel];
    let params = Machine::parameters(&module.program, k, &refs).unwrap();
    m.launch(
        &module.program,
        kernel,
        [grid, 1, 1],
        [block, 1, 1],
        0,
        &params,
    )
}

/// The 1-based line of the first line containing `needle`.
fn line_of(text: &str, needle: &str) -> u32 {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle") as u32
        + 1
}

fn fault(r: Result<ptxsim::exec::grid::Outcome, LaunchError>) -> ptxsim::exec::grid::LaunchFault {
    match r {
        Err(LaunchError::Fault(f)) => f,
        other => panic!("expected a fault, got {other:?}"),
    }
}

const SAXPY: &str = r#"
.visible .entry saxpy(
	.param .u64 saxpy_param_0,
	.param .u64 saxpy_param_1,
	.param .f32 saxpy_param_2,
	.param .u32 saxpy_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<5>;
	.reg .b64 	%rd<9>;

	ld.param.u64 	%rd1, [saxpy_param_0];
	ld.param.u64 	%rd2, [saxpy_param_1];
	ld.param.f32 	%f1, [saxpy_param_2];
	ld.param.u32 	%r2, [saxpy_param_3];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd3, %rd1;
	mul.wide.s32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.f32 	%f2, [%rd5];
	cvta.to.global.u64 	%rd6, %rd2;
	add.s64 	%rd7, %rd6, %rd4;
	ld.global.f32 	%f3, [%rd7];
	fma.rn.f32 	%f4, %f2, %f1, %f3;
	st.global.f32 	[%rd7], %f4;
$L__BB0_2:
	ret;
}
"#;

#[test]
fn saxpy_over_a_partial_last_block() {
    let m = machine();
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let (px, py) = (upload(&m, &x), upload(&m, &y));
    let a = 2.5f32;
    run(
        &m,
        SAXPY,
        "saxpy",
        8,
        128,
        &[px, py, a.to_bits() as u64, n as u64],
    )
    .unwrap();
    let got: Vec<f32> = download(py, n);
    for i in 0..n {
        assert_eq!(got[i], a.mul_add(x[i], y[i]), "element {i}");
    }
}

#[test]
fn out_of_bounds_store_is_an_illegal_address_with_its_line() {
    let m = machine();
    let x = upload(&m, &[0f32; 100]);
    let y = upload(&m, &[0f32; 100]);
    // 200 elements claimed, 100 allocated.
    let f = fault(run(&m, SAXPY, "saxpy", 2, 128, &[x, y, 0, 200]));
    assert_eq!(f.fault.kind, FaultKind::IllegalAddress);
    assert_eq!(f.fault.function, "saxpy");
    // The first access past the end is the load of x.
    assert_eq!(
        f.fault.line,
        line_of(&format!("{HEADER}{SAXPY}"), "ld.global.f32 \t%f2")
    );
}

#[test]
fn a_host_pointer_is_not_device_memory() {
    let m = machine();
    let host = [0f32; 16];
    let y = upload(&m, &[0f32; 16]);
    let f = fault(run(
        &m,
        SAXPY,
        "saxpy",
        1,
        16,
        &[host.as_ptr() as u64, y, 0, 16],
    ));
    assert_eq!(f.fault.kind, FaultKind::IllegalAddress);
    assert!(
        f.fault.message.contains("outside every device allocation"),
        "{}",
        f.fault.message
    );
}

/// Sum of one block: warp shuffles, one shared slot per warp, a barrier, warp 0 sums the slots.
const BLOCK_SUM: &str = r#"
.shared .align 4 .b8 partial[128];
.visible .entry block_sum(
	.param .u64 p_in,
	.param .u64 p_out
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<30>;
	.reg .b64 	%rd<10>;

	ld.param.u64 	%rd1, [p_in];
	ld.param.u64 	%rd2, [p_out];
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %ntid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
	ld.global.u32 	%r3, [%rd4];
	shfl.sync.down.b32	%r4, %r3, 16, 31, -1;
	add.s32 	%r5, %r3, %r4;
	shfl.sync.down.b32	%r6, %r5, 8, 31, -1;
	add.s32 	%r7, %r5, %r6;
	shfl.sync.down.b32	%r8, %r7, 4, 31, -1;
	add.s32 	%r9, %r7, %r8;
	shfl.sync.down.b32	%r10, %r9, 2, 31, -1;
	add.s32 	%r11, %r9, %r10;
	shfl.sync.down.b32	%r12, %r11, 1, 31, -1;
	add.s32 	%r13, %r11, %r12;
	and.b32 	%r14, %r1, 31;
	shr.u32 	%r15, %r1, 5;
	setp.ne.s32 	%p1, %r14, 0;
	@%p1 bra 	$L__skip_store;
	shl.b32 	%r16, %r15, 2;
	mov.u32 	%r17, partial;
	add.s32 	%r18, %r17, %r16;
	st.shared.u32 	[%r18], %r13;
$L__skip_store:
	bar.sync 	0;
	setp.ne.s32 	%p2, %r1, 0;
	@%p2 bra 	$L__done;
	shr.u32 	%r19, %r2, 5;
	mov.u32 	%r20, 0;
	mov.u32 	%r21, 0;
	mov.u64 	%rd5, partial;
	cvta.shared.u64 	%rd6, %rd5;
$L__loop:
	ld.u32 	%r22, [%rd6];
	add.s32 	%r20, %r20, %r22;
	add.s64 	%rd6, %rd6, 4;
	add.s32 	%r21, %r21, 1;
	setp.lt.u32 	%p3, %r21, %r19;
	@%p3 bra 	$L__loop;
	st.global.u32 	[%rd2], %r20;
$L__done:
	ret;
}
"#;

#[test]
fn warp_shuffles_shared_memory_and_a_barrier_sum_a_block() {
    let m = machine();
    let data: Vec<u32> = (0..256u32).map(|i| i * 3 + 1).collect();
    let input = upload(&m, &data);
    let out = upload(&m, &[0u32]);
    run(&m, BLOCK_SUM, "block_sum", 1, 256, &[input, out]).unwrap();
    assert_eq!(download::<u32>(out, 1)[0], data.iter().sum::<u32>());
}

#[test]
fn a_shuffle_past_the_end_of_a_partial_warp_reads_poison() {
    // 48 threads: the second warp has 16 lanes, whose shfl.down by 16 reads lanes that do not
    // exist. On a GPU that value is undefined; here it is the poison word, so the sum is wrong.
    let m = machine();
    let data = vec![1u32; 64];
    let input = upload(&m, &data);
    let out = upload(&m, &[0u32]);
    run(&m, BLOCK_SUM, "block_sum", 1, 48, &[input, out]).unwrap();
    assert_ne!(download::<u32>(out, 1)[0], 48);
}

const ATOMICS: &str = r#"
.visible .entry atomics(
	.param .u64 p_sum,
	.param .u64 p_count,
	.param .u64 p_max
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .f64 	%fd<4>;
	.reg .b64 	%rd<6>;

	ld.param.u64 	%rd1, [p_sum];
	ld.param.u64 	%rd2, [p_count];
	ld.param.u64 	%rd3, [p_max];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	cvt.rn.f64.s32 	%fd1, %r4;
	atom.global.add.f64 	%fd2, [%rd1], %fd1;
	atom.global.add.u32 	%r5, [%rd2], 1;
	atom.global.max.s32 	%r6, [%rd3], %r4;
	ret;
}
"#;

#[test]
fn atomics_from_every_block_combine_exactly() {
    let m = machine();
    let sum = upload(&m, &[0f64]);
    let count = upload(&m, &[0u32]);
    let max = upload(&m, &[-1i32]);
    run(&m, ATOMICS, "atomics", 64, 128, &[sum, count, max]).unwrap();
    let n = 64 * 128u64;
    assert_eq!(download::<f64>(sum, 1)[0], (n * (n - 1) / 2) as f64);
    assert_eq!(download::<u32>(count, 1)[0], n as u32);
    assert_eq!(download::<i32>(max, 1)[0], n as i32 - 1);
}

/// A non-inlined function with a local array, a call sequence and a return value.
const CALLS: &str = r#"
.func  (.param .b32 func_retval0) sum_squares(
	.param .b32 sum_squares_param_0
)
{
	.local .align 4 .b8 	__local_depot1[64];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .pred 	%p<3>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<6>;

	mov.u64 	%SPL, __local_depot1;
	cvta.local.u64 	%SP, %SPL;
	ld.param.u32 	%r1, [sum_squares_param_0];
	mov.u32 	%r2, 0;
$L__fill:
	mul.lo.s32 	%r3, %r2, %r2;
	mul.wide.u32 	%rd1, %r2, 4;
	add.s64 	%rd2, %SP, %rd1;
	st.u32 	[%rd2], %r3;
	add.s32 	%r2, %r2, 1;
	setp.lt.u32 	%p1, %r2, 16;
	@%p1 bra 	$L__fill;
	mov.u32 	%r4, 0;
	mov.u32 	%r5, 0;
$L__sum:
	mul.wide.u32 	%rd3, %r5, 4;
	add.s64 	%rd4, %SPL, %rd3;
	ld.local.u32 	%r6, [%rd4];
	add.s32 	%r4, %r4, %r6;
	add.s32 	%r5, %r5, 1;
	setp.lt.u32 	%p2, %r5, %r1;
	@%p2 bra 	$L__sum;
	st.param.b32 	[func_retval0], %r4;
	ret;
}

.visible .entry calls(
	.param .u64 calls_param_0
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [calls_param_0];
	mov.u32 	%r1, %tid.x;
	add.s32 	%r2, %r1, 1;
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.b32 	[param0], %r2;
	.param .b32 retval0;
	call.uni (retval0),
	sum_squares,
	(
	param0
	);
	ld.param.b32 	%r3, [retval0];
	} // callseq 0
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.u32 	[%rd3], %r3;
	ret;
}
"#;

#[test]
fn calls_pass_parameters_and_keep_local_memory_per_thread() {
    let m = machine();
    let out = upload(&m, &[0u32; 16]);
    run(&m, CALLS, "calls", 1, 16, &[out]).unwrap();
    let got: Vec<u32> = download(out, 16);
    for (t, v) in got.iter().enumerate() {
        let want: u32 = (0..=t as u32).map(|i| i * i).sum();
        assert_eq!(*v, want, "thread {t}");
    }
}

const PRINTF: &str = r#"
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.global .align 1 .b8 $str[24] = {116, 104, 114, 101, 97, 100, 32, 37, 100, 58, 32, 37, 46, 50, 102, 32, 37, 115, 32, 37, 108, 100, 10, 0};
.global .align 1 .b8 $str1[3] = {111, 107, 0};

.visible .entry hello()
{
	.local .align 8 .b8 	__local_depot0[32];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<8>;
	.reg .f64 	%fd<2>;

	mov.u64 	%SPL, __local_depot0;
	cvta.local.u64 	%SP, %SPL;
	mov.u32 	%r1, %tid.x;
	st.local.u32 	[%SPL], %r1;
	mov.f64 	%fd1, 0d3FF8000000000000;
	st.local.f64 	[%SPL+8], %fd1;
	mov.u64 	%rd1, $str1;
	cvta.global.u64 	%rd2, %rd1;
	st.local.u64 	[%SPL+16], %rd2;
	mov.u64 	%rd3, -5;
	st.local.u64 	[%SPL+24], %rd3;
	mov.u64 	%rd4, $str;
	cvta.global.u64 	%rd5, %rd4;
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 	[param0], %rd5;
	.param .b64 param1;
	st.param.b64 	[param1], %SP;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	ld.param.b32 	%r2, [retval0];
	}
	ret;
}
"#;

#[test]
fn printf_formats_its_arguments() {
    let m = machine();
    let out = run(&m, PRINTF, "hello", 1, 2, &[]).unwrap();
    let text = String::from_utf8(out.printed).unwrap();
    assert_eq!(text, "thread 0: 1.50 ok -5\nthread 1: 1.50 ok -5\n");
}

#[test]
fn a_lane_of_the_mask_that_exited_is_reported_not_waited_for() {
    let m = machine();
    let body = r#"
.visible .entry k()
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	mov.u32 	%r1, %tid.x;
	setp.eq.s32 	%p1, %r1, 3;
	@%p1 bra 	$L__out;
	shfl.sync.bfly.b32	%r2, %r1, 1, 31, -1;
$L__out:
	ret;
}
"#;
    let f = fault(run(&m, body, "k", 1, 32, &[]));
    assert_eq!(f.fault.kind, FaultKind::Deadlock);
    assert!(f.fault.message.contains("lane 3"), "{}", f.fault.message);
}

#[test]
fn a_barrier_that_cannot_complete_is_a_deadlock() {
    let m = machine();
    let body = r#"
.visible .entry k()
{
	bar.sync 	1, 64;
	ret;
}
"#;
    let f = fault(run(&m, body, "k", 1, 32, &[]));
    assert_eq!(f.fault.kind, FaultKind::Deadlock);
}

#[test]
fn misaligned_access_faults() {
    let m = machine();
    let p = upload(&m, &[0u64; 4]);
    let body = r#"
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [k_param_0];
	ld.global.u64 	%rd2, [%rd1+4];
	ret;
}
"#;
    assert_eq!(
        fault(run(&m, body, "k", 1, 1, &[p])).fault.kind,
        FaultKind::MisalignedAddress
    );
}

#[test]
fn globals_are_initialised_and_found_by_name() {
    let m = machine();
    let module = m
        .load(&format!(
            "{HEADER}.visible .global .align 4 .u32 scale = 3;\n.visible .global .align 8 .u64 where = generic(scale);\n.visible .global .align 4 .b8 table[8] = {{1, 2, 3, 4, 5, 6, 7, 8}};\n"
        ))
        .unwrap();
    let g = module.program.global("scale").unwrap();
    assert_eq!(download::<u32>(g.addr, 1)[0], 3);
    let w = module.program.global("where").unwrap();
    assert_eq!(download::<u64>(w.addr, 1)[0], g.addr);
    let t = module.program.global("table").unwrap();
    assert_eq!(t.bytes, 8);
    assert_eq!(download::<u8>(t.addr, 8), vec![1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn vote_and_indexed_shuffle() {
    let m = machine();
    let out = upload(&m, &[0u32; 64]);
    let body = r#"
.visible .entry k(.param .u64 k_param_0)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [k_param_0];
	mov.u32 	%r1, %tid.x;
	and.b32 	%r2, %r1, 1;
	setp.eq.s32 	%p1, %r2, 1;
	vote.sync.ballot.b32 	%r3, %p1, -1;
	mul.lo.s32 	%r4, %r1, 10;
	shfl.sync.idx.b32	%r5, %r4, 5, 31, -1;
	mul.wide.u32 	%rd2, %r1, 8;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.v2.u32 	[%rd3], {%r3, %r5};
	ret;
}
"#;
    run(&m, body, "k", 1, 32, &[out]).unwrap();
    let got: Vec<u32> = download(out, 64);
    for t in 0..32 {
        assert_eq!(got[2 * t], 0xaaaa_aaaa);
        assert_eq!(got[2 * t + 1], 50);
    }
}

#[test]
fn unsupported_ptx_is_refused_with_its_line() {
    let m = machine();
    let e = m.load(&format!("{HEADER}.visible .entry k()\n{{\n\ttex.2d.v4.f32.f32 {{%f1, %f2, %f3, %f4}}, [t, {{%f5, %f6}}];\n\tret;\n}}\n")).err().unwrap();
    assert_eq!(e.line, 6);
}

#[test]
fn launches_beyond_the_device_limits_are_refused() {
    let m = machine();
    let module = m
        .load(&format!(
            "{HEADER}.visible .entry k() .maxntid 64, 1, 1\n{{\n\tret;\n}}\n"
        ))
        .unwrap();
    let k = module.program.function_index["k"];
    assert!(m
        .check_launch(&module.program, k, [1, 1, 1], [128, 1, 1], 0)
        .is_err());
    assert!(m
        .check_launch(&module.program, k, [1, 1, 1], [64, 1, 1], 0)
        .is_ok());
    assert!(m
        .check_launch(&module.program, k, [0, 1, 1], [64, 1, 1], 0)
        .is_err());
}

#[test]
fn racecheck_finds_a_missing_barrier_and_accepts_the_barrier() {
    let m = Machine::new(Config {
        memory_bytes: 1 << 30,
        workers: 2,
        racecheck: true,
        ..Config::default()
    });
    let data: Vec<u32> = (0..256u32).collect();
    let input = upload(&m, &data);
    let out = upload(&m, &[0u32]);
    // With its barrier, the block sum is race-free.
    run(&m, BLOCK_SUM, "block_sum", 2, 256, &[input, out]).unwrap();
    // Without it, thread 0 reads the slots other warps' lane 0 wrote.
    let racy = BLOCK_SUM.replace("\tbar.sync \t0;\n", "");
    assert_ne!(racy, BLOCK_SUM);
    let f = fault(run(&m, &racy, "block_sum", 1, 256, &[input, out]));
    assert_eq!(f.fault.kind, FaultKind::Race);
    assert!(
        f.fault.message.contains("'partial' + 4"),
        "{}",
        f.fault.message
    );
    assert!(
        f.fault.message.contains("thread (32,0,0) wrote it"),
        "{}",
        f.fault.message
    );
}

/// nvcc's CUB kernels take a struct parameter's address (`mov.b64 %rd, param`) and read its
/// fields through it (`ld.param [%rd+16]`): the address is the parameter's place in the
/// `.param` space.
const PARAM_ADDRESS: &str = r#"
.visible .entry fields(
	.param .u64 fields_param_0,
	.param .align 8 .b8 fields_param_1[24]
)
{
	.reg .b16 	%rs<2>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [fields_param_0];
	mov.b64 	%rd2, fields_param_1;
	ld.param.u8 	%rs1, [%rd2];
	ld.param.u64 	%rd3, [%rd2+16];
	cvta.to.global.u64 	%rd4, %rd1;
	cvt.u64.u16 	%rd5, %rs1;
	st.global.u64 	[%rd4], %rd5;
	st.global.u64 	[%rd4+8], %rd3;
	ret;
}
"#;

#[test]
fn a_parameters_address_reads_its_fields() {
    let m = machine();
    let out = upload(&m, &[0u64; 2]);
    let module = m.load(&format!("{HEADER}{PARAM_ADDRESS}")).unwrap();
    let k = module.program.function_index["fields"];
    let mut record = [0u8; 24];
    record[0] = 7;
    record[16..].copy_from_slice(&0x1234_5678_9abcu64.to_le_bytes());
    let first = out.to_le_bytes();
    let params = Machine::parameters(&module.program, k, &[&first[..], &record[..]]).unwrap();
    m.launch(&module.program, "fields", [1, 1, 1], [1, 1, 1], 0, &params)
        .unwrap();
    assert_eq!(download::<u64>(out, 2), vec![7, 0x1234_5678_9abc]);
}

#[test]
fn a_parameters_generic_address_is_refused_when_loaded() {
    let m = machine();
    let text = PARAM_ADDRESS.replace(
        "ld.param.u8 	%rs1, [%rd2];",
        "cvta.param.u64 	%rd6, %rd2;\n\tld.u8 	%rs1, [%rd6];",
    );
    let e = m
        .load(&format!("{HEADER}{text}"))
        .err()
        .expect("cvta.param must not load");
    assert!(e.to_string().contains("cvta.param"), "{e}");
}

/// CUB's kernels (nvcc, CUDA 13) use programmatic dependent launch and `bmsk`.
const PDL_BMSK: &str = r#"
.visible .entry masks(
	.param .u64 masks_param_0
)
{
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<4>;

	griddepcontrol.wait;
	ld.param.u64 	%rd1, [masks_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	bmsk.clamp.b32 	%r2, %r1, 3;
	bmsk.wrap.b32 	%r3, 1, 2;
	mul.wide.u32 	%rd3, %r1, 8;
	add.s64 	%rd3, %rd2, %rd3;
	st.global.v2.u32 	[%rd3], {%r2, %r3};
	griddepcontrol.launch_dependents;
	ret;
}
"#;

#[test]
fn grid_dependency_control_and_bit_masks_run() {
    let m = machine();
    let out = upload(&m, &[0u32; 2 * 34]);
    run(&m, PDL_BMSK, "masks", 1, 34, &[out]).unwrap();
    let got: Vec<u32> = download(out, 2 * 34);
    for t in 0..34u32 {
        let want = if t >= 32 { 0 } else { 0b111u32.wrapping_shl(t) };
        assert_eq!(got[2 * t as usize], want, "bmsk.clamp of thread {t}");
        assert_eq!(got[2 * t as usize + 1], 6);
    }
}

/// Extended-precision multiply-add (CUB's and curand's 64-bit arithmetic): the carry of
/// `mad.lo.cc` goes into `madc.hi`, so `{hi, lo} = a * b + c` for 32-bit `a`, `b`, `c`.
const MAD_CARRY: &str = r#"
.visible .entry wide(
	.param .u64 wide_param_0
)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [wide_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 16;
	add.s64 	%rd2, %rd2, %rd3;
	ld.global.v2.u32 	{%r1, %r2}, [%rd2];
	ld.global.u32 	%r3, [%rd2+8];
	mad.lo.cc.u32 	%r4, %r1, %r2, %r3;
	madc.hi.u32 	%r5, %r1, %r2, 0;
	st.global.v2.u32 	[%rd2], {%r4, %r5};
	ret;
}
"#;

#[test]
fn multiply_add_carries_into_the_high_word() {
    let m = machine();
    let cases: [(u32, u32, u32); 4] = [
        (u32::MAX, u32::MAX, u32::MAX),
        (0x8000_0001, 3, 0x7fff_ffff),
        (12345, 678, 9),
        (0, 5, u32::MAX),
    ];
    let mut data = Vec::new();
    for (a, b, c) in cases {
        data.extend_from_slice(&[a, b, c, 0]);
    }
    let p = upload(&m, &data);
    run(&m, MAD_CARRY, "wide", 1, cases.len() as u32, &[p]).unwrap();
    let got: Vec<u32> = download(p, data.len());
    for (t, (a, b, c)) in cases.into_iter().enumerate() {
        let want = u64::from(a) * u64::from(b) + u64::from(c);
        let have = u64::from(got[4 * t]) | (u64::from(got[4 * t + 1]) << 32);
        assert_eq!(have, want, "{a} * {b} + {c}");
    }
}

/// Directed rounding (libdevice's `expf`, `powf`, `roundf` use it): 1 + 2^-30 rounds to 1 down
/// and toward zero and to the next float up; 1/3 in double down and up are one ulp apart; the
/// fused multiply-add rounds once, below 1 or to 1.
const DIRECTED: &str = r#"
.visible .entry rounding(
	.param .u64 rounding_param_0
)
{
	.reg .f32 	%f<12>;
	.reg .f64 	%fd<6>;
	.reg .b64 	%rd<3>;

	ld.param.u64 	%rd1, [rounding_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.f32 	%f1, 0f3F800000;
	mov.f32 	%f2, 0f30800000;
	add.rz.f32 	%f3, %f1, %f2;
	add.rm.f32 	%f4, %f1, %f2;
	add.rp.f32 	%f5, %f1, %f2;
	add.rn.f32 	%f6, %f1, %f2;
	mov.f32 	%f7, 0f3F800001;
	mov.f32 	%f8, 0f3F7FFFFE;
	fma.rm.f32 	%f9, %f7, %f8, 0f00000000;
	fma.rp.ftz.f32 	%f10, %f7, %f8, 0f00000000;
	sqrt.rp.f32 	%f11, 0f40000000;
	st.global.v4.f32 	[%rd2], {%f3, %f4, %f5, %f6};
	st.global.v2.f32 	[%rd2+16], {%f9, %f10};
	st.global.f32 	[%rd2+24], %f11;
	mov.f64 	%fd1, 0d3FF0000000000000;
	mov.f64 	%fd2, 0d4008000000000000;
	div.rm.f64 	%fd3, %fd1, %fd2;
	div.rp.f64 	%fd4, %fd1, %fd2;
	rcp.rz.f64 	%fd5, %fd2;
	st.global.f64 	[%rd2+32], %fd3;
	st.global.f64 	[%rd2+40], %fd4;
	st.global.f64 	[%rd2+48], %fd5;
	ret;
}
"#;

#[test]
fn directed_rounding_rounds_as_asked() {
    let m = machine();
    let out = upload(&m, &[0u64; 7]);
    run(&m, DIRECTED, "rounding", 1, 1, &[out]).unwrap();
    let w: Vec<u32> = download(out, 14);
    let one = 1.0f32.to_bits();
    assert_eq!(&w[..4], &[one, one, one + 1, one], "add .rz .rm .rp .rn");
    assert_eq!(&w[4..6], &[one - 1, one], "fma .rm .rp");
    let sqrt2 = 2.0f32.sqrt().to_bits();
    assert!(
        w[6] == sqrt2 || w[6] == sqrt2 + 1,
        "sqrt.rp is at or above sqrt(2)"
    );
    assert!(f32::from_bits(w[6]) as f64 >= 2.0f64.sqrt());
    let d: Vec<u64> = download(out + 32, 3);
    assert_eq!(d[1], d[0] + 1, "1/3 down and up");
    assert_eq!(d[2], d[0], "rcp.rz of 3 is 1/3 rounded down");
    assert!(f64::from_bits(d[0]) < 1.0 / 3.0 || f64::from_bits(d[1]) > 1.0 / 3.0);
}
