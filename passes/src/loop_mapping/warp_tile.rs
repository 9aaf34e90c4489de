//! Which 2-D tile of a `collapse(2)` loop's iterations a warp takes ([`super::running_quotient`]
//! builds it): 32×1 (a warp along one row, clang's order), 16×2 or 8×4 (`cols × rows`).
//!
//! A cyclic `collapse(2)` loop deals consecutive counters to consecutive lanes, so a warp runs
//! 32 consecutive `j` of one `i` (when the inner extent is a multiple of 32). A hand-written
//! CUDA matrix product uses 16×16 blocks instead: a warp is 16 `j` of 2 rows, and reads 6
//! sectors a `k` where the row takes 9 (`a[i][k]`: 1 sector per row; `b[k][j]`: 16 doubles are
//! 4 sectors, shared by both rows, where 32 are 8). Nothing in the program has to change for
//! that: the loop may take its counters in any order, so the running quotient can number them
//! tile by tile (a warp's 32 counters become `cols × rows` iterations of `rows` rows).
//!
//! The choice comes from the derivatives of the body's global addresses with respect to the
//! row (the quotient `i`) and the column (the remainder `j`), followed through clang's stack
//! slots as the layout pass's analysis does. Per access and tile, the sectors a warp touches:
//! a row's lanes `ceil(((cols − 1) × |dj| + size) / 32)` sectors (1 when `dj = 0`, `cols`
//! when `dj` is not a constant), times `rows` unless `di = 0` (all rows read the same
//! addresses). The tile with the fewest sectors over all accesses (each counted once, as the
//! layout pass counts them) wins; ties keep the row. For the matrix product above: 1 + 8 + 8
//! (`a`, `b`, the store of `c`) against 2 + 4 + 8 for 16×2. A stencil whose accesses all move
//! along `j` in every row costs the same in every tile and keeps the row.
use crate::ir;
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::target::LLVMTargetDataRef;
use llvm_sys::LLVMOpcode;
use std::collections::HashSet;

/// A warp's tile: `cols` consecutive columns of `rows` consecutive rows (`cols × rows = 32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tile {
    pub cols: u32,
    pub rows: u32,
}

impl Tile {
    pub(super) const ROW: Tile = Tile { cols: 32, rows: 1 };
    const CANDIDATES: [Tile; 3] = [
        Tile::ROW,
        Tile { cols: 16, rows: 2 },
        Tile { cols: 8, rows: 4 },
    ];

    /// log2(cols).
    pub(super) fn cols_log2(self) -> u32 {
        self.cols.trailing_zeros()
    }
}

/// The decision: the tile and the sectors it and the row cost (for the remark).
pub(super) struct Choice {
    pub tile: Tile,
    pub sectors: u64,
    pub row_sectors: u64,
}

/// The seeds of the analysis: the values that are the row and the column.
pub(super) struct Seeds<'a> {
    pub rows: &'a [LLVMValueRef],
    pub cols: &'a [LLVMValueRef],
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Wrt {
    Row,
    Col,
}

/// The tile for the loop `body` (blocks), or None when the row is best (or nothing is known).
///
/// # Safety
/// `body` must be blocks of one function, the seeds instructions of them.
pub(super) unsafe fn choose(body: &[LLVMBasicBlockRef], seeds: &Seeds) -> Option<Choice> {
    let first = *body.first()?;
    let f = llvm::LLVMGetBasicBlockParent(first);
    let td = llvm_sys::target::LLVMGetModuleDataLayout(llvm::LLVMGetGlobalParent(f));
    let mut cost = [0u64; Tile::CANDIDATES.len()];
    let mut accesses = 0;
    for &bb in body {
        let mut inst = llvm::LLVMGetFirstInstruction(bb);
        while !inst.is_null() {
            let (ptr, ty) = if !llvm::LLVMIsALoadInst(inst).is_null() {
                (llvm::LLVMGetOperand(inst, 0), llvm::LLVMTypeOf(inst))
            } else if !llvm::LLVMIsAStoreInst(inst).is_null() {
                let v = llvm::LLVMGetOperand(inst, 0);
                (llvm::LLVMGetOperand(inst, 1), llvm::LLVMTypeOf(v))
            } else {
                inst = llvm::LLVMGetNextInstruction(inst);
                continue;
            };
            inst = llvm::LLVMGetNextInstruction(inst);
            if ir::may_point_to_local(ptr) {
                continue;
            }
            let size = llvm_sys::target::LLVMABISizeOfType(td, ty);
            let d = |wrt| {
                Derivative {
                    td,
                    body,
                    seeds,
                    wrt,
                }
                .of(ptr, &mut HashSet::new(), 0)
            };
            let (di, dj) = (d(Wrt::Row), d(Wrt::Col));
            accesses += 1;
            for (k, tile) in Tile::CANDIDATES.iter().enumerate() {
                cost[k] += sectors(*tile, di, dj, size);
            }
        }
    }
    if accesses == 0 {
        return None;
    }
    let best = (0..cost.len()).min_by_key(|&k| (cost[k], k))?;
    (best != 0).then_some(Choice {
        tile: Tile::CANDIDATES[best],
        sectors: cost[best],
        row_sectors: cost[0],
    })
}

/// The 32-byte sectors one warp-level access touches when the warp runs `tile`, the address
/// moving by `di` bytes a row and `dj` a column (None: not a constant), `size` bytes wide.
fn sectors(tile: Tile, di: Option<i64>, dj: Option<i64>, size: u64) -> u64 {
    let cols = u64::from(tile.cols);
    let per_row = match dj {
        Some(0) => 1,
        Some(d) => ((cols - 1) * d.unsigned_abs() + size)
            .div_ceil(32)
            .min(cols),
        None => cols,
    };
    match di {
        Some(0) => per_row,
        _ => per_row * u64::from(tile.rows),
    }
}

/// d(address)/d(row or column), in bytes: Some(constant) or None (not one this follows).
struct Derivative<'a> {
    td: LLVMTargetDataRef,
    body: &'a [LLVMBasicBlockRef],
    seeds: &'a Seeds<'a>,
    wrt: Wrt,
}

impl Derivative<'_> {
    unsafe fn of(
        &self,
        v: LLVMValueRef,
        visiting: &mut HashSet<LLVMValueRef>,
        depth: u32,
    ) -> Option<i64> {
        if depth > 64 {
            return None;
        }
        let (mine, other) = match self.wrt {
            Wrt::Row => (self.seeds.rows, self.seeds.cols),
            Wrt::Col => (self.seeds.cols, self.seeds.rows),
        };
        if mine.contains(&v) {
            return Some(1);
        }
        if other.contains(&v) {
            return Some(0);
        }
        if llvm::LLVMIsAInstruction(v).is_null() {
            // Constants, arguments, globals: the same in every iteration.
            return Some(0);
        }
        let op = |k: u32| llvm::LLVMGetOperand(v, k);
        macro_rules! d {
            ($x:expr) => {
                self.of($x, visiting, depth + 1)
            };
        }
        use LLVMOpcode::*;
        match llvm::LLVMGetInstructionOpcode(v) {
            LLVMSExt | LLVMZExt | LLVMTrunc => d!(op(0)),
            LLVMAdd => Some(d!(op(0))?.checked_add(d!(op(1))?)?),
            LLVMSub => Some(d!(op(0))?.checked_sub(d!(op(1))?)?),
            LLVMMul => {
                let (a, b) = (op(0), op(1));
                match (ir::const_int(a), ir::const_int(b)) {
                    (_, Some(c)) => d!(a)?.checked_mul(c),
                    (Some(c), _) => d!(b)?.checked_mul(c),
                    // An invariant times a moving value moves by an unknown amount.
                    _ => (d!(a)? == 0 && d!(b)? == 0).then_some(0),
                }
            }
            LLVMShl => {
                let c = ir::const_int(op(1)).filter(|c| (0..32).contains(c))?;
                d!(op(0))?.checked_mul(1 << c)
            }
            LLVMSDiv | LLVMUDiv if ir::const_int(op(1)) == Some(1) => d!(op(0)),
            LLVMSDiv | LLVMUDiv | LLVMSRem | LLVMURem => {
                (d!(op(0))? == 0 && d!(op(1))? == 0).then_some(0)
            }
            LLVMGetElementPtr => self.gep(v, visiting, depth),
            LLVMLoad => {
                let slot = op(0);
                if let Some(values) = ir::slot_values(slot) {
                    // A local: what is stored in it says (a slot being followed already is
                    // one a counter's update reads: its other stores say).
                    if !visiting.insert(slot) {
                        return Some(0);
                    }
                    let known: Option<Vec<i64>> = values
                        .into_iter()
                        .map(|x| self.of(x, visiting, depth + 1))
                        .collect();
                    visiting.remove(&slot);
                    let known = known?;
                    return match known.split_first() {
                        None => Some(0),
                        Some((first, rest)) => rest.iter().all(|x| x == first).then_some(*first),
                    };
                }
                // Memory the loop reads at one address is the same value for every lane.
                (d!(slot)? == 0).then_some(0)
            }
            _ if !self.body.contains(&llvm::LLVMGetInstructionParent(v)) => Some(0),
            _ => None,
        }
    }

    /// A GEP: its base's derivative plus each index's times the bytes it steps.
    unsafe fn gep(
        &self,
        v: LLVMValueRef,
        visiting: &mut HashSet<LLVMValueRef>,
        depth: u32,
    ) -> Option<i64> {
        let mut total = self.of(llvm::LLVMGetOperand(v, 0), visiting, depth + 1)?;
        let mut ty = llvm::LLVMGetGEPSourceElementType(v);
        let n = llvm::LLVMGetNumOperands(v) as u32;
        for k in 1..n {
            let idx = llvm::LLVMGetOperand(v, k);
            if k > 1 {
                match llvm::LLVMGetTypeKind(ty) {
                    llvm_sys::LLVMTypeKind::LLVMArrayTypeKind => ty = llvm::LLVMGetElementType(ty),
                    llvm_sys::LLVMTypeKind::LLVMStructTypeKind => {
                        // A field: a constant offset.
                        let field = u32::try_from(ir::const_int(idx)?).ok()?;
                        ty = llvm::LLVMStructGetTypeAtIndex(ty, field);
                        continue;
                    }
                    _ => return None,
                }
            }
            let step = i64::try_from(llvm_sys::target::LLVMABISizeOfType(self.td, ty)).ok()?;
            let di = self.of(idx, visiting, depth + 1)?;
            total = total.checked_add(di.checked_mul(step)?)?;
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_product_prefers_two_rows() {
        let (a, b, c) = (
            (Some(1024), Some(0), 8),
            (Some(0), Some(8), 8),
            (Some(1024), Some(8), 8),
        );
        let cost = |t| {
            [a, b, c]
                .iter()
                .map(|&(di, dj, s)| sectors(t, di, dj, s))
                .sum::<u64>()
        };
        assert_eq!(cost(Tile::ROW), 1 + 8 + 8);
        assert_eq!(cost(Tile { cols: 16, rows: 2 }), 2 + 4 + 8);
    }

    #[test]
    fn rows_moving_along_j_cost_the_same_in_every_tile() {
        for t in Tile::CANDIDATES {
            assert_eq!(sectors(t, Some(8192), Some(8), 8), 8);
            assert_eq!(sectors(t, None, Some(4), 4), 4);
            assert_eq!(sectors(t, None, None, 8), 32);
        }
    }
}
