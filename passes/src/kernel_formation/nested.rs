//! Parallel regions nested in a parallel region of a target region (OpenACC's `worker` /
//! `vector` pair): each thread of the nested region is a lane of the warp of the thread that
//! forks it, so the forking region's threads are warps and the nested region's are lanes.
use super::{forked_function, level, reachable_calls, FORK_CALL, FORK_TEAMS};
use crate::diagnostics::Diagnostic;
use crate::ir;
use crate::openmp;
use crate::thread_space::{Space, WARP};
use inkwell::module::Module;
use inkwell::values::{FunctionValue, InstructionValue};

/// A parallel region nested in a parallel region of the target region.
pub(super) struct Nested<'ctx> {
    /// Its `__kmpc_fork_call`.
    pub(super) fork: InstructionValue<'ctx>,
    /// Its outlined function and wrappers.
    pub(super) level: Vec<FunctionValue<'ctx>>,
    /// Its number of threads: lanes of the forking thread's warp.
    pub(super) lanes: u32,
    /// The number of threads it asked for (`num_threads`), if it did.
    pub(super) asked: Option<i64>,
}

/// The parallel regions the worker code (`worker_level`, a parallel region's functions) forks.
///
/// Each thread of such a region becomes a lane of the forking thread's warp: the forking
/// region's threads are then warps (`Space::Warps`), all 32 lanes running the worker code, and
/// the nested region's `num_threads(n)` (at most 32; 32 without the clause) are the first n
/// lanes (`Space::Lanes(n)`). This is OpenACC's `worker` / `vector` pair (the front end makes a
/// vector loop inside a worker loop such a region); no deeper nesting is possible.
pub(super) fn lane_levels<'ctx>(
    worker_level: &[FunctionValue<'ctx>],
    prefix: &str,
) -> Result<Vec<Nested<'ctx>>, Vec<Diagnostic>> {
    let err = |at: InstructionValue<'_>, message: &str| {
        vec![Diagnostic {
            loc: openmp::call_loc(at),
            message: message.to_string(),
        }]
    };
    let mut out = Vec::new();
    for f in worker_level {
        for (call, name) in ir::calls(*f) {
            if name == FORK_TEAMS {
                return Err(err(
                    call,
                    "ptxcc does not support a 'teams' construct inside a parallel region",
                ));
            }
            if name != FORK_CALL {
                continue;
            }
            let g = forked_function(call)
                .ok_or_else(|| err(call, "parallel region without an outlined function"))?;
            if let Some((inner, _)) = reachable_calls(g)
                .into_iter()
                .find(|(_, n)| n == FORK_CALL || n == FORK_TEAMS)
            {
                return Err(err(
                    inner,
                    "ptxcc supports two levels of parallel regions in a target region (workers and their vector lanes); this one is a third",
                ));
            }
            let (lanes, asked) = requested_lanes(call)?;
            out.push(Nested {
                fork: call,
                level: level(g, prefix),
                lanes,
                asked,
            });
        }
    }
    // A parallel region further down the calls (in a function the worker code calls) would be
    // entered by every lane.
    for f in worker_level {
        for (call, name) in reachable_calls(*f) {
            if (name == FORK_CALL || name == FORK_TEAMS) && !out.iter().any(|n| n.fork == call) {
                return Err(err(call, "ptxcc does not support a parallel region in a function called from a parallel region of a target region"));
            }
        }
    }
    Ok(out)
}

/// The number of lanes a nested fork gets, and the number it asked for: clang's
/// `__kmpc_push_num_threads(loc, gtid, n)` right before it; 32 (the warp) without one.
fn requested_lanes(fork: InstructionValue<'_>) -> Result<(u32, Option<i64>), Vec<Diagnostic>> {
    let mut inst = fork.get_previous_instruction();
    while let Some(i) = inst {
        match ir::callee_name(i).as_deref() {
            Some("__kmpc_push_num_threads") => {
                return match ir::const_int(ir::call_arg_raw(i, 2)) {
                    Some(n) if n >= 1 => Ok((n.min(WARP as i64) as u32, Some(n))),
                    _ => Err(vec![Diagnostic {
                        loc: openmp::call_loc(i).or_else(|| openmp::call_loc(fork)),
                        message: "ptxcc needs a constant, positive num_threads on a parallel region nested in a parallel region of a target region: its threads are lanes of a warp (at most 32)".into(),
                    }]),
                };
            }
            Some(FORK_CALL) => break,
            _ => {}
        }
        inst = i.get_previous_instruction();
    }
    Ok((WARP, None))
}

/// `__kmpc_barrier` (an `omp barrier`, the end of a `for` without `nowait`) synchronises the
/// threads of its region: in a lane level the lanes of one warp, in a nested region that runs
/// on one thread nothing. (Elsewhere `lower_bookkeeping` makes it `bar.sync 0`.)
pub(super) fn level_barriers(device: &Module<'_>, f: FunctionValue<'_>) -> anyhow::Result<()> {
    let space = Space::of(f);
    if !matches!(space, Space::Lanes(_) | Space::Single) {
        return Ok(());
    }
    let b = device.get_context().create_builder();
    for (call, name) in ir::calls(f) {
        if name == "__kmpc_barrier" || name == "__kmpc_barrier_simple_spmd" {
            b.position_before(&call);
            space.sync(device, &b)?;
            ir::erase(call);
        }
    }
    Ok(())
}
