//! Kernels in PTX the way GCC's nvptx back end writes it (`gcc -foffload=nvptx-none`): indirect
//! calls through function pointers, vector registers, parameterized `.param` names, video
//! instructions, several modules linked into one, and warps that run in lockstep because the
//! PTX is for a target before sm_70.

mod common;

use common::{download, machine, upload};
use ptxsim::exec::thread::FaultKind;
use ptxsim::machine::{LaunchError, Machine};
use ptxsim::ptx::{link, parser};

/// GCC 12's default preamble.
const GCC: &str = ".version 6.0\n.target sm_30\n.address_size 64\n";
/// A Volta-and-later target, for comparison.
const VOLTA: &str = ".version 6.0\n.target sm_70\n.address_size 64\n";

/// Launches `kernel` of a loaded program with 8-byte arguments, one block of `block` threads.
fn launch(
    m: &Machine,
    program: &ptxsim::program::Program,
    kernel: &str,
    block: [u32; 3],
    args: &[u64],
) -> Result<ptxsim::exec::grid::Outcome, LaunchError> {
    let bytes: Vec<[u8; 8]> = args.iter().map(|a| a.to_le_bytes()).collect();
    let refs: Vec<&[u8]> = bytes.iter().map(|b| &b[..]).collect();
    let k = program.function_index[kernel];
    let params = Machine::parameters(program, k, &refs).unwrap();
    m.launch(program, kernel, [1, 1, 1], block, 0, &params)
}

fn run(
    m: &Machine,
    text: &str,
    kernel: &str,
    block: u32,
    args: &[u64],
) -> Result<ptxsim::exec::grid::Outcome, LaunchError> {
    let module = m
        .load(text)
        .unwrap_or_else(|e| panic!("PTX does not load: {e}"));
    launch(m, &module.program, kernel, [block, 1, 1], args)
}

fn fault(r: Result<ptxsim::exec::grid::Outcome, LaunchError>) -> ptxsim::exec::grid::LaunchFault {
    match r {
        Err(LaunchError::Fault(f)) => f,
        other => panic!("expected a fault, got {other:?}"),
    }
}

/// libgomp's way: the kernel passes an outlined function's address to a runtime function,
/// which calls it through a `.callprototype`. A table of function addresses in a `.global`
/// initializer selects the second function.
const INDIRECT: &str = r#"
.func twice (.param .u64 %in_ar0);
.func plus_one (.param .u64 %in_ar0);
.global .align 8 .u64 table[2] = { twice, plus_one };

.func call_it (.param .u64 %in_ar0, .param .u64 %in_ar1)
{
.reg .u64 %ar0;
.reg .u64 %ar1;
ld.param.u64 %ar0,[%in_ar0];
ld.param.u64 %ar1,[%in_ar1];
{
$LCT0:
.callprototype _ ( .param .u64 %in_ar0);
.param .u64 %out_arg1;
st.param.u64 [%out_arg1],%ar1;
call %ar0,(%out_arg1),$LCT0;
}
ret;
}

.func twice (.param .u64 %in_ar0)
{
.reg .u64 %ar0;
.reg .u32 %r<2>;
ld.param.u64 %ar0,[%in_ar0];
ld.u32 %r0,[%ar0];
add.u32 %r1,%r0,%r0;
st.u32 [%ar0],%r1;
ret;
}

.func plus_one (.param .u64 %in_ar0)
{
.reg .u64 %ar0;
.reg .u32 %r<2>;
ld.param.u64 %ar0,[%in_ar0];
ld.u32 %r0,[%ar0];
add.u32 %r1,%r0,1;
st.u32 [%ar0],%r1;
ret;
}

.visible .entry k (.param .u64 %arg, .param .u64 %bad)
{
.reg .u64 %R<4>;
mov.u64 %R0,twice;
ld.param.u64 %R1,[%arg];
{
.param .u64 %P<2>;
st.param.u64 [%P0],%R0;
st.param.u64 [%P1],%R1;
call.uni call_it,(%P0,%P1);
}
ld.global.u64 %R2,[table+8];
ld.param.u64 %R3,[%bad];
add.u64 %R2,%R2,%R3;
{
.param .u64 %P<2>;
st.param.u64 [%P0],%R2;
st.param.u64 [%P1],%R1;
call.uni call_it,(%P0,%P1);
}
ret;
}
"#;

#[test]
fn indirect_calls_reach_the_function_whose_address_was_taken() {
    let m = machine();
    let text = format!("{GCC}{INDIRECT}");
    let x = upload(&m, &[20u32]);
    run(&m, &text, "k", 1, &[x, 0]).unwrap();
    // (20 * 2) + 1
    assert_eq!(download::<u32>(x, 1), vec![41]);
}

#[test]
fn an_indirect_call_through_anything_else_faults_with_its_line() {
    let m = machine();
    let text = format!("{GCC}{INDIRECT}");
    let x = upload(&m, &[20u32]);
    let f = fault(run(&m, &text, "k", 1, &[x, 4]));
    assert_eq!(f.fault.kind, FaultKind::IllegalInstruction);
    assert!(
        f.fault.message.contains("not the address of a function"),
        "{}",
        f.fault.message
    );
    let line = text
        .lines()
        .position(|l| l.starts_with("call %ar0"))
        .unwrap() as u32
        + 1;
    assert_eq!(f.fault.line, line);
}

#[test]
fn an_indirect_call_of_another_signature_faults() {
    let m = machine();
    // The prototype takes two parameters; plus_one takes one.
    let text = format!("{GCC}{INDIRECT}").replace(
        ".callprototype _ ( .param .u64 %in_ar0);\n.param .u64 %out_arg1;\nst.param.u64 [%out_arg1],%ar1;\ncall %ar0,(%out_arg1),$LCT0;",
        ".callprototype _ ( .param .u64 %in_ar0, .param .u32 %in_ar1);\n.param .u64 %out_arg1;\n.param .u32 %out_arg2;\nst.param.u64 [%out_arg1],%ar1;\ncall %ar0,(%out_arg1,%out_arg2),$LCT0;",
    );
    let x = upload(&m, &[20u32]);
    let f = fault(run(&m, &text, "k", 1, &[x, 0]));
    assert_eq!(f.fault.kind, FaultKind::IllegalInstruction);
    assert!(f.fault.message.contains("twice"), "{}", f.fault.message);
}

#[test]
fn vector_registers_and_video_instructions() {
    let m = machine();
    let text = format!(
        "{GCC}{}",
        r#"
.visible .entry k (.param .u64 %arg)
{
.reg .u64 %R0;
.reg .v2 .u32 %v;
.reg .v4 .u32 %w;
.reg .u32 %r<4>;
ld.param.u64 %R0,[%arg];
mov.v2.u32 %v,{ 7,-1 };
mov.u32 %v.y,%v.x;
st.v2.u32 [%R0],%v;
ld.v2.u32 %v,[%R0];
mov.v4.u32 %w,{ 1,2,3,4 };
mov.u32 %w.w,%v.y;
st.v4.u32 [%R0+16],%w;
mov.u32 %r0,5;
mov.u32 %r1,9;
mov.u32 %r2,100;
vsub.u32.u32.u32.add %r3,%r0,%r1,%r2;
st.u32 [%R0+8],%r3;
vsub.s32.s32.s32.sat %r3,-2147483647,%r1;
st.u32 [%R0+12],%r3;
ret;
}
"#
    );
    let out = upload(&m, &[0u32; 8]);
    run(&m, &text, "k", 1, &[out]).unwrap();
    let got: Vec<u32> = download(out, 8);
    assert_eq!(got[..2], [7, 7]);
    // 5 - 9 + 100, then -2147483647 - 9 saturated to i32::MIN.
    assert_eq!(got[2], 96);
    assert_eq!(got[3], i32::MIN as u32);
    assert_eq!(got[4..], [1, 2, 3, 7]);
}

#[test]
fn a_vector_register_of_the_wrong_size_is_refused() {
    let m = machine();
    let text = format!(
        "{GCC}.visible .entry k (.param .u64 %arg)\n{{\n.reg .u64 %R0;\n.reg .v2 .u32 %v;\nld.param.u64 %R0,[%arg];\nst.v4.u32 [%R0],%v;\nret;\n}}\n"
    );
    let e = m.load(&text).err().expect("refused");
    assert_eq!(e.line, 9);
    assert!(e.message.contains("2 elements"), "{}", e.message);
}

/// Every lane reads a counter, adds one and writes it back, with no atomics: what GCC's
/// uniform-SIMT code does with the state all lanes of a warp share.
const COUNTER: &str = r#"
.visible .entry k (.param .u64 %arg)
{
.reg .u64 %R0;
.reg .u32 %r<4>;
.reg .pred %p;
ld.param.u64 %R0,[%arg];
mov.u32 %r2,%tid.x;
and.b32 %r3,%r2,1;
setp.eq.u32 %p,%r3,0;
@ %p bra $Leven;
add.u32 %r3,%r3,10;
bra $Ljoin;
$Leven:
add.u32 %r3,%r3,20;
$Ljoin:
ld.u32 %r0,[%R0];
add.u32 %r1,%r0,1;
st.u32 [%R0],%r1;
ret;
}
"#;

#[test]
fn warps_of_pre_volta_targets_run_in_lockstep() {
    let m = machine();
    // The lanes diverge (odd and even ones), meet again, then each reads the counter before
    // any writes it: one increment per warp.
    let c = upload(&m, &[0u32]);
    run(&m, &format!("{GCC}{COUNTER}"), "k", 64, &[c]).unwrap();
    assert_eq!(download::<u32>(c, 1), vec![2]);
    // From sm_70 on, threads are scheduled independently: here one after another.
    let c = upload(&m, &[0u32]);
    run(&m, &format!("{VOLTA}{COUNTER}"), "k", 64, &[c]).unwrap();
    assert_eq!(download::<u32>(c, 1), vec![64]);
}

#[test]
fn lockstep_lanes_inside_a_call_run_before_those_that_returned() {
    let m = machine();
    // Lane 0 calls a function that loops; the others skip the call. All meet after it and
    // then read and write the counter together.
    let text = format!(
        "{GCC}{}",
        r#"
.func spin (.param .u32 %in_ar0)
{
.reg .u32 %r<2>;
.reg .pred %p;
ld.param.u32 %r0,[%in_ar0];
$Lloop:
sub.u32 %r0,%r0,1;
setp.ne.u32 %p,%r0,0;
@ %p bra $Lloop;
ret;
}
.visible .entry k (.param .u64 %arg)
{
.reg .u64 %R0;
.reg .u32 %r<3>;
.reg .pred %p;
ld.param.u64 %R0,[%arg];
mov.u32 %r2,%tid.x;
setp.ne.u32 %p,%r2,0;
@ %p bra $Lskip;
{
.param .u32 %out_arg1;
st.param.u32 [%out_arg1],100;
call spin,(%out_arg1);
}
$Lskip:
ld.u32 %r0,[%R0];
add.u32 %r1,%r0,1;
st.u32 [%R0],%r1;
ret;
}
"#
    );
    let c = upload(&m, &[0u32]);
    run(&m, &text, "k", 32, &[c]).unwrap();
    assert_eq!(download::<u32>(c, 1), vec![1]);
}

#[test]
fn uniform_simt_broadcasts_what_lane_zero_did() {
    let m = machine();
    // GCC's -muniform-simt: only lane 0 does the atomic; a full-mask shuffle gives every lane
    // its result; a bar.warp.sync follows side effects.
    let text = format!(
        "{GCC}{}",
        r#"
.visible .entry k (.param .u64 %arg, .param .u64 %out)
{
.reg .u64 %R<3>;
.reg .u32 %r<4>;
.reg .pred %p<2>;
ld.param.u64 %R0,[%arg];
ld.param.u64 %R1,[%out];
mov.u32 %r0,%laneid;
setp.eq.u32 %p0,%r0,0;
@ %p0 atom.add.u32 %r1,[%R0],5;
shfl.sync.idx.b32 %r1,%r1,0,31,0xffffffff;
@ %p0 membar.sys;
bar.warp.sync 0xffffffff;
mov.u32 %r2,%tid.x;
mul.wide.u32 %R2,%r2,4;
add.u64 %R2,%R1,%R2;
st.u32 [%R2],%r1;
ret;
}
"#
    );
    let c = upload(&m, &[7u32]);
    let out = upload(&m, &[0u32; 64]);
    run(&m, &text, "k", 64, &[c, out]).unwrap();
    let got: Vec<u32> = download(out, 64);
    let mut seen: Vec<u32> = got.clone();
    seen.sort();
    seen.dedup();
    // One atomic per warp; each warp's lanes all see their lane 0's result.
    assert_eq!(seen, vec![7, 12]);
    assert!(got[..32].iter().all(|v| *v == got[0]));
    assert!(got[32..].iter().all(|v| *v == got[32]));
    assert_eq!(download::<u32>(c, 1), vec![17]);
}

#[test]
fn linked_modules_resolve_externs_weak_definitions_and_locals() {
    let m = machine();
    // The program (as mkoffload writes it) and a "library" defining what it declares.
    let program = format!(
        "{GCC}{}",
        r#"
.extern .func (.param .u32 %value_out) lib_get (.param .u32 %in_ar0);
.extern .global .align 4 .u32 lib_var[1];
.extern .shared .u32 __nvptx_uni[32];
.const .align 4 .u32 $LC0[1] = { 1000 };
.weak .global .align 4 .u32 knob[1] = { 1 };
.visible .entry k (.param .u64 %arg)
{
.reg .u64 %R<2>;
.reg .u32 %r<5>;
ld.param.u64 %R0,[%arg];
{
.param .u32 %value_in;
.param .u32 %out_arg1;
st.param.u32 [%out_arg1],3;
call (%value_in),lib_get,(%out_arg1);
ld.param.u32 %r0,[%value_in];
}
ld.global.u32 %r1,[lib_var];
ld.const.u32 %r2,[$LC0];
ld.global.u32 %r3,[knob];
mov.u64 %R1,__nvptx_uni;
st.shared.u32 [%R1],%r3;
ld.shared.u32 %r4,[__nvptx_uni];
st.u32 [%R0],%r0;
st.u32 [%R0+4],%r1;
st.u32 [%R0+8],%r2;
st.u32 [%R0+12],%r4;
ret;
}
"#
    );
    let library = format!(
        "{GCC}{}",
        r#"
.const .align 4 .u32 $LC0[1] = { 7 };
.visible .global .align 4 .u32 lib_var[1] = { 42 };
.visible .global .align 4 .u32 knob[1] = { 2 };
.visible .shared .align 4 .u32 __nvptx_uni[32];
.visible .func (.param .u32 %value_out) lib_get (.param .u32 %in_ar0)
{
.reg .u32 %r<3>;
ld.param.u32 %r0,[%in_ar0];
ld.const.u32 %r1,[$LC0];
mul.lo.u32 %r2,%r0,%r1;
st.param.u32 [%value_out],%r2;
ret;
}
"#
    );
    let inputs = vec![
        parser::parse(&program).unwrap(),
        parser::parse(&library).unwrap(),
    ];
    let linked = link::link(inputs).unwrap();
    let module = m.load_module(&linked).unwrap();
    let out = upload(&m, &[0u32; 4]);
    launch(&m, &module.program, "k", [32, 1, 1], &[out]).unwrap();
    // 3 * the library's $LC0; its variable; the program's own $LC0; the strong knob.
    assert_eq!(download::<u32>(out, 4), vec![21, 42, 1000, 2]);
    // __nvptx_uni is the library's static shared array, not dynamic shared memory.
    assert_eq!(module.program.shared_bytes, 128);
}

#[test]
fn link_and_load_errors_name_the_input_and_line() {
    let m = machine();
    let a = format!("{GCC}.extern .func f;\n.visible .entry k ()\n{{\ncall f;\nret;\n}}\n");
    let b = format!("{GCC}.visible .func f ()\n{{\nvabsdiff.u32.u32.u32 %r1,%r2,%r3;\nret;\n}}\n");
    let linked = link::link(vec![parser::parse(&a).unwrap(), parser::parse(&b).unwrap()]).unwrap();
    let e = m.load_module(&linked).err().expect("refused");
    assert_eq!((e.input, e.line), (2, 6));
    let c = format!("{GCC}.extern .func g;\n.visible .entry k ()\n{{\ncall g;\nret;\n}}\n");
    let linked = link::link(vec![parser::parse(&c).unwrap()]).unwrap();
    let e = m.load_module(&linked).err().expect("refused");
    assert_eq!((e.input, e.line), (1, 7));
    assert!(e.message.contains("'g'"), "{}", e.message);
}

/// GCC packs a `.v2 .u32` register into a 64-bit one with `mov.b64` (and unpacks it the same
/// way), and takes the generic address of a frame variable with `cvta.local`.
#[test]
fn vector_mov_packs_and_unpacks_and_cvta_local_gives_a_usable_address() {
    let m = machine();
    let text = format!(
        "{GCC}{}",
        r#"
.visible .entry k (.param .u64 %arg)
{
.reg .u64 %R<3>;
.reg .v2 .u32 %v;
.reg .u32 %r0;
.local .align 8 .b8 %frame_ar[16];
ld.param.u64 %R0,[%arg];
mov.v2.u32 %v,{ 3,5 };
mov.b64 %R1,%v;
st.u64 [%R0],%R1;
add.u64 %R1,%R1,4294967296;
mov.b64 %v,%R1;
st.u32 [%R0+8],%v.y;
cvta.local.u64 %R2,%frame_ar;
st.u32 [%R2+4],%v.x;
ld.u32 %r0,[%R2+4];
st.u32 [%R0+12],%r0;
ret;
}
"#
    );
    let out = upload(&m, &[0u32; 4]);
    run(&m, &text, "k", 1, &[out]).unwrap();
    let got: Vec<u32> = download(out, 4);
    // x is the low word; adding 2^32 bumps y; the store through the generic frame address
    // reads back.
    assert_eq!(got, [3, 5, 6, 3]);
}
