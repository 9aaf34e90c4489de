//! Step 3: `addrspace(3)` globals → offsets from `__ptxemu_shared_base()`.
//!
//! Layout: one for the whole module, first fit in module order, where two globals may share
//! bytes unless some kernel reaches both (only one kernel runs in a block at a time). A kernel's
//! `shared_bytes` is the end of the last of its globals. The ABI guarantees a 16-byte aligned
//! base; when some global wants more, every user re-aligns the base with `llvm.ptrmask` and the
//! kernels reserve `align - 16` more bytes.

use std::collections::{HashMap, HashSet};

use anyhow::{bail, Result};
use llvm_sys::core::*;
use llvm_sys::target::*;
use llvm_sys::LLVMOpcode;

use super::intrinsics::EmuDecls;
use super::ir::*;
use super::{abi, used_lists_remove, EmuShared as SharedGlobal};

pub(crate) struct SharedResult {
    /// Layout of every shared global (module order).
    pub layout: Vec<SharedGlobal>,
    /// Bytes per kernel, in the order of `kernels` given to `lower`.
    pub kernel_bytes: Vec<u32>,
}

/// Does constant `c` refer to one of `shared` (through constant expressions / aggregates)?
fn refers_to(c: Value, shared: &HashSet<Value>, memo: &mut HashMap<Value, bool>) -> bool {
    if shared.contains(&c) {
        return true;
    }
    if let Some(r) = memo.get(&c) {
        return *r;
    }
    memo.insert(c, false);
    // Globals and functions are leaves: their initializers/bodies are not operands.
    let leaf = is_function(c) || is_global_var(c) || !unsafe { LLVMIsAGlobalValue(c) }.is_null();
    let r = !leaf
        && operands(c)
            .into_iter()
            .any(|o| !o.is_null() && is_constant(o) && refers_to(o, shared, memo));
    memo.insert(c, r);
    r
}

/// Turn constant expression `c` (which refers to a shared global) into instructions at the
/// builder's position; shared globals themselves map through `direct`.
fn materialize(
    ir: &Ir,
    c: Value,
    direct: &HashMap<Value, Value>,
    shared: &HashSet<Value>,
    memo: &mut HashMap<Value, bool>,
    user: Value,
) -> Result<Value> {
    if shared.contains(&c) {
        return Ok(direct.get(&c).copied().unwrap_or(c));
    }
    if !refers_to(c, shared, memo) {
        return Ok(c);
    }
    if !is_const_expr(c) {
        bail!(
            "{}: a constant aggregate holding the address of a shared variable ({}) is not \
             supported by the emulator",
            describe(user),
            print_value(c)
        );
    }
    let ops: Vec<Value> = operands(c)
        .into_iter()
        .map(|o| materialize(ir, o, direct, shared, memo, user))
        .collect::<Result<_>>()?;
    use LLVMOpcode::*;
    let op = const_opcode(c);
    let ty = type_of(c);
    Ok(match op {
        LLVMGetElementPtr => unsafe {
            let src = LLVMGetGEPSourceElementType(c);
            let flags = LLVMGEPGetNoWrapFlags(c);
            let mut idx = ops[1..].to_vec();
            LLVMBuildGEPWithNoWrapFlags(
                ir.b,
                src,
                ops[0],
                idx.as_mut_ptr(),
                idx.len() as u32,
                c"".as_ptr(),
                flags,
            )
        },
        LLVMAddrSpaceCast | LLVMBitCast | LLVMPtrToInt | LLVMIntToPtr | LLVMTrunc => {
            ir.cast(op, ops[0], ty, "")
        }
        LLVMAdd | LLVMSub | LLVMMul | LLVMXor | LLVMShl | LLVMAnd | LLVMOr => {
            ir.binop(op, ops[0], ops[1], "")
        }
        _ => bail!(
            "{}: constant expression {} over a shared variable is not supported",
            describe(user),
            print_value(c)
        ),
    })
}

pub(crate) fn lower(
    ir: &Ir,
    emu: &mut EmuDecls,
    kernels: &[Value],
    reach: &[HashSet<Value>],
) -> Result<SharedResult> {
    let shared_list: Vec<Value> = global_vars(ir.m)
        .into_iter()
        .filter(|g| ptr_as(type_of(*g)) == Some(3))
        .collect();
    if shared_list.is_empty() {
        return Ok(SharedResult {
            layout: Vec::new(),
            kernel_bytes: vec![0; kernels.len()],
        });
    }
    let shared: HashSet<Value> = shared_list.iter().copied().collect();

    for &g in &shared_list {
        if is_declaration(g) {
            bail!(
                "shared variable @{} has no definition (extern __shared__ / dynamic shared memory \
                 is not supported by the emulator ABI)",
                name(g)
            );
        }
        let init = unsafe { LLVMGetInitializer(g) };
        let trivial =
            unsafe { LLVMIsUndef(init) != 0 || LLVMIsPoison(init) != 0 || LLVMIsNull(init) != 0 };
        if !trivial {
            bail!(
                "shared variable @{} has an initializer; shared memory cannot be initialised (it is \
                 undefined at kernel start on the GPU too)",
                name(g)
            );
        }
    }

    // Shared addresses may not escape into other globals' initializers (except llvm.used & co).
    used_lists_remove(ir, &shared)?;
    let mut memo = HashMap::new();
    for g in global_vars(ir.m) {
        if shared.contains(&g) || is_declaration(g) {
            continue;
        }
        let init = unsafe { LLVMGetInitializer(g) };
        if !init.is_null() && refers_to(init, &shared, &mut memo) {
            bail!(
                "global @{} is initialised with the address of a shared variable; the emulator \
                 places shared memory per block at run time",
                name(g)
            );
        }
    }

    // Which functions use which shared globals (directly or inside constant expressions).
    let mut fn_uses: HashMap<Value, Vec<Value>> = HashMap::new();
    for f in functions(ir.m) {
        let mut used: Vec<Value> = Vec::new();
        for i in insts(f) {
            for o in operands(i) {
                if o.is_null() || !is_constant(o) || !refers_to(o, &shared, &mut memo) {
                    continue;
                }
                for s in &shared_list {
                    if !used.contains(s) && constant_mentions(o, *s) {
                        used.push(*s);
                    }
                }
            }
        }
        if !used.is_empty() {
            fn_uses.insert(f, used);
        }
    }

    // Which kernels reach each shared global.
    let mut users_of: HashMap<Value, HashSet<usize>> = HashMap::new();
    for (k, r) in reach.iter().enumerate() {
        for f in r {
            for g in fn_uses.get(f).into_iter().flatten() {
                users_of.entry(*g).or_default().insert(k);
            }
        }
    }

    // First-fit layout.
    let td = unsafe { LLVMGetModuleDataLayout(ir.m) };
    let mut layout: Vec<(Value, SharedGlobal)> = Vec::new();
    let mut max_align = 16u64;
    for &g in &shared_list {
        let ty = value_type(g);
        let size = unsafe { LLVMABISizeOfType(td, ty) };
        let explicit = unsafe { LLVMGetAlignment(g) } as u64;
        let align = if explicit > 0 {
            explicit
        } else {
            (unsafe { LLVMPreferredAlignmentOfGlobal(td, g) }) as u64
        }
        .max(1);
        max_align = max_align.max(align);
        let mine = users_of.get(&g).cloned().unwrap_or_default();
        let mut off = 0u64;
        loop {
            let clash = layout.iter().find(|(o, p)| {
                let theirs = users_of.get(o);
                let conflict = theirs.is_some_and(|t| !t.is_disjoint(&mine));
                conflict && off < p.offset + p.size && p.offset < off + size.max(1)
            });
            match clash {
                Some((_, p)) => off = (p.offset + p.size).div_ceil(align) * align,
                None => break,
            }
        }
        layout.push((
            g,
            SharedGlobal {
                name: name(g),
                offset: off,
                size,
                align,
            },
        ));
    }
    let slack = max_align - 16;

    let mut kernel_bytes = Vec::new();
    for (k, kf) in kernels.iter().enumerate() {
        let end = layout
            .iter()
            .filter(|(g, _)| users_of.get(g).is_some_and(|s| s.contains(&k)))
            .map(|(_, p)| p.offset + p.size)
            .max()
            .unwrap_or(0);
        let total = if end > 0 { end + slack } else { 0 };
        let Ok(b) = u32::try_from(total) else {
            bail!(
                "kernel @{}: {} bytes of shared memory do not fit the emulator ABI",
                name(*kf),
                total
            );
        };
        kernel_bytes.push(b);
    }

    // Rewrite uses, function by function: the globals become `base + offset` computed at the
    // top of the function, and constant expressions over them become instructions (their
    // leaves are instructions now, so the builder cannot fold them back into constants).
    let offsets: HashMap<Value, u64> = layout.iter().map(|(g, p)| (*g, p.offset)).collect();
    for f in functions(ir.m) {
        let Some(used) = fn_uses.get(&f) else {
            continue;
        };
        let body = insts(f);
        ir.at_entry(f)?;
        let mut base = emu.call(ir, abi::SHARED_BASE, &[], "ptxemu.shared")?;
        if slack > 0 {
            let p = ir.gep(
                ir.i8(),
                base,
                &[ir.c64(max_align - 1)],
                false,
                "ptxemu.shared.up",
            );
            let pm = ir.intrinsic("llvm.ptrmask", &[ir.ptr(), ir.i64()])?;
            base = ir.call(pm, &[p, ir.c64(!(max_align - 1))], "ptxemu.shared.aligned");
        }
        let mut direct = HashMap::new();
        for &g in used {
            let off = offsets[&g];
            let p = ir.gep(ir.i8(), base, &[ir.c64(off)], true, &name(g));
            let back = ir.addrspacecast(p, type_of(g), "");
            direct.insert(g, back);
        }
        // A PHI must get one value per predecessor, however often that predecessor is listed.
        let mut phi_done: HashMap<(Value, Block, Value), Value> = HashMap::new();
        for i in body {
            let is_phi = opcode(i) == LLVMOpcode::LLVMPHI;
            let incoming = if is_phi { phi_incoming(i) } else { Vec::new() };
            for k in 0..num_operands(i) {
                let o = operand(i, k);
                if o.is_null() || !is_constant(o) || !refers_to(o, &shared, &mut memo) {
                    continue;
                }
                if let Some(v) = direct.get(&o) {
                    set_operand(i, k, *v);
                    continue;
                }
                let key = if is_phi {
                    Some((i, incoming[k as usize].1, o))
                } else {
                    None
                };
                let v = match key.and_then(|key| phi_done.get(&key).copied()) {
                    Some(v) => v,
                    None => {
                        if let Some((_, pred, _)) = key {
                            ir.before(terminator(pred));
                        } else {
                            ir.before(i);
                        }
                        ir.set_debug_loc_from(i);
                        let v = materialize(ir, o, &direct, &shared, &mut memo, i);
                        ir.clear_debug_loc();
                        let v = v?;
                        if let Some(key) = key {
                            phi_done.insert(key, v);
                        }
                        v
                    }
                };
                set_operand(i, k, v);
            }
        }
    }
    for &g in &shared_list {
        delete_global_value(g);
    }
    Ok(SharedResult {
        layout: layout.into_iter().map(|(_, p)| p).collect(),
        kernel_bytes,
    })
}

/// Does constant `c` mention global `g` anywhere in its operand tree?
fn constant_mentions(c: Value, g: Value) -> bool {
    if c == g {
        return true;
    }
    if !unsafe { LLVMIsAGlobalValue(c) }.is_null() {
        return false;
    }
    operands(c)
        .into_iter()
        .any(|o| !o.is_null() && constant_mentions(o, g))
}
