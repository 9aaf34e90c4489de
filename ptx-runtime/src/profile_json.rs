//! PTXRT_PROFILE=json:PATH: the profile as JSON, written at exit.
//!
//! ```json
//! {"devices": [{"id": 0, "kind": "emulator", "label": "0 (emulator: 2 host threads)",
//!               "h2d_bytes": 800, "d2h_bytes": 800, "peer_bytes": 0, "kernels": 1,
//!               "kernel_time_s": 0.0012}],
//!  "kernels": [{"source": "x.c:12:5", "name": "__omp_offloading_..._l12", "device": 0,
//!               "launches": 1, "time_s": 0.0012}],
//!  "regions": [{"location": "x.c:12:5", "function": "main", "device": 0,
//!               "h2d_bytes": 800, "h2d_copies": 1, "h2d_time_s": 1e-06,
//!               "d2h_bytes": 800, "d2h_copies": 1, "d2h_time_s": 1e-06}]}
//! ```
//!
//! `devices[]` totals what the constructs moved between the host and each device and what
//! `omp_target_memcpy` moved into it from other devices (`peer_bytes`), and the kernels it ran;
//! `regions[]` is per construct (a data construct, or a target construct's own maps) and device.

use crate::profile::Profile;
use std::fmt::Write;

/// `s` as a JSON string literal.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn seconds(ns: u64) -> String {
    format!("{:e}", ns as f64 / 1e9)
}

pub(crate) fn render(p: &Profile) -> String {
    let devices: Vec<String> = p
        .devices
        .iter()
        .enumerate()
        .map(|(id, d)| {
            format!(
                "{{\"id\": {id}, \"kind\": {}, \"label\": {}, \"h2d_bytes\": {}, \"d2h_bytes\": {}, \
                 \"peer_bytes\": {}, \"kernels\": {}, \"kernel_time_s\": {}}}",
                string(&d.kind),
                string(&d.label),
                d.h2d_bytes,
                d.d2h_bytes,
                d.peer_bytes,
                d.kernels,
                seconds(d.kernel_ns)
            )
        })
        .collect();
    let kernels: Vec<String> = p
        .kernels
        .iter()
        .map(|((source, name, device), s)| {
            format!(
                "{{\"source\": {}, \"name\": {}, \"device\": {device}, \"launches\": {}, \"time_s\": {}}}",
                string(source),
                string(name),
                s.launches,
                seconds(s.total_ns)
            )
        })
        .collect();
    let regions: Vec<String> = p
        .data
        .iter()
        .map(|((loc, func, device), t)| {
            format!(
                "{{\"location\": {}, \"function\": {}, \"device\": {device}, \"h2d_bytes\": {}, \
                 \"h2d_copies\": {}, \"h2d_time_s\": {}, \"d2h_bytes\": {}, \"d2h_copies\": {}, \
                 \"d2h_time_s\": {}}}",
                string(loc),
                string(func),
                t.to_device_bytes,
                t.to_device_count,
                seconds(t.to_device_ns),
                t.from_device_bytes,
                t.from_device_count,
                seconds(t.from_device_ns)
            )
        })
        .collect();
    let hybrid: Vec<String> = p
        .hybrid
        .iter()
        .map(|((source, name), h)| {
            format!(
                "{{\"source\": {}, \"name\": {}, \"cpu_share\": {}, \"runs\": {}, \"tuned_runs\": {}, \
                 \"last_host_iterations\": {}, \"last_host_time_s\": {:e}, \
                 \"last_device_iterations\": {}, \"last_device_time_s\": {:e}}}",
                string(source),
                string(name),
                h.cpu_share,
                h.runs,
                h.tuned_runs,
                h.last.host_iters,
                h.last.host_s,
                h.last.device_iters,
                h.last.device_s
            )
        })
        .collect();
    let layouts: Vec<String> = p
        .layouts
        .iter()
        .map(|((source, name), l)| {
            format!(
                "{{\"source\": {}, \"name\": {}, \"original_launches\": {}, \"original_time_s\": {:e}, \
                 \"layout_launches\": {}, \"layout_time_s\": {:e}, \"modeled_clock\": {}}}",
                string(source),
                string(name),
                l.original.0,
                l.original.1,
                l.layout.0,
                l.layout.1,
                l.modeled
            )
        })
        .collect();
    let list = |items: &[String]| {
        if items.is_empty() {
            "[]".to_string()
        } else {
            format!("[\n    {}\n  ]", items.join(",\n    "))
        }
    };
    format!(
        "{{\n  \"devices\": {},\n  \"kernels\": {},\n  \"regions\": {},\n  \"hybrid\": {},\n  \"layouts\": {}\n}}\n",
        list(&devices),
        list(&kernels),
        list(&regions),
        list(&hybrid),
        list(&layouts)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{DeviceStat, KernelStat};

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    #[test]
    fn devices_kernels_and_regions() {
        let mut p = Profile::default();
        p.devices.push(DeviceStat {
            kind: "emulator".into(),
            label: "0 (emulator: 1 host thread)".into(),
            h2d_bytes: 800,
            kernels: 2,
            kernel_ns: 1_500_000_000,
            ..DeviceStat::default()
        });
        p.kernels.insert(
            ("x.c:3:1".into(), "k".into(), 0),
            KernelStat {
                launches: 2,
                total_ns: 1_500_000_000,
                max_ns: 1,
                min_ns: 1,
            },
        );
        let j = render(&p);
        assert!(j.contains("\"id\": 0, \"kind\": \"emulator\""), "{j}");
        assert!(j.contains("\"h2d_bytes\": 800, \"d2h_bytes\": 0, \"peer_bytes\": 0, \"kernels\": 2, \"kernel_time_s\": 1.5e0"), "{j}");
        assert!(
            j.contains("{\"source\": \"x.c:3:1\", \"name\": \"k\", \"device\": 0, \"launches\": 2"),
            "{j}"
        );
        assert!(j.contains("\"regions\": []"), "{j}");
    }
}
