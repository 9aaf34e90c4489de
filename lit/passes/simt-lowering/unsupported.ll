; GPU operations without an emulator equivalent are errors that name the operation and the
; function (and the source line when the instruction has one), never silent miscompiles.
; RUN: split-file %s %t
; RUN: not ptxcc-opt --passes=simt-lowering %t/intrinsic.ll 2>&1 | FileCheck %s --check-prefix=INTRINSIC
; RUN: not ptxcc-opt --passes=simt-lowering %t/asm.ll 2>&1 | FileCheck %s --check-prefix=ASM
; RUN: not ptxcc-opt --passes=simt-lowering %t/dynamic-shared.ll 2>&1 | FileCheck %s --check-prefix=DYN
; RUN: not ptxcc-opt --passes=simt-lowering %t/param.ll 2>&1 | FileCheck %s --check-prefix=PARAM

; INTRINSIC: in @helper (k.c:12:7): unsupported special register %smid (@llvm.nvvm.read.ptx.sreg.smid): the emulator ABI has no equivalent
; ASM: in @k: inline PTX assembly `red.global.add.u32 [$0], 1;` cannot run on the emulator
; DYN: shared variable @dyn has no definition (extern __shared__ / dynamic shared memory is not supported by the emulator ABI)
; PARAM: kernel @k: parameter 1 has type `{ i64, i64 }`; the launch ABI passes every parameter as one 8-byte pointer or scalar

;--- intrinsic.ll
target triple = "nvptx64-nvidia-cuda"
define internal i32 @helper() {
  %s = call i32 @llvm.nvvm.read.ptx.sreg.smid(), !dbg !8
  ret i32 %s
}
declare i32 @llvm.nvvm.read.ptx.sreg.smid()
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.c", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "helper", scope: !1, file: !1, line: 10, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 12, column: 7, scope: !5)

;--- asm.ll
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %p) {
  call void asm sideeffect "red.global.add.u32 [$0], 1;", "l"(ptr %p)
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

;--- dynamic-shared.ll
target triple = "nvptx64-nvidia-cuda"
@dyn = external addrspace(3) global [0 x i32], align 4
define void @k(ptr %p) {
  store i32 1, ptr addrspace(3) @dyn, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

;--- param.ll
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %p, { i64, i64 } %pair) {
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
