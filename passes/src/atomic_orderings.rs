//! Atomic orderings as fences: LLVM 19's NVPTX back end selects neither `fence` nor an atomic
//! load or store stronger than `monotonic` ("Cannot select: AtomicFence" — a compiler abort on
//! `#pragma omp atomic read seq_cst`, `acquire`, `write release`, `flush`-like code), and it
//! emits `atomicrmw`/`cmpxchg` as relaxed `atom` whatever their ordering. This pass gives every
//! such instruction of the device module the fences the ordering needs, around a `monotonic`
//! access (relaxed: `ld.volatile`/`st.volatile`/`atom`), the leading/trailing-fence mapping of
//! C++ atomics onto fence-based machines. The fence is `llvm.nvvm.membar.gl` (`membar.gl`,
//! which PTX defines as `fence.sc.gpu` from sm_70 on: a sequentially consistent fence at GPU
//! scope, stronger than acquire or release needs, never weaker); `block`-scoped operations get
//! `membar.cta`, single-thread fences (compiler barriers) disappear.
//!
//! ```text
//! %v = load atomic i32, ptr %p seq_cst, align 4     call void @llvm.nvvm.membar.gl()
//!                                                   %v = load atomic i32, ptr %p monotonic, align 4
//!                                         ──▶       call void @llvm.nvvm.membar.gl()
//! store atomic i32 %v, ptr %q release, align 4      call void @llvm.nvvm.membar.gl()
//!                                                   store atomic i32 %v, ptr %q monotonic, align 4
//! fence acquire                                     call void @llvm.nvvm.membar.gl()
//! %o = atomicrmw add ptr %p, i32 1 acq_rel          call void @llvm.nvvm.membar.gl()
//!                                                   %o = atomicrmw add ptr %p, i32 1 monotonic
//!                                                   call void @llvm.nvvm.membar.gl()
//! ```
//! | ordering | fence before | fence after |
//! |---|---|---|
//! | acquire (loads, read-modify-writes) | | ✓ |
//! | release (stores, read-modify-writes) | ✓ | |
//! | acq_rel, seq_cst | ✓ | ✓ (a seq_cst store too: it may not pass a later seq_cst load) |
use crate::ir;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, InstructionOpcode, InstructionValue};
use llvm_sys::core as c;
use llvm_sys::LLVMAtomicOrdering as O;

/// What one instruction needs.
struct Plan {
    before: bool,
    after: bool,
}

/// The fences `ordering` needs around an access of kind `op`.
fn plan(op: InstructionOpcode, ordering: O) -> Plan {
    let (acquire, release) = match ordering {
        O::LLVMAtomicOrderingAcquire => (true, false),
        O::LLVMAtomicOrderingRelease => (false, true),
        O::LLVMAtomicOrderingAcquireRelease | O::LLVMAtomicOrderingSequentiallyConsistent => {
            (true, true)
        }
        _ => (false, false),
    };
    let seq_cst = ordering == O::LLVMAtomicOrderingSequentiallyConsistent;
    match op {
        InstructionOpcode::Load => Plan {
            before: seq_cst,
            after: acquire,
        },
        InstructionOpcode::Store => Plan {
            before: release,
            after: seq_cst,
        },
        _ => Plan {
            before: release,
            after: acquire,
        },
    }
}

fn is_strong(o: O) -> bool {
    !matches!(
        o,
        O::LLVMAtomicOrderingNotAtomic
            | O::LLVMAtomicOrderingUnordered
            | O::LLVMAtomicOrderingMonotonic
    )
}

/// Lowers every ordering stronger than monotonic in `device`. Returns how many instructions
/// changed.
pub fn lower_atomic_orderings(device: &Module<'_>) -> anyhow::Result<usize> {
    let ctx = device.get_context();
    let membar = |name: &str| {
        inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(device, &[]))
            .ok_or_else(|| anyhow::anyhow!("LLVM does not know {name}"))
    };
    let gl = membar("llvm.nvvm.membar.gl")?;
    let cta = membar("llvm.nvvm.membar.cta")?;
    let b = ctx.create_builder();
    let mut changed = 0;
    for f in device.get_functions() {
        let work: Vec<InstructionValue> = ir::instructions(f)
            .into_iter()
            .filter(|i| {
                matches!(
                    i.get_opcode(),
                    InstructionOpcode::Load
                        | InstructionOpcode::Store
                        | InstructionOpcode::AtomicRMW
                        | InstructionOpcode::AtomicCmpXchg
                        | InstructionOpcode::Fence
                )
            })
            .collect();
        for inst in work {
            let v = inst.as_value_ref();
            let op = inst.get_opcode();
            unsafe {
                let ordering = if op == InstructionOpcode::AtomicCmpXchg {
                    c::LLVMGetCmpXchgSuccessOrdering(v)
                } else {
                    c::LLVMGetOrdering(v)
                };
                if !is_strong(ordering) {
                    continue;
                }
                changed += 1;
                let single_thread = c::LLVMIsAtomicSingleThread(v) != 0;
                let fence = if block_scoped(v) { cta } else { gl };
                if op == InstructionOpcode::Fence {
                    if !single_thread {
                        b.position_before(&inst);
                        b.build_call(fence, &[], "")?;
                    }
                    inst.erase_from_basic_block();
                    continue;
                }
                let p = plan(op, ordering);
                if p.before && !single_thread {
                    b.position_before(&inst);
                    b.build_call(fence, &[], "")?;
                }
                if op == InstructionOpcode::AtomicCmpXchg {
                    c::LLVMSetCmpXchgSuccessOrdering(v, O::LLVMAtomicOrderingMonotonic);
                    c::LLVMSetCmpXchgFailureOrdering(v, O::LLVMAtomicOrderingMonotonic);
                } else {
                    c::LLVMSetOrdering(v, O::LLVMAtomicOrderingMonotonic);
                }
                if p.after && !single_thread {
                    match inst.get_next_instruction() {
                        Some(next) => b.position_before(&next),
                        None => continue, // an atomic is never a terminator
                    }
                    b.build_call(fence, &[], "")?;
                }
            }
        }
    }
    Ok(changed)
}

/// Whether the instruction's sync scope is `block` (clang's scope for team-local atomics): its
/// text is the only place the C API shows a named scope in LLVM 19.
fn block_scoped(v: llvm_sys::prelude::LLVMValueRef) -> bool {
    unsafe {
        let s = c::LLVMPrintValueToString(v);
        let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
        c::LLVMDisposeMessage(s);
        text.contains("syncscope(\"block\")")
    }
}
