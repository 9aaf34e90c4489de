//! Loading and launching the conversion kernels of `transpose_ptx.rs` through the CUDA driver
//! API, one module per CUDA context (loaded the first time a conversion runs there).
use super::plan::{PermutePlan, ShortWalk, Walk, MAX_BATCH};
use super::transpose_ptx::{self, Kernel};
use crate::errors::DeviceError;
use crate::present_table::DevAddr;
use cudarc::driver::sys::{self, CUfunction, CUmodule, CUresult, CUstream};
use std::ffi::{c_void, CString};
use std::sync::Mutex;

struct Loaded {
    context: usize,
    _module: usize,
    /// (kernel, unit) → function.
    functions: Vec<(Kernel, u64, usize)>,
}

static LOADED: Mutex<Vec<Loaded>> = Mutex::new(Vec::new());

fn check(call: &'static str, r: CUresult) -> Result<(), DeviceError> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(DeviceError::Driver {
            call,
            message: crate::device::cuda::error_text(r),
        })
    }
}

/// The function for (kernel, unit) in `context` (current on this thread).
fn function(context: usize, kernel: Kernel, unit: u64) -> Result<CUfunction, DeviceError> {
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if !loaded.iter().any(|l| l.context == context) {
        let text = CString::new(transpose_ptx::module()).map_err(|_| {
            DeviceError::Unsupported("the layout conversion PTX contains a NUL byte".into())
        })?;
        let mut module: CUmodule = std::ptr::null_mut();
        check("cuModuleLoadData (layout conversion kernels)", unsafe {
            sys::cuModuleLoadData(&mut module, text.as_ptr() as *const c_void)
        })?;
        let mut functions = Vec::new();
        for u in transpose_ptx::UNITS {
            for t in Kernel::ALL {
                let name = CString::new(transpose_ptx::kernel_name(t, u)).unwrap_or_default();
                let mut f: CUfunction = std::ptr::null_mut();
                check("cuModuleGetFunction", unsafe {
                    sys::cuModuleGetFunction(&mut f, module, name.as_ptr())
                })?;
                functions.push((t, u, f as usize));
            }
        }
        loaded.push(Loaded {
            context,
            _module: module as usize,
            functions,
        });
    }
    loaded
        .iter()
        .find(|l| l.context == context)
        .and_then(|l| l.functions.iter().find(|f| f.0 == kernel && f.1 == unit))
        .map(|f| f.2 as CUfunction)
        .ok_or_else(|| DeviceError::Unsupported(format!("no layout kernel for {unit}-byte units")))
}

/// Enqueues the conversion of `plan` from `src` to `dst` on `stream` (its context current).
///
/// # Safety
/// `stream` must be NULL (the legacy default stream) or a live stream of `context`, and
/// `dst`/`src` device memory of the plan's size there.
pub unsafe fn enqueue(
    context: usize,
    stream: CUstream,
    dst: DevAddr,
    src: DevAddr,
    plan: &PermutePlan,
) -> Result<(), DeviceError> {
    // The short-dimension kernel's walk, its long side running on across the batch where it
    // can (grid y holds 65535 tiles of b; x, 2^31 - 1 of a).
    let short = match plan.walk {
        Walk::Tiled { a, b } => transpose_ptx::short_tile(a.extent, b.extent).map(|(lta, ltb)| {
            let max_long = if a.extent <= b.extent {
                65535 << ltb
            } else {
                (i32::MAX as u64) << lta
            };
            ((lta, ltb), ShortWalk::of(plan, a, b, max_long))
        }),
        Walk::Rows { .. } => None,
    };
    let kernel = match (&short, plan.walk) {
        (Some((_, w)), _) if w.merged_a.is_some() || w.merged_b.is_some() => Kernel::ShortMerged,
        (Some(_), _) => Kernel::Short,
        (None, Walk::Tiled { .. }) => Kernel::Tiled,
        (None, Walk::Rows { .. }) => Kernel::Rows,
    };
    let f = function(context, kernel, plan.unit)?;
    let nbatch = match &short {
        Some((_, w)) => w.batch_count(),
        None => plan.batch_count(),
    };
    let batch = short
        .as_ref()
        .map_or(plan.batch.as_slice(), |(_, w)| &w.batch);
    let mut values: Vec<u64> = vec![src, dst];
    let (grid, block) = match (plan.walk, &short) {
        (Walk::Tiled { a, b }, Some(((lta, ltb), w))) => {
            values.extend([
                w.na,
                a.dst_stride,
                w.nb,
                b.src_stride,
                nbatch,
                *lta as u64,
                *ltb as u64,
            ]);
            if kernel == Kernel::ShortMerged {
                let (arow, anext) = w.merged_a.unwrap_or((0, 0));
                let (brow, bnext) = w.merged_b.unwrap_or((0, 0));
                values.extend([arow, anext, brow, bnext]);
            }
            let gx = w.na.div_ceil(1 << lta);
            let gy = w.nb.div_ceil(1 << ltb);
            if gx > i32::MAX as u64 || gy > 65535 {
                return Err(DeviceError::Unsupported(format!(
                    "a layout conversion with {} x {} elements along its two moving dimensions",
                    a.extent, b.extent
                )));
            }
            (
                [gx as u32, gy as u32, nbatch.clamp(1, 65535) as u32],
                [256, 1, 1],
            )
        }
        (Walk::Tiled { a, b }, None) => {
            values.extend([a.extent, a.dst_stride, b.extent, b.src_stride, nbatch]);
            let gy = b.extent.div_ceil(32);
            if gy > 65535 {
                return Err(DeviceError::Unsupported(format!(
                    "a layout conversion with {} elements along one dimension (at most {})",
                    b.extent,
                    65535 * 32
                )));
            }
            (
                [
                    a.extent.div_ceil(32).min(i32::MAX as u64) as u32,
                    gy as u32,
                    nbatch.clamp(1, 65535) as u32,
                ],
                [32, 8, 1],
            )
        }
        (Walk::Rows { row }, _) => {
            values.extend([row.extent, nbatch]);
            let blocks = (row.extent * nbatch).div_ceil(256).clamp(1, 65535);
            ([blocks as u32, 1, 1], [256, 1, 1])
        }
    };
    for i in 0..MAX_BATCH {
        match batch.get(i) {
            Some(d) => values.extend([d.extent, d.src_stride, d.dst_stride]),
            None => values.extend([1, 0, 0]),
        }
    }
    let mut ptrs: Vec<*mut c_void> = values
        .iter_mut()
        .map(|v| v as *mut u64 as *mut c_void)
        .collect();
    check("cuLaunchKernel (layout conversion)", unsafe {
        sys::cuLaunchKernel(
            f,
            grid[0],
            grid[1],
            grid[2],
            block[0],
            block[1],
            block[2],
            0,
            stream,
            ptrs.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    })
}
