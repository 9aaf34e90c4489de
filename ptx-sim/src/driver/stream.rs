//! CUDA streams: each a queue of work that a host thread of its own runs in order, so work on
//! different streams overlaps and the host does not wait for a stream unless it asks to — as on
//! a GPU. A program that forgets to synchronise therefore sees stale data here too.
//!
//! Every stream is a blocking stream: work on the legacy default stream (the synchronous calls)
//! first waits for all of them (`Driver::legacy_barrier`).

use super::result::{self, CUresult};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

pub type Job = Box<dyn FnOnce() -> CUresult + Send>;

struct State {
    queue: VecDeque<Job>,
    submitted: u64,
    completed: u64,
}

pub struct Stream {
    state: Mutex<State>,
    changed: Condvar,
}

/// What a stream's jobs report their errors to (the context's sticky error).
pub trait ErrorSink: Send + Sync {
    fn failed(&self) -> bool;
    fn fail(&self, r: CUresult);
}

impl Stream {
    /// A stream and the host thread that runs its work. `delay` is waited before each job (to
    /// make missing synchronisation visible in tests).
    pub fn new(errors: &'static dyn ErrorSink, delay: Duration) -> Arc<Stream> {
        let s = Arc::new(Stream {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                submitted: 0,
                completed: 0,
            }),
            changed: Condvar::new(),
        });
        let worker = s.clone();
        std::thread::Builder::new()
            .name("ptxsim-stream".into())
            .spawn(move || worker.work(errors, delay))
            .expect("ptxsim: cannot start a stream thread");
        s
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn work(&self, errors: &dyn ErrorSink, delay: Duration) {
        loop {
            let job = {
                let mut s = self.lock();
                loop {
                    if let Some(j) = s.queue.pop_front() {
                        break j;
                    }
                    s = self.changed.wait(s).unwrap_or_else(|p| p.into_inner());
                }
            };
            if !delay.is_zero() {
                std::thread::sleep(delay);
            }
            // After a fault the context is unusable: the rest of the work is dropped.
            if !errors.failed() {
                let r = job();
                if r != result::SUCCESS {
                    errors.fail(r);
                }
            }
            let mut s = self.lock();
            s.completed += 1;
            self.changed.notify_all();
        }
    }

    /// Queues `job`; returns its ticket (the stream has run it once `completed() >= ticket`).
    pub fn enqueue(&self, job: Job) -> u64 {
        let mut s = self.lock();
        s.queue.push_back(job);
        s.submitted += 1;
        self.changed.notify_all();
        s.submitted
    }

    /// The ticket of the last work queued so far.
    pub fn position(&self) -> u64 {
        self.lock().submitted
    }

    pub fn wait_for(&self, ticket: u64) {
        let mut s = self.lock();
        while s.completed < ticket {
            s = self.changed.wait(s).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Waits until everything queued so far has run.
    pub fn synchronize(&self) {
        let t = self.position();
        self.wait_for(t);
    }

    /// Whether the stream has run the work up to `ticket`.
    pub fn reached(&self, ticket: u64) -> bool {
        self.lock().completed >= ticket
    }

    pub fn is_idle(&self) -> bool {
        let s = self.lock();
        s.completed == s.submitted
    }
}
