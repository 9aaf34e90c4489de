/*
 * ptxcc_abi.h — the contract between code that ptxcc generates and libptxrt.
 *
 * Two halves:
 *   1. Image registration: the host-registration pass (passes/src/host_registration.rs) emits, in every
 *      translation unit that has offload regions, one `ptxrt_image_desc` and a global constructor that
 *      calls `__ptxrt_register_image(&desc)`. Kernels are then launched by the standard libomptarget
 *      host ABI that clang emits (`__tgt_target_kernel(loc, dev, teams, threads, host_id, kernel_args)`),
 *      and the runtime finds the kernel by `host_id` (the address of the region-id global clang made).
 *   2. Emulator ABI: the SIMT-lowering pass (passes/src/simt_lowering.rs) turns the device IR into host
 *      code in which every GPU-specific operation is a call to one of the `__ptxemu_*` functions below.
 *      The runtime's emulator implements them.
 *
 * The Rust side of this contract is abi/ (crate ptxcc-abi), which the passes and libptxrt share;
 * keep this file in step with it and bump PTXRT_ABI_VERSION (abi/src/kernel.rs) on change.
 */
#ifndef PTXCC_ABI_H
#define PTXCC_ABI_H
#include <stdint.h>

#define PTXRT_ABI_VERSION 5u

/* How the runtime must launch a kernel: what the region's OpenMP structure needs. */
enum ptxrt_exec_mode {
  PTXRT_EXEC_SPMD = 0,          /* teams + parallel: any grid, any block; every thread runs the region   */
  PTXRT_EXEC_SPMD_ONE_TEAM = 1, /* parallel without teams: one block of any size                         */
  PTXRT_EXEC_TEAMS_ONLY = 2,    /* teams without parallel: any grid, exactly one thread per block        */
  PTXRT_EXEC_SINGLE = 3,        /* plain target: one block of one thread                                 */
};

/* Flags telling the emulator what the kernel's code needs. */
enum ptxrt_emu_flags {
  PTXRT_EMU_NEEDS_SYNC = 1u << 0, /* calls __ptxemu_barrier or a warp-synchronous op: run threads as fibers */
  PTXRT_KERNEL_SPLITTABLE = 1u << 1, /* runs the part of its loop its global __ptxcc_split_<name> says (-fptxcc-multi-device) */
  PTXRT_KERNEL_ACCESS_MAPS = 1u << 2, /* -fopenmp-offload-parallel-for: unmapped pointer arguments are mapped by `accesses` */
  PTXRT_KERNEL_OPENACC = 1u << 3, /* (ABI 4) an OpenACC compute construct (with ACCESS_MAPS: its pointers without a data clause) */
  PTXRT_KERNEL_STORES_POINTERS = 1u << 4, /* (ABI 5) may keep a pointer it gets in memory: device copies never move */
};

/* An argument of a split kernel (-fptxcc-multi-device) that the devices' parts combine: each
 * device's copy starts at the identity of `op`, the host folds the parts into its value. */
enum ptxrt_combine_op { /* low byte: the operation; second byte: the element */
  PTXRT_COMBINE_ADD = 1, PTXRT_COMBINE_MIN = 2, PTXRT_COMBINE_MAX = 3,
  PTXRT_COMBINE_AND = 4, PTXRT_COMBINE_OR = 5, PTXRT_COMBINE_XOR = 6, PTXRT_COMBINE_MUL = 7,
  PTXRT_COMBINE_LAND = 8, PTXRT_COMBINE_LOR = 9,
  PTXRT_ELEM_I32 = 1 << 8, PTXRT_ELEM_I64 = 2 << 8, PTXRT_ELEM_U32 = 3 << 8,
  PTXRT_ELEM_U64 = 4 << 8, PTXRT_ELEM_F32 = 5 << 8, PTXRT_ELEM_F64 = 6 << 8,
};

typedef struct ptxrt_split_combine {
  uint32_t param;                 /* index of the kernel parameter                                         */
  uint32_t op;                    /* enum ptxrt_combine_op: operation | element                            */
} ptxrt_split_combine;

typedef struct ptxrt_kernel_desc {
  const void *host_id;            /* address of clang's `.__omp_offloading_<...>.region_id` global        */
  const char *name;               /* the PTX `.entry` name                                                 */
  void (*emu_entry)(void **args); /* emulator entry; args[i] points at the value of parameter i            */
  const char *source;             /* "file.c:LINE:COL" of the construct, for messages and profiles        */
  uint32_t num_params;            /* every parameter is 8 bytes: a pointer or a 64-bit literal             */
  uint32_t exec_mode;             /* enum ptxrt_exec_mode                                                  */
  uint32_t emu_flags;             /* enum ptxrt_emu_flags                                                  */
  uint32_t emu_shared_bytes;      /* static shared memory per block the emulator must provide              */
  uint32_t num_combines;          /* PTXRT_KERNEL_SPLITTABLE: arguments whose parts are combined           */
  uint32_t num_access_words;      /* SPLITTABLE or ACCESS_MAPS: words of `accesses`, 0 without a table     */
  const struct ptxrt_split_combine *combines;
  const int64_t *accesses;        /* the access table of -fptxcc-multi-device (ptx-runtime split/ranges.rs) */
  /* -fptxcc-hybrid: the host version of the region for the iterations [lo, hi) of its split loop;
   * args[i] points at the value of parameter i (NULL: the loop runs on devices only)             */
  void (*host_part)(void **args, uint64_t lo, uint64_t hi);
  uint64_t ptr_params;            /* bit i: parameter i is a pointer (splittable kernels)              */
} ptxrt_kernel_desc;

typedef struct ptxrt_global_desc {
  const void *host_addr;          /* the host copy of a `declare target` global                           */
  const char *name;               /* its symbol name in the PTX module (cuModuleGetGlobal)                 */
  uint64_t size;                  /* bytes                                                                 */
  void *emu_addr;                 /* the emulator's device copy                                            */
} ptxrt_global_desc;

typedef struct ptxrt_image_desc {
  uint32_t abi_version;           /* PTXRT_ABI_VERSION                                                     */
  uint32_t num_kernels;
  uint32_t num_globals;
  uint32_t reserved;
  const char *ptx;                /* NUL-terminated PTX text for the whole translation unit               */
  const char *arch;               /* "sm_90"                                                               */
  const char *source_file;        /* the translation unit, for messages                                    */
  const ptxrt_kernel_desc *kernels;
  const ptxrt_global_desc *globals;
} ptxrt_image_desc;

void __ptxrt_register_image(const ptxrt_image_desc *image);

/* Called by ptxcc's host code right before __tgt_target_kernel of `region` (the kernel's host
 * id) when the kernel's collapse(2)/collapse(3) loop reads its indices from a grid of the loop's
 * shape (passes: loop_mapping/grid_shape.rs, launch_shape.rs): `inner` is the innermost loop's
 * trip count, `middle` the middle loop's for collapse(3) (0 for collapse(2)). The next launch on
 * this thread takes it, if it is of `region`; the kernel checks the grid it gets, so a shape is
 * only a matter of speed. */
void __ptxrt_push_collapse_shape(const void *region, long long inner, long long middle);

/* ---- Emulator ABI: called by SIMT-lowered device code running on the host ---- */

/* Special registers. `which` is one of the constants below; the value is constant for the
 * lifetime of one GPU thread, so the pass declares this function `memory(none) speculatable`
 * (so must the emulator honour it), and within CUDA's limits (block x,y <= 1024, z <= 64;
 * grid y,z <= 65535), which the lowered code tells LLVM it may assume. */
enum ptxemu_sreg {
  PTXEMU_TID_X = 0, PTXEMU_TID_Y = 1, PTXEMU_TID_Z = 2,
  PTXEMU_NTID_X = 3, PTXEMU_NTID_Y = 4, PTXEMU_NTID_Z = 5,
  PTXEMU_CTAID_X = 6, PTXEMU_CTAID_Y = 7, PTXEMU_CTAID_Z = 8,
  PTXEMU_NCTAID_X = 9, PTXEMU_NCTAID_Y = 10, PTXEMU_NCTAID_Z = 11,
  PTXEMU_LANEID = 12, PTXEMU_WARPSIZE = 13,
  PTXEMU_DEVICE_NUM = 14, /* the OpenMP number of the emulated device running the kernel */
};
uint32_t __ptxemu_sreg(uint32_t which);

/* bar.sync 0 (__syncthreads): every thread of the block. */
void __ptxemu_barrier(void);
/* __syncwarp(mask). */
void __ptxemu_warp_sync(uint32_t mask);
/* shfl.sync: mode 0 = idx, 1 = up, 2 = down, 3 = bfly; `c` is PTX's clamp/segment operand.
 * Returns the 32-bit value read; a 64-bit shuffle is two calls. */
enum ptxemu_shfl_mode { PTXEMU_SHFL_IDX = 0, PTXEMU_SHFL_UP = 1, PTXEMU_SHFL_DOWN = 2, PTXEMU_SHFL_BFLY = 3 };
uint32_t __ptxemu_shfl_sync(uint32_t mask, uint32_t value, uint32_t lane_or_offset, uint32_t c, uint32_t mode);
/* vote.sync: mode 0 = all, 1 = any, 2 = uni, 3 = ballot. Returns the predicate result (0/1) or the ballot. */
enum ptxemu_vote_mode { PTXEMU_VOTE_ALL = 0, PTXEMU_VOTE_ANY = 1, PTXEMU_VOTE_UNI = 2, PTXEMU_VOTE_BALLOT = 3 };
uint32_t __ptxemu_vote_sync(uint32_t mask, uint32_t pred, uint32_t mode);
/* Base of this block's static shared memory (emu_shared_bytes bytes, 16-byte aligned); the same
 * value for a GPU thread's whole life (declared pure). */
void *__ptxemu_shared_base(void);
/* A trap in device code (llvm.trap, failed assertion): the runtime reports the kernel and exits;
 * never returns (declared noreturn). */
void __ptxemu_trap(void);

#endif
