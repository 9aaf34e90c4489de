//! Asynchronous queues of a device.
//!
//! * OpenACC async queues (`async(q)` arguments of the `acc_*_async` routines, `acc_wait(q)`,
//!   `acc_async_test(q)`): one device queue (CUDA stream) per queue number, created on first use.
//! * OpenMP `target ... nowait` and OpenACC `async` constructs: ptxcc's front end makes them OpenMP
//!   target tasks (with `depend` on a per-queue variable for OpenACC), which libomp runs on its
//!   helper threads, and `taskwait` / `acc_wait` wait for those tasks. The runtime gives every
//!   host thread that runs such a task its own device queue, so that the kernels and copies of
//!   tasks running at the same time overlap on the GPU; a task waits for its queue before it
//!   returns, so a finished task is finished work.
//!
//! Devices without queues (the emulator) run all of this synchronously: every handle is
//! `SYNC_QUEUE`. `PTXRT_ASYNC=0` does the same on a GPU.

use crate::device::{Device, QueueHandle, SYNC_QUEUE};
use crate::errors::warn;
use std::collections::HashMap;
use std::sync::Mutex;
use std::thread::ThreadId;

/// `acc_async_noval`, `acc_async_sync`, `acc_async_default` of openacc.h.
pub const ACC_ASYNC_NOVAL: i32 = -1;
pub const ACC_ASYNC_SYNC: i32 = -2;
pub const ACC_ASYNC_DEFAULT: i32 = -3;

pub struct Queues {
    enabled: bool,
    /// OpenACC queue number → device queue.
    acc: Mutex<HashMap<i32, QueueHandle>>,
    /// Host thread running target tasks → its device queue.
    threads: Mutex<HashMap<ThreadId, QueueHandle>>,
}

/// PTXRT_ASYNC: "0" turns queues off.
pub fn async_enabled_by_env() -> bool {
    match std::env::var("PTXRT_ASYNC") {
        Ok(v) => {
            let v = v.trim();
            !(v == "0" || v.eq_ignore_ascii_case("off") || v.eq_ignore_ascii_case("no"))
        }
        Err(_) => true,
    }
}

impl Queues {
    pub fn new(device: &dyn Device) -> Queues {
        Queues {
            enabled: device.supports_queues() && async_enabled_by_env(),
            acc: Mutex::new(HashMap::new()),
            threads: Mutex::new(HashMap::new()),
        }
    }

    /// Whether operations may really be asynchronous on this device.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    fn create(&self, device: &dyn Device, what: &str) -> QueueHandle {
        match device.create_queue() {
            Ok(q) => q,
            Err(e) => {
                warn(&format!(
                    "cannot create a device queue for {what} ({e}); running it synchronously"
                ));
                SYNC_QUEUE
            }
        }
    }

    /// The device queue of OpenACC queue `key` (a resolved queue number), created on first use.
    pub fn acc_queue(&self, device: &dyn Device, key: i32) -> QueueHandle {
        if !self.enabled {
            return SYNC_QUEUE;
        }
        let mut m = self.acc.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&q) = m.get(&key) {
            return q;
        }
        let q = self.create(device, &format!("OpenACC async queue {key}"));
        if q != SYNC_QUEUE {
            m.insert(key, q);
        }
        q
    }

    /// The device queue of OpenACC queue `key` if it was ever used.
    pub fn existing_acc_queue(&self, key: i32) -> Option<QueueHandle> {
        self.acc
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
            .copied()
    }

    /// Every OpenACC queue used so far.
    pub fn acc_queues(&self) -> Vec<QueueHandle> {
        self.acc
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .copied()
            .collect()
    }

    /// The calling thread's queue for target tasks, created on first use.
    pub fn thread_queue(&self, device: &dyn Device) -> QueueHandle {
        if !self.enabled {
            return SYNC_QUEUE;
        }
        let id = std::thread::current().id();
        let mut m = self.threads.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&q) = m.get(&id) {
            return q;
        }
        let q = self.create(device, "a target task");
        if q != SYNC_QUEUE {
            m.insert(id, q);
        }
        q
    }

    /// Every queue (OpenACC and task queues).
    pub fn all(&self) -> Vec<QueueHandle> {
        let mut v = self.acc_queues();
        v.extend(
            self.threads
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .values()
                .copied(),
        );
        v
    }
}

/// Resolves an OpenACC `async` argument: None for synchronous, else the queue number (negative
/// numbers other than the special values are kept apart from the user's queues).
pub fn resolve_acc_async(async_arg: i32, default_async: i32) -> Option<i32> {
    match async_arg {
        ACC_ASYNC_SYNC => None,
        ACC_ASYNC_NOVAL | ACC_ASYNC_DEFAULT => {
            if default_async == ACC_ASYNC_SYNC {
                None
            } else if default_async == ACC_ASYNC_DEFAULT {
                Some(ACC_ASYNC_NOVAL)
            } else {
                Some(default_async)
            }
        }
        q if q >= 0 => Some(q),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn async_arguments() {
        assert_eq!(resolve_acc_async(3, -1), Some(3));
        assert_eq!(resolve_acc_async(ACC_ASYNC_SYNC, 5), None);
        assert_eq!(resolve_acc_async(ACC_ASYNC_NOVAL, -1), Some(-1));
        assert_eq!(resolve_acc_async(ACC_ASYNC_NOVAL, 7), Some(7));
        assert_eq!(resolve_acc_async(ACC_ASYNC_DEFAULT, 7), Some(7));
        assert_eq!(resolve_acc_async(ACC_ASYNC_DEFAULT, ACC_ASYNC_SYNC), None);
        assert_eq!(resolve_acc_async(-9, -1), None);
    }
}
