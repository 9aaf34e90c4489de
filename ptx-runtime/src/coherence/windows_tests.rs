//! SpreadData on emulated devices (real, separate device memory): windows, growth, peer copies,
//! gathers, and a Jacobi iterated over 1, 2, 3 and 4 devices giving the serial answer while
//! moving only halo rows after the first sweep.

use super::windows::{Home, Moved, SpreadData};
use super::{Place, RangeSet, Span};
use crate::device::emulator::EmulatorDevice;
use crate::device::Device;

fn emulators(n: usize) -> Vec<EmulatorDevice> {
    (0..n)
        .map(|_| EmulatorDevice::new(1, 64 << 10, 1 << 30))
        .collect()
}

fn refs(devs: &[EmulatorDevice]) -> Vec<&dyn Device> {
    devs.iter().map(|d| d as &dyn Device).collect()
}

fn one(a: u64, b: u64) -> RangeSet {
    RangeSet::of(Span::new(a, b))
}

#[test]
fn windows_cover_what_a_device_touches_and_grow_keeping_their_data() {
    let devs = emulators(2);
    let d = refs(&devs);
    let host: Vec<u8> = (0..200u32).map(|i| i as u8).collect();
    let a = host.as_ptr() as u64;
    let mut s = SpreadData::new();
    s.track(a, 200, 2, Home::Host).unwrap();
    let m = unsafe { s.prepare(&d, a, 1, &one(50, 100), &one(60, 90)) }.unwrap();
    assert_eq!(
        m,
        Moved {
            h2d: 50,
            ..Moved::default()
        }
    );
    let w = s.window(a, 1).unwrap();
    assert_eq!(w.span, Span::new(50, 100));
    // The device's memory holds the host's bytes (emulator memory is host memory).
    let on_dev = unsafe { std::slice::from_raw_parts(w.addr_of(50) as *const u8, 50) };
    assert_eq!(on_dev, &host[50..100]);
    // It writes some (as a kernel would), then a later part reaches further: the window grows,
    // keeps the written bytes and fetches only the new ones.
    unsafe { *(w.addr_of(70) as *mut u8) = 0xEE };
    s.wrote(a, 1, &one(70, 71)).unwrap();
    let m = unsafe { s.prepare(&d, a, 1, &one(0, 120), &RangeSet::new()) }.unwrap();
    assert_eq!(m.h2d, 70);
    let w2 = s.window(a, 1).unwrap();
    assert_eq!(w2.span, Span::new(0, 120));
    let on_dev = unsafe { std::slice::from_raw_parts(w2.addr_of(0) as *const u8, 120) };
    assert_eq!(on_dev[70], 0xEE);
    assert_eq!(on_dev[69], 69);
    assert_eq!(on_dev[119], 119);
    // Device 0 reading [65, 75) gets it from device 1, which holds it all (byte 70 only there):
    // peers come before the host.
    let m = unsafe { s.prepare(&d, a, 0, &one(65, 75), &RangeSet::new()) }.unwrap();
    assert_eq!(
        m,
        Moved {
            h2d: 0,
            peer: 10,
            d2h: 0
        }
    );
    // Bytes no device holds come from the host.
    let m = unsafe { s.prepare(&d, a, 0, &one(60, 130), &RangeSet::new()) }.unwrap();
    assert_eq!(
        m,
        Moved {
            h2d: 10,
            peer: 50,
            d2h: 0
        }
    );
    let w0 = s.window(a, 0).unwrap();
    assert_eq!(unsafe { *(w0.addr_of(70) as *const u8) }, 0xEE);
    // The gather brings the one written byte home.
    let m = unsafe { s.gather(&d, a, &one(0, 200)) }.unwrap();
    assert_eq!(m.d2h, 1);
    assert_eq!(host[70], 0xEE);
    assert_eq!(s.directory().valid(a, Place::Host).unwrap(), &one(0, 200));
    s.release(&d, a).unwrap();
    assert!(s.window(a, 1).is_none());
    assert!(s.directory().valid(a, Place::Host).is_err());
}

/// A 1-D Jacobi over `rows` rows of `cols` doubles, rows split in blocks over `n` devices, run
/// `sweeps` times through windows as a split loop would run it; returns the result and the
/// bytes moved per sweep.
fn jacobi_spread(n: usize, rows: usize, cols: usize, sweeps: usize) -> (Vec<f64>, Vec<Moved>) {
    let devs = emulators(n);
    let d = refs(&devs);
    let row = (cols * 8) as u64;
    let mut a: Vec<f64> = (0..rows * cols).map(|i| ((i * 7) % 13) as f64).collect();
    let mut b = a.clone();
    let (pa, pb) = (a.as_mut_ptr() as u64, b.as_mut_ptr() as u64);
    let mut s = SpreadData::new();
    s.track(pa, rows as u64 * row, n, Home::Host).unwrap();
    s.track(pb, rows as u64 * row, n, Home::Host).unwrap();
    let part = |k: usize| (k * rows / n, (k + 1) * rows / n);
    let mut moved = Vec::new();
    let (mut src, mut dst) = (pa, pb);
    for _ in 0..sweeps {
        let mut m = Moved::default();
        for k in 0..n {
            let (lo, hi) = part(k);
            if lo == hi {
                continue;
            }
            // Interior rows only: row 0 and the last row keep their values (copied through).
            let reads = one(
                lo.saturating_sub(1) as u64 * row,
                (hi + 1).min(rows) as u64 * row,
            );
            let writes = one(lo as u64 * row, hi as u64 * row);
            unsafe {
                m += s.prepare(&d, src, k, &reads, &RangeSet::new()).unwrap();
                m += s.prepare(&d, dst, k, &RangeSet::new(), &writes).unwrap();
            }
            let (ws, wd) = (s.window(src, k).unwrap(), s.window(dst, k).unwrap());
            // The "kernel" of device k, on its device memory.
            for r in lo..hi {
                for c in 0..cols {
                    let at = |w: super::windows::Window, r: usize, c: usize| {
                        w.addr_of(r as u64 * row + c as u64 * 8) as *mut f64
                    };
                    unsafe {
                        *at(wd, r, c) = if r == 0 || r == rows - 1 {
                            *at(ws, r, c)
                        } else {
                            (*at(ws, r - 1, c) + *at(ws, r, c) + *at(ws, r + 1, c)) / 3.0
                        };
                    }
                }
            }
            s.wrote(dst, k, &writes).unwrap();
        }
        moved.push(m);
        std::mem::swap(&mut src, &mut dst);
    }
    let whole = one(0, rows as u64 * row);
    unsafe {
        s.gather(&d, pa, &whole).unwrap();
        s.gather(&d, pb, &whole).unwrap();
    }
    s.release(&d, pa).unwrap();
    s.release(&d, pb).unwrap();
    let result = if src == pa { a } else { b };
    (result, moved)
}

fn jacobi_serial(rows: usize, cols: usize, sweeps: usize) -> Vec<f64> {
    let mut a: Vec<f64> = (0..rows * cols).map(|i| ((i * 7) % 13) as f64).collect();
    for _ in 0..sweeps {
        let old = a.clone();
        for r in 1..rows - 1 {
            for c in 0..cols {
                a[r * cols + c] =
                    (old[(r - 1) * cols + c] + old[r * cols + c] + old[(r + 1) * cols + c]) / 3.0;
            }
        }
    }
    a
}

#[test]
fn a_jacobi_over_one_to_four_devices_gives_the_serial_answer_moving_only_halos() {
    let (rows, cols, sweeps) = (40, 16, 5);
    let row = (cols * 8) as u64;
    let serial = jacobi_serial(rows, cols, sweeps);
    for n in 1..=4usize {
        let (result, moved) = jacobi_spread(n, rows, cols, sweeps);
        assert_eq!(result, serial, "{n} devices");
        let halos = 2 * (n as u64 - 1) * row;
        // First sweep: every row comes from the host once; a device's halo rows above its
        // block come from the device before it, which fetched them already (its last row and
        // its own halo row below).
        assert_eq!(moved[0].h2d, rows as u64 * row, "{n} devices");
        assert_eq!(moved[0].peer, halos, "{n} devices");
        // Then only halo rows move, between devices (the array written in the first sweep is
        // only written there, never read from the host).
        for m in &moved[1..] {
            assert_eq!(
                *m,
                Moved {
                    h2d: 0,
                    d2h: 0,
                    peer: halos
                },
                "{n} devices"
            );
        }
    }
}

#[test]
fn a_home_on_a_device_is_read_and_gathered_by_peer_copies() {
    let devs = emulators(2);
    let d = refs(&devs);
    // The array's current contents are device 0's copy (as a data region left them); the host
    // bytes are stale and must never be read or written.
    let host = [0u8; 100];
    let a = host.as_ptr() as u64;
    let home = d[0].alloc(100).unwrap();
    let init: Vec<u8> = (0..100u8).collect();
    unsafe { d[0].copy_to_device(home, init.as_ptr(), 100) }.unwrap();
    let mut s = SpreadData::new();
    s.track(
        a,
        100,
        2,
        Home::Device {
            device: 0,
            addr: home,
        },
    )
    .unwrap();
    let m = unsafe { s.prepare(&d, a, 1, &one(40, 100), &one(50, 100)) }.unwrap();
    assert_eq!(
        m,
        Moved {
            peer: 60,
            ..Moved::default()
        }
    );
    let w = s.window(a, 1).unwrap();
    unsafe { *(w.addr_of(60) as *mut u8) = 0xAB };
    s.wrote(a, 1, &one(50, 100)).unwrap();
    // Device 0 reading [45, 55) runs on the home copy: the home gets [50, 55) from device 1.
    let m = unsafe { s.gather(&d, a, &one(45, 55)) }.unwrap();
    assert_eq!(m.peer, 5);
    let m = unsafe { s.gather(&d, a, &one(0, 100)) }.unwrap();
    assert_eq!(m.peer, 45);
    let at_home = unsafe { std::slice::from_raw_parts(home as *const u8, 100) };
    assert_eq!(at_home[60], 0xAB);
    assert_eq!(at_home[59], 59);
    assert!(host.iter().all(|&b| b == 0), "the host copy is not touched");
    s.release(&d, a).unwrap();
    d[0].free(home).unwrap();
}
