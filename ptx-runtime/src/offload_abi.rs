//! The libomptarget host ABI that clang 19 emits (`-fopenmp --offload-arch=... --offload-host-only`):
//! `__tgt_target_data_{begin,end,update}_mapper` (and `_nowait_` forms), `__tgt_target_kernel`,
//! and the registration entry points.

use crate::abi::{Ident, KernelArgs, KERNEL_FLAG_NOWAIT};
use crate::device::{LaunchDims, QueueHandle, SYNC_QUEUE};
use crate::errors::{fatal, fatal_at, warn, MapError};
use crate::launch_config::{self, Request};
use crate::map_type::MapType;
use crate::mapping::{MapItem, Mapper};
use crate::present_table::DevAddr;
use crate::profile;
use crate::registry;
use crate::requires::{self, UnmappedPointers};
use crate::runtime::{self, DeviceState, DirectCopy, Target};
use crate::source_info::{SourceLoc, VarName};
use crate::user_mappers;
use std::ffi::c_void;
use std::time::Instant;

/// Builds the list items from clang's parallel arrays.
///
/// # Safety
/// The arrays must have `n` entries (names and mappers may be NULL).
pub(crate) unsafe fn items(
    n: i32,
    bases: *mut *mut c_void,
    begins: *mut *mut c_void,
    sizes: *const i64,
    types: *const i64,
    names: *const *mut c_void,
) -> Vec<MapItem> {
    let n = n.max(0) as usize;
    if n > 0 && (bases.is_null() || begins.is_null() || types.is_null()) {
        return Vec::new();
    }
    (0..n)
        .map(|i| MapItem {
            base: *bases.add(i) as usize,
            begin: *begins.add(i) as usize,
            bytes: if sizes.is_null() {
                0
            } else {
                (*sizes.add(i)).max(0) as u64
            },
            ty: MapType::from_raw(*types.add(i)),
            name: VarName::from_names(names, i),
        })
        .collect()
}

/// The error for a pointer used in a target region without a map whose data is not on the device.
pub(crate) fn unmapped_pointer_message(device: &str, var: &VarName, host: u64) -> String {
    let (what, example) = if var.is_known() {
        (
            format!("pointer {var}"),
            format!("map(tofrom: {}[0:n])", var.expr),
        )
    } else {
        ("a pointer".to_string(), "map(tofrom: p[0:n])".to_string())
    };
    format!(
        "{what} (host {host:#x}) is used in the target region but the data it points to is not present (not mapped) on device \
         {device}; map it, e.g. {example}, or enclose the region in a target data region that maps it\n\
         ptxrt: note: OpenACC: give it a data clause, e.g. copy({ex}[0:n]), or use a data region; if the device can \
         access host memory directly, '#pragma omp requires unified_shared_memory' or PTXRT_UNMAPPED_POINTERS=pass \
         passes the host address unchanged",
        ex = if var.is_known() { var.expr.as_str() } else { "p" }
    )
}

/// The queue for the work of a `nowait` construct running on this thread (`SYNC_QUEUE` for a
/// synchronous construct or where queues are off), ordered after the OpenACC async queues' work.
fn task_queue(dev: &DeviceState, nowait: bool, loc: &SourceLoc) -> QueueHandle {
    if !nowait || !dev.queues.enabled() {
        return SYNC_QUEUE;
    }
    let q = dev.queues.thread_queue(dev.device.as_ref());
    if q != SYNC_QUEUE {
        // An async construct on queue n must see what acc_*_async(..., n) enqueued before it; the
        // queue it came from is unknown here, so it waits (on the device) for all of them.
        for aq in dev.queues.acc_queues() {
            if let Err(e) = dev.device.queue_wait_for(q, aq) {
                fatal_at(loc, &format!("device {}: {e}", dev.label()));
            }
        }
    }
    q
}

/// The code of `kernel` in the image loaded on `dev`; a missing one stops the program.
fn loaded(
    dev: &DeviceState,
    kernel: &registry::Kernel,
    loc: &SourceLoc,
) -> crate::device::LoadedKernel {
    dev.loaded_kernel(kernel).unwrap_or_else(|| {
        fatal_at(
            loc,
            &format!(
                "kernel '{}' ({}) is missing from the image loaded on device {}",
                kernel.name,
                kernel.source,
                dev.label()
            ),
        )
    })
}

fn map_fatal(loc: &SourceLoc, dev: &DeviceState, e: MapError) -> ! {
    fatal_at(loc, &e.describe(dev.label()))
}

#[derive(Clone, Copy)]
pub(crate) enum DataOp {
    Begin,
    End,
    Update,
}

#[allow(clippy::too_many_arguments)]
unsafe fn data_op(
    op: DataOp,
    loc: *const Ident,
    device_id: i64,
    n: i32,
    bases: *mut *mut c_void,
    begins: *mut *mut c_void,
    sizes: *mut i64,
    types: *mut i64,
    names: *mut *mut c_void,
    mappers: *mut *mut c_void,
    nowait: bool,
) {
    let loc = SourceLoc::from_ident(loc);
    let rt = runtime::get();
    let Target::Device(dev) = rt.target_unsettled(device_id, &loc) else {
        return;
    };
    // Items with a user-defined mapper are mapped as the components its function lists.
    let (list, first) =
        user_mappers::expand(items(n, bases, begins, sizes, types, names), names, mappers);
    // Data a split launch spread over the devices: only the ranges this operation reads or
    // overwrites are settled, where that is all it does; what it copies out comes from the
    // devices that hold it.
    let direct =
        dev.settle_spread_for(crate::coherence::present::data_op_uses(op, &list).as_deref());
    let returns = run_data_op_from(op, &loc, dev, &list, nowait, &direct.copies);
    drop(direct);
    for (i, v) in returns {
        // Only an item without a mapper returns a value: its entry is its own.
        if let Some(orig) = first.iter().rposition(|&f| f == i) {
            *bases.add(orig) = v as *mut c_void;
        }
    }
}

/// Runs `op` over `list` on `dev`, or stops the program with the error, located. Returns, for
/// `Begin`, the (item index, new base pointer) pairs of RETURN_PARAM items.
pub(crate) fn run_data_op(
    op: DataOp,
    loc: &SourceLoc,
    dev: &DeviceState,
    list: &[MapItem],
    nowait: bool,
) -> Vec<(usize, usize)> {
    run_data_op_from(op, loc, dev, list, nowait, &[])
}

/// `run_data_op`, its copies out taking the bytes of `direct` from the devices it names.
fn run_data_op_from(
    op: DataOp,
    loc: &SourceLoc,
    dev: &DeviceState,
    list: &[MapItem],
    nowait: bool,
    direct: &[DirectCopy],
) -> Vec<(usize, usize)> {
    dev.ensure_loaded();
    // The end of a structured data region (its maps hold: OpenACC's data construct, OpenMP's
    // target data) first waits for the async target tasks queued so far: work queued inside
    // the region, by a function it calls, say, may not have started yet and must find the
    // region's data present (OpenACC compilers keep it until that work has run). Exit data and
    // the end of a target region's own maps do not wait.
    if matches!(op, DataOp::End) && !nowait && list.iter().any(|it| it.ty.hold()) {
        crate::openacc::wait_for_async_tasks();
    }
    // A synchronous construct's `present` data may have been entered by a queued enter data.
    if matches!(op, DataOp::Begin) && !nowait {
        crate::queued_enters::wait_for_queued_enters(dev, list);
    }
    let q = task_queue(dev, nowait, loc);
    // The end of a data region waits for the kernels still using its data.
    let mut table = match op {
        DataOp::End => dev.lock_table_unused(list),
        _ => dev.lock_table(),
    };
    let mut m = Mapper::on_queue(dev.device.as_ref(), &mut table, q).with_direct(direct);
    let r = match op {
        DataOp::Begin => m.begin(list),
        DataOp::End => m.end(list).map(|()| Vec::new()),
        DataOp::Update => m.update(list).map(|()| Vec::new()),
    };
    // Copies on the task's queue complete before other threads can see the table again.
    let r = r.and_then(|returns| {
        m.finish()
            .map(|()| returns)
            .map_err(|error| MapError::Device {
                var: VarName::default(),
                error,
            })
    });
    let transfers = m.transfers;
    drop(table);
    let returns = match r {
        Ok(returns) => returns,
        Err(e) => map_fatal(loc, dev, e),
    };
    profile::data(loc, dev.number, &transfers);
    returns
}

#[no_mangle]
pub unsafe extern "C" fn __tgt_target_data_begin_mapper(
    loc: *const Ident,
    device_id: i64,
    arg_num: i32,
    args_base: *mut *mut c_void,
    args: *mut *mut c_void,
    arg_sizes: *mut i64,
    arg_types: *mut i64,
    arg_names: *mut *mut c_void,
    arg_mappers: *mut *mut c_void,
) {
    data_op(
        DataOp::Begin,
        loc,
        device_id,
        arg_num,
        args_base,
        args,
        arg_sizes,
        arg_types,
        arg_names,
        arg_mappers,
        false,
    )
}

#[no_mangle]
pub unsafe extern "C" fn __tgt_target_data_end_mapper(
    loc: *const Ident,
    device_id: i64,
    arg_num: i32,
    args_base: *mut *mut c_void,
    args: *mut *mut c_void,
    arg_sizes: *mut i64,
    arg_types: *mut i64,
    arg_names: *mut *mut c_void,
    arg_mappers: *mut *mut c_void,
) {
    data_op(
        DataOp::End,
        loc,
        device_id,
        arg_num,
        args_base,
        args,
        arg_sizes,
        arg_types,
        arg_names,
        arg_mappers,
        false,
    )
}

#[no_mangle]
pub unsafe extern "C" fn __tgt_target_data_update_mapper(
    loc: *const Ident,
    device_id: i64,
    arg_num: i32,
    args_base: *mut *mut c_void,
    args: *mut *mut c_void,
    arg_sizes: *mut i64,
    arg_types: *mut i64,
    arg_names: *mut *mut c_void,
    arg_mappers: *mut *mut c_void,
) {
    data_op(
        DataOp::Update,
        loc,
        device_id,
        arg_num,
        args_base,
        args,
        arg_sizes,
        arg_types,
        arg_names,
        arg_mappers,
        false,
    )
}

// The nowait forms run inside the target task clang wraps them in (libomp runs it on a helper
// thread, and `taskwait` and the task's dependences order it): on a GPU their copies go on the
// thread's queue and have completed when the call returns (see queues.rs).

#[no_mangle]
pub unsafe extern "C" fn __tgt_target_data_begin_nowait_mapper(
    loc: *const Ident,
    device_id: i64,
    arg_num: i32,
    args_base: *mut *mut c_void,
    args: *mut *mut c_void,
    arg_sizes: *mut i64,
    arg_types: *mut i64,
    arg_names: *mut *mut c_void,
    arg_mappers: *mut *mut c_void,
    _dep_num: i32,
    _dep_list: *mut c_void,
    _no_alias_dep_num: i32,
    _no_alias_dep_list: *mut c_void,
) {
    data_op(
        DataOp::Begin,
        loc,
        device_id,
        arg_num,
        args_base,
        args,
        arg_sizes,
        arg_types,
        arg_names,
        arg_mappers,
        true,
    )
}

#[no_mangle]
pub unsafe extern "C" fn __tgt_target_data_end_nowait_mapper(
    loc: *const Ident,
    device_id: i64,
    arg_num: i32,
    args_base: *mut *mut c_void,
    args: *mut *mut c_void,
    arg_sizes: *mut i64,
    arg_types: *mut i64,
    arg_names: *mut *mut c_void,
    arg_mappers: *mut *mut c_void,
    _dep_num: i32,
    _dep_list: *mut c_void,
    _no_alias_dep_num: i32,
    _no_alias_dep_list: *mut c_void,
) {
    data_op(
        DataOp::End,
        loc,
        device_id,
        arg_num,
        args_base,
        args,
        arg_sizes,
        arg_types,
        arg_names,
        arg_mappers,
        true,
    )
}

#[no_mangle]
pub unsafe extern "C" fn __tgt_target_data_update_nowait_mapper(
    loc: *const Ident,
    device_id: i64,
    arg_num: i32,
    args_base: *mut *mut c_void,
    args: *mut *mut c_void,
    arg_sizes: *mut i64,
    arg_types: *mut i64,
    arg_names: *mut *mut c_void,
    arg_mappers: *mut *mut c_void,
    _dep_num: i32,
    _dep_list: *mut c_void,
    _no_alias_dep_num: i32,
    _no_alias_dep_list: *mut c_void,
) {
    data_op(
        DataOp::Update,
        loc,
        device_id,
        arg_num,
        args_base,
        args,
        arg_sizes,
        arg_types,
        arg_names,
        arg_mappers,
        true,
    )
}

/// `__tgt_target_kernel`: map the arguments, launch, unmap. Returns 0 when the kernel ran on a
/// device and non-zero to make clang's code run the host version (offload disabled, no device,
/// or the host chosen as device).
#[no_mangle]
pub unsafe extern "C" fn __tgt_target_kernel(
    loc: *const Ident,
    device_id: i64,
    num_teams: i32,
    thread_limit: i32,
    host_id: *mut c_void,
    kargs: *mut KernelArgs,
) -> i32 {
    target_kernel(
        loc,
        device_id,
        num_teams,
        thread_limit,
        host_id,
        kargs,
        false,
    )
}

thread_local! {
    /// The shape `__ptxrt_push_collapse_shape` gave for the next launch on this thread: the
    /// region it named and its extents.
    static PENDING_SHAPE: std::cell::Cell<Option<(usize, launch_config::Shape)>> =
        const { std::cell::Cell::new(None) };
}

/// Called by ptxcc's host code right before `__tgt_target_kernel` of `region` (the kernel's
/// host id), for a kernel whose collapsed loop reads its indices from a grid of the loop's
/// shape (passes `loop_mapping/grid_shape.rs`): the innermost loop's iterations and, for
/// `collapse(3)`, the middle loop's (0 for `collapse(2)`). The launch that follows takes it;
/// any other launch forgets it.
#[no_mangle]
pub extern "C" fn __ptxrt_push_collapse_shape(region: *const c_void, inner: i64, middle: i64) {
    let shape = (inner > 0 && middle >= 0).then_some(launch_config::Shape {
        inner: inner as u64,
        middle: (middle > 0).then_some(middle as u64),
    });
    PENDING_SHAPE.with(|p| p.set(shape.map(|s| (region as usize, s))));
}

/// The pushed shape, when it was pushed for `region`; clears it either way.
fn take_shape(region: *mut c_void) -> Option<launch_config::Shape> {
    PENDING_SHAPE
        .with(|p| p.take())
        .and_then(|(r, s)| (r == region as usize).then_some(s))
}

unsafe fn target_kernel(
    loc: *const Ident,
    device_id: i64,
    num_teams: i32,
    thread_limit: i32,
    host_id: *mut c_void,
    kargs: *mut KernelArgs,
    nowait: bool,
) -> i32 {
    let loc = SourceLoc::from_ident(loc);
    let shape = take_shape(host_id);
    let rt = runtime::get();
    let Target::Device(dev) = rt.target_unsettled(device_id, &loc) else {
        return 1;
    };
    if kargs.is_null() {
        fatal_at(
            &loc,
            "__tgt_target_kernel was called without kernel arguments (a compiler bug)",
        );
    }
    let a = &*kargs;
    if a.version < 2 {
        fatal_at(
            &loc,
            &format!(
                "kernel arguments of version {} are not supported; compile with clang 19 / ptxcc",
                a.version
            ),
        );
    }
    let Some(kernel) = registry::kernel_by_host_id(host_id as usize) else {
        fatal_at(
            &loc,
            &format!(
                "no device code is registered for this target region (region id {host_id:p}); the translation unit \
                 that contains it was not compiled by ptxcc, or its device image failed to register. Recompile it \
                 with ptxcc, or set OMP_TARGET_OFFLOAD=DISABLED to run every target region on the host"
            ),
        )
    };
    let lk = loaded(dev, &kernel, &loc);
    let mut list = items(
        a.num_args as i32,
        a.arg_base_ptrs,
        a.arg_ptrs,
        a.arg_sizes,
        a.arg_types,
        a.arg_names,
    );
    // -fopenmp-offload-parallel-for: pointers without an extent, by the loop's access ranges.
    crate::split::access_maps::widen(&loc, dev, &kernel, a, &mut list);
    let has_mappers = user_mappers::any(a.num_args as i32, a.arg_mappers);
    // What is mapped: the items, those with a user-defined mapper replaced by its components.
    // The kernel's parameters are still the items' (`list`).
    let mapped = if has_mappers {
        user_mappers::expand(list.clone(), a.arg_names, a.arg_mappers).0
    } else {
        list.clone()
    };

    // A synchronous construct's `present` data may have been entered by a queued enter data.
    if !nowait && a.flags & KERNEL_FLAG_NOWAIT == 0 {
        crate::queued_enters::wait_for_queued_enters(dev, &mapped);
    }

    // `-fptxcc-multi-device`: the loop over every device, when it can be split.
    let construct = crate::split::launch::Construct {
        loc: &loc,
        origin: dev,
        kernel: &kernel,
        device_id,
        nowait: nowait || a.flags & KERNEL_FLAG_NOWAIT != 0,
        user_mappers: has_mappers,
        num_teams,
        thread_limit,
        args: a,
        items: &list,
    };
    // A device copy in another layout (`trans`, -fptxcc-layout=auto) is one device's: while one
    // is converted, constructs run whole on their device.
    if !crate::layout::any_converted() && crate::split::launch::try_split(rt, &construct) {
        return 0;
    }
    dev.settle_spread();
    let _unsplit = crate::split::launch::unsplit_guard(&kernel);

    // `target nowait` (clang sets the flag inside the target task): the thread's queue.
    let q = task_queue(dev, nowait || a.flags & KERNEL_FLAG_NOWAIT != 0, &loc);

    // Map, then compute the parameters.
    let mut params: Vec<u64> = Vec::with_capacity(list.len());
    let mut privates: Vec<DevAddr> = Vec::new();
    // No layout begins, ends or switches from here until the kernel has run (`layout::hold`).
    let mut held = crate::layout::hold();
    let mut table = dev.lock_table();
    let mut m = Mapper::on_queue(dev.device.as_ref(), &mut table, q);
    if let Err(e) = m.begin(&mapped) {
        drop(m);
        drop(table);
        map_fatal(&loc, dev, e);
    }
    for it in list.iter().filter(|it| it.ty.target_param()) {
        if it.ty.literal() {
            params.push(it.base as u64);
        } else if it.ty.private() {
            // firstprivate of an aggregate: a copy private to this launch.
            let p = match dev.device.alloc(it.bytes.max(1)) {
                Ok(p) => p,
                Err(e) => {
                    let e = MapError::allocating(&it.name, it.bytes, e);
                    drop(m);
                    drop(table);
                    map_fatal(&loc, dev, e)
                }
            };
            privates.push(p);
            if it.ty.to() && it.bytes > 0 {
                if let Err(e) = dev
                    .device
                    .copy_to_device_on(q, p, it.begin as *const u8, it.bytes)
                {
                    drop(m);
                    drop(table);
                    map_fatal(
                        &loc,
                        dev,
                        MapError::Device {
                            var: it.name.clone(),
                            error: e,
                        },
                    );
                }
            }
            params.push(p.wrapping_add((it.base as u64).wrapping_sub(it.begin as u64)));
        } else {
            // Clang's own captures (the task reduction descriptor of `target in_reduction`)
            // are passed as they are: device code does not dereference them.
            let users_pointer = m
                .unmapped_pointer(it)
                .filter(|_| !it.name.is_compiler_generated());
            if let Some(host) = users_pointer {
                if requires::unmapped_pointers() == UnmappedPointers::Error {
                    drop(m);
                    drop(table);
                    fatal_at(&loc, &unmapped_pointer_message(dev.label(), &it.name, host));
                }
                if !dev.device.can_access_host_memory() {
                    warn(&format!(
                        "{loc}: pointer {} (host {host:#x}) is not mapped and is passed to the kernel as a host \
                         address, but device {} cannot access pageable host memory: the kernel will fault if it \
                         dereferences it",
                        it.name,
                        dev.label()
                    ));
                }
            }
            params.push(m.param_of(it));
        }
    }
    // The copies have landed before other threads see the entries; the entries count this kernel
    // as a user until its map end, so that a data region's end waits for it.
    let ready = m.finish().and_then(|()| dev.device.queue_synchronize(q));
    let users = std::mem::take(&mut m.touched);
    let mut transfers = m.transfers;
    drop(m);
    if let Err(e) = ready {
        drop(table);
        fatal_at(
            &loc,
            &format!("device {} failed while mapping: {e}", dev.label()),
        );
    }
    DeviceState::add_users(&mut table, &users);
    // Pointers into a device copy kept in another layout (`#pragma ptxcc trans`) must reach
    // kernels compiled for it.
    let pointer: Vec<bool> = list
        .iter()
        .filter(|it| it.ty.target_param())
        .map(|it| !it.ty.literal())
        .collect();
    // A layout version compiled for the converted copies this launch passes runs in the
    // kernel's place (passes/src/layout/versions.rs).
    // A layout conversion may move a device copy (`layout::convert_by_moving`): the parameters
    // follow once the launch holds its layouts.
    let moves = crate::layout::moves_mark();
    let offers = crate::layout::take_offers();
    let (kernel, lk, layout_choice, _layouts) = loop {
        let layout_choice = crate::layout::choose_version(
            &table,
            &params,
            &pointer,
            host_id as usize,
            dev.device.memory_bandwidth(),
            &offers,
        );
        let (kernel, lk) = match layout_choice.version.and_then(registry::kernel_by_host_id) {
            Some(version) => {
                let vl = loaded(dev, &version, &loc);
                (version, vl)
            }
            None => (kernel.clone(), lk.clone()),
        };
        let checked =
            crate::layout::check_launch(&table, &params, &pointer, &kernel.name, &kernel.source);
        drop(table);
        // Held until the kernel has run: no other launch switches a layout it reads.
        match checked {
            Ok(needs) => match crate::layout::settle(&needs, held, &kernel.name, &kernel.source) {
                Ok(h) => break (kernel, lk, layout_choice, h),
                // A layout it chose for ended on another thread meanwhile: choose again.
                Err(crate::layout::Rechoose) => {
                    held = crate::layout::hold();
                    table = dev.lock_table();
                }
            },
            Err(message) => fatal_at(&loc, &message),
        }
    };
    crate::layout::follow_moves(&moves, &mut params, &pointer);
    drop(moves);

    if params.len() != kernel.num_params as usize {
        fatal_at(
            &loc,
            &format!(
                "kernel '{}' ({}) takes {} parameters but the target construct passes {} (the device image does not \
                 match this host code: rebuild everything with the same ptxcc)",
                kernel.name,
                kernel.source,
                kernel.num_params,
                params.len()
            ),
        );
    }

    let mut req = Request::new(
        num_teams,
        thread_limit,
        a.num_teams[0],
        a.thread_limit[0],
        a.tripcount,
        a.dyn_cgroup_mem,
    );
    req.shape = shape;
    req.resident_threads = lk
        .suggested_block
        .zip(lk.resident_blocks)
        .map(|(b, n)| b as u64 * n as u64);
    let limits = dev.device.limits();
    let choice = launch_config::choose_explained(
        kernel.exec_mode,
        &req,
        lk.suggested_block,
        &limits,
        &rt.overrides,
    );
    let dims: LaunchDims = choice.dims;
    if runtime::debug_enabled() {
        use std::io::Write;
        let line = format!(
            "ptxrt: launch {loc}: kernel '{}'{}, {} on device {}{}: {}\n",
            kernel.name,
            if kernel.source == loc.to_string() {
                String::new()
            } else {
                format!(" ({})", kernel.source)
            },
            launch_config::mode_name(kernel.exec_mode),
            dev.label(),
            if q == SYNC_QUEUE {
                ""
            } else {
                ", async on the task's stream"
            },
            choice.explain(&limits)
        );
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }
    let t = Instant::now();
    let (ran, elapsed) = crate::layout::tune::timed(dev.device.as_ref(), || {
        if q == SYNC_QUEUE {
            dev.device.launch(&lk, &params, &dims)
        } else {
            dev.device
                .launch_on(q, &lk, &params, &dims)
                .and_then(|()| dev.device.queue_synchronize(q))
        }
    });
    if let Err(e) = ran {
        fatal(&format!(
            "{}: kernel '{}' (launched at {loc}) failed on device {}: {e}",
            kernel.source,
            kernel.name,
            dev.label()
        ));
    }
    profile::kernel(&kernel, dev.number, t.elapsed().as_nanos() as u64);
    if let Some(trial) = layout_choice.trial {
        crate::layout::tune::launched(trial, elapsed.seconds);
        if let Some(original) = registry::kernel_by_host_id(trial.kernel) {
            profile::layout_launch(&original, trial.ran_version, elapsed);
        }
    }

    let mut table = dev.lock_table();
    dev.remove_users(&mut table, &users);
    for p in privates {
        if let Err(e) = dev.device.free(p) {
            warn(&format!("{loc}: could not free a firstprivate copy: {e}"));
        }
    }
    let mut m = Mapper::on_queue(dev.device.as_ref(), &mut table, q);
    let r = m.end(&mapped).and_then(|()| {
        m.finish().map_err(|error| MapError::Device {
            var: VarName::default(),
            error,
        })
    });
    let t2 = m.transfers;
    drop(m);
    drop(table);
    if let Err(e) = r {
        map_fatal(&loc, dev, e);
    }
    transfers.from_device_bytes += t2.from_device_bytes;
    transfers.from_device_ns += t2.from_device_ns;
    transfers.from_device_count += t2.from_device_count;
    transfers.to_device_bytes += t2.to_device_bytes;
    transfers.to_device_ns += t2.to_device_ns;
    transfers.to_device_count += t2.to_device_count;
    profile::data(&loc, dev.number, &transfers);
    0
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __tgt_target_kernel_nowait(
    loc: *const Ident,
    device_id: i64,
    num_teams: i32,
    thread_limit: i32,
    host_id: *mut c_void,
    kargs: *mut KernelArgs,
    _dep_num: i32,
    _dep_list: *mut c_void,
    _no_alias_dep_num: i32,
    _no_alias_dep_list: *mut c_void,
) -> i32 {
    target_kernel(
        loc,
        device_id,
        num_teams,
        thread_limit,
        host_id,
        kargs,
        true,
    )
}

/// `#pragma omp requires` from compilers that still register it by a call (clang 19 puts the
/// flags in an offload entry instead; `requires.rs` reads both). Under unified_shared_memory,
/// pointers used in a target region without a map are passed as host addresses; mapped data
/// is still copied to separate device memory.
#[no_mangle]
pub extern "C" fn __tgt_register_requires(flags: i64) {
    requires::register(flags);
}

/// Registration of libomptarget-style images (clang-linker-wrapper); ptxcc registers its images
/// with `__ptxrt_register_image` instead, so these have nothing to do.
#[no_mangle]
pub extern "C" fn __tgt_register_lib(_desc: *mut c_void) {}
#[no_mangle]
pub extern "C" fn __tgt_unregister_lib(_desc: *mut c_void) {}
#[no_mangle]
pub extern "C" fn __tgt_init_all_rtls() {}
