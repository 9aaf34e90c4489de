//! Images registered by `__ptxrt_register_image` (one per translation unit with offload regions),
//! validated once and turned into safe descriptions the rest of the runtime uses.

use crate::abi::{
    c_str, EmuEntry, ExecMode, ImageDesc, EMU_NEEDS_SYNC, KERNEL_ACCESS_MAPS, KERNEL_OPENACC,
    KERNEL_SPLITTABLE, KERNEL_STORES_POINTERS, PTXRT_ABI_VERSION, SPLIT_GLOBAL_PREFIX,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A registered kernel may keep a pointer it gets in device memory (`KERNEL_STORES_POINTERS`).
static KERNELS_KEEP_POINTERS: AtomicBool = AtomicBool::new(false);

/// Whether device memory may hold addresses of device copies that no mapping records: some
/// kernel registered so far may store a pointer it gets. A device copy must then stay where it
/// is (`layout::convert_by_moving` declines). Kernels of an image registered later have not
/// run yet, so copies moved before are not at risk.
pub fn kernels_keep_pointers() -> bool {
    KERNELS_KEEP_POINTERS.load(Ordering::Relaxed)
}

/// A kernel of a registered image.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub host_id: usize,
    pub name: String,
    pub source: String,
    pub emu_entry: Option<EmuEntry>,
    pub num_params: u32,
    pub exec_mode: ExecMode,
    pub needs_sync: bool,
    /// A kernel made splittable by `-fptxcc-multi-device`: the index, in its image's globals,
    /// of the global that holds the part `[lo, hi)` of its loop's iterations it runs.
    pub split_global: Option<usize>,
    /// Its arguments whose parts a split combines (reductions, atomic updates).
    pub combines: Vec<crate::split::combine::Combine>,
    /// What each part of a split reads and writes (`-fptxcc-multi-device`'s access ranges);
    /// None: whole sections.
    pub accesses: Option<crate::split::ranges::AccessTable>,
    /// A loop `-fopenmp-offload-parallel-for` offloaded: pointer arguments without an extent
    /// that are not present are mapped by `accesses` over the whole loop (`split/access_maps.rs`).
    pub access_maps: bool,
    /// The kernel of an OpenACC compute construct (its errors ask for a data clause).
    pub openacc: bool,
    /// `-fptxcc-hybrid`: the host runs a part of the split loop too.
    pub host_part: Option<HostPart>,
    /// Bit i: parameter i is a pointer (known for splittable kernels; 0 otherwise).
    pub ptr_params: u64,
    pub shared_bytes: u32,
    /// Index of the image it belongs to.
    pub image: usize,
    /// Index within the image.
    pub index: usize,
}

/// A kernel's host part (`-fptxcc-hybrid`): the region's host version for a sub-range of its
/// split loop.
#[derive(Clone, Copy, Debug)]
pub struct HostPart {
    pub entry: crate::abi::HostPartEntry,
}

/// A `declare target` global of a registered image.
#[derive(Clone, Debug)]
pub struct Global {
    pub host_addr: usize,
    pub name: String,
    pub size: u64,
    pub emu_addr: usize,
}

#[derive(Debug)]
pub struct Image {
    pub id: usize,
    pub source_file: String,
    pub arch: String,
    /// The PTX text (NUL-terminated in the image; kept as a pointer to avoid a copy).
    pub ptx: *const std::ffi::c_char,
    pub kernels: Vec<Arc<Kernel>>,
    pub globals: Vec<Global>,
}

// The image descriptor is static, read-only data emitted by the compiler.
unsafe impl Send for Image {}
unsafe impl Sync for Image {}

#[derive(Default)]
pub struct Registry {
    pub images: Vec<Arc<Image>>,
    by_host_id: HashMap<usize, Arc<Kernel>>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

pub fn lock() -> MutexGuard<'static, Option<Registry>> {
    match REGISTRY.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// Number of images registered so far.
pub fn image_count() -> usize {
    lock().as_ref().map_or(0, |r| r.images.len())
}

/// Images `from..` (for lazily loading images registered after a device was initialised).
pub fn images_from(from: usize) -> Vec<Arc<Image>> {
    lock()
        .as_ref()
        .map_or(Vec::new(), |r| r.images.get(from..).unwrap_or(&[]).to_vec())
}

/// The name of a `declare target` global of some registered image whose host bytes overlap
/// `[begin, begin + bytes)`: a kernel may reach those bytes without an argument.
pub fn global_overlapping(begin: usize, bytes: u64) -> Option<String> {
    let end = begin.saturating_add(bytes.max(1) as usize);
    let r = lock();
    r.as_ref()?
        .images
        .iter()
        .flat_map(|i| i.globals.iter())
        .find(|g| g.host_addr < end && begin < g.host_addr.saturating_add(g.size.max(1) as usize))
        .map(|g| g.name.clone())
}

pub fn kernel_by_host_id(host_id: usize) -> Option<Arc<Kernel>> {
    lock()
        .as_ref()
        .and_then(|r| r.by_host_id.get(&host_id).cloned())
}

/// Validates and records an image.
///
/// # Safety
/// `desc` must point at a valid `ptxrt_image_desc` whose arrays and strings live for the rest of
/// the program (the compiler emits them as constant globals).
pub unsafe fn register(desc: *const ImageDesc) -> Result<(), String> {
    if desc.is_null() {
        return Err("__ptxrt_register_image was called with a NULL image".into());
    }
    let d = &*desc;
    let source_file = c_str(d.source_file)
        .map(|s| s.into_owned())
        .unwrap_or_else(|| "<unknown file>".into());
    if d.abi_version != PTXRT_ABI_VERSION {
        return Err(format!(
            "the device code of {source_file} was built for ptxcc runtime ABI version {}, but this libptxrt implements \
             version {PTXRT_ABI_VERSION}; rebuild it with the ptxcc that matches this runtime",
            d.abi_version
        ));
    }
    if (d.num_kernels > 0 && d.kernels.is_null()) || (d.num_globals > 0 && d.globals.is_null()) {
        return Err(format!(
            "the device image of {source_file} is malformed (NULL kernel or global table)"
        ));
    }
    let mut guard = lock();
    let reg = guard.get_or_insert_with(Registry::default);
    let id = reg.images.len();
    let mut globals = Vec::with_capacity(d.num_globals as usize);
    for i in 0..d.num_globals as usize {
        let g = &*d.globals.add(i);
        globals.push(Global {
            host_addr: g.host_addr as usize,
            name: c_str(g.name).map(|s| s.into_owned()).unwrap_or_default(),
            size: g.size,
            emu_addr: g.emu_addr as usize,
        });
    }
    let mut kernels = Vec::with_capacity(d.num_kernels as usize);
    for i in 0..d.num_kernels as usize {
        let k = &*d.kernels.add(i);
        let name = c_str(k.name)
            .map(|s| s.into_owned())
            .unwrap_or_else(|| format!("kernel#{i}"));
        let source = c_str(k.source)
            .map(|s| s.into_owned())
            .unwrap_or_else(|| source_file.clone());
        let exec_mode = ExecMode::from_raw(k.exec_mode).ok_or_else(|| {
            format!(
                "{source}: kernel '{name}' has an unknown execution mode {} in the device image",
                k.exec_mode
            )
        })?;
        let split_global = if k.emu_flags & KERNEL_SPLITTABLE != 0 {
            let want = format!("{SPLIT_GLOBAL_PREFIX}{name}");
            Some(globals.iter().position(|g| g.name == want).ok_or_else(|| {
                format!(
                    "{source}: kernel '{name}' is marked splittable but its image has no global '{want}' (the image is \
                     malformed: rebuild with the same ptxcc)"
                )
            })?)
        } else {
            None
        };
        let mut combines = Vec::new();
        if k.num_combines > 0 && !k.combines.is_null() {
            for j in 0..k.num_combines as usize {
                let c = &*k.combines.add(j);
                combines.push(
                    crate::split::combine::Combine::from_abi(c.param, c.op).ok_or_else(|| {
                        format!(
                            "{source}: kernel '{name}' combines argument {} with an operation this runtime does not \
                             know ({:#x}); rebuild with the same ptxcc",
                            c.param + 1,
                            c.op
                        )
                    })?,
                );
            }
        }
        let access_maps = k.emu_flags & KERNEL_ACCESS_MAPS != 0;
        let accesses = if (split_global.is_some() || access_maps)
            && k.num_access_words > 0
            && !k.accesses.is_null()
        {
            let words = std::slice::from_raw_parts(k.accesses, k.num_access_words as usize);
            Some(crate::split::ranges::AccessTable::decode(words).map_err(|e| {
                format!(
                    "{source}: kernel '{name}' has a malformed access table ({e}); rebuild with the same ptxcc"
                )
            })?)
        } else {
            None
        };
        if k.emu_flags & KERNEL_STORES_POINTERS != 0 {
            KERNELS_KEEP_POINTERS.store(true, Ordering::Relaxed);
        }
        kernels.push(Arc::new(Kernel {
            host_id: k.host_id as usize,
            name,
            source,
            emu_entry: k.emu_entry,
            num_params: k.num_params,
            exec_mode,
            needs_sync: k.emu_flags & EMU_NEEDS_SYNC != 0,
            split_global,
            combines,
            accesses,
            access_maps,
            openacc: k.emu_flags & KERNEL_OPENACC != 0,
            host_part: k
                .host_part
                .filter(|_| split_global.is_some())
                .map(|entry| HostPart { entry }),
            ptr_params: k.ptr_params,
            shared_bytes: k.emu_shared_bytes,
            image: id,
            index: i,
        }));
    }
    for k in &kernels {
        reg.by_host_id.insert(k.host_id, k.clone());
    }
    reg.images.push(Arc::new(Image {
        id,
        source_file,
        arch: c_str(d.arch).map(|s| s.into_owned()).unwrap_or_default(),
        ptx: d.ptx,
        kernels,
        globals,
    }));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An image built before access ranges (ABI version 2: no `accesses` field) is refused
    /// with what to do, before any of its kernels is read.
    #[test]
    fn images_of_an_older_abi_are_refused() {
        let d = ImageDesc {
            abi_version: 2,
            num_kernels: 0,
            num_globals: 0,
            reserved: 0,
            ptx: std::ptr::null(),
            arch: std::ptr::null(),
            source_file: c"old.c".as_ptr(),
            kernels: std::ptr::null(),
            globals: std::ptr::null(),
        };
        // SAFETY: a valid descriptor with no kernels or globals.
        let e = unsafe { register(&d) }.unwrap_err();
        assert!(
            e.contains("old.c was built for ptxcc runtime ABI version 2")
                && e.contains(&format!("implements version {PTXRT_ABI_VERSION}"))
                && e.contains("rebuild"),
            "{e}"
        );
    }
}
