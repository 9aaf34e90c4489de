//! What each kernel reaches: the functions of its call graph, from which `needs_sync` and the
//! shared-memory globals it must lay out follow.

use std::collections::{HashMap, HashSet};

use super::ir::*;

/// Direct call edges plus, for functions making indirect calls, an edge to every
/// address-taken function (the conservative answer without points-to analysis).
pub(crate) struct CallGraph {
    callees: HashMap<Value, Vec<Value>>,
}

impl CallGraph {
    pub fn build(m: llvm_sys::prelude::LLVMModuleRef) -> CallGraph {
        let fns = functions(m);
        let mut address_taken = Vec::new();
        for &f in &fns {
            let taken = users(f).into_iter().any(|u| {
                // A use that is not "the callee operand of a call" takes the address.
                if !is_instruction(u) || !is_call_base(u) {
                    return true;
                }
                let n = num_args(u);
                (0..n).any(|i| arg(u, i) == f) || called_value(u) != f
            });
            if taken {
                address_taken.push(f);
            }
        }
        let mut callees = HashMap::new();
        for &f in &fns {
            let mut out = Vec::new();
            let mut indirect = false;
            for i in insts(f) {
                if !is_call_base(i) {
                    continue;
                }
                match called_function(i) {
                    Some(c) => out.push(c),
                    None => {
                        if !is_inline_asm(called_value(i)) {
                            indirect = true;
                        }
                    }
                }
            }
            if indirect {
                out.extend(address_taken.iter().copied());
            }
            out.sort();
            out.dedup();
            callees.insert(f, out);
        }
        CallGraph { callees }
    }

    /// `root` and every function it can call, transitively.
    pub fn reachable(&self, root: Value) -> HashSet<Value> {
        let mut seen = HashSet::new();
        let mut stack = vec![root];
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            if let Some(cs) = self.callees.get(&f) {
                stack.extend(cs.iter().copied().filter(|c| !seen.contains(c)));
            }
        }
        seen
    }
}
