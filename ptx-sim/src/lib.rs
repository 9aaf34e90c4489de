//! ptxsim: runs PTX on the CPU, behind the CUDA driver API.
//!
//! ptxcc's executables run their kernels through the CUDA driver (`libcuda.so`), loaded at run
//! time. On a machine without an NVIDIA GPU, `libptxsim.so` can stand in for it: it implements
//! the driver calls libptxrt makes (`driver/`) over a simulator of the PTX that ptxcc emits, so
//! the runtime's CUDA path and the PTX itself run in CI — the CPU emulator of libptxrt runs
//! neither (it runs the device IR compiled for the host).
//!
//! ```text
//! PTX text ──ptx::parser──▶ ast::Module ──program::decode──▶ Program (decoded instructions)
//!                                                              │
//! cuLaunchKernel ──driver──▶ exec::grid (blocks on host threads) ─▶ exec::block (barriers,
//!                            warp collectives) ─▶ exec::thread (the interpreter)
//! ```
//!
//! What it checks that a GPU would fault on: every global access against the allocations
//! (illegal address), alignment, shared and local bounds, barriers and warp collectives that
//! can never complete. Fresh device and shared memory is poisoned. What it does not model:
//! timing (but `stats` estimates it), caches, the weak memory model beyond atomics and fences, and the approximate
//! instructions' exact error (`sin.approx` etc. are computed exactly).

pub mod cubin;
pub mod cudart;
pub mod driver;
pub mod exec;
mod le;
pub mod machine;
pub mod program;
pub mod ptx;
pub mod stats;
