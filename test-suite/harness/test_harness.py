#!/usr/bin/env python3
"""Unit tests of the harness's parsing and classification (no compiler or GPU needed):
    python3 -m unittest discover -s test-suite/harness -p 'test_*.py'
"""
import os
import stat
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

PROFILE = """ptxrt profile: device 0 (emulator: 2 host threads)
  kernels:
    /x/stream_omp.c:7:1: __omp_offloading_fe00_5460dc_stream_copy_l7
      launches: 6  total: 1.2 ms  mean: 200.0 us  min: 150.0 us  max: 400.0 us
    /x/stream_omp.c:12:1: __omp_offloading_fe00_5460dc_stream_scale_l12
      launches: 6  total: 600 ns  mean: 100 ns  min: 90 ns  max: 120 ns
    /x/cg_omp.c:20:1: __omp_offloading_fe00_1_cg_conj_grad_l20
      launches: 32  total: 3.20 s  mean: 100.0 ms  min: 90.0 ms  max: 120.0 ms
    /x/cg_omp.c:40:1: __omp_offloading_fe00_1_cg_step_l40
      launches: 16  total: 16.0 ms  mean: 1.0 ms  min: 1.0 ms  max: 1.0 ms
  data:
    /x/stream_omp.c:40:1 (main)
      host->device: 8000 bytes in 2 copies, 366 ns   device->host: 4000 bytes in 1 copies, 169 ns
"""

# What PTXSIM_STATS=json:PATH writes (fields the harness does not use left out).
SIM_STATS = """{"model": {"name": "h100-sxm", "sms": 132},
 "kernels": [
  {"name": "stream_copy$_omp_fn$0", "launches": 6, "thread_instructions": 552324096, "warp_instructions": 17260128,
   "global_load_sectors": 110592, "global_store_sectors": 110000, "dram_bytes": 6291840, "est_time_s": 6.0e-05},
  {"name": "stream_scale$_omp_fn$0", "launches": 6, "thread_instructions": 52324096, "warp_instructions": 1635128,
   "global_load_sectors": 1, "global_store_sectors": 2, "dram_bytes": 3, "est_time_s": 1.0}
 ]}
"""

RESULT = ("RESULT name=stream_copy class=S variant=omp iters=5 calls=6 time_s=2.0e-04 metric=GB/s value=5.0 "
          "bytes=1e6 flops=0 bwbound=1 verified=1 rtol=1e-13 checksum=42 kernel=stream_copy stat=min\n"
          " VERIFICATION SUCCESSFUL\n")


class Parsing(unittest.TestCase):
    def test_profile(self):
        ks = harness.parse_profile(PROFILE)
        self.assertEqual(len(ks), 4)
        self.assertEqual(ks[0]["launches"], 6)
        self.assertAlmostEqual(ks[0]["total"], 1.2e-3)
        self.assertAlmostEqual(ks[0]["min"], 150e-6)
        self.assertAlmostEqual(ks[1]["mean"], 100e-9)
        self.assertAlmostEqual(ks[2]["total"], 3.2)

    def test_kernel_time(self):
        ks = harness.parse_profile(PROFILE)
        # stat=min, one kernel launched once per call: the best launch
        self.assertAlmostEqual(harness.kernel_time(ks, dict(kernel="stream_copy", calls="6", stat="min")), 150e-6)
        # several kernels per iteration: the sum of their totals over the calls
        self.assertAlmostEqual(harness.kernel_time(ks, dict(kernel="cg", calls="16", stat="mean")),
                               (3.2 + 16e-3) / 16)
        # a substring that is not a whole name component does not match
        self.assertIsNone(harness.kernel_time(ks, dict(kernel="copy_l", calls="6")))
        self.assertIsNone(harness.kernel_time(ks, dict(kernel="stream_add", calls="6")))

    def test_result_rows(self):
        rows = harness.result_rows("stream", "ptxcc-omp", "S", [], {}, 0, RESULT, PROFILE, 0.1, False)
        self.assertEqual(len(rows), 1)
        r = rows[0]
        self.assertEqual(r["status"], "PASS")
        self.assertEqual(r["time_source"], "PTXRT_PROFILE")
        self.assertAlmostEqual(r["best_time_s"], 150e-6)
        self.assertAlmostEqual(r["best_value"], 5.0 * 2.0e-4 / 150e-6)

    def test_ptxsim_stats(self):
        stats = harness.parse_sim_stats(SIM_STATS)
        self.assertEqual([k["name"] for k in stats], ["stream_copy$_omp_fn$0", "stream_scale$_omp_fn$0"])
        self.assertEqual(stats[0]["thread_instructions"], 552324096)
        self.assertEqual(harness.parse_sim_stats("ptxsim: error: not json"), [])
        # GCC's kernel names: NAME$_omp_fn$0
        rows = harness.result_rows("stream", "gcc-omp", "S", [], {}, 0, RESULT, "", 0.1, False, on_sim=True,
                                   sim_stats=stats)
        r = rows[0]
        self.assertEqual(r["status"], "PASS")
        self.assertEqual(r["sim_instructions"], 552324096)
        self.assertEqual(r["sim_warp_instructions"], 17260128)
        self.assertEqual(r["sim_sectors"], 110592 + 110000)
        self.assertEqual(r["sim_dram_bytes"], 6291840)
        # the estimate per call (calls=6), as kernel_time_s
        self.assertAlmostEqual(r["sim_est_time_s"], 1.0e-05)
        self.assertEqual(r["time_source"], "program timer")

    def test_stats_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.json")
            self.assertEqual(harness.read_sim_stats(path), [])
            with open(path, "w") as f:
                f.write(SIM_STATS)
            self.assertEqual(len(harness.read_sim_stats(path)), 2)

    def test_gcc_on_the_host_is_not_a_pass(self):
        # No kernel ran on ptxsim: libgomp ran the target regions on the host.
        empty = harness.parse_sim_stats('{"model": {}, "kernels": []}')
        r = harness.result_rows("stream", "gcc-omp", "S", [], {}, 0, RESULT, "", 0.1, False, on_sim=True,
                                sim_stats=empty)[0]
        self.assertEqual(r["status"], "FAIL")
        self.assertIn("host", r["message"])
        # Off ptxsim (a GPU) the statistics are not looked for.
        r = harness.result_rows("stream", "gcc-omp", "S", [], {}, 0, RESULT, "", 0.1, False)[0]
        self.assertEqual(r["status"], "PASS")

    def test_gcc_runs_on_ptxsim_with_its_plugin(self):
        sim = {"LD_LIBRARY_PATH": "/x/ptxsim-driver", "PTXSIM_STATS": "1", "PTXSIM_RACECHECK": "1"}
        env = harness.run_env("gcc-acc", "quick", {}, sim)
        self.assertEqual(env["LD_LIBRARY_PATH"], "/x/ptxsim-driver")
        self.assertEqual(env["OMP_TARGET_OFFLOAD"], "MANDATORY")
        self.assertEqual(env["ACC_DEVICE_TYPE"], "nvidia")
        self.assertNotIn("LD_LIBRARY_PATH", harness.run_env("gcc-acc", "full", {}))

    def test_nvcc_runs_on_ptxsim_with_its_runtime(self):
        sim = {"LD_LIBRARY_PATH": "/x/ptxsim-driver", "PTXSIM_STATS": "1", "PTXSIM_RACECHECK": "1"}
        env = harness.run_env("nvcc", "quick", {}, sim)
        self.assertEqual(env["LD_LIBRARY_PATH"], "/x/ptxsim-driver")
        self.assertEqual(env["LD_BIND_NOW"], "1")
        self.assertNotIn("LD_LIBRARY_PATH", harness.run_env("nvcc", "full", {}))
        # nvcc's kernels have C++ names on ptxsim
        stats = harness.parse_sim_stats(
            '{"model": {}, "kernels": [{"name": "_Z12saxpy_kernellfPKfPf", "launches": 6, '
            '"thread_instructions": 1000}]}')
        self.assertEqual(harness.sim_instructions(stats, {"kernel": "saxpy_kernel"}), 1000)
        self.assertIsNone(harness.sim_instructions(stats, {"kernel": "saxpy_kerne"}))
        # a program of several kernels named after it (nbody_forces, nbody_update): all of them, as
        # ptxcc's __omp_offloading_…_nbody_forces_l10; a name inside the parameters is no match
        stats = harness.parse_sim_stats(
            '{"model": {}, "kernels": [{"name": "_Z12nbody_forceslPKfS0_S0_PfS1_S1_S0_f", "launches": 5, '
            '"thread_instructions": 30}, {"name": "_Z12nbody_updatelPfS_S_PKfS1_S1_f", "launches": 5, '
            '"thread_instructions": 12}, {"name": "_Z3fooP5nbody", "launches": 1, "thread_instructions": 7}]}')
        self.assertEqual(harness.sim_instructions(stats, {"kernel": "nbody"}), 42)
        self.assertEqual(harness.sim_instructions(stats, {"kernel": "nbody_update"}), 12)

    def test_nvcc_links_the_shared_runtime_on_ptxsim(self):
        class Args:
            ptxsim = True
        tc = harness.Toolchains(Args())
        tc.nvcc = "/x/nvcc"
        cmd, _ = tc.command("nvcc", "s.cu", "s")
        self.assertEqual(cmd[:3], ["/x/nvcc", "-O3", "-arch=sm_90"])
        self.assertIn("shared", cmd)
        Args.ptxsim = False  # on a GPU: nvcc's default, the static runtime
        self.assertNotIn("shared", tc.command("nvcc", "s.cu", "s")[0])

    def test_clang_runs_on_ptxsim_with_libomptarget(self):
        sim = {"LD_LIBRARY_PATH": "/x/ptxsim-driver", "PTXSIM_STATS": "1", "PTXSIM_RACECHECK": "1"}
        env = harness.run_env("clang-omp", "quick", {}, sim)
        self.assertEqual(env["LD_LIBRARY_PATH"], "/x/ptxsim-driver")
        self.assertEqual(env["OMP_TARGET_OFFLOAD"], "MANDATORY")

        class Args:
            ptxsim = False
        tc = harness.Toolchains(Args())
        cmd, why = tc.command("clang-omp", "s.c", "s")
        self.assertIsNone(cmd)
        self.assertIn("ptxsim", why)
        # a version that launched nothing on ptxsim ran on the host: not a pass
        empty = harness.parse_sim_stats('{"model": {}, "kernels": []}')
        r = harness.result_rows("stream", "clang-omp", "S", [], {}, 0, RESULT, "", 0.1, False, on_sim=True,
                                sim_stats=empty)[0]
        self.assertEqual(r["status"], "FAIL")

    def test_instruction_ratio(self):
        base = dict(program="s", name="s", cls="S", args="", status="PASS", best_time_s=1.0)
        rows = [dict(base, variant="ptxcc-omp", sim_instructions=100), dict(base, variant="gcc-omp", sim_instructions=400)]
        harness.add_ratios(rows, "ptxsim")
        self.assertAlmostEqual(rows[0]["instr_vs_gcc"], 0.25)
        self.assertEqual(rows[1]["instr_vs_gcc"], "")

    def test_estimate_ratios(self):
        base = dict(program="s", name="s", cls="S", args="", status="PASS", best_time_s=1.0)
        rows = [dict(base, variant="ptxcc-omp", sim_est_time_s=3e-6), dict(base, variant="gcc-omp", sim_est_time_s=6e-6),
                dict(base, variant="nvcc", sim_est_time_s=2e-6), dict(base, variant="ptxcc-acc", sim_est_time_s="")]
        harness.add_ratios(rows, "ptxsim")
        self.assertAlmostEqual(rows[0]["est_vs_gcc"], 0.5)
        self.assertAlmostEqual(rows[0]["est_vs_nvcc"], 1.5)
        self.assertAlmostEqual(rows[1]["est_vs_nvcc"], 3.0)
        self.assertEqual(rows[2]["est_vs_nvcc"], "")
        # no estimate (not run on ptxsim), no ratio
        self.assertEqual(rows[3]["est_vs_nvcc"], "")
        # Clang's own offloading: the OpenMP versions' third peer
        rows = [dict(base, variant="ptxcc-omp", sim_est_time_s=3e-6), dict(base, variant="clang-omp", sim_est_time_s=4e-6),
                dict(base, variant="ptxcc-acc", sim_est_time_s=3e-6)]
        harness.add_ratios(rows, "ptxsim")
        self.assertAlmostEqual(rows[0]["est_vs_clang"], 0.75)
        self.assertEqual(rows[2]["est_vs_clang"], "")
        # without an nvcc row (none ran on ptxsim), the column stays empty
        rows = [dict(base, variant="ptxcc-omp", sim_est_time_s=3e-6)]
        harness.add_ratios(rows, "ptxsim")
        self.assertEqual(rows[0]["est_vs_nvcc"], "")

    def test_wrong_answer(self):
        out = RESULT.replace("verified=1", "verified=0").replace("SUCCESSFUL", "FAILED")
        out = " sx = nan (reference -3.2e+03, relative error nan)\n" + out
        r = harness.result_rows("ep", "ptxcc-omp", "S", [], {}, 1, out, "", 0.1, False)[0]
        self.assertEqual(r["status"], "FAIL")
        self.assertIn("sx = nan", r["message"])

    def test_crash_and_timeout(self):
        r = harness.result_rows("cg", "ptxcc-omp", "S", [], {}, -11, "", "ptxrt: error: kernel fault\n", 1, False)[0]
        self.assertEqual(r["status"], "CRASH")
        self.assertIn("signal 11", r["message"])
        r = harness.result_rows("cg", "ptxcc-omp", "S", [], {}, None, "", "", 99, True)[0]
        self.assertEqual(r["status"], "TIMEOUT")

    def test_unsupported(self):
        st, msg = harness.classify_build_failure(
            "pi_omp.c:9:1: error: ptxcc does not support reduction clauses yet\n1 error generated.\n")
        self.assertEqual(st, "UNSUPPORTED")
        self.assertIn("issue 5", msg)
        st, _ = harness.classify_build_failure("x.c:3:5: error: use of undeclared identifier 'q'\n")
        self.assertEqual(st, "BUILD-FAIL")

    def test_cross_check(self):
        base = dict(program="p", name="p", cls="S", args="", status="PASS", rtol="1e-10")
        rows = [dict(base, variant="serial", checksum="1.0"), dict(base, variant="ptxcc-omp", checksum="1.00000000005"),
                dict(base, variant="ptxcc-acc", checksum="1.1")]
        harness.cross_check(rows)
        self.assertEqual([r["status"] for r in rows], ["PASS", "PASS", "FAIL"])

    def test_ratios_and_peak(self):
        base = dict(program="s", name="s_triad", cls="A", args="", status="PASS", bytes="3.35e12", bwbound="1")
        rows = [dict(base, variant="nvcc", best_time_s=1.0), dict(base, variant="ptxcc-omp", best_time_s=1.25),
                dict(base, variant="gcc-omp", best_time_s=2.5)]
        harness.add_ratios(rows, "NVIDIA H100 80GB HBM3")
        p = rows[1]
        self.assertAlmostEqual(p["ratio_vs_nvcc"], 1.25)
        self.assertAlmostEqual(p["ratio_vs_gcc"], 0.5)
        self.assertAlmostEqual(rows[0]["pct_peak_bw"], 100.0)
        self.assertEqual(harness.peak_bandwidth("NVIDIA H200"), 4800.0)
        self.assertIsNone(harness.peak_bandwidth("emu"))


class FakeCompiler(unittest.TestCase):
    """A ptxcc that refuses reductions: quick records UNSUPPORTED and still succeeds."""

    def test_quick_with_unsupported(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "ptxcc")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\n"
                        "for a in \"$@\"; do case \"$a\" in *pi_*) echo \"$a:9:1: error: ptxcc does not support "
                        "reduction clauses\" >&2; exit 1;; esac; done\n"
                        "exec clang-19 -fopenmp \"$@\"\n")
            os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
            if not harness.which("clang-19"):
                self.skipTest("no clang-19")
            rc = harness.main(["quick", "--ptxcc", fake, "--programs", "pi,saxpy", "--variants", "serial,ptxcc-omp",
                               "--build-dir", os.path.join(d, "b"), "--out", os.path.join(d, "r")])
            self.assertEqual(rc, 0)
            rows = harness.read_csv(os.path.join(d, "r", "report.csv"))
            st = {(r["program"], r["variant"]): r["status"] for r in rows}
            self.assertEqual(st[("pi", "ptxcc-omp")], "UNSUPPORTED")
            self.assertEqual(st[("saxpy", "ptxcc-omp")], "PASS")
            rc = harness.main(["quick", "--strict", "--ptxcc", fake, "--programs", "pi", "--variants",
                               "serial,ptxcc-omp", "--build-dir", os.path.join(d, "b"), "--out", os.path.join(d, "r")])
            self.assertEqual(rc, 1)


if __name__ == "__main__":
    unittest.main()
