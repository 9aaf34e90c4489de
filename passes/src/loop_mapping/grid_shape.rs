//! A grid of the loop's shape for a `collapse(2)` / `collapse(3)` grid-stride loop: the
//! indices come from the block and thread numbers, with no division.
//!
//! [`super::running_quotient`] leaves each thread one division per level before its first
//! iteration (`i = start / (J*K)`, `j = (start % (J*K)) / K`): some twenty SASS instructions
//! each, where nvcc's hand-written stencils read `blockIdx.z`, `blockIdx.y` and
//! `blockIdx.x * blockDim.x + threadIdx.x`. Consecutive counters also cross a row in the middle
//! of a warp (62 interior points of a Himeno row: one warp in two straddles two rows and
//! touches sectors of both), where a grid of rows starts every row at a warp.
//!
//! When the launch knows the loop's extents (the host pushes them: `crate::launch_shape`), the
//! runtime launches `(ceil(K / bx), J, I)` blocks of `bx` threads (`collapse(2)`:
//! `(ceil(J / bx), I)`), and the kernel takes its indices from them:
//!
//! ```llvm
//! pre:    %gx = ctaid.x * ntid.x + tid.x                       ; (i64, read with !ptxcc.grid.shape)
//!         %r1 = ctaid.y * %K + %gx ; %counter = ctaid.z * %JK + %r1
//!         %shaped = first == 0 && last < 2^46 && nctaid.x * ntid.x >= K
//!                   && nctaid.y * K >= JK && nctaid.z * JK > last          ; the grid covers the loop
//!         %valid  = gx < K && r1 < JK && counter <= last                   ; this thread has an iteration
//!         %start' = select %valid, %counter, last + 1
//!         br i1 %shaped, label %ptxcc.known, label %ptxcc.divide
//! ptxcc.known:  store %start', ptr %iv
//!         store ctaid.z, %quot ; store %r1, %rem ; store ctaid.y, %quot.inner ; store %gx, %rem.inner
//!         br label %join                       ; (ptxcc.divide: the divisions, ptxcc.decide: the steps)
//! join:   %ptxcc.more.grid = phi i1 [false, %ptxcc.decide], [true, %ptxcc.steps], [false, %ptxcc.known]
//! latch:  %iv.next = add %iv, (select %shaped, last + 1 - start', %step)
//! ```
//!
//! The check makes the grid a matter of speed only: on any other grid (a launch without the
//! extents, a `num_teams` clause, a part of a loop split over devices) the loop is the
//! grid-stride loop it was, over the thread's linear number in the grid: the module's other
//! reads of `ctaid.x` and `nctaid.x` in every function such a kernel reaches become
//! `ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z)` and `nctaid.x * nctaid.y * nctaid.z`
//! ([`linearize_block_ids`]). Every counter in `[0, last]` has exactly one valid thread on a
//! covering grid: `(counter / JK, (counter % JK) / K, counter % K)`.
//!
//! Only loops that nothing asks which thread ran last are shaped (no `lastprivate`, no
//! `simd` final value: the distribute's flag is computed for the linear grid).
use super::running_quotient::{Counter, Setup};
use crate::ir;
use crate::nvvm::{self, SReg};
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBuilderRef, LLVMModuleRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::LLVMIntPredicate::*;
use std::collections::{HashMap, HashSet};

/// Marks the special-register reads of a shaped loop's own indices, which
/// [`linearize_block_ids`] leaves as they are.
const SHAPE_MD: &str = "ptxcc.grid.shape";

/// The named metadata that tells the pipeline which kernels take a grid of their loop's shape:
/// `!{!"kernel", i32 levels, i64 inner, i64 outer}` (the divisors, 0 where not constants).
pub const SHAPES_MD: &str = "ptxcc.grid_shapes";

/// Above this, a loop's last counter or divisor leaves the shape's products in doubt (they are
/// computed in 64 bits with grid dimensions below 2^17 and 2^41).
const LIMIT: u64 = 1 << 46;

/// One level of running quotients ([`super::running_quotient`]), outermost first.
pub(super) struct Level {
    /// The divisor, positive, computed in [`Setup::pre`].
    pub divisor: LLVMValueRef,
    /// Its value, when it is a constant.
    pub constant: Option<u64>,
    /// The slots of the running quotient and remainder.
    pub quot: LLVMValueRef,
    pub rem: LLVMValueRef,
}

/// What a shaped loop tells the launch: its levels (1: `collapse(2)`, 2: `collapse(3)`) and
/// their divisors where they are constants, outermost first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shaped {
    pub divisors: Vec<Option<u64>>,
}

impl Shaped {
    /// The innermost divisor (the innermost loop's extent), where it is a constant.
    pub fn inner(&self) -> Option<u64> {
        self.divisors.last().copied().flatten()
    }

    /// The outermost divisor (`J * K` of a `collapse(3)` loop), where it is a constant.
    pub fn outer(&self) -> Option<u64> {
        self.divisors.first().copied().flatten()
    }
}

/// Gives the loop `c` (whose running quotients are `levels`) the shaped path; None when it
/// has more levels than a grid has dimensions, or a counter type other than i32 / i64.
///
/// # Safety
/// `setup` must be the loop's [`Setup`], `levels` its levels, built by `b`'s context.
pub(super) unsafe fn shape(
    b: LLVMBuilderRef,
    c: &Counter,
    ty: LLVMTypeRef,
    setup: &mut Setup,
    levels: &[Level],
) -> anyhow::Result<Option<Shaped>> {
    let bits = llvm::LLVMGetIntTypeWidth(ty);
    if !(1..=2).contains(&levels.len()) || !(bits == 32 || bits == 64) {
        return Ok(None);
    }
    let f = llvm::LLVMGetBasicBlockParent(setup.pre);
    let module = llvm::LLVMGetGlobalParent(f);
    let ctx = llvm::LLVMGetTypeContext(ty);
    let i64t = llvm::LLVMInt64TypeInContext(ctx);
    let k64 = |v: u64| llvm::LLVMConstInt(i64t, v, 0);
    let k = |v: u64| llvm::LLVMConstInt(ty, v, 0);
    let name = |s: &str| std::ffi::CString::new(s).unwrap_or_default();
    llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetBasicBlockTerminator(setup.pre));
    let reg = |r: SReg| -> anyhow::Result<LLVMValueRef> {
        let v = read_tagged(module, b, r)?;
        Ok(llvm::LLVMBuildZExt(b, v, i64t, c"".as_ptr()))
    };
    let (tid, ntid) = (reg(SReg::TidX)?, reg(SReg::NtidX)?);
    let (bx, nbx) = (reg(SReg::CtaidX)?, reg(SReg::NctaidX)?);
    let (by, nby) = (reg(SReg::CtaidY)?, reg(SReg::NctaidY)?);
    let (bz, nbz) = (reg(SReg::CtaidZ)?, reg(SReg::NctaidZ)?);
    let mul = |x, y| llvm::LLVMBuildNUWMul(b, x, y, c"".as_ptr());
    let add = |x, y| llvm::LLVMBuildNUWAdd(b, x, y, c"".as_ptr());
    let cmp = |p, x, y| llvm::LLVMBuildICmp(b, p, x, y, c"".as_ptr());
    let and = |x, y| llvm::LLVMBuildAnd(b, x, y, c"".as_ptr());
    let wide = |v| llvm::LLVMBuildZExt(b, v, i64t, c"".as_ptr());
    let narrow = |v| llvm::LLVMBuildTrunc(b, v, ty, c"".as_ptr());

    let gx = add(mul(bx, ntid), tid);
    let lanes = mul(nbx, ntid);
    let limit = LIMIT.min(u64::MAX >> (64 - bits + 1));
    let mut ok = and(
        cmp(LLVMIntEQ, c.first, k(0)),
        cmp(LLVMIntULT, c.last, k(limit)),
    );
    for l in levels {
        ok = and(ok, cmp(LLVMIntULT, l.divisor, k(limit)));
    }
    let last = wide(c.last);
    let divisors: Vec<LLVMValueRef> = levels.iter().map(|l| wide(l.divisor)).collect();
    // (covered, valid, counter, [(quotient, remainder)] per level)
    let (covered, valid, counter, known) = match divisors[..] {
        [m] => {
            let counter = add(mul(by, m), gx);
            let covered = and(
                and(
                    cmp(LLVMIntUGE, lanes, m),
                    cmp(LLVMIntUGT, mul(nby, m), last),
                ),
                cmp(LLVMIntEQ, nbz, k64(1)),
            );
            let valid = and(cmp(LLVMIntULT, gx, m), cmp(LLVMIntULE, counter, last));
            (covered, valid, counter, vec![(by, gx)])
        }
        [m1, m2] => {
            let r1 = add(mul(by, m2), gx);
            let counter = add(mul(bz, m1), r1);
            let covered = and(
                and(
                    cmp(LLVMIntUGE, lanes, m2),
                    cmp(LLVMIntUGE, mul(nby, m2), m1),
                ),
                cmp(LLVMIntUGT, mul(nbz, m1), last),
            );
            let valid = and(
                and(cmp(LLVMIntULT, gx, m2), cmp(LLVMIntULT, r1, m1)),
                cmp(LLVMIntULE, counter, last),
            );
            (covered, valid, counter, vec![(bz, r1), (by, gx)])
        }
        _ => return Ok(None),
    };
    let shaped = and(ok, covered);
    llvm::LLVMSetValueName2(shaped, c"ptxcc.shaped".as_ptr(), "ptxcc.shaped".len());
    // A thread without an iteration starts past the last counter.
    let past = llvm::LLVMBuildAdd(b, c.last, k(1), c"".as_ptr());
    let start = llvm::LLVMBuildSelect(
        b,
        valid,
        narrow(counter),
        past,
        name("ptxcc.shaped.start").as_ptr(),
    );
    // Its one step goes past the last counter.
    let step = llvm::LLVMBuildSub(b, past, start, name("ptxcc.shaped.step").as_ptr());

    // pre → known (the start and the indices, no second step) → join, or pre → divide (the
    // divisions) → decide → join.
    let term = llvm::LLVMGetBasicBlockTerminator(setup.pre);
    let known_bb = llvm::LLVMInsertBasicBlockInContext(ctx, setup.divide, c"ptxcc.known".as_ptr());
    llvm::LLVMInstructionEraseFromParent(term);
    llvm::LLVMPositionBuilderAtEnd(b, setup.pre);
    llvm::LLVMBuildCondBr(b, shaped, known_bb, setup.divide);
    llvm::LLVMPositionBuilderAtEnd(b, known_bb);
    llvm::LLVMBuildStore(b, start, c.slot);
    for (l, (q, r)) in levels.iter().zip(known) {
        llvm::LLVMBuildStore(b, llvm::LLVMBuildTrunc(b, q, ty, c"".as_ptr()), l.quot);
        llvm::LLVMBuildStore(b, llvm::LLVMBuildTrunc(b, r, ty, c"".as_ptr()), l.rem);
    }
    llvm::LLVMBuildBr(b, setup.join);
    // The step quotients nothing reads on this edge; `%ptxcc.more`: whether `steps` ran.
    let mut phi = llvm::LLVMGetFirstInstruction(setup.join);
    while !phi.is_null() && !llvm::LLVMIsAPHINode(phi).is_null() {
        let mut value = [llvm::LLVMConstInt(llvm::LLVMTypeOf(phi), 0, 0)];
        let mut from = [known_bb];
        llvm::LLVMAddIncoming(phi, value.as_mut_ptr(), from.as_mut_ptr(), 1);
        phi = llvm::LLVMGetNextInstruction(phi);
    }
    let i1 = llvm::LLVMInt1TypeInContext(ctx);
    llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetFirstInstruction(setup.join));
    let more = llvm::LLVMBuildPhi(b, i1, c"ptxcc.more.grid".as_ptr());
    let (no, yes) = (llvm::LLVMConstInt(i1, 0, 0), llvm::LLVMConstInt(i1, 1, 0));
    let mut values = [no, yes, no];
    let mut blocks = [setup.decide, setup.steps, known_bb];
    llvm::LLVMAddIncoming(more, values.as_mut_ptr(), blocks.as_mut_ptr(), 3);
    setup.more = more;

    // The latch's step, for a loop that keeps its latch (no single-trip copy).
    let step_operand = (0..2u32)
        .find(|&i| !ir::is_load_of(llvm::LLVMGetOperand(c.add, i), c.slot))
        .ok_or_else(|| {
            anyhow::anyhow!("the loop's increment does not add a step to its counter")
        })?;
    llvm::LLVMPositionBuilderBefore(b, c.add);
    let latch_step = llvm::LLVMBuildSelect(
        b,
        shaped,
        step,
        llvm::LLVMGetOperand(c.add, step_operand),
        c"".as_ptr(),
    );
    llvm::LLVMSetOperand(c.add, step_operand, latch_step);

    Ok(Some(Shaped {
        divisors: levels
            .iter()
            .map(|l| l.constant.filter(|&c| c > 0))
            .collect(),
    }))
}

/// Reads `reg`, marked as a shaped loop's own read.
unsafe fn read_tagged(
    module: LLVMModuleRef,
    b: LLVMBuilderRef,
    reg: SReg,
) -> anyhow::Result<LLVMValueRef> {
    let v = nvvm::read_sreg_raw(module, b, reg)?;
    ir::set_mark(v, SHAPE_MD);
    Ok(v)
}

/// Makes every kernel that reaches a shaped loop (in `shaped`, by function) correct on any
/// grid: in the functions it reaches, the reads of `ctaid.x` and `nctaid.x` other than the
/// shaped loops' own become the block's linear number and the grid's block count. Records, in
/// [`SHAPES_MD`], the kernels with exactly one shaped loop, for the launch to push its
/// extents.
pub(super) fn linearize_block_ids(
    device: &inkwell::module::Module<'_>,
    shaped: &HashMap<LLVMValueRef, Vec<Shaped>>,
) -> anyhow::Result<()> {
    if shaped.is_empty() {
        return Ok(());
    }
    let kernels = crate::kernel_info::read(device);
    let mut reach_all: HashSet<LLVMValueRef> = HashSet::new();
    let mut recorded = Vec::new();
    for k in &kernels {
        let Some(f) = device.get_function(&k.name) else {
            continue;
        };
        let reach: Vec<LLVMValueRef> = crate::split_range::reachable(f, false)
            .iter()
            .map(inkwell::values::AsValueRef::as_value_ref)
            .collect();
        let loops: Vec<&Shaped> = reach
            .iter()
            .filter_map(|f| shaped.get(f))
            .flatten()
            .collect();
        if loops.is_empty() {
            continue;
        }
        reach_all.extend(reach.iter().copied());
        if let [one] = loops[..] {
            recorded.push((k.name.clone(), one.clone()));
        }
    }
    unsafe {
        let module = device.as_mut_ptr();
        let ctx = llvm::LLVMGetModuleContext(module);
        let b = llvm::LLVMCreateBuilderInContext(ctx);
        let done = (|| -> anyhow::Result<()> {
            for &f in &reach_all {
                for call in sreg_reads(f) {
                    let Some(reg @ (SReg::CtaidX | SReg::NctaidX)) = SReg::read_by(call) else {
                        continue;
                    };
                    if ir::has_mark(call, SHAPE_MD) {
                        continue;
                    }
                    llvm::LLVMPositionBuilderBefore(b, call);
                    let read = |r| nvvm::read_sreg_raw(module, b, r);
                    let (nx, ny, nz) = (
                        read(SReg::NctaidX)?,
                        read(SReg::NctaidY)?,
                        read(SReg::NctaidZ)?,
                    );
                    let linear = if reg == SReg::CtaidX {
                        let (x, y, z) = (
                            read(SReg::CtaidX)?,
                            read(SReg::CtaidY)?,
                            read(SReg::CtaidZ)?,
                        );
                        let yz = llvm::LLVMBuildAdd(
                            b,
                            y,
                            llvm::LLVMBuildMul(b, ny, z, c"".as_ptr()),
                            c"".as_ptr(),
                        );
                        llvm::LLVMBuildAdd(
                            b,
                            x,
                            llvm::LLVMBuildMul(b, nx, yz, c"".as_ptr()),
                            c"ptxcc.block".as_ptr(),
                        )
                    } else {
                        let xy = llvm::LLVMBuildMul(b, nx, ny, c"".as_ptr());
                        llvm::LLVMBuildMul(b, xy, nz, c"ptxcc.blocks".as_ptr())
                    };
                    llvm::LLVMReplaceAllUsesWith(call, linear);
                    llvm::LLVMInstructionEraseFromParent(call);
                }
            }
            Ok(())
        })();
        llvm::LLVMDisposeBuilder(b);
        done?;
    }
    let ctx = device.get_context();
    for (name, s) in &recorded {
        let node = ctx.metadata_node(&[
            ctx.metadata_string(name).into(),
            ctx.i32_type()
                .const_int(s.divisors.len() as u64, false)
                .into(),
            ctx.i64_type()
                .const_int(s.inner().unwrap_or(0), false)
                .into(),
            ctx.i64_type()
                .const_int(s.outer().unwrap_or(0), false)
                .into(),
        ]);
        device
            .add_global_metadata(SHAPES_MD, &node)
            .map_err(|e| anyhow::anyhow!("cannot record the shape of kernel {name}: {e:?}"))?;
    }
    Ok(())
}

/// The calls of special-register intrinsics in function `f`.
fn sreg_reads(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    let Some(f) = (unsafe { inkwell::values::FunctionValue::new(f) }) else {
        return Vec::new();
    };
    ir::instructions(f)
        .into_iter()
        .map(|i| inkwell::values::AsValueRef::as_value_ref(&i))
        .filter(|&i| SReg::read_by(i).is_some())
        .collect()
}

/// The shapes [`linearize_block_ids`] recorded in `device`, by kernel name.
pub fn read_shapes(device: &inkwell::module::Module<'_>) -> HashMap<String, Shaped> {
    use inkwell::values::BasicMetadataValueEnum as M;
    device
        .get_global_metadata(SHAPES_MD)
        .into_iter()
        .filter_map(|node| {
            let ops = node.get_node_values()?;
            let [M::MetadataValue(name), M::IntValue(levels), M::IntValue(inner), M::IntValue(outer)] = &ops[..] else {
                return None;
            };
            let name = String::from_utf8_lossy(name.get_string_value()?).into_owned();
            let constant = |v: &inkwell::values::IntValue<'_>| {
                v.get_zero_extended_constant().filter(|&c| c > 0)
            };
            let divisors = match levels.get_zero_extended_constant()? {
                1 => vec![constant(inner)],
                2 => vec![constant(outer), constant(inner)],
                _ => return None,
            };
            Some((name, Shaped { divisors }))
        })
        .collect()
}
