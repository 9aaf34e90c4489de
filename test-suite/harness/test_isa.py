#!/usr/bin/env python3
"""Unit tests of isa.py's PTX/SASS parsing and main-loop choice (no compiler needed):
    python3 -m unittest discover -s test-suite/harness -p 'test_*.py'
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import isa  # noqa: E402

# An unrolled-by-2 main loop, its remainder loop, and an epilogue copy loop (the shape nvcc and ptxcc emit).
PTX = r"""
.visible .entry _Z10dot_kernellPKdS0_Pd(
	.param .u64 _Z10dot_kernellPKdS0_Pd_param_0
)
{
	.reg .pred 	%p<9>;
	.local .align 8 .b8 	__local_depot0[8];
	mov.u32 	%r1, %tid.x;
	@%p1 bra 	$L__BB0_4;
$L__BB0_2:
	ld.global.nc.f64 	%fd1, [%rd1];
	ld.global.nc.f64 	%fd2, [%rd2];
	fma.rn.f64 	%fd3, %fd1, %fd2, %fd3;
	ld.global.nc.f64 	%fd4, [%rd3];
	ld.global.nc.f64 	%fd5, [%rd4];
	fma.rn.f64 	%fd3, %fd4, %fd5, %fd3;
	add.s64 	%rd5, %rd5, %rd6;
	setp.lt.s64 	%p2, %rd5, %rd7;
	@%p2 bra 	$L__BB0_2;
$L__BB0_3:
	ld.global.nc.f64 	%fd1, [%rd1];
	ld.global.nc.f64 	%fd2, [%rd2];
	fma.rn.f64 	%fd3, %fd1, %fd2, %fd3;
	setp.lt.s64 	%p3, %rd5, %rd7;
	@%p3 bra 	$L__BB0_3;
$L__BB0_4:
	{ .reg .b32 tmp; mov.b64 {tmp, %r108}, %rd45; }
	shfl.sync.down.b32	%r12, %r109, 16, 31, -1;
$L__BB0_5:
	.pragma "nounroll";
	ld.local.u32 	%r84, [%rd72];
	st.shared.u32 	[%rd73], %r84;
	setp.ne.s32 	%p16, %r85, 8;
	@%p16 bra 	$L__BB0_5;
	atom.global.add.f64 	%fd45, [%rd1], %fd53;
	ret;

}
"""

SASS = """
	code for sm_90
		Function : __omp_offloading_fe00_1_max_int_l16
	.headerflags    @"EF_CUDA_SM90 EF_CUDA_PTX_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                       /* 0x00000a00ff017b82 */
                                                                                /* 0x000e300000000800 */
        /*0010*/                   MOV R2, RZ ;                                 /* 0x000000ff00027202 */
                                                                                /* 0x000fe20000000f00 */
        /*0020*/                   LDG.E R25, [R6.64] ;                         /* 0x0000000606197981 */
                                                                                /* 0x000fe20000000f00 */
        /*0030*/                   IADD3 R24, P1, R15, R24, RZ ;                /* 0x000000180f187210 */
                                                                                /* 0x000fe20000000f00 */
                                                                                /* 0x0000000219027248 */
                                                                                /* 0x004fd60007fe0100 */
        /*0050*/              @!P1 BRA 0x20 ;                                   /* 0xfffffffc00d89947 */
                                                                                /* 0x000fe20000000f00 */
        /*0060*/                   EXIT ;                                       /* 0x000000000000794d */
                                                                                /* 0x000fea0003800000 */
        /*0070*/                   BRA 0x70;                                    /* 0xfffffff000007947 */
                                                                                /* 0x000fc0000383ffff */
        /*0080*/                   NOP;                                         /* 0x0000000000007918 */
                                                                                /* 0x000fc00000000000 */
"""


class PtxLoops(unittest.TestCase):
    def test_parse(self):
        funcs = isa.ptx_functions(PTX)
        self.assertEqual(list(funcs), ["_Z10dot_kernellPKdS0_Pd"])
        insns = isa.insns_of(funcs["_Z10dot_kernellPKdS0_Pd"])
        ops = [i[1] for i in insns]
        self.assertNotIn(".reg", ops)          # declarations and pragmas are not instructions
        self.assertIn("mov.b64", ops)          # the statement inside `{ .reg ...; mov ...; }` is one
        self.assertEqual(ops.count("bra"), 4)  # predicated branches included

    def test_main_loop(self):
        items = isa.ptx_functions(PTX)["_Z10dot_kernellPKdS0_Pd"]
        a = isa.analyse(items, "ptx", isa.PTX_LOAD, 2)
        self.assertEqual(a["loops"], 3)
        self.assertEqual(a["body"], 9)       # label .. back branch of the unrolled loop
        self.assertEqual(a["markers"], 4)    # ld.local is not a load of the data
        self.assertEqual(a["unroll"], 2)
        self.assertEqual(a["per_iter"], 4.5)
        st = isa.kernel_stats(items, "ptx")
        self.assertEqual((st["shfl"], st["atom"], st["local"]), (1, 1, 1))

    def test_vector_load_weight(self):
        self.assertEqual(isa.marker_weight("ld.global.nc.v2.f64", isa.PTX_LOAD), 2)
        self.assertEqual(isa.marker_weight("ld.f64", isa.PTX_LOAD), 1)
        self.assertEqual(isa.marker_weight("ld.param.u64", isa.PTX_LOAD), 0)
        self.assertEqual(isa.marker_weight("ld.shared.f64", isa.PTX_LOAD), 0)


class SassLoops(unittest.TestCase):
    def test_undecoded_and_trap(self):
        funcs = isa.sass_functions(SASS)
        items = funcs["__omp_offloading_fe00_1_max_int_l16"]
        # 0x0040 printed only as an encoding: still one instruction; the NOP padding is not counted
        self.assertEqual([i[1] for i in isa.insns_of(items)],
                         ["LDC", "MOV", "LDG.E", "IADD3", isa.UNDECODED, "BRA", "EXIT", "BRA"])
        a = isa.analyse(items, "sass", isa.SASS_LOAD, 1)
        self.assertEqual(a["loops"], 1)      # `BRA self` after EXIT is not a loop
        self.assertEqual(a["body"], 4)       # 0x20 .. 0x50
        self.assertEqual(a["undecoded"], 1)
        self.assertEqual(a["per_iter"], 4)


class Names(unittest.TestCase):
    def test_function_name(self):
        self.assertEqual(isa.function_name("__omp_offloading_fe00_55c024_max_int_l16"), "max_int")
        self.assertEqual(isa.function_name("__omp_offloading_fe00_55c024_pi_float_kernel_l9"), "pi_float_kernel")
        self.assertEqual(isa.function_name("_Z15pi_float_kernellPf"), "pi_float_kernel")
        self.assertEqual(isa.function_name("_Z9pi_kernellPd"), "pi_kernel")


if __name__ == "__main__":
    unittest.main()
