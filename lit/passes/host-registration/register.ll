; The host module gets the PTX, one kernel descriptor per kernel (keyed by clang's region id,
; with the emulator entry), one descriptor per declare-target global, and a constructor that
; registers the image with libptxrt, appended to existing constructors.
; RUN: ptxcc-opt --passes=host-registration --device=%S/Inputs/device.ll --ptx=%S/Inputs/image.ptx %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"
%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }

@g = global [4 x i32] zeroinitializer
@.__omp_offloading_1_2_f_l3.region_id = weak constant i8 0
@.name = internal constant [26 x i8] c"__omp_offloading_1_2_f_l3\00"
@.offloading.entry.f = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_1_2_f_l3.region_id, ptr @.name, i64 0, i32 0, i32 0 }, section "omp_offloading_entries"
@.gname = internal constant [2 x i8] c"g\00"
@.offloading.entry.g = weak constant %struct.__tgt_offload_entry { ptr @g, ptr @.gname, i64 16, i32 0, i32 0 }, section "omp_offloading_entries"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @user_ctor, ptr null }]

define internal void @__omp_offloading_1_2_f_l3(ptr %p, i64 %n) {
  ret void
}
define internal void @user_ctor() {
  ret void
}

; CHECK: @__ptxcc.kname = private unnamed_addr constant [26 x i8] c"__omp_offloading_1_2_f_l3\00"
; CHECK: @__ptxcc.ksource = private unnamed_addr constant [8 x i8] c"f.c:3:1\00"
; CHECK: @__ptxemu.g = external global i8
; CHECK: @__ptxcc.gname = private unnamed_addr constant [2 x i8] c"g\00"
; CHECK: @__ptxcc.kernels = private constant [1 x { ptr, ptr, ptr, ptr, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr, i64 }] [{ ptr, ptr, ptr, ptr, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr, i64 } { ptr @.__omp_offloading_1_2_f_l3.region_id, ptr @__ptxcc.kname, ptr @__ptxemu_entry.__omp_offloading_1_2_f_l3, ptr @__ptxcc.ksource, i32 2, i32 0, i32 0, i32 0, i32 0, i32 0, ptr null, ptr null, ptr null, i64 1 }]
; CHECK: @__ptxcc.globals = private constant [1 x { ptr, ptr, i64, ptr }] [{ ptr, ptr, i64, ptr } { ptr @g, ptr @__ptxcc.gname, i64 16, ptr @__ptxemu.g }]
; CHECK: @__ptxcc.ptx = private unnamed_addr constant [{{[0-9]+}} x i8] c".version 7.8\0A.target sm_90\0A\00"
; CHECK: @__ptxcc.arch = private unnamed_addr constant [6 x i8] c"sm_90\00"
; CHECK: @__ptxcc.image = private constant { i32, i32, i32, i32, ptr, ptr, ptr, ptr, ptr } { i32 5, i32 1, i32 1, i32 0, ptr @__ptxcc.ptx, ptr @__ptxcc.arch, ptr @__ptxcc.source, ptr @__ptxcc.kernels, ptr @__ptxcc.globals }
; CHECK: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @user_ctor, ptr null }, { i32, ptr, ptr } { i32 101, ptr @__ptxcc.register, ptr null }]
; CHECK: declare void @__ptxemu_entry.__omp_offloading_1_2_f_l3(ptr)
; CHECK: define internal void @__ptxcc.register() {
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__ptxrt_register_image(ptr @__ptxcc.image)
; CHECK-NEXT: ret void
