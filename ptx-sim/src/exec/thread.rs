//! One GPU thread: its registers, call frames and local memory, and the interpreter that runs it
//! until it reaches something other threads take part in (a barrier, a warp collective), exits,
//! or faults.
//!
//! Threads run independently, as on Volta and later GPUs; `block.rs` resumes them when the
//! barrier or collective they stopped at is complete.

use super::memory::Ranges;
use super::ops;
use super::printf;
use super::shared::{Race, SharedMemory};
use crate::program::*;
use crate::stats::access::Access;
use crate::stats::warp::{BlockCounters, ThreadCounts};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};

/// Why a thread stopped running.
#[derive(Debug)]
pub enum Stop {
    Exited,
    /// At a `bar` instruction (pc points at it).
    Barrier,
    /// At a warp collective (shfl, vote, bar.warp.sync…): pc points at it.
    Warp,
    /// Ran its instruction budget: let the others run (a thread spinning on a flag another
    /// thread of the block sets must not hang the block).
    Yield,
    Fault(Fault),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    IllegalAddress,
    MisalignedAddress,
    Trap,
    Assert,
    StackOverflow,
    /// An indirect call through something that is not the address of a function of the
    /// module, or of one whose signature is not the call's prototype.
    IllegalInstruction,
    /// Threads wait for each other forever (a barrier some never reach, a shuffle naming an
    /// exited lane).
    Deadlock,
    /// Two threads access the same shared memory without a barrier between (PTXSIM_RACECHECK).
    Race,
}

#[derive(Clone, Debug)]
pub struct Fault {
    pub kind: FaultKind,
    pub message: String,
    /// The function and PTX line where it happened, and the thread (in its block).
    pub function: String,
    pub line: u32,
    pub thread: Option<[u32; 3]>,
}

/// A caller's state while it waits for a callee.
#[derive(Debug)]
struct Frame {
    func: usize,
    pc: usize,
    regs: Vec<u64>,
    params: Vec<u8>,
    local_base: u32,
    ret: Option<(u32, u32)>,
}

/// What the threads of a block share.
pub struct BlockEnv<'a> {
    pub program: &'a Program,
    pub ranges: &'a Ranges,
    pub ntid: [u32; 3],
    pub ctaid: [u32; 3],
    pub nctaid: [u32; 3],
    pub dynamic_shared: u32,
    pub sm_count: u32,
    pub printf: &'a std::sync::Mutex<Vec<u8>>,
    /// The device heap, for kernels that call malloc/free.
    pub heap: Option<&'a super::heap::DeviceHeap>,
    pub start: std::time::Instant,
    /// The warps run in lockstep (see `block.rs`).
    pub lockstep: bool,
}

/// Local memory a thread may use for its frames' `.local` variables.
const LOCAL_LIMIT: usize = 512 << 10;

pub struct Thread {
    pub regs: Vec<u64>,
    pub func: usize,
    pub pc: usize,
    pub params: Vec<u8>,
    local: Vec<u8>,
    local_base: u32,
    frames: Vec<Frame>,
    pub tid: [u32; 3],
    /// Index in the block (x fastest), lane and warp.
    pub linear: u32,
    pub lane: u32,
    pub warp: u32,
    carry: bool,
    /// Instructions executed.
    pub executed: u64,
    /// Entries into each basic block, when counting (`crate::stats`).
    pub counts: ThreadCounts,
    /// The device allocation of the last global access: most accesses hit the same array, so
    /// this saves searching the allocations each time.
    last_range: std::cell::Cell<(u64, u64)>,
}

#[inline(always)]
fn load_host(p: *const u8, bytes: u32) -> u64 {
    // SAFETY: the caller checked that [p, p + bytes) lies in device memory and is aligned to
    // `bytes`; other blocks may write it concurrently, hence atomic (relaxed) accesses.
    unsafe {
        match bytes {
            1 => AtomicU8::from_ptr(p as *mut u8).load(Ordering::Relaxed) as u64,
            2 => AtomicU16::from_ptr(p as *mut u16).load(Ordering::Relaxed) as u64,
            4 => AtomicU32::from_ptr(p as *mut u32).load(Ordering::Relaxed) as u64,
            _ => AtomicU64::from_ptr(p as *mut u64).load(Ordering::Relaxed),
        }
    }
}

#[inline(always)]
fn store_host(p: *mut u8, bytes: u32, v: u64) {
    // SAFETY: as `load_host`.
    unsafe {
        match bytes {
            1 => AtomicU8::from_ptr(p).store(v as u8, Ordering::Relaxed),
            2 => AtomicU16::from_ptr(p as *mut u16).store(v as u16, Ordering::Relaxed),
            4 => AtomicU32::from_ptr(p as *mut u32).store(v as u32, Ordering::Relaxed),
            _ => AtomicU64::from_ptr(p as *mut u64).store(v, Ordering::Relaxed),
        }
    }
}

fn read_le(buf: &[u8], at: usize, bytes: u32) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes as usize].copy_from_slice(&buf[at..at + bytes as usize]);
    u64::from_le_bytes(b)
}

fn write_le(buf: &mut [u8], at: usize, bytes: u32, v: u64) {
    buf[at..at + bytes as usize].copy_from_slice(&v.to_le_bytes()[..bytes as usize]);
}

/// Where an access goes.
#[derive(Clone, Copy, Debug)]
enum Loc {
    Host(*mut u8),
    Shared(usize),
    Local(usize),
    Param(usize),
}

impl Loc {
    /// The location `bytes` further on (the k-th element of a vector access).
    fn offset(self, bytes: usize) -> Loc {
        match self {
            Loc::Host(p) => Loc::Host(p.wrapping_add(bytes)),
            Loc::Shared(o) => Loc::Shared(o + bytes),
            Loc::Local(o) => Loc::Local(o + bytes),
            Loc::Param(o) => Loc::Param(o + bytes),
        }
    }
}

/// The new value of an atomic read-modify-write.
pub fn atomic_value(op: AtomOp, ty: Ty, old: u64, a: u64, b: u64) -> u64 {
    let m = if ty.bits() == 64 {
        u64::MAX
    } else {
        (1u64 << ty.bits()) - 1
    };
    let v = match op {
        AtomOp::Add if ty == Ty::F32 => {
            (f32::from_bits(old as u32) + f32::from_bits(a as u32)).to_bits() as u64
        }
        AtomOp::Add if ty == Ty::F64 => (f64::from_bits(old) + f64::from_bits(a)).to_bits(),
        AtomOp::Add => old.wrapping_add(a),
        AtomOp::Inc => {
            if (old & m) >= (a & m) {
                0
            } else {
                old + 1
            }
        }
        AtomOp::Dec => {
            if (old & m) == 0 || (old & m) > (a & m) {
                a
            } else {
                old - 1
            }
        }
        AtomOp::And => old & a,
        AtomOp::Or => old | a,
        AtomOp::Xor => old ^ a,
        AtomOp::Min => ops::int(IntOp::Min, ty, old, a),
        AtomOp::Max => ops::int(IntOp::Max, ty, old, a),
        AtomOp::Exch => a,
        AtomOp::Cas => {
            if old & m == a & m {
                b
            } else {
                old
            }
        }
    };
    v & m
}

impl Thread {
    pub fn new(env: &BlockEnv, func: usize, params: &[u8], tid: [u32; 3]) -> Thread {
        let f = &env.program.functions[func];
        let ntid = env.ntid;
        let linear = tid[0] + ntid[0] * (tid[1] + ntid[1] * tid[2]);
        let mut p = params.to_vec();
        p.resize(f.param_bytes as usize, 0);
        let mut t = Thread {
            regs: vec![0; f.num_regs],
            func,
            pc: 0,
            params: p,
            local: vec![0; f.local_bytes as usize],
            local_base: 0,
            frames: Vec::new(),
            tid,
            linear,
            lane: linear % 32,
            warp: linear / 32,
            carry: false,
            executed: 0,
            counts: ThreadCounts::default(),
            last_range: std::cell::Cell::new((0, 0)),
        };
        t.init_frame(f, env);
        t
    }

    /// Makes this thread start `func` again as thread `tid` (reusing its buffers).
    pub fn reset(&mut self, env: &BlockEnv, func: usize, params: &[u8], tid: [u32; 3]) {
        let f = &env.program.functions[func];
        let ntid = env.ntid;
        // Registers keep what the block's previous thread left (PTX leaves their first value
        // undefined); those that start with a value get it in init_frame.
        self.regs.resize(f.num_regs, 0);
        self.func = func;
        self.pc = 0;
        self.params.clear();
        self.params.extend_from_slice(params);
        self.params.resize(f.param_bytes as usize, 0);
        self.local.clear();
        self.local.resize(f.local_bytes as usize, 0);
        self.local_base = 0;
        self.frames.clear();
        self.tid = tid;
        self.linear = tid[0] + ntid[0] * (tid[1] + ntid[1] * tid[2]);
        self.lane = self.linear % 32;
        self.warp = self.linear / 32;
        self.carry = false;
        self.init_frame(f, env);
    }

    pub fn sreg(&self, s: Sreg, env: &BlockEnv) -> u64 {
        let d = |v: [u32; 3], i: u8| v[i as usize] as u64;
        match s {
            Sreg::Tid(i) => d(self.tid, i),
            Sreg::Ntid(i) => d(env.ntid, i),
            Sreg::Ctaid(i) => d(env.ctaid, i),
            Sreg::Nctaid(i) => d(env.nctaid, i),
            Sreg::LaneId => self.lane as u64,
            Sreg::WarpId => self.warp as u64,
            Sreg::NWarpId => (env.ntid[0] * env.ntid[1] * env.ntid[2]).div_ceil(32) as u64,
            Sreg::SmId => {
                ((env.ctaid[0] + env.nctaid[0] * (env.ctaid[1] + env.nctaid[1] * env.ctaid[2]))
                    % env.sm_count.max(1)) as u64
            }
            Sreg::NSmId => env.sm_count as u64,
            Sreg::GridId => 1,
            Sreg::LaneMaskEq => 1u64 << self.lane,
            Sreg::LaneMaskLe => (2u64 << self.lane) - 1,
            Sreg::LaneMaskLt => (1u64 << self.lane) - 1,
            Sreg::LaneMaskGe => (0xffff_ffffu64 << self.lane) & 0xffff_ffff,
            Sreg::LaneMaskGt => (0xffff_fffeu64 << self.lane) & 0xffff_ffff,
            Sreg::Clock => self.executed & 0xffff_ffff,
            Sreg::Clock64 => self.executed,
            Sreg::GlobalTimer => env.start.elapsed().as_nanos() as u64,
            Sreg::DynamicSmemSize => env.dynamic_shared as u64,
            Sreg::TotalSmemSize => (env.program.dynamic_shared_offset + env.dynamic_shared) as u64,
            Sreg::EnvReg(_) => 0,
        }
    }

    #[inline(always)]
    pub fn get(&self, s: Src) -> u64 {
        debug_assert!((s as usize) < self.regs.len());
        // SAFETY: decoding gives every operand a register below the function's num_regs, and a
        // frame of the function has that many registers.
        unsafe { *self.regs.get_unchecked(s as usize) }
    }

    /// Fills the registers a frame of `f` starts with (constants, special registers).
    fn init_frame(&mut self, f: &Function, env: &BlockEnv) {
        for (r, init) in &f.init {
            self.regs[*r as usize] = match init {
                RegInit::Const(v) => *v,
                RegInit::Sreg(s) => self.sreg(*s, env),
            };
        }
    }

    #[inline(always)]
    pub fn set(&mut self, d: Reg, v: u64) {
        debug_assert!((d as usize) < self.regs.len());
        // SAFETY: as `get`.
        unsafe { *self.regs.get_unchecked_mut(d as usize) = v }
    }

    fn fault(&self, env: &BlockEnv, kind: FaultKind, message: String) -> Fault {
        let f = &env.program.functions[self.func];
        Fault {
            kind,
            message,
            function: f.name.clone(),
            line: f.code.get(self.pc).map(|i| i.line).unwrap_or(0),
            thread: Some(self.tid),
        }
    }

    fn address(&self, a: &Addr, env: &BlockEnv) -> u64 {
        let base = match a.base {
            AddrBase::Reg(r) => self.get(r),
            AddrBase::Abs(v) => v,
            AddrBase::Local { offset, generic } => {
                let l = (self.local_base + offset) as u64;
                if generic {
                    LOCAL_WINDOW + l
                } else {
                    l
                }
            }
            AddrBase::Param(o) => o as u64,
        };
        let _ = env;
        base.wrapping_add(a.offset as u64)
    }

    /// Where an access of `bytes` at `addr` in `space` goes, or the fault it raises.
    fn locate(
        &self,
        space: MemSpace,
        addr: u64,
        bytes: u32,
        env: &BlockEnv,
        shared_len: usize,
    ) -> Result<Loc, Fault> {
        let misaligned = !addr.is_multiple_of(bytes as u64);
        let space = match space {
            MemSpace::Generic if (SHARED_WINDOW..SHARED_WINDOW + WINDOW_BYTES).contains(&addr) => {
                return self.locate(
                    MemSpace::Shared,
                    addr - SHARED_WINDOW,
                    bytes,
                    env,
                    shared_len,
                );
            }
            MemSpace::Generic if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW_BYTES).contains(&addr) => {
                return self.locate(MemSpace::Local, addr - LOCAL_WINDOW, bytes, env, shared_len);
            }
            s => s,
        };
        if misaligned && space != MemSpace::Param {
            return Err(self.fault(
                env,
                FaultKind::MisalignedAddress,
                format!("misaligned {bytes}-byte access at {addr:#x} ({space:?} space)"),
            ));
        }
        let out_of = |what: &str, len: usize| {
            self.fault(
                env,
                FaultKind::IllegalAddress,
                format!("{bytes}-byte access at {addr:#x} is outside {what} ({len} bytes)"),
            )
        };
        match space {
            MemSpace::Global | MemSpace::Const | MemSpace::Generic => {
                let (start, end) = self.last_range.get();
                if addr >= start && addr.wrapping_add(bytes as u64) <= end && addr < end {
                    return Ok(Loc::Host(addr as *mut u8));
                }
                if let Some(range) = env.ranges.find(addr, bytes as u64) {
                    self.last_range.set(range);
                    Ok(Loc::Host(addr as *mut u8))
                } else {
                    let what = if addr < 4096 {
                        "is through a null pointer"
                    } else {
                        "is outside every device allocation (a host pointer, freed memory, or past the end of an array?)"
                    };
                    Err(self.fault(
                        env,
                        FaultKind::IllegalAddress,
                        format!("{bytes}-byte access at {addr:#x} {what}"),
                    ))
                }
            }
            MemSpace::Shared => {
                if addr
                    .checked_add(bytes as u64)
                    .is_some_and(|e| e <= shared_len as u64)
                {
                    Ok(Loc::Shared(addr as usize))
                } else {
                    Err(out_of("the block's shared memory", shared_len))
                }
            }
            MemSpace::Local => {
                if addr
                    .checked_add(bytes as u64)
                    .is_some_and(|e| e <= self.local.len() as u64)
                {
                    Ok(Loc::Local(addr as usize))
                } else {
                    Err(out_of("the thread's local memory", self.local.len()))
                }
            }
            MemSpace::Param => {
                if addr
                    .checked_add(bytes as u64)
                    .is_some_and(|e| e <= self.params.len() as u64)
                {
                    Ok(Loc::Param(addr as usize))
                } else {
                    Err(out_of("the parameters", self.params.len()))
                }
            }
        }
    }

    /// The fault of a race the shared-memory checker found.
    /// Where a load or store of `len` bytes at `addr` in `space` goes, after the shared-memory
    /// race check when it is on.
    #[allow(clippy::too_many_arguments)]
    fn access(
        &self,
        space: MemSpace,
        addr: &Addr,
        len: u32,
        write: bool,
        line: u32,
        env: &BlockEnv,
        smem: &mut SharedMemory,
    ) -> Result<Loc, Fault> {
        let a = self.address(addr, env);
        let loc = self.locate(space, a, len, env, smem.bytes.len())?;
        if let Loc::Shared(o) = loc {
            if smem.checking() {
                smem.access(o, len as usize, self.linear, write, line)
                    .map_err(|r| self.race(env, r))?;
            }
        }
        Ok(loc)
    }

    fn race(&self, env: &BlockEnv, r: Race) -> Fault {
        let who = |linear: u32| {
            let n = env.ntid;
            format!(
                "({},{},{})",
                linear % n[0],
                (linear / n[0]) % n[1],
                linear / (n[0] * n[1])
            )
        };
        let verb = |w: bool| if w { "wrote" } else { "read" };
        self.fault(
            env,
            FaultKind::Race,
            format!(
                "data race in shared memory at {}: thread {} {} it at PTX line {} and thread {} {} it at PTX line {}, \
                 with no barrier between",
                env.program.describe_shared(r.offset),
                who(r.first.0),
                verb(r.first.1),
                r.first.2,
                who(r.second.0),
                verb(r.second.1),
                r.second.2
            ),
        )
    }

    fn read(&self, loc: Loc, bytes: u32, shared: &[u8]) -> u64 {
        match loc {
            Loc::Host(p) => load_host(p, bytes),
            Loc::Shared(o) => read_le(shared, o, bytes),
            Loc::Local(o) => read_le(&self.local, o, bytes),
            Loc::Param(o) => read_le(&self.params, o, bytes),
        }
    }

    fn write(&mut self, loc: Loc, bytes: u32, v: u64, shared: &mut [u8]) {
        match loc {
            Loc::Host(p) => store_host(p, bytes, v),
            Loc::Shared(o) => write_le(shared, o, bytes, v),
            Loc::Local(o) => write_le(&mut self.local, o, bytes, v),
            Loc::Param(o) => write_le(&mut self.params, o, bytes, v),
        }
    }

    /// Reads `bytes` at a generic address (for vprintf's arguments and strings).
    pub fn read_generic(
        &self,
        addr: u64,
        bytes: u32,
        env: &BlockEnv,
        shared: &[u8],
    ) -> Option<u64> {
        let loc = self
            .locate(MemSpace::Generic, addr, bytes, env, shared.len())
            .ok()?;
        Some(self.read(loc, bytes, shared))
    }

    /// Runs until the thread stops (see `Stop`); at most about `budget` instructions. With
    /// `counters`, its block entries and memory accesses are counted.
    pub fn run(
        &mut self,
        env: &BlockEnv,
        smem: &mut SharedMemory,
        budget: u64,
        counters: Option<&mut BlockCounters>,
    ) -> Stop {
        match counters {
            None => self.run_impl::<false, false>(env, smem, budget, None),
            c => self.run_impl::<false, true>(env, smem, budget, c),
        }
    }

    /// Runs up to the next instruction another lane could observe or be affected by (a
    /// memory access, a branch or call, a collective: see `lockstep_point`), executing the one
    /// it starts at: how the lanes of a lockstep warp advance together (see `block.rs`). Every
    /// lane of the warp executes its k-th such instruction before any executes its k+1-th;
    /// what lies between them only touches the thread's registers. `Stop::Yield` when it
    /// stopped before one.
    pub fn run_chunk(
        &mut self,
        env: &BlockEnv,
        smem: &mut SharedMemory,
        counters: Option<&mut BlockCounters>,
    ) -> Stop {
        match counters {
            None => self.run_impl::<true, false>(env, smem, u64::MAX, None),
            c => self.run_impl::<true, true>(env, smem, u64::MAX, c),
        }
    }

    /// Reports a memory access of this thread at `inst`'s site to the counters.
    #[inline]
    fn count_access(&self, c: &mut BlockCounters, inst: &Inst, loc: Loc, len: u32) {
        let k = self.counts.instance(inst.block);
        let a = match loc {
            Loc::Host(p) => Access::Global(p as u64, len),
            Loc::Shared(o) => Access::Shared(o as u64, len),
            Loc::Local(_) => Access::Local(len),
            Loc::Param(_) => return,
        };
        c.access(self.warp, inst.site, k, a);
    }

    /// Where the thread is, compared with another thread of its warp, for lockstep execution:
    /// Less if it is to run first. The call stacks are compared from the outermost frame
    /// (function, return address), then the current (function, pc): the thread behind runs
    /// first, so that threads that diverged meet again where their paths join; a thread still
    /// inside a call runs before one that has returned from it.
    pub fn position_cmp(&self, o: &Thread) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        let mut a = self
            .frames
            .iter()
            .map(|f| (f.func, f.pc))
            .chain(std::iter::once((self.func, self.pc)));
        let mut b = o
            .frames
            .iter()
            .map(|f| (f.func, f.pc))
            .chain(std::iter::once((o.func, o.pc)));
        loop {
            match (a.next(), b.next()) {
                (Some(x), Some(y)) if x != y => return x.cmp(&y),
                (Some(_), Some(_)) => {}
                (Some(_), None) => return Less,
                (None, Some(_)) => return Greater,
                (None, None) => return Equal,
            }
        }
    }

    /// Calls the thread is inside.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Whether two threads are at the same instruction of the same call stack (a cheap test of
    /// `position_cmp(o) == Equal` for the common case).
    pub fn same_position(&self, o: &Thread) -> bool {
        self.pc == o.pc
            && self.func == o.func
            && self.frames.len() == o.frames.len()
            && self
                .frames
                .iter()
                .zip(&o.frames)
                .all(|(x, y)| x.pc == y.pc && x.func == y.func)
    }

    #[inline(always)]
    fn run_impl<const CHUNK: bool, const STATS: bool>(
        &mut self,
        env: &BlockEnv,
        smem: &mut SharedMemory,
        budget: u64,
        mut counters: Option<&mut BlockCounters>,
    ) -> Stop {
        let program = env.program;
        let mut code: &[Inst] = &program.functions[self.func].code;
        let mut n = 0u64;
        let stop = loop {
            let Some(inst) = code.get(self.pc) else {
                break Stop::Fault(self.fault(
                    env,
                    FaultKind::Trap,
                    "ran past the end of the function".into(),
                ));
            };
            if CHUNK && n > 0 && inst.lockstep_point {
                break Stop::Yield;
            }
            n += 1;
            if STATS && inst.leader {
                self.counts.enter(inst.block);
            }
            if let Some(g) = inst.guard {
                if (self.get(g.reg) != 0) == g.negate {
                    self.pc += 1;
                    continue;
                }
            }
            match &inst.op {
                Op::Mov { d, a } => {
                    let v = self.get(*a);
                    self.set(*d, v);
                }
                Op::Int { f, d, a, b, .. } => {
                    let v = f(self.get(*a), self.get(*b));
                    self.set(*d, v);
                }
                Op::Float {
                    op,
                    ty,
                    ftz,
                    sat,
                    f,
                    d,
                    a,
                    b,
                } => {
                    let (x, y) = (self.get(*a), self.get(*b));
                    let v = match f {
                        Some(f) => f(x, y),
                        None => ops::float(*op, *ty, *ftz, *sat, x, y),
                    };
                    self.set(*d, v);
                }
                Op::Setp {
                    cmp,
                    ty,
                    ftz,
                    f,
                    d,
                    d_not,
                    a,
                    b,
                    combine,
                } => {
                    let (x, y) = (self.get(*a), self.get(*b));
                    let mut r = match f {
                        Some(f) => f(x, y),
                        None => ops::compare(*cmp, *ty, *ftz, x, y),
                    };
                    let mut nr = !r;
                    if let Some((op, p, neg)) = combine {
                        let c = (self.get(*p) != 0) != *neg;
                        r = ops::combine(*op, r, c);
                        nr = ops::combine(*op, nr, c);
                    }
                    self.set(*d, r as u64);
                    if let Some(q) = d_not {
                        self.set(*q, nr as u64);
                    }
                }
                Op::Selp { d, a, b, p } => {
                    let v = if self.get(*p) != 0 {
                        self.get(*a)
                    } else {
                        self.get(*b)
                    };
                    self.set(*d, v);
                }
                Op::Bra { target } => {
                    self.pc = *target as usize;
                    if n >= budget {
                        break Stop::Yield;
                    }
                    continue;
                }
                Op::Ld {
                    space,
                    ty,
                    n: count,
                    ds,
                    addr,
                    ..
                } => {
                    let bytes = ty.bytes();
                    let len = bytes * *count as u32;
                    let loc = match self.access(*space, addr, len, false, inst.line, env, smem) {
                        Ok(l) => l,
                        Err(f) => break Stop::Fault(f),
                    };
                    if STATS && inst.site != NO_SITE {
                        if let Some(c) = counters.as_deref_mut() {
                            self.count_access(c, inst, loc, len);
                        }
                    }
                    for (k, d) in ds.iter().take(*count as usize).enumerate() {
                        let l = loc.offset(k * bytes as usize);
                        let v = match l {
                            // The lanes of a lockstep warp loading one address get one value,
                            // as from the one memory transaction of a warp's load (other
                            // blocks, on other host threads, may write it meanwhile).
                            Loc::Host(p) if CHUNK => {
                                smem.warp_load(p as u64, bytes, || self.read(l, bytes, &[]))
                            }
                            _ => self.read(l, bytes, &smem.bytes),
                        };
                        if let Some(d) = d {
                            self.set(*d, ty.extend(v));
                        }
                    }
                }
                Op::St {
                    space,
                    ty,
                    n: count,
                    srcs,
                    addr,
                    ..
                } => {
                    let bytes = ty.bytes();
                    let len = bytes * *count as u32;
                    let loc = match self.access(*space, addr, len, true, inst.line, env, smem) {
                        Ok(l) => l,
                        Err(f) => break Stop::Fault(f),
                    };
                    if STATS && inst.site != NO_SITE {
                        if let Some(c) = counters.as_deref_mut() {
                            self.count_access(c, inst, loc, len);
                        }
                    }
                    for (k, s) in srcs.iter().take(*count as usize).enumerate() {
                        let l = loc.offset(k * bytes as usize);
                        let v = self.get(*s);
                        self.write(l, bytes, v, &mut smem.bytes);
                    }
                }
                Op::Cvt {
                    dty,
                    sty,
                    mode,
                    f,
                    d,
                    a,
                } => {
                    let x = self.get(*a);
                    let v = match f {
                        Some(f) => f(x),
                        None => ops::cvt(*dty, *sty, *mode, x),
                    };
                    self.set(*d, v);
                }
                Op::Mad {
                    kind,
                    ty,
                    carry_in: false,
                    carry_out: false,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let v = ops::mad(*kind, *ty, self.get(*a), self.get(*b), self.get(*c));
                    self.set(*d, v);
                }
                Op::Mad {
                    kind,
                    ty,
                    carry_in,
                    carry_out,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let half = match kind {
                        MadKind::Hi => IntOp::MulHi,
                        _ => IntOp::MulLo,
                    };
                    let p = ops::int(half, *ty, self.get(*a), self.get(*b));
                    let (v, carry) =
                        ops::carry(false, *ty, p, self.get(*c), *carry_in && self.carry);
                    self.set(*d, v);
                    if *carry_out {
                        self.carry = carry;
                    }
                }
                Op::Fma {
                    ty,
                    ftz,
                    sat,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let v = ops::fma(*ty, *ftz, *sat, self.get(*a), self.get(*b), self.get(*c));
                    self.set(*d, v);
                }
                Op::Directed {
                    op,
                    round,
                    ty,
                    ftz,
                    sat,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let v = ops::directed(
                        *op,
                        *round,
                        *ty,
                        *ftz,
                        *sat,
                        self.get(*a),
                        self.get(*b),
                        self.get(*c),
                    );
                    self.set(*d, v);
                }
                Op::IntUn { op, ty, d, a } => {
                    let v = ops::int_un(*op, *ty, self.get(*a));
                    self.set(*d, v);
                }
                Op::FloatUn { op, ty, ftz, d, a } => {
                    let v = ops::float_un(*op, *ty, *ftz, self.get(*a));
                    self.set(*d, v);
                }
                Op::Cvta {
                    to_generic,
                    space,
                    d,
                    a,
                } => {
                    let v = self.get(*a);
                    let window = match space {
                        MemSpace::Shared => SHARED_WINDOW,
                        MemSpace::Local => LOCAL_WINDOW,
                        _ => 0,
                    };
                    let r = if *to_generic {
                        v.wrapping_add(window)
                    } else if window != 0 && (window..window + WINDOW_BYTES).contains(&v) {
                        v - window
                    } else if window != 0 {
                        // Not an address of that space: any access through it faults.
                        u64::MAX - WINDOW_BYTES
                    } else {
                        v
                    };
                    self.set(*d, r);
                }
                Op::Pack {
                    bits,
                    n: count,
                    d,
                    parts,
                } => {
                    let mut v = 0u64;
                    let m = if *bits == 64 {
                        u64::MAX
                    } else {
                        (1u64 << bits) - 1
                    };
                    for (k, p) in parts.iter().take(*count as usize).enumerate() {
                        v |= (self.get(*p) & m) << (k as u32 * *bits as u32);
                    }
                    self.set(*d, v);
                }
                Op::Unpack {
                    bits,
                    n: count,
                    ds,
                    a,
                } => {
                    let v = self.get(*a);
                    let m = if *bits == 64 {
                        u64::MAX
                    } else {
                        (1u64 << bits) - 1
                    };
                    for (k, d) in ds.iter().take(*count as usize).enumerate() {
                        if let Some(d) = d {
                            self.set(*d, (v >> (k as u32 * *bits as u32)) & m);
                        }
                    }
                }
                Op::MovVec { n: count, ds, srcs } => {
                    let mut v = [0u64; 4];
                    for (k, s) in srcs.iter().take(*count as usize).enumerate() {
                        v[k] = self.get(*s);
                    }
                    for (k, d) in ds.iter().take(*count as usize).enumerate() {
                        if let Some(d) = d {
                            self.set(*d, v[k]);
                        }
                    }
                }
                Op::ReadClock { d, sreg } => {
                    let v = self.sreg(*sreg, env) + if *sreg == Sreg::GlobalTimer { 0 } else { n };
                    self.set(*d, v);
                }
                Op::LocalAddr { d, offset, generic } => {
                    let v = (self.local_base + offset) as u64;
                    self.set(*d, if *generic { LOCAL_WINDOW + v } else { v });
                }
                Op::Carry {
                    sub,
                    carry_in,
                    carry_out,
                    ty,
                    d,
                    a,
                    b,
                } => {
                    let (v, c) = ops::carry(
                        *sub,
                        *ty,
                        self.get(*a),
                        self.get(*b),
                        *carry_in && self.carry,
                    );
                    self.set(*d, v);
                    if *carry_out {
                        self.carry = c;
                    }
                }
                Op::Set {
                    cmp,
                    ty,
                    dty,
                    ftz,
                    d,
                    a,
                    b,
                    combine,
                } => {
                    let mut r = ops::compare(*cmp, *ty, *ftz, self.get(*a), self.get(*b));
                    if let Some((op, p, neg)) = combine {
                        r = ops::combine(*op, r, (self.get(*p) != 0) != *neg);
                    }
                    let v = match (r, dty) {
                        (false, _) => 0,
                        (true, Ty::F32) => 1.0f32.to_bits() as u64,
                        (true, t) => t.extend(u64::MAX),
                    };
                    self.set(*d, v);
                }
                Op::Slct { ty, d, a, b, c } => {
                    let cv = self.get(*c);
                    let neg = if *ty == Ty::F32 {
                        f32::from_bits(cv as u32) < 0.0
                    } else {
                        (cv as i32) < 0
                    };
                    let v = if neg { self.get(*b) } else { self.get(*a) };
                    self.set(*d, v);
                }
                Op::Isspacep { space, d, a } => {
                    let v = self.get(*a);
                    let in_shared = (SHARED_WINDOW..SHARED_WINDOW + WINDOW_BYTES).contains(&v);
                    let in_local = (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW_BYTES).contains(&v);
                    let r = match space {
                        MemSpace::Shared => in_shared,
                        MemSpace::Local => in_local,
                        MemSpace::Global | MemSpace::Const => !in_shared && !in_local,
                        _ => false,
                    };
                    self.set(*d, r as u64);
                }
                Op::Testp { kind, ty, d, a } => {
                    let v = ops::testp(*kind, *ty, self.get(*a));
                    self.set(*d, v as u64);
                }
                Op::Video(v) => {
                    let r = ops::video(v, self.get(v.a), self.get(v.b), self.get(v.c));
                    self.set(v.d, r);
                }
                Op::Bfe { ty, d, a, b, c } => {
                    let v = ops::bfe(*ty, self.get(*a), self.get(*b), self.get(*c));
                    self.set(*d, v);
                }
                Op::Bfi { ty, d, a, b, c, e } => {
                    let v = ops::bfi(*ty, self.get(*a), self.get(*b), self.get(*c), self.get(*e));
                    self.set(*d, v);
                }
                Op::Prmt { mode, d, a, b, c } => {
                    let v = ops::prmt(*mode, self.get(*a), self.get(*b), self.get(*c));
                    self.set(*d, v);
                }
                Op::Shf {
                    left,
                    wrap,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let v = ops::shf(*left, *wrap, self.get(*a), self.get(*b), self.get(*c));
                    self.set(*d, v);
                }
                Op::Lop3 { d, a, b, c, lut } => {
                    let v = ops::lop3(self.get(*a), self.get(*b), self.get(*c), *lut);
                    self.set(*d, v);
                }
                Op::Atom {
                    space,
                    op,
                    ty,
                    d,
                    addr,
                    a,
                    b,
                } => {
                    let bytes = ty.bytes();
                    let at = self.address(addr, env);
                    let loc = match self.locate(*space, at, bytes, env, smem.bytes.len()) {
                        Ok(l) => l,
                        Err(f) => break Stop::Fault(f),
                    };
                    if STATS {
                        if let Some(c) = counters.as_deref_mut() {
                            c.counters.atomics += 1;
                            self.count_access(c, inst, loc, bytes);
                        }
                    }
                    let (av, bv) = (self.get(*a), self.get(*b));
                    let old = match loc {
                        Loc::Host(p) => {
                            atomic_host(p, bytes, |old| atomic_value(*op, *ty, old, av, bv))
                        }
                        _ => {
                            // Shared and local memory belong to this block, which one host
                            // thread runs: a plain read-modify-write is atomic.
                            let old = self.read(loc, bytes, &smem.bytes);
                            let new = atomic_value(*op, *ty, old, av, bv);
                            self.write(loc, bytes, new, &mut smem.bytes);
                            old
                        }
                    };
                    if let Some(d) = d {
                        self.set(*d, ty.extend(old));
                    }
                }
                Op::Call(call) => {
                    let callee_id = match &call.indirect {
                        None => call.callee,
                        Some(ind) => match self.indirect_target(ind, call, env) {
                            Ok(id) => id,
                            Err(f) => break Stop::Fault(f),
                        },
                    };
                    let callee = &program.functions[callee_id];
                    if let Some(b) = callee.builtin {
                        match self.builtin(b, call, env, &smem.bytes) {
                            Ok(()) => {}
                            Err(f) => break Stop::Fault(f),
                        }
                    } else {
                        if self.frames.len() >= 1024 {
                            break Stop::Fault(self.fault(
                                env,
                                FaultKind::StackOverflow,
                                "call depth beyond 1024".into(),
                            ));
                        }
                        let mut params = vec![0u8; callee.param_bytes as usize];
                        for (k, (off, bytes)) in call.args.iter().enumerate() {
                            let (to, n) = callee.params[k];
                            let n = n.min(*bytes) as usize;
                            params[to as usize..to as usize + n]
                                .copy_from_slice(&self.params[*off as usize..*off as usize + n]);
                        }
                        let local_base = self.local_base
                            + program.functions[self.func]
                                .local_bytes
                                .next_multiple_of(16);
                        let need = local_base as usize + callee.local_bytes as usize;
                        if need > LOCAL_LIMIT {
                            break Stop::Fault(self.fault(
                                env,
                                FaultKind::StackOverflow,
                                format!("local memory beyond {LOCAL_LIMIT} bytes"),
                            ));
                        }
                        if self.local.len() < need {
                            self.local.resize(need, 0);
                        }
                        let frame = Frame {
                            func: self.func,
                            pc: self.pc + 1,
                            regs: std::mem::replace(&mut self.regs, vec![0; callee.num_regs]),
                            params: std::mem::replace(&mut self.params, params),
                            local_base: self.local_base,
                            ret: call.ret,
                        };
                        self.frames.push(frame);
                        self.init_frame(callee, env);
                        self.func = callee_id;
                        self.local_base = local_base;
                        self.pc = 0;
                        code = &program.functions[self.func].code;
                        continue;
                    }
                }
                Op::Ret => {
                    let Some(frame) = self.frames.pop() else {
                        break Stop::Exited;
                    };
                    let callee_ret = program.functions[self.func].ret;
                    let callee_params = std::mem::replace(&mut self.params, frame.params);
                    if let (Some((to, bytes)), Some((from, n))) = (frame.ret, callee_ret) {
                        let n = n.min(bytes) as usize;
                        self.params[to as usize..to as usize + n]
                            .copy_from_slice(&callee_params[from as usize..from as usize + n]);
                    }
                    self.regs = frame.regs;
                    self.func = frame.func;
                    self.pc = frame.pc;
                    self.local_base = frame.local_base;
                    code = &program.functions[self.func].code;
                    continue;
                }
                Op::Exit => break Stop::Exited,
                Op::Trap => {
                    break Stop::Fault(self.fault(
                        env,
                        FaultKind::Trap,
                        "the kernel executed trap".into(),
                    ))
                }
                Op::Bar(_) => break Stop::Barrier,
                Op::BarWarp { .. }
                | Op::Shfl { .. }
                | Op::Vote { .. }
                | Op::Redux { .. }
                | Op::MatchAny { .. }
                | Op::MatchAll { .. } => {
                    break Stop::Warp;
                }
                Op::Activemask { d } => {
                    // Threads run independently here, so only this thread is known to be
                    // active; what activemask returns is a subset of the converged threads.
                    self.set(*d, 1u64 << self.lane);
                }
                Op::Fence => std::sync::atomic::fence(Ordering::SeqCst),
                Op::Nop => {}
            }
            self.pc += 1;
        };
        self.executed += n;
        stop
    }

    /// The function an indirect call reaches, or the fault it raises.
    fn indirect_target(&self, ind: &Indirect, call: &Call, env: &BlockEnv) -> Result<usize, Fault> {
        let program = env.program;
        let addr = self.get(ind.target);
        let Some(id) = program.function_at(addr) else {
            return Err(self.fault(
                env,
                FaultKind::IllegalInstruction,
                format!("indirect call through {addr:#x}, which is not the address of a function of this module"),
            ));
        };
        let f = &program.functions[id];
        let params: Vec<u32> = f.params.iter().map(|(_, b)| *b).collect();
        let ret = f.ret.map(|(_, b)| b);
        if f.is_entry || params != ind.params || (call.ret.is_some() && ret != ind.ret) {
            return Err(self.fault(
                env,
                FaultKind::IllegalInstruction,
                format!(
                    "indirect call of '{}', whose signature (parameters of {:?} bytes, return value of {:?}) is not the call's prototype's ({:?}, {:?})",
                    f.name, params, ret, ind.params, ind.ret
                ),
            ));
        }
        Ok(id)
    }

    fn builtin(
        &mut self,
        b: Builtin,
        call: &Call,
        env: &BlockEnv,
        shared: &[u8],
    ) -> Result<(), Fault> {
        let arg = |k: usize| -> u64 {
            call.args
                .get(k)
                .map(|(off, n)| read_le(&self.params, *off as usize, (*n).min(8)))
                .unwrap_or(0)
        };
        match b {
            Builtin::Vprintf => {
                let (fmt, args) = (arg(0), arg(1));
                let text = printf::format(self, fmt, args, env, shared)
                    .map_err(|m| self.fault(env, FaultKind::IllegalAddress, m))?;
                let len = text.len() as u64;
                env.printf
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .extend_from_slice(&text);
                if let Some((off, n)) = call.ret {
                    write_le(&mut self.params, off as usize, n.min(4), len);
                }
                Ok(())
            }
            Builtin::AssertFail => {
                let s = |a: u64| {
                    printf::read_string(self, a, env, shared).unwrap_or_else(|| "?".into())
                };
                let (msg, file, line, func) = (s(arg(0)), s(arg(1)), arg(2) as u32, s(arg(3)));
                let (b, t) = (env.ctaid, self.tid);
                // As CUDA's device runtime prints it.
                Err(self.fault(
                    env,
                    FaultKind::Assert,
                    format!(
                        "{file}:{line}: {func}: block: [{},{},{}], thread: [{},{},{}] Assertion `{msg}` failed.",
                        b[0], b[1], b[2], t[0], t[1], t[2]
                    ),
                ))
            }
            Builtin::Malloc | Builtin::Free => {
                let Some(heap) = env.heap else {
                    return Err(self.fault(
                        env,
                        FaultKind::Trap,
                        "the device heap is not set up".into(),
                    ));
                };
                if b == Builtin::Malloc {
                    let p = heap.malloc(arg(0));
                    if let Some((off, n)) = call.ret {
                        write_le(&mut self.params, off as usize, n.min(8), p);
                    }
                } else if !heap.free(arg(0)) {
                    return Err(self.fault(
                        env,
                        FaultKind::IllegalAddress,
                        format!(
                            "free() of {:#x}, which malloc did not return (or was freed already)",
                            arg(0)
                        ),
                    ));
                }
                Ok(())
            }
        }
    }
}

/// An atomic read-modify-write on device memory; returns the old value.
fn atomic_host(p: *mut u8, bytes: u32, f: impl Fn(u64) -> u64) -> u64 {
    // SAFETY: `locate` checked that the access lies in device memory and is aligned.
    unsafe {
        if bytes == 8 {
            let a = AtomicU64::from_ptr(p as *mut u64);
            let mut old = a.load(Ordering::Relaxed);
            loop {
                match a.compare_exchange_weak(old, f(old), Ordering::SeqCst, Ordering::Relaxed) {
                    Ok(v) => return v,
                    Err(v) => old = v,
                }
            }
        } else {
            let a = AtomicU32::from_ptr(p as *mut u32);
            let mut old = a.load(Ordering::Relaxed);
            loop {
                match a.compare_exchange_weak(
                    old,
                    f(old as u64) as u32,
                    Ordering::SeqCst,
                    Ordering::Relaxed,
                ) {
                    Ok(v) => return v as u64,
                    Err(v) => old = v,
                }
            }
        }
    }
}
