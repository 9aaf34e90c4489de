//! Unit tests: each rewrite on small modules parsed from text.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::targets::TargetTriple;

use super::*;

const X86_DL: &str =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
const X86_TRIPLE: &str = "x86_64-unknown-linux-gnu";

/// Lower `src`; the result and the printed module (whatever state it is in).
fn lower(src: &str) -> (Result<EmuLowering>, String) {
    let ctx = Context::create();
    // The copy is NUL-terminated, which LLVM's lexer relies on (also for its error messages).
    let buf = MemoryBuffer::create_from_memory_range_copy(src.as_bytes(), "test.ll");
    let m = match ctx.create_module_from_ir(buf) {
        Ok(m) => m,
        Err(e) => panic!("test input does not parse: {}\n{src}", e.to_string()),
    };
    let r = lower_for_emulator(&m, &TargetTriple::create(X86_TRIPLE), X86_DL);
    let text = m.print_to_string().to_string();
    (r, text)
}

fn lower_ok(src: &str) -> (EmuLowering, String) {
    let (r, text) = lower(src);
    match r {
        Ok(l) => (l, text),
        Err(e) => panic!("lowering failed: {e:#}\n{text}"),
    }
}

fn lower_err(src: &str) -> String {
    match lower(src).0 {
        Ok(_) => panic!("lowering should have failed"),
        Err(e) => format!("{e:#}"),
    }
}

/// A module with kernel `@k(ptr %out)` whose body is `body` (which must end in `ret void`).
fn kernel(body: &str, rest: &str) -> String {
    format!(
        "target triple = \"nvptx64-nvidia-cuda\"\n\
         define void @k(ptr %out) {{\n{body}\n}}\n{rest}\n\
         !nvvm.annotations = !{{!0}}\n!0 = !{{ptr @k, !\"kernel\", i32 1}}\n"
    )
}

#[track_caller]
fn has(text: &str, needle: &str) {
    assert!(text.contains(needle), "expected `{needle}` in:\n{text}");
}

#[track_caller]
fn lacks(text: &str, needle: &str) {
    assert!(
        !text.contains(needle),
        "did not expect `{needle}` in:\n{text}"
    );
}

/// The body of `define ... @name(` up to its closing brace.
fn body_of<'a>(text: &'a str, name: &str) -> &'a str {
    let start = text
        .find(&format!("@{name}("))
        .and_then(|p| text[..p].rfind("define "))
        .unwrap_or_else(|| panic!("no definition of @{name} in:\n{text}"));
    let end = text[start..]
        .find("\n}\n")
        .map(|e| start + e + 3)
        .unwrap_or(text.len());
    &text[start..end]
}

// ---- special registers ----

#[test]
fn every_special_register_maps_to_its_abi_index_and_range() {
    let regs = [
        ("tid.x", 0, "0, i32 1024"),
        ("tid.y", 1, "0, i32 1024"),
        ("tid.z", 2, "0, i32 64"),
        ("ntid.x", 3, "1, i32 1025"),
        ("ntid.y", 4, "1, i32 1025"),
        ("ntid.z", 5, "1, i32 65"),
        ("ctaid.x", 6, "0, i32 2147483647"),
        ("ctaid.y", 7, "0, i32 65535"),
        ("ctaid.z", 8, "0, i32 65535"),
        ("nctaid.x", 9, "1, i32 -2147483648"),
        ("nctaid.y", 10, "1, i32 65536"),
        ("nctaid.z", 11, "1, i32 65536"),
        ("laneid", 12, "0, i32 32"),
        ("warpsize", 13, "32, i32 33"),
    ];
    for (reg, which, range) in regs {
        let src = kernel(
            &format!(
                "  %r = call i32 @llvm.nvvm.read.ptx.sreg.{reg}()\n  store i32 %r, ptr %out\n  ret void"
            ),
            &format!("declare i32 @llvm.nvvm.read.ptx.sreg.{reg}()"),
        );
        let (l, text) = lower_ok(&src);
        has(
            &text,
            &format!("%r = call i32 @__ptxemu_sreg(i32 {which}), !range !"),
        );
        has(&text, &format!("!{{i32 {range}}}"));
        lacks(&text, "llvm.nvvm");
        has(&text, "declare noundef i32 @__ptxemu_sreg(i32) #");
        has(&text, "memory(none)");
        has(&text, "nounwind");
        has(&text, "willreturn");
        assert!(!l.kernels[0].needs_sync, "reading {reg} does not need sync");
    }
}

#[test]
fn lanemask_and_clock_are_computed_on_the_host() {
    let src = kernel(
        "  %lt = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()\n\
         \x20 %c = call i64 @llvm.nvvm.read.ptx.sreg.clock64()\n\
         \x20 %c32 = trunc i64 %c to i32\n  %s = add i32 %lt, %c32\n  store i32 %s, ptr %out\n  ret void",
        "declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()\ndeclare i64 @llvm.nvvm.read.ptx.sreg.clock64()",
    );
    let (_, text) = lower_ok(&src);
    has(&text, "@__ptxemu_sreg(i32 12)");
    has(&text, "shl i32 1, %laneid");
    has(&text, "%lt = sub i32 %lanemask, 1");
    has(&text, "%c = call i64 @llvm.readcyclecounter()");
}

// ---- barriers, warp sync, fences, trap ----

#[test]
fn barriers_become_convergent_calls() {
    let src = kernel(
        "  call void @llvm.nvvm.barrier0()\n  call void @llvm.nvvm.barrier.sync(i32 0)\n\
         \x20 call void @llvm.nvvm.bar.sync(i32 0)\n  call void @llvm.nvvm.bar.warp.sync(i32 -1)\n  ret void",
        "declare void @llvm.nvvm.barrier0()\ndeclare void @llvm.nvvm.barrier.sync(i32)\n\
         declare void @llvm.nvvm.bar.sync(i32)\ndeclare void @llvm.nvvm.bar.warp.sync(i32)",
    );
    let (l, text) = lower_ok(&src);
    let k = body_of(&text, "__ptxemu.k");
    assert_eq!(
        k.matches("call void @__ptxemu_barrier() #").count(),
        3,
        "{k}"
    );
    has(k, "call void @__ptxemu_warp_sync(i32 -1) #");
    has(&text, "declare void @__ptxemu_barrier() #");
    has(&text, "convergent nounwind");
    lacks(&text, "llvm.nvvm");
    assert!(l.kernels[0].needs_sync);
}

#[test]
fn membar_becomes_a_system_fence_and_gpu_scopes_become_system() {
    let src = kernel(
        "  call void @llvm.nvvm.membar.gl()\n  fence syncscope(\"block\") acquire\n\
         \x20 %o = atomicrmw add ptr %out, i32 1 syncscope(\"device\") monotonic\n\
         \x20 %p = cmpxchg ptr %out, i32 0, i32 1 syncscope(\"block\") acq_rel monotonic\n\
         \x20 store atomic i32 2, ptr %out syncscope(\"device\") release, align 4\n\
         \x20 fence syncscope(\"singlethread\") seq_cst\n  ret void",
        "declare void @llvm.nvvm.membar.gl()",
    );
    let (l, text) = lower_ok(&src);
    has(&text, "fence seq_cst\n");
    has(&text, "fence acquire\n");
    has(&text, "atomicrmw add ptr %out, i32 1 monotonic");
    has(&text, "cmpxchg ptr %out, i32 0, i32 1 acq_rel monotonic");
    has(&text, "store atomic i32 2, ptr %out release, align 4");
    has(&text, "fence syncscope(\"singlethread\") seq_cst");
    lacks(&text, "\"block\"");
    lacks(&text, "\"device\"");
    assert!(
        !l.kernels[0].needs_sync,
        "fences and atomics do not need fibers"
    );
}

#[test]
fn trap_calls_the_runtime() {
    let src = kernel(
        "  call void @llvm.trap()\n  unreachable",
        "declare void @llvm.trap()",
    );
    let (_, text) = lower_ok(&src);
    has(&text, "call void @__ptxemu_trap()\n  unreachable");
    has(&text, "declare void @__ptxemu_trap() #");
    has(&text, "cold noreturn nounwind");
    lacks(&text, "llvm.trap");
}

#[test]
fn barrier_reductions_use_a_hidden_shared_counter() {
    let src = kernel(
        "  %n = call i32 @llvm.nvvm.barrier0.popc(i32 1)\n  %a = call i32 @llvm.nvvm.barrier0.and(i32 %n)\n\
         \x20 store i32 %a, ptr %out\n  ret void",
        "declare i32 @llvm.nvvm.barrier0.popc(i32)\ndeclare i32 @llvm.nvvm.barrier0.and(i32)",
    );
    let (l, text) = lower_ok(&src);
    let k = body_of(&text, "__ptxemu.k");
    assert_eq!(k.matches("@__ptxemu_barrier()").count(), 6, "{k}");
    has(k, "atomicrmw add ptr %__ptxemu.barrier_reduce");
    has(
        k,
        "%n = load atomic i32, ptr %__ptxemu.barrier_reduce monotonic",
    );
    has(k, "icmp eq i32 %reduce.count");
    assert_eq!(l.kernels[0].shared_bytes, 4);
    assert!(l.kernels[0].needs_sync);
}

// ---- shuffles and votes ----

#[test]
fn shuffles_pass_mode_and_bitcast_floats() {
    let src = kernel(
        "  %a = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 7, i32 3, i32 31)\n\
         \x20 %b = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %a, i32 1, i32 0)\n\
         \x20 %c = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %b, i32 2, i32 31)\n\
         \x20 %f = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 65535, float 1.0, i32 4, i32 31)\n\
         \x20 %g = call i32 @llvm.nvvm.shfl.down.i32(i32 %c, i32 1, i32 31)\n\
         \x20 %fi = bitcast float %f to i32\n  %s = add i32 %g, %fi\n  store i32 %s, ptr %out\n  ret void",
        "declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)\n\
         declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)\n\
         declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)\n\
         declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)\n\
         declare i32 @llvm.nvvm.shfl.down.i32(i32, i32, i32)",
    );
    let (l, text) = lower_ok(&src);
    has(
        &text,
        "%a = call i32 @__ptxemu_shfl_sync(i32 -1, i32 7, i32 3, i32 31, i32 0) #",
    );
    has(
        &text,
        "%b = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %a, i32 1, i32 0, i32 1) #",
    );
    has(
        &text,
        "%c = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %b, i32 2, i32 31, i32 2) #",
    );
    // A constant float is folded to its bits; the result comes back through a bitcast.
    has(
        &text,
        "call i32 @__ptxemu_shfl_sync(i32 65535, i32 1065353216, i32 4, i32 31, i32 3) #",
    );
    has(&text, "%f = bitcast i32 %shfl to float");
    // The pre-Volta form shuffles among all 32 lanes.
    has(
        &text,
        "%g = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %c, i32 1, i32 31, i32 2) #",
    );
    has(
        &text,
        "declare i32 @__ptxemu_shfl_sync(i32, i32, i32, i32, i32) #",
    );
    assert!(l.kernels[0].needs_sync);
}

#[test]
fn shuffle_predicate_forms_compute_the_in_range_bit() {
    let src = kernel(
        "  %p = call { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 -1, i32 5, i32 1, i32 0)\n\
         \x20 %v = extractvalue { i32, i1 } %p, 0\n  %ok = extractvalue { i32, i1 } %p, 1\n\
         \x20 %r = select i1 %ok, i32 %v, i32 0\n  store i32 %r, ptr %out\n  ret void",
        "declare { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32, i32, i32, i32)",
    );
    let (_, text) = lower_ok(&src);
    has(
        &text,
        "call i32 @__ptxemu_shfl_sync(i32 -1, i32 5, i32 1, i32 0, i32 1)",
    );
    has(&text, "@__ptxemu_sreg(i32 12)");
    has(&text, "icmp sge i32 %shfl.src, %shfl.maxlane");
    has(&text, "%p = insertvalue { i32, i1 }");
}

#[test]
fn votes_widen_the_predicate_and_narrow_the_answer() {
    let src = kernel(
        "  %c = icmp eq ptr %out, null\n\
         \x20 %all = call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %c)\n\
         \x20 %any = call i1 @llvm.nvvm.vote.any(i1 %all)\n\
         \x20 %uni = call i1 @llvm.nvvm.vote.uni.sync(i32 3, i1 %any)\n\
         \x20 %bal = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %uni)\n\
         \x20 store i32 %bal, ptr %out\n  ret void",
        "declare i1 @llvm.nvvm.vote.all.sync(i32, i1)\ndeclare i1 @llvm.nvvm.vote.any(i1)\n\
         declare i1 @llvm.nvvm.vote.uni.sync(i32, i1)\ndeclare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)",
    );
    let (l, text) = lower_ok(&src);
    has(&text, "%vote.pred = zext i1 %c to i32");
    has(
        &text,
        "call i32 @__ptxemu_vote_sync(i32 -1, i32 %vote.pred, i32 0) #",
    );
    has(&text, "%all = icmp ne i32 %vote, 0");
    has(&text, "%vote.pred1 = zext i1 %all to i32");
    has(
        &text,
        "call i32 @__ptxemu_vote_sync(i32 -1, i32 %vote.pred1, i32 1) #",
    );
    has(
        &text,
        "call i32 @__ptxemu_vote_sync(i32 3, i32 %vote.pred3, i32 2) #",
    );
    has(
        &text,
        "%bal = call i32 @__ptxemu_vote_sync(i32 -1, i32 %vote.pred5, i32 3) #",
    );
    assert!(l.kernels[0].needs_sync);
}

// ---- unsupported operations are diagnosed ----

#[test]
fn unsupported_intrinsics_and_inline_ptx_are_errors() {
    let e = lower_err(&kernel(
        "  %s = call i32 @llvm.nvvm.read.ptx.sreg.smid()\n  store i32 %s, ptr %out\n  ret void",
        "declare i32 @llvm.nvvm.read.ptx.sreg.smid()",
    ));
    assert!(e.contains("in @k") && e.contains("smid"), "{e}");
    let e = lower_err(&kernel(
        "  %x = call i1 @llvm.nvvm.isspacep.shared(ptr %out)\n  ret void",
        "declare i1 @llvm.nvvm.isspacep.shared(ptr)",
    ));
    assert!(
        e.contains("@llvm.nvvm.isspacep.shared") && e.contains("in @k"),
        "{e}"
    );
    let e = lower_err(&kernel(
        "  call void asm sideeffect \"red.global.add.u32 [$0], 1;\", \"l\"(ptr %out)\n  ret void",
        "",
    ));
    assert!(e.contains("inline PTX assembly"), "{e}");
}

#[test]
fn inline_ptx_barriers_are_recognised_and_empty_asm_stays() {
    let src = kernel(
        "  call void asm sideeffect \"bar.sync 0;\", \"\"()\n  call void asm sideeffect \"membar.gl;\", \"~{memory}\"()\n\
         \x20 call void asm sideeffect \"\", \"~{memory}\"()\n  ret void",
        "",
    );
    let (l, text) = lower_ok(&src);
    has(&text, "call void @__ptxemu_barrier()");
    has(&text, "fence seq_cst");
    has(&text, "call void asm sideeffect \"\", \"~{memory}\"()");
    assert!(l.kernels[0].needs_sync);
}

// ---- needs_sync through the call graph ----

#[test]
fn needs_sync_follows_call_chains_and_indirect_calls() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
define internal void @leaf() {
  call void @llvm.nvvm.barrier0()
  ret void
}
define internal void @middle() {
  call void @leaf()
  ret void
}
define internal void @plain() {
  ret void
}
define void @sync_kernel(ptr %p) {
  call void @middle()
  ret void
}
define void @plain_kernel(ptr %p) {
  call void @plain()
  ret void
}
define void @indirect_kernel(ptr %p) {
  %f = load ptr, ptr %p
  call void %f()
  ret void
}
@table = internal global ptr @middle
declare void @llvm.nvvm.barrier0()
!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @sync_kernel, !"kernel", i32 1}
!1 = !{ptr @plain_kernel, !"kernel", i32 1}
!2 = !{ptr @indirect_kernel, !"kernel", i32 1}
"#;
    let (l, _) = lower_ok(src);
    let sync: Vec<(&str, bool)> = l
        .kernels
        .iter()
        .map(|k| (k.kernel.as_str(), k.needs_sync))
        .collect();
    assert_eq!(
        sync,
        vec![
            ("sync_kernel", true),
            ("plain_kernel", false),
            ("indirect_kernel", true)
        ]
    );
}

// ---- shared memory ----

#[test]
fn shared_layout_honours_alignment_and_overlaps_only_across_kernels() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
@a = internal addrspace(3) global i8 undef, align 1
@b = internal addrspace(3) global [3 x double] undef, align 8
@c = internal addrspace(3) global i32 undef, align 4
@other = internal addrspace(3) global [10 x i32] undef, align 16
@both = internal addrspace(3) global i16 undef, align 2

define internal void @use_b(i32 %i) {
  %p = getelementptr [3 x double], ptr addrspace(3) @b, i32 0, i32 %i
  store double 1.0, ptr addrspace(3) %p, align 8
  ret void
}
define void @k1(ptr %out) {
  store i8 1, ptr addrspace(3) @a, align 1
  call void @use_b(i32 2)
  store i32 3, ptr addrspacecast (ptr addrspace(3) @c to ptr), align 4
  store i16 4, ptr addrspace(3) @both, align 2
  ret void
}
define void @k2(ptr %out) {
  store i32 5, ptr addrspace(3) @other, align 16
  store i16 6, ptr addrspace(3) @both, align 2
  ret void
}
define void @k3(ptr %out) {
  ret void
}
!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @k1, !"kernel", i32 1}
!1 = !{ptr @k2, !"kernel", i32 1}
!2 = !{ptr @k3, !"kernel", i32 1}
"#;
    let (l, text) = lower_ok(src);
    let lay: Vec<(&str, u64, u64)> = l
        .shared
        .iter()
        .map(|s| (s.name.as_str(), s.offset, s.size))
        .collect();
    // k1 holds a, b, c, both: a@0, b@8 (align 8), c fills the hole at 4. k2 holds other and
    // both: other reuses k1-only bytes (offset 0); both, reached by both kernels, clears them all.
    assert_eq!(
        lay,
        vec![
            ("a", 0, 1),
            ("b", 8, 24),
            ("c", 4, 4),
            ("other", 0, 40),
            ("both", 40, 2)
        ]
    );
    let bytes: Vec<u32> = l.kernels.iter().map(|k| k.shared_bytes).collect();
    assert_eq!(bytes, vec![42, 42, 0]);
    // The helper reached through a call addresses @b itself.
    let helper = body_of(&text, "__ptxemu.use_b");
    has(helper, "%ptxemu.shared = call ptr @__ptxemu_shared_base()");
    has(
        helper,
        "%b = getelementptr inbounds i8, ptr %ptxemu.shared, i64 8",
    );
    has(
        helper,
        "%p = getelementptr [3 x double], ptr %b, i32 0, i32 %i",
    );
    has(helper, "store double 1.000000e+00, ptr %p, align 8");
    let k1 = body_of(&text, "__ptxemu.k1");
    has(k1, "store i32 3, ptr %c, align 4");
    has(
        k1,
        "%both = getelementptr inbounds i8, ptr %ptxemu.shared, i64 40",
    );
    lacks(&text, "addrspace");
    lacks(&text, "@a ");
}

#[test]
fn over_aligned_shared_memory_realigns_the_base() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
@v = internal addrspace(3) global <8 x float> undef, align 64
define void @k(ptr %out) {
  store <8 x float> zeroinitializer, ptr addrspace(3) @v, align 64
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"#;
    let (l, text) = lower_ok(src);
    has(&text, "getelementptr i8, ptr %ptxemu.shared, i64 63");
    has(
        &text,
        "call ptr @llvm.ptrmask.p0.i64(ptr %ptxemu.shared.up, i64 -64)",
    );
    // 32 bytes + up to 48 bytes to reach 64-byte alignment from a 16-byte aligned base.
    assert_eq!(l.kernels[0].shared_bytes, 32 + 48);
}

#[test]
fn shared_constant_expressions_become_instructions_even_in_phis() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
@s = internal addrspace(3) global [4 x i32] undef, align 4
define void @k(ptr %out, i64 %c) {
entry:
  %z = icmp eq i64 %c, 0
  switch i64 %c, label %a [ i64 1, label %b
                            i64 2, label %b ]
a:
  br label %b
b:
  %p = phi ptr [ addrspacecast (ptr addrspace(3) getelementptr inbounds ([4 x i32], ptr addrspace(3) @s, i32 0, i32 2) to ptr), %entry ], [ addrspacecast (ptr addrspace(3) getelementptr inbounds ([4 x i32], ptr addrspace(3) @s, i32 0, i32 2) to ptr), %entry ], [ %out, %a ]
  store i32 1, ptr %p, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"#;
    let (_, text) = lower_ok(src);
    has(
        &text,
        "%0 = getelementptr inbounds [4 x i32], ptr %s, i32 0, i32 2",
    );
    has(
        &text,
        "%p = phi ptr [ %0, %entry ], [ %0, %entry ], [ %out, %a ]",
    );
    lacks(&text, "addrspace");
}

#[test]
fn bad_shared_variables_are_errors() {
    let e = lower_err(&kernel(
        "  store i32 1, ptr addrspace(3) @d, align 4\n  ret void",
        "@d = external addrspace(3) global [0 x i32]",
    ));
    assert!(
        e.contains("@d") && e.contains("dynamic shared memory"),
        "{e}"
    );
    let e = lower_err(&kernel(
        "  store i32 1, ptr addrspace(3) @i, align 4\n  ret void",
        "@i = internal addrspace(3) global i32 7",
    ));
    assert!(e.contains("@i") && e.contains("initializer"), "{e}");
    let e = lower_err(&kernel(
        "  store i32 1, ptr addrspace(3) @s, align 4\n  ret void",
        "@s = internal addrspace(3) global i32 undef\n@p = global ptr addrspace(3) @s",
    ));
    assert!(e.contains("@p") && e.contains("shared"), "{e}");
}

// ---- other address spaces ----

#[test]
fn global_constant_and_local_address_spaces_become_generic() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global [4 x i32] zeroinitializer, align 4
@c = internal addrspace(4) constant i32 42, align 4
define internal ptr addrspace(1) @pick(ptr addrspace(1) %p, i1 %which) {
  %q = getelementptr inbounds i32, ptr addrspace(1) %p, i64 1
  %r = select i1 %which, ptr addrspace(1) %p, ptr addrspace(1) %q
  ret ptr addrspace(1) %r
}
define void @k(ptr addrspace(1) %out, i1 %w) {
entry:
  %slot = alloca ptr addrspace(1), align 8, addrspace(5)
  %gen = addrspacecast ptr addrspace(5) %slot to ptr
  store ptr addrspace(1) %out, ptr %gen, align 8
  %ld = load ptr addrspace(1), ptr addrspace(5) %slot, align 8
  %p = call ptr addrspace(1) @pick(ptr addrspace(1) %ld, i1 %w)
  br i1 %w, label %a, label %b
a:
  br label %b
b:
  %phi = phi ptr addrspace(1) [ %p, %entry ], [ getelementptr inbounds ([4 x i32], ptr addrspace(1) @g, i64 0, i64 2), %a ]
  %cv = load i32, ptr addrspace(4) @c, align 4
  store i32 %cv, ptr addrspace(1) %phi, align 4
  %isnull = icmp eq ptr addrspace(1) %phi, null
  %int = ptrtoint ptr addrspace(1) %phi to i64
  call void @llvm.memcpy.p1.p4.i64(ptr addrspace(1) %out, ptr addrspace(4) @c, i64 4, i1 false)
  ret void
}
declare void @llvm.memcpy.p1.p4.i64(ptr addrspace(1), ptr addrspace(4), i64, i1)
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"#;
    let (l, text) = lower_ok(src);
    lacks(&text, "addrspace");
    has(
        &text,
        "@__ptxemu.g = hidden global [4 x i32] zeroinitializer, align 4",
    );
    has(&text, "@__ptxemu.c = internal constant i32 42, align 4");
    has(
        &text,
        "define internal ptr @__ptxemu.pick(ptr %p, i1 %which)",
    );
    has(&text, "%r = select i1 %which, ptr %p, ptr %q");
    has(&text, "ret ptr %r");
    has(&text, "define internal void @__ptxemu.k(ptr %out, i1 %w)");
    has(&text, "%slot = alloca ptr, align 8");
    has(&text, "store ptr %out, ptr %slot, align 8");
    has(&text, "%ld = load ptr, ptr %slot, align 8");
    has(&text, "%p = call ptr @__ptxemu.pick(ptr %ld, i1 %w)");
    has(&text, "%phi = phi ptr [ %p, %entry ], [ getelementptr inbounds ([4 x i32], ptr @__ptxemu.g, i64 0, i64 2), %a ]");
    has(&text, "%cv = load i32, ptr @__ptxemu.c, align 4");
    has(&text, "%isnull = icmp eq ptr %phi, null");
    has(&text, "%int = ptrtoint ptr %phi to i64");
    has(
        &text,
        "call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr @__ptxemu.c, i64 4, i1 false)",
    );
    has(&text, "call void @__ptxemu.k(ptr %out, i1 %w)");
    assert_eq!(
        l.globals,
        vec![EmuGlobal {
            device_name: "g".into(),
            emu_name: "__ptxemu.g".into(),
            size: 16
        }]
    );
}

#[test]
fn pointer_cycles_atomics_and_debug_info_survive_flattening() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr addrspace(1) %base, i64 %n) !dbg !5 {
entry:
  %end = getelementptr inbounds i32, ptr addrspace(1) %base, i64 %n, !dbg !8
  br label %loop
loop:
  %p = phi ptr addrspace(1) [ %base, %entry ], [ %next, %loop ]
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 syncscope("device") monotonic, align 4, !dbg !8
  %pair = cmpxchg ptr addrspace(1) %p, i32 0, i32 %old seq_cst seq_cst, align 4
  %slot = alloca ptr addrspace(1), align 8, addrspace(5)
  store ptr addrspace(1) %p, ptr addrspace(5) %slot, align 8
  %next = getelementptr inbounds i32, ptr addrspace(1) %p, i64 1, !dbg !8
  %sel = select i1 true, ptr addrspace(1) %next, ptr addrspace(1) null
  %done = icmp eq ptr addrspace(1) %sel, %end
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
!llvm.dbg.cu = !{!1}
!llvm.module.flags = !{!3}
!1 = distinct !DICompileUnit(language: DW_LANG_C11, file: !2, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "k.c", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !2, file: !2, line: 1, type: !6, spFlags: DISPFlagDefinition, unit: !1)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 2, column: 3, scope: !5)
"#;
    let (_, text) = lower_ok(src);
    lacks(&text, "addrspace");
    has(
        &text,
        "define internal void @__ptxemu.k(ptr %base, i64 %n) !dbg",
    );
    has(&text, "%p = phi ptr [ %base, %entry ], [ %next, %loop ]");
    has(
        &text,
        "%old = atomicrmw add ptr %p, i32 1 monotonic, align 4, !dbg",
    );
    has(
        &text,
        "%pair = cmpxchg ptr %p, i32 0, i32 %old seq_cst seq_cst, align 4",
    );
    has(&text, "store ptr %p, ptr %slot, align 8");
    has(
        &text,
        "%next = getelementptr inbounds i32, ptr %p, i64 1, !dbg",
    );
    has(&text, "%sel = select i1 true, ptr %next, ptr null");
    has(&text, "%done = icmp eq ptr %sel, %end");
}

// ---- renaming and linkage ----

#[test]
fn definitions_are_renamed_and_host_library_calls_kept() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
@tab = global [2 x double] [double 1.0, double 2.0], align 8
@ro = constant i32 3, align 4
@lut = internal constant [2 x i32] [i32 1, i32 2], align 4
@.str = private unnamed_addr constant [3 x i8] c"%d\00", align 1
@ext = external global i32, align 4
@stderr = external global ptr, align 8
define double @helper(double %x) #0 {
  %s = call double @sin(double %x)
  %p = call double @pow(double %s, double 2.0)
  ret double %p
}
define linkonce_odr i32 @inl() {
  ret i32 1
}
define void @__omp_offloading_fe00_1_f_l3(ptr %out) #0 {
  %h = call double @helper(double 1.0)
  %t = load double, ptr @tab, align 8
  %e = load i32, ptr @ext, align 4
  %r = load i32, ptr @ro, align 4
  %l = load i32, ptr @lut, align 4
  %i = call i32 @inl()
  %f = load ptr, ptr @stderr, align 8
  %n = call i32 (ptr, ...) @printf(ptr @.str, i32 %e)
  store double %h, ptr %out, align 8
  ret void
}
declare double @sin(double)
declare double @pow(double, double)
declare i32 @printf(ptr, ...)
attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx80,+sm_90" "no-trapping-math"="true" }
!nvvm.annotations = !{!0}
!0 = !{ptr @__omp_offloading_fe00_1_f_l3, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
"#;
    let (l, text) = lower_ok(src);
    has(&text, "@__ptxemu.tab = hidden global [2 x double]");
    has(&text, "@__ptxemu.ro = hidden global i32 3, align 4"); // writable: the runtime may update it
    has(&text, "@__ptxemu.lut = internal constant [2 x i32]");
    has(&text, "@__ptxemu..str = private unnamed_addr constant");
    has(&text, "@__ptxemu.ext = external hidden global i32, align 4");
    has(&text, "@stderr = external global ptr, align 8");
    has(&text, "define internal double @__ptxemu.helper(double %x)");
    has(&text, "define internal i32 @__ptxemu.inl()");
    has(
        &text,
        "define internal void @__ptxemu.__omp_offloading_fe00_1_f_l3(ptr %out)",
    );
    has(
        &text,
        "define hidden void @__ptxemu_entry.__omp_offloading_fe00_1_f_l3(ptr noundef %args)",
    );
    has(&text, "call double @sin(double %x)");
    has(&text, "call double @pow(double %s, double 2.000000e+00)");
    has(&text, "declare double @sin(double)");
    has(
        &text,
        "call i32 (ptr, ...) @printf(ptr @__ptxemu..str, i32 %e)",
    );
    has(&text, "\"no-trapping-math\"=\"true\"");
    lacks(&text, "sm_90");
    lacks(&text, "nvvm");
    lacks(&text, "@helper");
    lacks(&text, "@tab");
    lacks(&text, "comdat");
    let g: Vec<(&str, &str, u64)> = l
        .globals
        .iter()
        .map(|g| (g.device_name.as_str(), g.emu_name.as_str(), g.size))
        .collect();
    assert_eq!(
        g,
        vec![("tab", "__ptxemu.tab", 16), ("ro", "__ptxemu.ro", 4)]
    );
}

#[test]
fn x86_target_attributes_stay_and_ptx_calling_conventions_go() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
define internal ptx_device void @dev() #0 {
  ret void
}
define ptx_kernel void @k(ptr %p) #1 {
  call ptx_device void @dev()
  ret void
}
attributes #0 = { "target-cpu"="x86-64" "target-features"="+cx8,+sse2" }
attributes #1 = { "nvvm.maxntid"="128" }
"#;
    let (l, text) = lower_ok(src);
    assert_eq!(l.kernels.len(), 1, "ptx_kernel marks a kernel");
    has(&text, "\"target-cpu\"=\"x86-64\"");
    has(&text, "\"target-features\"=\"+cx8,+sse2\"");
    lacks(&text, "ptx_");
    lacks(&text, "nvvm.maxntid");
    has(&text, "call void @__ptxemu.dev()");
}

#[test]
fn device_compilation_metadata_and_flags_are_dropped() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %p) {
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @k, !"maxntidx", i32 128}
!llvm.module.flags = !{!2, !3, !4}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 7, !"openmp-device", i32 51}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!omp_offload.info = !{!5}
!5 = !{i32 0, i32 1, i32 2, !"k", i32 3, i32 0, i32 0}
"#;
    let (_, text) = lower_ok(src);
    lacks(&text, "nvvm");
    lacks(&text, "openmp-device");
    lacks(&text, "omp_offload.info");
    has(&text, "!{i32 1, !\"wchar_size\", i32 4}");
}

// ---- entry wrappers ----

#[test]
fn entry_wrapper_loads_each_parameter_through_args() {
    let src = r#"
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %a, i64 %n, i32 %small, double %d, ptr addrspace(1) %g) {
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"#;
    let (l, text) = lower_ok(src);
    assert_eq!(
        l.kernels,
        vec![EmuKernel {
            kernel: "k".into(),
            entry: "__ptxemu_entry.k".into(),
            num_params: 5,
            needs_sync: false,
            shared_bytes: 0,
        }]
    );
    let e = body_of(&text, "__ptxemu_entry.k");
    for (i, (n, ty, align)) in [
        ("a", "ptr", 8),
        ("n", "i64", 8),
        ("small", "i32", 4),
        ("d", "double", 8),
        ("g", "ptr", 8),
    ]
    .into_iter()
    .enumerate()
    {
        has(
            e,
            &format!("%{n}.slot = getelementptr inbounds ptr, ptr %args, i64 {i}"),
        );
        has(e, &format!("%{n}.addr = load ptr, ptr %{n}.slot, align 8"));
        has(
            e,
            &format!("%{n} = load {ty}, ptr %{n}.addr, align {align}"),
        );
    }
    has(
        e,
        "call void @__ptxemu.k(ptr %a, i64 %n, i32 %small, double %d, ptr %g)\n  ret void",
    );
}

#[test]
fn bad_kernels_and_modules_are_errors() {
    let e = lower_err(
        "target triple = \"nvptx64-nvidia-cuda\"\n%s = type { i64, i64 }\n\
         define void @k(%s %v) {\n  ret void\n}\n!nvvm.annotations = !{!0}\n!0 = !{ptr @k, !\"kernel\", i32 1}\n",
    );
    assert!(e.contains("kernel @k") && e.contains("parameter 0"), "{e}");
    let e = lower_err("target triple = \"x86_64-unknown-linux-gnu\"\n");
    assert!(e.contains("NVPTX"), "{e}");
}

#[test]
fn lowering_is_stable_without_kernels_or_device_code() {
    let (l, text) =
        lower_ok("target triple = \"nvptx64-nvidia-cuda\"\ndeclare double @sin(double)\n");
    assert_eq!(l, EmuLowering::default());
    has(&text, "target triple = \"x86_64-unknown-linux-gnu\"");
    has(&text, X86_DL);
}

#[test]
#[ignore]
fn print_file() {
    // SIMT_FILE=x.ll cargo test -p ptxcc-passes --lib print_file -- --ignored --nocapture
    let path = std::env::var("SIMT_FILE").expect("SIMT_FILE");
    let src = std::fs::read_to_string(path).expect("readable SIMT_FILE");
    let (l, text) = lower_ok(&src);
    println!("{text}\n{l:#?}");
}
