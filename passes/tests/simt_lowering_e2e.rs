//! End to end: a hand-written NVPTX kernel (thread/block ids, shared memory, barrier0,
//! shfl.sync.bfly, vote.ballot, a `declare target` global in addrspace(1) and a helper whose
//! names clash with the host's) is SIMT-lowered, compiled by clang-19 together with a tiny fake
//! emulator in C (one thread per GPU thread, pthread barriers for bar.sync and for warp-wide
//! shuffles/votes), run, and its results checked. The lowered IR is also pinned with FileCheck.
//! Needs clang-19 / FileCheck; a test whose tool is missing says so and passes.

use std::path::PathBuf;
use std::process::Command;

use ptxcc_passes::inkwell::context::Context;
use ptxcc_passes::inkwell::memory_buffer::MemoryBuffer;
use ptxcc_passes::inkwell::targets::TargetMachine;
use ptxcc_passes::simt_lowering::{lower_for_emulator, EmuGlobal, EmuKernel, EmuLowering};

const X86_DL: &str =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";

/// Per block: out[b] = sum of helper(in[i]) over the block's elements (helper multiplies by the
/// device global @scale = 3), count[b] = number of valid elements (from warp ballots).
const DEVICE_LL: &str = r#"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@scale = addrspace(1) global i32 3, align 4
@partial = internal addrspace(3) global [32 x i32] undef, align 4
@counts = internal addrspace(3) global [32 x i32] undef, align 4

define internal i32 @helper(i32 %x) {
  %s = load i32, ptr addrspacecast (ptr addrspace(1) @scale to ptr), align 4
  %r = mul i32 %x, %s
  ret i32 %r
}

define void @block_sum(ptr %in, ptr %out, ptr %count, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %gi = add i32 %base, %tid
  %gi64 = zext i32 %gi to i64
  %inb = icmp ult i64 %gi64, %n
  br i1 %inb, label %load, label %reduce

load:
  %p = getelementptr inbounds i32, ptr %in, i64 %gi64
  %x = load i32, ptr %p, align 4
  %hx = call i32 @helper(i32 %x)
  br label %reduce

reduce:
  %v0 = phi i32 [ 0, %entry ], [ %hx, %load ]
  %s16 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v0, i32 16, i32 31)
  %v1 = add i32 %v0, %s16
  %s8 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v1, i32 8, i32 31)
  %v2 = add i32 %v1, %s8
  %s4 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v2, i32 4, i32 31)
  %v3 = add i32 %v2, %s4
  %s2 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v3, i32 2, i32 31)
  %v4 = add i32 %v3, %s2
  %s1 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v4, i32 1, i32 31)
  %v5 = add i32 %v4, %s1
  %bal = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %inb)
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %warp = lshr i32 %tid, 5
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %publish, label %sync

publish:
  %slot = getelementptr inbounds [32 x i32], ptr addrspace(3) @partial, i32 0, i32 %warp
  store i32 %v5, ptr addrspace(3) %slot, align 4
  %pc = call i32 @llvm.ctpop.i32(i32 %bal)
  %cslot = getelementptr inbounds [32 x i32], ptr addrspacecast (ptr addrspace(3) @counts to ptr), i32 0, i32 %warp
  store i32 %pc, ptr %cslot, align 4
  br label %sync

sync:
  call void @llvm.nvvm.barrier0()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %combine, label %done

combine:
  %nw = lshr i32 %ntid, 5
  br label %loop

loop:
  %w = phi i32 [ 0, %combine ], [ %w1, %loop ]
  %acc = phi i32 [ 0, %combine ], [ %acc1, %loop ]
  %cnt = phi i32 [ 0, %combine ], [ %cnt1, %loop ]
  %q = getelementptr inbounds [32 x i32], ptr addrspacecast (ptr addrspace(3) @partial to ptr), i32 0, i32 %w
  %pv = load i32, ptr %q, align 4
  %acc1 = add i32 %acc, %pv
  %cq = getelementptr inbounds [32 x i32], ptr addrspace(3) @counts, i32 0, i32 %w
  %cv = load i32, ptr addrspace(3) %cq, align 4
  %cnt1 = add i32 %cnt, %cv
  %w1 = add i32 %w, 1
  %more = icmp ult i32 %w1, %nw
  br i1 %more, label %loop, label %store

store:
  %o = getelementptr inbounds i32, ptr %out, i32 %ctaid
  store i32 %acc1, ptr %o, align 4
  %oc = getelementptr inbounds i32, ptr %count, i32 %ctaid
  store i32 %cnt1, ptr %oc, align 4
  br label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.ctpop.i32(i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @block_sum, !"kernel", i32 1}
"#;

/// A fake emulator: one block at a time, one pthread per GPU thread.
const HARNESS_C: &str = r#"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The host's own symbols with the device names: the lowered code must not clash with them. */
int scale = 1000;
int helper(int x) { return -x; }
void block_sum(void) { abort(); }

void emu_entry(void **args) __asm__("__ptxemu_entry.block_sum");
extern int emu_scale __asm__("__ptxemu.scale");

enum { NT = 96, NB = 5, WARPS = NT / 32 };
static _Thread_local unsigned my_tid;
static unsigned cur_ctaid;
static pthread_barrier_t block_bar, warp_bar[WARPS];
static uint32_t slot[NT];
static _Alignas(16) unsigned char shared_mem[1024];

uint32_t __ptxemu_sreg(uint32_t which) {
  switch (which) {
  case 0: return my_tid;
  case 3: return NT;
  case 6: return cur_ctaid;
  case 9: return NB;
  case 1: case 2: case 7: case 8: return 0;
  case 4: case 5: case 10: case 11: return 1;
  case 12: return my_tid % 32;
  case 13: return 32;
  }
  fprintf(stderr, "bad sreg %u\n", which);
  abort();
}
void __ptxemu_barrier(void) { pthread_barrier_wait(&block_bar); }
void *__ptxemu_shared_base(void) { return shared_mem; }
void __ptxemu_trap(void) { abort(); }

/* Every lane of the warp takes part (the kernel's shuffles and votes are not divergent). */
uint32_t __ptxemu_shfl_sync(uint32_t mask, uint32_t v, uint32_t b, uint32_t c, uint32_t mode) {
  unsigned w = my_tid / 32, lane = my_tid % 32, src = lane;
  (void)mask; (void)c;
  slot[my_tid] = v;
  pthread_barrier_wait(&warp_bar[w]);
  switch (mode) {
  case 0: src = b & 31; break;
  case 1: src = lane >= b ? lane - b : lane; break;
  case 2: src = lane + b < 32 ? lane + b : lane; break;
  case 3: src = lane ^ (b & 31); break;
  }
  uint32_t r = slot[w * 32 + src];
  pthread_barrier_wait(&warp_bar[w]);
  return r;
}
uint32_t __ptxemu_vote_sync(uint32_t mask, uint32_t pred, uint32_t mode) {
  unsigned w = my_tid / 32;
  slot[my_tid] = pred != 0;
  pthread_barrier_wait(&warp_bar[w]);
  uint32_t ballot = 0;
  for (unsigned l = 0; l < 32; l++)
    if ((mask >> l & 1) && slot[w * 32 + l]) ballot |= 1u << l;
  pthread_barrier_wait(&warp_bar[w]);
  switch (mode) {
  case 0: return ballot == mask;
  case 1: return ballot != 0;
  case 2: return ballot == 0 || ballot == mask;
  default: return ballot;
  }
}

static void **launch_args;
static void *thread_main(void *p) {
  my_tid = (unsigned)(uintptr_t)p;
  emu_entry(launch_args);
  return NULL;
}

int main(void) {
  enum { N = NT * NB - 45 };
  static int in[NT * NB], out[NB], count[NB];
  for (int i = 0; i < N; i++) in[i] = i % 7 + 1;
  void *a_in = in, *a_out = out, *a_count = count;
  int64_t a_n = N;
  void *args[4] = {&a_in, &a_out, &a_count, &a_n};
  launch_args = args;
  pthread_barrier_init(&block_bar, NULL, NT);
  for (int w = 0; w < WARPS; w++) pthread_barrier_init(&warp_bar[w], NULL, 32);
  for (unsigned b = 0; b < NB; b++) {
    cur_ctaid = b;
    memset(shared_mem, 0xAB, sizeof shared_mem); /* shared memory starts undefined */
    pthread_t th[NT];
    for (unsigned t = 0; t < NT; t++) pthread_create(&th[t], NULL, thread_main, (void *)(uintptr_t)t);
    for (unsigned t = 0; t < NT; t++) pthread_join(th[t], NULL);
  }
  int bad = 0;
  for (int b = 0; b < NB; b++) {
    int want = 0, want_count = 0;
    for (int i = b * NT; i < (b + 1) * NT && i < N; i++) want += 3 * in[i], want_count++;
    if (out[b] != want || count[b] != want_count) {
      printf("block %d: sum %d (want %d), count %d (want %d)\n", b, out[b], want, count[b], want_count);
      bad = 1;
    }
  }
  if (emu_scale != 3 || scale != 1000 || helper(2) != -2) {
    printf("symbol clash: emu_scale=%d scale=%d helper(2)=%d\n", emu_scale, scale, helper(2));
    bad = 1;
  }
  if (!bad) printf("ok\n");
  return bad;
}
"#;

fn tool(name: &str) -> Option<PathBuf> {
    let candidates = [
        PathBuf::from(format!("/usr/lib/llvm-19/bin/{name}")),
        PathBuf::from(format!("/usr/bin/{name}-19")),
    ];
    candidates.into_iter().find(|p| p.exists()).or_else(|| {
        let out = Command::new("which")
            .arg(format!("{name}-19"))
            .output()
            .ok()?;
        let p = String::from_utf8_lossy(&out.stdout).trim().to_string();
        (!p.is_empty()).then(|| PathBuf::from(p))
    })
}

fn scratch_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptxcc-simt-e2e-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

/// Lower DEVICE_LL for the default host triple; (lowered IR text, result).
fn lower_block_sum() -> (String, EmuLowering) {
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(DEVICE_LL.as_bytes(), "block_sum.ll");
    let m = ctx.create_module_from_ir(buf).expect("device IR parses");
    let l = lower_for_emulator(&m, &TargetMachine::get_default_triple(), X86_DL)
        .expect("lowering succeeds");
    (m.print_to_string().to_string(), l)
}

#[test]
fn lowered_kernel_reports_entry_sync_shared_bytes_and_globals() {
    let (_, l) = lower_block_sum();
    assert_eq!(
        l.kernels,
        vec![EmuKernel {
            kernel: "block_sum".into(),
            entry: "__ptxemu_entry.block_sum".into(),
            num_params: 4,
            needs_sync: true,
            shared_bytes: 256,
        }]
    );
    assert_eq!(
        l.globals,
        vec![EmuGlobal {
            device_name: "scale".into(),
            emu_name: "__ptxemu.scale".into(),
            size: 4
        }]
    );
}

#[test]
fn lowered_kernel_runs_on_a_fake_emulator() {
    let Some(clang) = tool("clang") else {
        eprintln!("SKIPPED: clang-19 not found");
        return;
    };
    let (ir, _) = lower_block_sum();
    let dir = scratch_dir("run");
    let ll = dir.join("block_sum.emu.ll");
    let c = dir.join("harness.c");
    let exe = dir.join("block_sum");
    std::fs::write(&ll, &ir).unwrap();
    std::fs::write(&c, HARNESS_C).unwrap();
    for opt in ["-O0", "-O2"] {
        let out = Command::new(&clang)
            .args([opt, "-Wno-override-module", "-pthread"])
            .arg(&ll)
            .arg(&c)
            .arg("-o")
            .arg(&exe)
            .output()
            .expect("clang runs");
        assert!(
            out.status.success(),
            "clang {opt} failed:\n{}\n--- lowered IR ---\n{ir}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe).output().expect("test program runs");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success() && stdout.trim() == "ok",
            "{opt}: {stdout}{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const BLOCK_SUM_CHECKS: &str = r#"
CHECK: target triple = "x86_64-
CHECK: @__ptxemu.scale = hidden global i32 3, align 4
CHECK-LABEL: define internal i32 @__ptxemu.helper(i32 %x)
CHECK-NEXT:    %s = load i32, ptr @__ptxemu.scale, align 4
CHECK-LABEL: define internal void @__ptxemu.block_sum(ptr %in, ptr %out, ptr %count, i64 %n)
CHECK-NEXT:  entry:
CHECK-NEXT:    %ptxemu.shared = call ptr @__ptxemu_shared_base()
CHECK-NEXT:    %partial = getelementptr inbounds i8, ptr %ptxemu.shared, i64 0
CHECK-NEXT:    %counts = getelementptr inbounds i8, ptr %ptxemu.shared, i64 128
CHECK-NEXT:    %tid = call i32 @__ptxemu_sreg(i32 0), !range
CHECK-NEXT:    %ntid = call i32 @__ptxemu_sreg(i32 3), !range
CHECK-NEXT:    %ctaid = call i32 @__ptxemu_sreg(i32 6), !range
CHECK:         %hx = call i32 @__ptxemu.helper(i32 %x)
CHECK:         %s16 = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %v0, i32 16, i32 31, i32 3) [[CONV:#[0-9]+]]
CHECK:         %s1 = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %v4, i32 1, i32 31, i32 3) [[CONV]]
CHECK:         %bal = call i32 @__ptxemu_vote_sync(i32 -1, i32 %vote.pred, i32 3) [[CONV]]
CHECK-NEXT:    %lane = call i32 @__ptxemu_sreg(i32 12), !range
CHECK:       publish:
CHECK-NEXT:    %slot = getelementptr inbounds [32 x i32], ptr %partial, i32 0, i32 %warp
CHECK-NEXT:    store i32 %v5, ptr %slot, align 4
CHECK:         %cslot = getelementptr inbounds [32 x i32], ptr %counts, i32 0, i32 %warp
CHECK:       sync:
CHECK-NEXT:    call void @__ptxemu_barrier() [[CONV]]
CHECK:       loop:
CHECK:         %q = getelementptr inbounds [32 x i32], ptr %partial, i32 0, i32 %w
CHECK:         %cq = getelementptr inbounds [32 x i32], ptr %counts, i32 0, i32 %w
CHECK-NEXT:    %cv = load i32, ptr %cq, align 4
CHECK-LABEL: define hidden void @__ptxemu_entry.block_sum(ptr noundef %args)
CHECK:         %n = load i64, ptr %n.addr, align 8
CHECK-NEXT:    call void @__ptxemu.block_sum(ptr %in, ptr %out, ptr %count, i64 %n)
CHECK-DAG:   attributes [[CONV]] = { convergent }
"#;

#[test]
fn lowered_kernel_ir_matches_filecheck_expectations() {
    let Some(filecheck) = tool("FileCheck") else {
        eprintln!("SKIPPED: FileCheck not found");
        return;
    };
    let (ir, _) = lower_block_sum();
    assert!(!ir.contains("addrspace"), "{ir}");
    assert!(!ir.contains("llvm.nvvm"), "{ir}");
    let dir = scratch_dir("filecheck");
    let checks = dir.join("checks.txt");
    let input = dir.join("block_sum.emu.ll");
    std::fs::write(&checks, BLOCK_SUM_CHECKS).unwrap();
    std::fs::write(&input, &ir).unwrap();
    let out = Command::new(filecheck)
        .arg(&checks)
        .arg("--input-file")
        .arg(&input)
        .output()
        .expect("FileCheck runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
