//! A persistent pool of host threads that runs the blocks of one launch in parallel.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

type BlockFn = dyn Fn(u64) + Sync;

#[derive(Clone, Copy)]
struct Job {
    f: *const BlockFn,
    total: u64,
    next: *const AtomicU64,
}
// The job's pointers are only used while `run` waits for every worker to finish with it.
unsafe impl Send for Job {}

struct State {
    generation: u64,
    job: Option<Job>,
    running: usize,
}

struct Inner {
    state: Mutex<State>,
    start: Condvar,
    done: Condvar,
}

pub struct Pool {
    inner: Arc<Inner>,
    workers: usize,
    launch: Mutex<()>,
}

const WORKER_STACK: usize = 16 << 20;

impl Pool {
    /// A pool of `threads` threads in all (the caller's thread counts as one).
    pub fn new(threads: usize, on_start: fn()) -> Pool {
        let inner = Arc::new(Inner {
            state: Mutex::new(State {
                generation: 0,
                job: None,
                running: 0,
            }),
            start: Condvar::new(),
            done: Condvar::new(),
        });
        let mut workers = 0;
        for i in 1..threads.max(1) {
            let inner = inner.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ptxrt-emu-{i}"))
                .stack_size(WORKER_STACK)
                .spawn(move || {
                    on_start();
                    worker(&inner)
                });
            if spawned.is_ok() {
                workers += 1;
            }
        }
        Pool {
            inner,
            workers,
            launch: Mutex::new(()),
        }
    }

    pub fn threads(&self) -> usize {
        self.workers + 1
    }

    /// Runs `f(0..total)`, spread over the pool, and returns when all calls have returned.
    pub fn run(&self, total: u64, f: &(dyn Fn(u64) + Sync)) {
        if total <= 1 || self.workers == 0 {
            for b in 0..total {
                f(b);
            }
            return;
        }
        let _one_launch_at_a_time = self.launch.lock().unwrap_or_else(|p| p.into_inner());
        let next = AtomicU64::new(0);
        // SAFETY: the lifetime is erased only for the duration of this call; we wait below until
        // every worker has stopped using the job.
        let f_static: *const BlockFn =
            unsafe { std::mem::transmute::<&(dyn Fn(u64) + Sync), &'static BlockFn>(f) };
        {
            let mut st = self.inner.state.lock().unwrap_or_else(|p| p.into_inner());
            st.job = Some(Job {
                f: f_static,
                total,
                next: &next,
            });
            st.generation += 1;
            st.running = self.workers;
            self.inner.start.notify_all();
        }
        loop {
            let b = next.fetch_add(1, Ordering::Relaxed);
            if b >= total {
                break;
            }
            f(b);
        }
        let mut st = self.inner.state.lock().unwrap_or_else(|p| p.into_inner());
        while st.running > 0 {
            st = self.inner.done.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        st.job = None;
    }
}

fn worker(inner: &Inner) {
    let mut seen = 0u64;
    loop {
        let job = {
            let mut st = inner.state.lock().unwrap_or_else(|p| p.into_inner());
            while st.generation == seen {
                st = inner.start.wait(st).unwrap_or_else(|p| p.into_inner());
            }
            seen = st.generation;
            st.job
        };
        if let Some(job) = job {
            // SAFETY: `run` keeps the closure and the counter alive until `running` drops to 0.
            let (f, next) = unsafe { (&*job.f, &*job.next) };
            loop {
                let b = next.fetch_add(1, Ordering::Relaxed);
                if b >= job.total {
                    break;
                }
                f(b);
            }
        }
        let mut st = inner.state.lock().unwrap_or_else(|p| p.into_inner());
        st.running -= 1;
        if st.running == 0 {
            inner.done.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn runs_every_block_once() {
        let pool = Pool::new(4, || {});
        for total in [0u64, 1, 2, 7, 1000] {
            let hits: Vec<AtomicU64> = (0..total).map(|_| AtomicU64::new(0)).collect();
            pool.run(total, &|b| {
                hits[b as usize].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        }
    }
}
