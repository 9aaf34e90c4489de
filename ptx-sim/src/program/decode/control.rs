//! Decoding of branches, calls, barriers, warp collectives and fences.

use super::*;

impl FunctionDecoder<'_> {
    /// The instruction if it is one of this family's (None: another family's).
    pub(super) fn control(&mut self, c: &InstCtx) -> R<Option<Op>> {
        let (i, m, ops, line, mnemonic) = (c.i, &c.m, c.ops, c.line, c.mnemonic);
        let mods = c.m.0;
        let need = |n: usize| c.need(n);
        let ty = || c.ty();
        Ok(Some(match mnemonic {
            "bra" => {
                need(1)?;
                Op::Bra {
                    target: self.label(&ops[0])?,
                }
            }
            "ret" => Op::Ret,
            "exit" => Op::Exit,
            "trap" => Op::Trap,
            "brkpt" | "nanosleep" | "pmevent" | "prefetch" | "prefetchu" | "discard"
            | "applypriority" => Op::Nop,
            // Programmatic dependent launch: ptxsim starts a grid only after the stream's
            // previous grid has ended (and its writes are visible), which is what `wait` waits
            // for; `launch_dependents` only allows an earlier start.
            "griddepcontrol" if m.has("wait") || m.has("launch_dependents") => Op::Nop,
            "membar" | "fence" => Op::Fence,
            "call" => self.call(i)?,
            "bar" | "barrier" if m.has("warp") => {
                need(1)?;
                Op::BarWarp {
                    mask: self.src(&ops[0], Ty::B32)?,
                }
            }
            "bar" | "barrier" => {
                let kind = if m.has("arrive") {
                    BarKind::Arrive
                } else if m.has("red") {
                    if m.has("popc") {
                        BarKind::RedPopc
                    } else if m.has("and") {
                        BarKind::RedAnd
                    } else if m.has("or") {
                        BarKind::RedOr
                    } else {
                        return err(line, format!("'{}' is not supported", i.opcode));
                    }
                } else if m.has("sync") || mods.is_empty() || m.has("aligned") {
                    BarKind::Sync
                } else {
                    return err(line, format!("'{}' is not supported", i.opcode));
                };
                let bar = if matches!(kind, BarKind::RedPopc | BarKind::RedAnd | BarKind::RedOr) {
                    need(3)?;
                    let d = self.dst(&ops[0])?;
                    let (p, neg) = self.pred_src(ops.last().expect("operands"))?;
                    let count = if ops.len() == 4 {
                        Some(self.src(&ops[2], Ty::U32)?)
                    } else {
                        None
                    };
                    Bar {
                        kind,
                        id: self.src(&ops[1], Ty::U32)?,
                        count,
                        red: Some((d, p, neg)),
                    }
                } else {
                    let id = match ops.first() {
                        Some(o) => self.src(o, Ty::U32)?,
                        None => self.constant(0)?,
                    };
                    let count = match ops.get(1) {
                        Some(o) => Some(self.src(o, Ty::U32)?),
                        None => None,
                    };
                    if kind == BarKind::Arrive && count.is_none() {
                        return err(line, "bar.arrive needs a thread count");
                    }
                    Bar {
                        kind,
                        id,
                        count,
                        red: None,
                    }
                };
                Op::Bar(Box::new(bar))
            }
            "shfl" => {
                let mode = c.required("mode", |s| {
                    Some(match s {
                        "up" => ShflMode::Up,
                        "down" => ShflMode::Down,
                        "bfly" => ShflMode::Bfly,
                        "idx" => ShflMode::Idx,
                        _ => return None,
                    })
                })?;
                need(4)?;
                let (d, dp) = match &ops[0] {
                    Operand::Pair(d, p) => (self.reg(d)?, Some(self.reg(p)?)),
                    o => (self.dst(o)?, None),
                };
                let mask = if m.has("sync") {
                    need(5)?;
                    self.src(&ops[4], Ty::B32)?
                } else {
                    self.constant(0xffff_ffff)?
                };
                Op::Shfl {
                    mode,
                    d,
                    dp,
                    a: self.src(&ops[1], Ty::B32)?,
                    b: self.src(&ops[2], Ty::U32)?,
                    c: self.src(&ops[3], Ty::U32)?,
                    mask,
                }
            }
            "vote" => {
                let mode = c.required("mode", |s| {
                    Some(match s {
                        "all" => VoteMode::All,
                        "any" => VoteMode::Any,
                        "uni" => VoteMode::Uni,
                        "ballot" => VoteMode::Ballot,
                        _ => return None,
                    })
                })?;
                need(2)?;
                let (a, negate) = self.pred_src(&ops[1])?;
                let mask = match ops.get(2) {
                    Some(o) if m.has("sync") => self.src(o, Ty::B32)?,
                    _ => self.constant(0xffff_ffff)?,
                };
                Op::Vote {
                    mode,
                    d: self.dst(&ops[0])?,
                    a,
                    negate,
                    mask,
                }
            }
            "redux" => {
                need(3)?;
                let ty = ty()?;
                let op = m
                    .find(|s| {
                        Some(match s {
                            "add" => IntOp::Add,
                            "min" => IntOp::Min,
                            "max" => IntOp::Max,
                            "and" => IntOp::And,
                            "or" => IntOp::Or,
                            "xor" => IntOp::Xor,
                            _ => return None,
                        })
                    })
                    .ok_or_else(|| DecodeError {
                        line,
                        message: format!("'{}' is not supported", i.opcode),
                        input: 0,
                    })?;
                Op::Redux {
                    op,
                    ty,
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    mask: self.src(&ops[2], Ty::B32)?,
                }
            }
            "match" => {
                need(3)?;
                let ty = ty()?;
                if m.has("any") {
                    Op::MatchAny {
                        ty,
                        d: self.dst(&ops[0])?,
                        a: self.src(&ops[1], ty)?,
                        mask: self.src(&ops[2], Ty::B32)?,
                    }
                } else {
                    let (d, dp) = match &ops[0] {
                        Operand::Pair(d, p) => (self.reg(d)?, Some(self.reg(p)?)),
                        o => (self.dst(o)?, None),
                    };
                    Op::MatchAll {
                        ty,
                        d,
                        dp,
                        a: self.src(&ops[1], ty)?,
                        mask: self.src(&ops[2], Ty::B32)?,
                    }
                }
            }
            "activemask" => {
                need(1)?;
                Op::Activemask {
                    d: self.dst(&ops[0])?,
                }
            }
            _ => return Ok(None),
        }))
    }

    fn call(&mut self, i: &ast::Instruction) -> R<Op> {
        let line = i.line;
        // call (ret), f, (args);   call (ret), %fp, (args), prototype;  (each list optional)
        let mut ops = i.operands.iter().peekable();
        let ret_list = match ops.peek() {
            Some(Operand::List(l)) => {
                ops.next();
                Some(l)
            }
            _ => None,
        };
        let callee = match ops.next() {
            Some(Operand::Symbol(s)) | Some(Operand::Reg(s)) => s.clone(),
            Some(o) => return err(line, format!("malformed call: {o:?} is not a function")),
            None => return err(line, "call without a function"),
        };
        let args: &[Operand] = match ops.peek() {
            Some(Operand::List(l)) => {
                ops.next();
                l
            }
            _ => &[],
        };
        let proto = match ops.next() {
            Some(Operand::Symbol(p)) => Some(p.clone()),
            Some(o) => return err(line, format!("malformed call operand {o:?}")),
            None => None,
        };
        if let Some(o) = ops.next() {
            return err(line, format!("malformed call operand {o:?}"));
        }
        let direct = match self.module.get(&callee).copied() {
            Some(ModuleSym::Function(id)) if self.var(&callee).is_none() => Some(id),
            _ => None,
        };
        let param = |o: &Operand| -> R<u32> {
            let (Operand::Symbol(s) | Operand::Reg(s)) = o else {
                return err(
                    line,
                    format!("call argument {o:?} is not a .param variable"),
                );
            };
            match self.var(s) {
                Some(LocalSym::Param(off)) => Ok(off),
                _ => err(
                    line,
                    format!("call argument '{s}' is not a .param variable"),
                ),
            }
        };
        let Some(id) = direct else {
            // An indirect call: the target's address is in a register.
            let target = self.reg(&callee).map_err(|_| DecodeError {
                line,
                message: format!("call of '{callee}', which is neither a function nor a register"),
                input: 0,
            })?;
            let Some(pname) = proto else {
                return err(line, "an indirect call needs a .callprototype");
            };
            let Some(p) = self.prototypes.get(&pname).cloned() else {
                return err(
                    line,
                    format!(
                        "'{pname}' is not a .callprototype of this function (call-target lists are not supported)"
                    ),
                );
            };
            if args.len() != p.params.len() {
                return err(
                    line,
                    format!(
                        "indirect call with {} arguments; its prototype '{pname}' has {}",
                        args.len(),
                        p.params.len()
                    ),
                );
            }
            let mut arg_slots = Vec::new();
            for (a, bytes) in args.iter().zip(&p.params) {
                arg_slots.push((param(a)?, *bytes));
            }
            let ret = match (ret_list.and_then(|l| l.first()), p.ret) {
                (Some(o), Some(bytes)) => Some((param(o)?, bytes)),
                (Some(_), None) => {
                    return err(
                        line,
                        format!("a return value, but prototype '{pname}' has none"),
                    )
                }
                (None, _) => None,
            };
            return Ok(Op::Call(Box::new(Call {
                callee: usize::MAX,
                indirect: Some(Indirect {
                    target,
                    params: p.params,
                    ret: p.ret,
                }),
                args: arg_slots,
                ret,
            })));
        };
        if proto.is_some() {
            return err(
                line,
                format!("a direct call of '{callee}' with a prototype"),
            );
        }
        let name = callee;
        let target = self.functions[id];
        if target.body.is_none()
            && !matches!(
                name.as_str(),
                "vprintf" | "__assertfail" | "malloc" | "free"
            )
        {
            return err(
                line,
                format!("call of external function '{name}', which no input defines and ptxsim does not provide"),
            );
        }
        let mut arg_slots = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let off = param(a)?;
            let bytes = target
                .params
                .get(k)
                .map(var_bytes)
                .transpose()?
                .unwrap_or(0) as u32;
            arg_slots.push((off, bytes));
        }
        if arg_slots.len() != target.params.len() {
            return err(
                line,
                format!(
                    "call of '{name}' with {} arguments; it takes {}",
                    arg_slots.len(),
                    target.params.len()
                ),
            );
        }
        let ret = match ret_list.and_then(|l| l.first()) {
            Some(o) => {
                let off = param(o)?;
                let bytes = target
                    .returns
                    .first()
                    .map(var_bytes)
                    .transpose()?
                    .unwrap_or(0) as u32;
                Some((off, bytes))
            }
            None => None,
        };
        Ok(Op::Call(Box::new(Call {
            callee: id,
            indirect: None,
            args: arg_slots,
            ret,
        })))
    }
}
