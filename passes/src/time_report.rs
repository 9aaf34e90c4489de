//! `-fptxcc-time-report`: where a compilation's time goes, per driver stage and per pass,
//! printed on standard error when ptxcc ends, as clang's `-ftime-report` prints its timers:
//!
//! ```text
//! ===-------------------------------------------------------------------------===
//!                          ptxcc driver stages
//! ===-------------------------------------------------------------------------===
//!   Total Execution Time: 0.4120 seconds (0.4310 wall clock)
//!
//!    ---User+System---   ---Wall Time---  --- Name ---
//!    0.1610 ( 39.1%)     0.1650 ( 38.3%)  host IR (clang -emit-llvm)
//!    ...
//! ```
//!
//! A timer ([`start`]) measures from its creation to its drop: the wall clock, and the CPU
//! time of ptxcc's process plus that of the children that ended meanwhile (a tool the
//! driver ran), so a subprocess stage and an in-process one read alike. Timers nest (the
//! offload passes inside the driver's in-process stage, a pass inside a pipeline stage): each
//! reports its own time without that of the timers it encloses, so every group sums to what
//! it measured. Without [`enable`], [`start`] returns None and nothing is measured.
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The table a timer belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// The driver's stages: the tools it runs and its in-process steps.
    Driver,
    /// The offload pipeline's passes and code generation (`pipeline.rs`, the registry).
    Passes,
}

impl Group {
    fn title(self) -> &'static str {
        match self {
            Group::Driver => "ptxcc driver stages",
            Group::Passes => "ptxcc offload passes",
        }
    }
}

/// One timer's result: its own time (without that of the timers it enclosed).
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub group: Group,
    pub name: String,
    pub wall: Duration,
    pub cpu: Duration,
}

static ENABLED: AtomicBool = AtomicBool::new(false);
static RECORDS: Mutex<Vec<Record>> = Mutex::new(Vec::new());

thread_local! {
    /// Per running timer (innermost last), the wall and CPU time of the timers it enclosed.
    static ENCLOSED: RefCell<Vec<(Duration, Duration)>> = const { RefCell::new(Vec::new()) };
}

/// Turns the timers on (the driver, for `-fptxcc-time-report`).
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// A running timer; it records its time when dropped.
pub struct Timer {
    group: Group,
    name: String,
    wall0: Instant,
    cpu0: Duration,
}

/// Starts timing `name` in `group`; None (no cost) unless the report is enabled.
pub fn start(group: Group, name: impl Into<String>) -> Option<Timer> {
    if !enabled() {
        return None;
    }
    ENCLOSED.with(|s| s.borrow_mut().push((Duration::ZERO, Duration::ZERO)));
    Some(Timer {
        group,
        name: name.into(),
        wall0: Instant::now(),
        cpu0: cpu_time(),
    })
}

impl Drop for Timer {
    fn drop(&mut self) {
        let wall = self.wall0.elapsed();
        let cpu = cpu_time().saturating_sub(self.cpu0);
        let (inner_wall, inner_cpu) = ENCLOSED.with(|s| {
            let mut s = s.borrow_mut();
            let inner = s.pop().unwrap_or_default();
            if let Some(parent) = s.last_mut() {
                parent.0 += wall;
                parent.1 += cpu;
            }
            inner
        });
        let record = Record {
            group: self.group,
            name: std::mem::take(&mut self.name),
            wall: wall.saturating_sub(inner_wall),
            cpu: cpu.saturating_sub(inner_cpu),
        };
        if let Ok(mut r) = RECORDS.lock() {
            r.push(record);
        }
    }
}

/// The CPU time (user + system) of this process and of its children that have ended.
fn cpu_time() -> Duration {
    let of = |who| {
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut u) } != 0 {
            return Duration::ZERO;
        }
        let tv = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec.max(0) as u64)
                + Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        tv(u.ru_utime) + tv(u.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

/// The records so far, in the order the timers ended.
pub fn records() -> Vec<Record> {
    RECORDS.lock().map(|r| r.clone()).unwrap_or_default()
}

/// The report of `records`: one table per group, the timers of one name summed (a pass run
/// on several modules), the longest first, as clang orders its timers; then the sum of both
/// (each timer counts its own time only, so the tables add up).
pub fn render(records: &[Record]) -> String {
    let mut out = String::new();
    let (all_cpu, all_wall): (Duration, Duration) = (
        records.iter().map(|r| r.cpu).sum(),
        records.iter().map(|r| r.wall).sum(),
    );
    for group in [Group::Driver, Group::Passes] {
        let mut rows: Vec<(String, Duration, Duration)> = Vec::new();
        for r in records.iter().filter(|r| r.group == group) {
            match rows.iter_mut().find(|row| row.0 == r.name) {
                Some(row) => {
                    row.1 += r.cpu;
                    row.2 += r.wall;
                }
                None => rows.push((r.name.clone(), r.cpu, r.wall)),
            }
        }
        if rows.is_empty() {
            continue;
        }
        rows.sort_by_key(|r| std::cmp::Reverse(r.2));
        let cpu: Duration = rows.iter().map(|r| r.1).sum();
        let wall: Duration = rows.iter().map(|r| r.2).sum();
        let rule =
            "===-------------------------------------------------------------------------===";
        let title = group.title();
        let pad = (rule.len().saturating_sub(title.len())) / 2;
        out.push_str(&format!("{rule}\n{:pad$}{title}\n{rule}\n", ""));
        out.push_str(&format!(
            "  Total Execution Time: {:.4} seconds ({:.4} wall clock)\n\n",
            cpu.as_secs_f64(),
            wall.as_secs_f64()
        ));
        out.push_str("   ---User+System---   ---Wall Time---  --- Name ---\n");
        let pct = |part: Duration, all: Duration| {
            if all.is_zero() {
                0.0
            } else {
                100.0 * part.as_secs_f64() / all.as_secs_f64()
            }
        };
        for (name, c, w) in &rows {
            out.push_str(&format!(
                "   {:.4} ({:5.1}%)   {:.4} ({:5.1}%)  {name}\n",
                c.as_secs_f64(),
                pct(*c, cpu),
                w.as_secs_f64(),
                pct(*w, wall)
            ));
        }
        out.push_str(&format!(
            "   {:.4} (100.0%)   {:.4} (100.0%)  Total\n\n",
            cpu.as_secs_f64(),
            wall.as_secs_f64()
        ));
    }
    if !records.is_empty() {
        out.push_str(&format!(
            "ptxcc: total {:.4} seconds user+system ({:.4} wall clock), tools it ran included\n",
            all_cpu.as_secs_f64(),
            all_wall.as_secs_f64()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_timers_report_their_own_time_and_groups_sum() {
        enable();
        let t0 = Instant::now();
        {
            let _outer = start(Group::Driver, "outer");
            std::thread::sleep(Duration::from_millis(20));
            {
                let _inner = start(Group::Passes, "inner");
                std::thread::sleep(Duration::from_millis(30));
            }
        }
        let total = t0.elapsed();
        let r = records();
        let outer = r
            .iter()
            .find(|r| r.name == "outer")
            .expect("outer recorded");
        let inner = r
            .iter()
            .find(|r| r.name == "inner")
            .expect("inner recorded");
        assert!(inner.wall >= Duration::from_millis(30), "{inner:?}");
        assert!(outer.wall >= Duration::from_millis(20), "{outer:?}");
        // Had the outer timer counted the inner one's time too, the two would exceed the
        // time both took together by the inner one's.
        assert!(
            outer.wall + inner.wall <= total,
            "the outer timer's own time excludes the inner one's: {outer:?} {inner:?} {total:?}"
        );
    }

    #[test]
    fn the_report_sums_repeated_names_and_orders_by_time() {
        let ms = Duration::from_millis;
        let rec = |group, name: &str, t| Record {
            group,
            name: name.into(),
            wall: ms(t),
            cpu: ms(t),
        };
        let text = render(&[
            rec(Group::Passes, "a", 10),
            rec(Group::Passes, "b", 30),
            rec(Group::Passes, "a", 30),
            rec(Group::Driver, "clang", 100),
        ]);
        let driver = text.find("ptxcc driver stages").expect("driver table");
        let passes = text.find("ptxcc offload passes").expect("passes table");
        assert!(driver < passes, "{text}");
        let a = text.find("  a\n").expect("a");
        let b = text.find("  b\n").expect("b");
        assert!(a < b, "a (40 ms) before b (30 ms):\n{text}");
        assert!(text.contains("0.0400 ( 57.1%)"), "{text}");
        assert!(
            text.contains("Total Execution Time: 0.0700 seconds"),
            "{text}"
        );
        assert!(text.contains("ptxcc: total 0.1700 seconds"), "{text}");
    }
}
