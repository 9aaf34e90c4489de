//! Turns a crash inside an emulated kernel (SIGSEGV/SIGBUS: a host pointer that was never mapped,
//! an index out of bounds, a fiber stack overflow) into an error naming the kernel and its source
//! line instead of a bare "Segmentation fault".

use crate::device::emulator::simt;
use std::cell::Cell;
use std::fmt::Write as _;
use std::sync::Once;

static INSTALL: Once = Once::new();
static mut PREVIOUS_SEGV: Option<libc::sigaction> = None;
static mut PREVIOUS_BUS: Option<libc::sigaction> = None;

thread_local! {
    static ALT_STACK: Cell<bool> = const { Cell::new(false) };
}

const ALT_STACK_BYTES: usize = 64 << 10;

struct Buf {
    data: [u8; 1024],
    len: usize,
}

impl std::fmt::Write for Buf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let n = s.len().min(self.data.len() - self.len);
        self.data[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    if let Some(k) = simt::current_kernel() {
        let mut b = Buf {
            data: [0; 1024],
            len: 0,
        };
        // SAFETY: the kernel validated `info` for SA_SIGINFO handlers.
        let addr = unsafe { (*info).si_addr() } as usize;
        let _ = writeln!(
            b,
            "ptxrt: error: {}: kernel '{}' crashed on the emulator device ({} at address {:#x}): device code \
             dereferenced a pointer that is not device memory (a variable missing from the map clauses, or device \
             memory already freed?) or indexed out of bounds; a very deep recursion or large local arrays can also overflow the emulated thread's stack \
             (PTXRT_EMU_STACK)",
            k.source,
            k.name,
            if sig == libc::SIGBUS { "bus error" } else { "segmentation fault" },
            addr
        );
        // SAFETY: write and _exit are async-signal-safe.
        unsafe {
            libc::write(2, b.data.as_ptr() as *const libc::c_void, b.len);
            libc::_exit(1);
        }
    }
    // Not ours: put the previous disposition back and let the fault happen again.
    unsafe {
        let prev = if sig == libc::SIGBUS {
            (*std::ptr::addr_of!(PREVIOUS_BUS)).as_ref()
        } else {
            (*std::ptr::addr_of!(PREVIOUS_SEGV)).as_ref()
        };
        match prev {
            Some(p) => {
                libc::sigaction(sig, p, std::ptr::null_mut());
            }
            None => {
                libc::signal(sig, libc::SIG_DFL);
            }
        }
    }
}

/// Installs the fault handler (once per process) and an alternate signal stack for this thread
/// (so that a stack overflow can still be reported).
pub fn install_on_thread() {
    if std::env::var_os("PTXRT_NO_SIGNAL_HANDLER").is_some() {
        return;
    }
    INSTALL.call_once(|| unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_fault as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut sa.sa_mask);
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGSEGV, &sa, &mut old) == 0 {
            PREVIOUS_SEGV = Some(old);
        }
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGBUS, &sa, &mut old) == 0 {
            PREVIOUS_BUS = Some(old);
        }
    });
    ALT_STACK.with(|done| {
        if done.get() {
            return;
        }
        done.set(true);
        // A stack per thread for the life of the thread (pool threads live as long as the process).
        let mem: &'static mut [u8] = Box::leak(vec![0u8; ALT_STACK_BYTES].into_boxed_slice());
        let st = libc::stack_t {
            ss_sp: mem.as_mut_ptr() as *mut libc::c_void,
            ss_flags: 0,
            ss_size: ALT_STACK_BYTES,
        };
        // SAFETY: `st` describes memory that stays valid for the rest of the thread's life.
        unsafe {
            let mut old: libc::stack_t = std::mem::zeroed();
            if libc::sigaltstack(std::ptr::null(), &mut old) == 0
                && old.ss_flags & libc::SS_DISABLE == 0
            {
                return; // the program already has an alternate stack on this thread
            }
            libc::sigaltstack(&st, std::ptr::null_mut());
        }
    });
}
