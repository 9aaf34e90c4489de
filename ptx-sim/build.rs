//! libptxsim.so stands in for the CUDA runtime too (src/cudart/): programs nvcc links with
//! `-cudart shared` ask for their symbols at version `libcudart.so.13`, which the dynamic linker
//! checks. `--default-symver` gives every exported symbol the soname as its version, so the
//! soname is `libcudart.so.13`; the driver's names (`cuInit`…) carry it too, which dlsym and
//! unversioned references accept.
//! lld (rustc's default linker on x86-64 Linux) has no `--default-symver`: this library is
//! linked with GNU ld (binutils, which the C toolchain has anyway).
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-fuse-ld=bfd");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcudart.so.13");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--default-symver");
}
