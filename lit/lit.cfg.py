# -*- Python -*-
# lit configuration for ptxcc's regression tests: lit/driver, lit/passes, lit/ptx, lit/e2e, lit/openacc,
# lit/nvcc (nvcc's programs on ptxsim), lit/clang-offload (Clang's own OpenMP offloading on ptxsim).
#
# Tools on PATH in every RUN line: ptxcc and ptxcc-opt (the build under test), FileCheck, not,
# count and the other LLVM 19 tools, clang-19.
#
# Substitutions:
#   %ptxcc, %ptxcc-opt   full paths of the binaries under test (plain `ptxcc` works too)
#   %run                 runs a program that must offload: OMP_TARGET_OFFLOAD=MANDATORY
#   %clang               the clang 19 ptxcc uses
#   %libptxrt            the runtime archive next to ptxcc
#   %python              this Python, for helper scripts in Inputs/
#   %nvcc                nvcc (with -cudart shared: the program loads libcudart.so.13)
#   %cudart-ptxsim       runs a program nvcc built on ptxsim: libptxsim.so as its libcudart.so.13
#                        (and libcuda.so.1), every symbol bound at start; Clang's offloading
#                        programs the same way (libomptarget opens libcuda.so)
#   %clang-ptxsim        scripts/clang-ptxsim: clang-19 -fopenmp --offload-arch=sm_90 for ptxsim
#   %mpirun              Open MPI's mpirun with --oversubscribe (more ranks than this machine's
#                        cores) and OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM)=1 (CI containers run as root)
# Features:
#   gpu                  an NVIDIA GPU answers `nvidia-smi -L`
#   ptxas                ptxas (CUDA toolkit) is on PATH, in $CUDA_HOME/bin, in .cuda-venv/cuda/bin
#                        (scripts/setup-cuda-tools.sh) or in /usr/local/cuda/bin: every PTX the
#                        suite's compiles produce is then assembled with it for its sm_NN
#   libdevice            CUDA's libdevice.10.bc, which ptxcc links for device math (else libclc)
#   nvcc                 nvcc is found in the same places and libptxsim.so is built
#   clang-offload        scripts/clang-ptxsim can build Clang's own OpenMP offloading for ptxsim
#   libptxrt             libptxrt.a was built (linking tests need it)
#   mpi                  OpenMPI's mpicc and mpirun are on PATH (OMPI_CC=ptxcc mpicc)
#   cmake                cmake is on PATH (CMake projects with CC=ptxcc)
#   cmake-openacc-clang  a CMake whose FindOpenACC knows Clang (3.31 on: PATH's, or .cmake-venv's
#                        from scripts/setup.sh), as %cmake_current
#   ptxsim               this run executes the programs' kernels on ptxsim (below)
#
# Parameters:
#   --param device=ptxsim   the programs run their kernels through libptxrt's CUDA path, on
#                           ptxsim (libptxsim.so standing in for libcuda.so): the PTX itself runs,
#                           not the emulator's host code, with shared memory checked for
#                           data races. Tests too long for a simulator say `UNSUPPORTED: ptxsim`.
#   --param verify_each=0   do not set PTXCC_VERIFY_EACH=1 (below)
#
# Every ptxcc and ptxcc-opt the suite runs verifies the IR after each pass (PTXCC_VERIFY_EACH=1:
# what a debug build does, see passes/src/registry.rs), so that a pass leaving invalid IR fails
# the test that reached it with the pass's name, even where the broken module would still
# compile.
#
# Where the binaries are: $PTXCC_BIN_DIR, else $CARGO_TARGET_DIR/release, else <repo>/target/release.
# LLVM's tools: $LLVM_BIN_DIR, else /usr/lib/llvm-19/bin.
import os
import shutil
import subprocess
import sys
import tempfile

import lit.formats

config.name = "ptxcc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".ll", ".cu"]
# Inputs/ holds files that tests use, not tests.
config.excludes = ["Inputs", "Output", "lit.cfg.py", "lit.site.cfg.py", "README.md"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = config.test_source_root

repo_root = os.path.dirname(config.test_source_root)


def first_existing(*candidates):
    for c in candidates:
        if c and os.path.exists(c):
            return c
    return None


target_dir = os.environ.get("CARGO_TARGET_DIR")
if target_dir:
    target_dir = os.path.abspath(target_dir)
else:
    target_dir = os.path.join(repo_root, "target")
bin_dir = os.path.abspath(os.environ.get("PTXCC_BIN_DIR") or os.path.join(target_dir, "release"))

ptxcc = os.path.join(bin_dir, "ptxcc")
ptxcc_opt = os.path.join(bin_dir, "ptxcc-opt")
if not os.path.exists(ptxcc):
    lit_config.fatal(
        "ptxcc is not built in %s: run 'cargo build --release' (or set PTXCC_BIN_DIR)" % bin_dir
    )
if not os.path.exists(ptxcc_opt):
    lit_config.warning("ptxcc-opt is not built in %s; pass tests will fail" % bin_dir)

llvm_bin = os.environ.get("LLVM_BIN_DIR") or "/usr/lib/llvm-19/bin"
if not os.path.exists(os.path.join(llvm_bin, "FileCheck")):
    lit_config.fatal(
        "FileCheck not found in %s: install llvm-19-tools (scripts/setup.sh does) or set LLVM_BIN_DIR"
        % llvm_bin
    )

clang = shutil.which("clang-19") or os.path.join(llvm_bin, "clang")

path = [bin_dir, llvm_bin]
cuda_bin = first_existing(os.environ.get("CUDA_HOME") and os.path.join(os.environ["CUDA_HOME"], "bin"),
                          os.path.join(repo_root, ".cuda-venv", "cuda", "bin"), "/usr/local/cuda/bin")
if cuda_bin:
    path.append(cuda_bin)
path.append(os.environ.get("PATH", ""))
config.environment["PATH"] = os.pathsep.join(path)

# What a program needs to find a GPU and what the user chose for the runtime.
for var in ["HOME", "TMPDIR", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "PTXRT_DEVICE", "PTXRT_DEBUG",
            "CUDA_HOME", "CUDA_PATH", "PTXCC_LIBDEVICE"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# ptxcc's own overrides must not leak from the caller's shell into the tests.
for var in ["PTXCC_CLANG", "PTXCC_RUNTIME_LIB", "PTXCC_INCLUDE_DIR", "OMP_TARGET_OFFLOAD"]:
    config.environment.pop(var, None)
# The verifier after every pass (the header above).
if lit_config.params.get("verify_each", "1") != "0":
    config.environment["PTXCC_VERIFY_EACH"] = "1"
else:
    config.environment.pop("PTXCC_VERIFY_EACH", None)

libptxrt = os.path.join(bin_dir, "libptxrt.a")
libptxsim = os.path.join(bin_dir, "libptxsim.so")
# A folder where the CUDA driver's and runtime's names lead to ptxsim.
driver_dir = os.path.join(bin_dir, "ptxsim-driver")
if os.path.exists(libptxsim):
    os.makedirs(driver_dir, exist_ok=True)
    for name in ["libcuda.so", "libcuda.so.1", "libcudart.so.13"]:
        link = os.path.join(driver_dir, name)
        if os.path.islink(link) and os.readlink(link) == libptxsim:
            continue
        if os.path.islink(link) or os.path.exists(link):
            os.remove(link)
        os.symlink(libptxsim, link)

device = lit_config.params.get("device", "")
if device == "ptxsim":
    if not os.path.exists(libptxsim):
        lit_config.fatal("libptxsim.so is not built in %s: run 'cargo build --release'" % bin_dir)
    # ptxsim first on the library path.
    config.environment["LD_LIBRARY_PATH"] = os.pathsep.join(
        p for p in [driver_dir, config.environment.get("LD_LIBRARY_PATH", "")] if p
    )
    config.environment["PTXRT_DEVICE"] = "cuda"
    # Every kernel's shared memory is checked for data races (a missing barrier is a fault).
    config.environment["PTXSIM_RACECHECK"] = "1"
    config.available_features.add("ptxsim")
    config.name = "ptxcc-ptxsim"
elif device:
    lit_config.fatal("unknown --param device=%s (known: ptxsim)" % device)

# Longer names first: lit substitutes in order.
config.substitutions.append(("%ptxcc-opt", ptxcc_opt))
config.substitutions.append(("%ptxcc", ptxcc))
config.substitutions.append(("%run", "env OMP_TARGET_OFFLOAD=MANDATORY"))
config.substitutions.append(("%clang", clang))
config.substitutions.append(("%libptxrt", libptxrt))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%mpirun", "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe")
)
config.substitutions.append(("%cudart-ptxsim", "env LD_LIBRARY_PATH=%s LD_BIND_NOW=1" % driver_dir))


def has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


if has_gpu():
    config.available_features.add("gpu")
if shutil.which("mpicc") and shutil.which("mpirun"):
    config.available_features.add("mpi")
if shutil.which("cmake"):
    config.available_features.add("cmake")


def cmake_finding_openacc_for_clang():
    """A CMake whose FindOpenACC has a flag for Clang-identified compilers (3.31 on): the one on
    PATH, else the one scripts/setup.sh installs from PyPI into .cmake-venv."""
    for cmake in (shutil.which("cmake"), os.path.join(repo_root, ".cmake-venv", "bin", "cmake")):
        if not cmake or not os.access(cmake, os.X_OK):
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".cmake") as script:
            script.write('message("${CMAKE_ROOT}")\n')
            script.flush()
            try:
                out = subprocess.run([cmake, "-P", script.name], capture_output=True, text=True, timeout=60)
            except (OSError, subprocess.SubprocessError):
                continue
        root = out.stderr.strip()
        try:
            with open(os.path.join(root, "Modules", "FindOpenACC.cmake")) as f:
                if "ACC_FLAG_Clang" in f.read():
                    return cmake
        except OSError:
            continue
    return None


cmake_current = cmake_finding_openacc_for_clang()
if cmake_current:
    config.available_features.add("cmake-openacc-clang")
    config.substitutions.append(("%cmake_current", cmake_current))
ptxas = shutil.which("ptxas", path=config.environment["PATH"])
if ptxas:
    config.available_features.add("ptxas")
    # Every compile of the suite then assembles its PTX with NVIDIA's ptxas: PTX the CUDA JIT
    # would reject fails here, on a machine without a GPU.
    config.environment["PTXCC_PTXAS"] = ptxas
nvcc = shutil.which("nvcc", path=config.environment["PATH"])
if nvcc and os.path.exists(libptxsim):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc + " -cudart shared"))
# Clang 19's own OpenMP offloading, built by scripts/clang-ptxsim to run on ptxsim: its
# prerequisites (clang-tools-19, libomptarget and the DeviceRTL of libomp-19-dev, the wheels'
# libdevice, ptxsim) are all here.
clang_ptxsim_needs = [
    os.path.join(bin_dir, "ptxsim"),
    libptxsim,
    "/usr/lib/llvm-19/bin/clang-linker-wrapper",
    "/usr/lib/llvm-19/bin/clang-nvlink-wrapper",
    "/usr/lib/llvm-19/lib/libomptarget.so",
    "/usr/lib/llvm-19/lib/libomptarget-nvptx-sm_90.bc",
    os.path.join(repo_root, ".cuda-venv", "cuda", "nvvm", "libdevice", "libdevice.10.bc"),
]
if all(os.path.exists(p) for p in clang_ptxsim_needs):
    config.available_features.add("clang-offload")
    # Before %clang: lit substitutes in order.
    config.substitutions.insert(0, ("%clang-ptxsim", os.path.join(repo_root, "scripts", "clang-ptxsim")))
# CUDA's libdevice, which ptxcc links for C's math functions where it finds one (math_library.rs:
# the same places, in the same order); without it, libclc.
libdevice_candidates = [os.environ.get("PTXCC_LIBDEVICE", "")] + [
    os.path.join(os.environ[v], "nvvm", "libdevice", "libdevice.10.bc")
    for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)
] + [
    os.path.join(repo_root, ".cuda-venv", "cuda", "nvvm", "libdevice", "libdevice.10.bc"),
    "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc",
    "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc",
]
if any(p and os.path.isfile(p) for p in libdevice_candidates):
    config.available_features.add("libdevice")
if os.path.exists(libptxrt):
    config.available_features.add("libptxrt")
