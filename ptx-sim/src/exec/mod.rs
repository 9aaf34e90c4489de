//! The SIMT machine: device memory, threads, blocks and grids.
pub mod block;
pub mod directed;
pub mod grid;
pub mod heap;
pub mod memory;
pub mod ops;
pub mod printf;
pub mod shared;
pub mod specialize;
pub mod thread;
