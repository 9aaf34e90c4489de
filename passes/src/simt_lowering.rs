//! SIMT lowering: device IR → host code for the emulator. (Being written.)
