target triple = "nvptx64-nvidia-cuda"
define void @__omp_offloading_1_2_f_l3(ptr %p, i64 %n) {
  ret void
}
!ptxcc.kernels = !{!0}
!0 = !{!"__omp_offloading_1_2_f_l3", i32 0, !"f.c:3:1"}
