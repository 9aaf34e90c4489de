//! A `lastprivate` variable of a combined `target` construct that no clause of it maps:
//!
//! ```c
//! #pragma omp target teams distribute parallel for lastprivate(last)
//! ```
//! OpenMP (5.0 and later, "data-mapping attribute rules") treats it as if it also appeared in
//! `map(tofrom: last)`, so the value of the loop's last iteration reaches the host. Clang 19
//! makes it firstprivate to the target region instead: the host's `last` is left as it was, a
//! silent wrong answer (GCC gets it right). The rewrite adds the map the specification implies:
//!
//! ```c
//! #pragma omp target teams distribute parallel for lastprivate(last) map(tofrom: last)
//! ```
//! Variables the construct already names in a data-sharing or mapping clause (`map`,
//! `firstprivate`, `private`, `is_device_ptr`, `has_device_addr`, `defaultmap` does not count)
//! are left alone: the user said what they want.
use crate::offload_parallel_for::directive::{list_names, Pragma};

/// Clauses after which the construct has said how the variable reaches the device.
const MAPPING_CLAUSES: &[&str] = &[
    "map",
    "firstprivate",
    "private",
    "is_device_ptr",
    "has_device_addr",
    "use_device_ptr",
    "use_device_addr",
];

/// The pragma line with `map(tofrom: ...)` added for its unmapped lastprivate variables, or
/// None when there are none.
pub fn rewrite(p: &Pragma, line: &str) -> Option<String> {
    if p.words.first().map(String::as_str) != Some("target") || p.words.len() < 2 {
        return None;
    }
    let named: Vec<String> = p
        .clauses
        .iter()
        .filter(|c| MAPPING_CLAUSES.contains(&c.name.as_str()))
        .flat_map(list_names)
        .collect();
    let mut add: Vec<String> = Vec::new();
    for name in p
        .clauses
        .iter()
        .filter(|c| c.name == "lastprivate")
        .flat_map(list_names)
    {
        if !named.contains(&name) && !add.contains(&name) {
            add.push(name);
        }
    }
    if add.is_empty() {
        return None;
    }
    Some(format!(
        "{} map(tofrom: {})",
        line.trim_end(),
        add.join(", ")
    ))
}
