//! User-defined mappers (`#pragma omp declare mapper`).
//!
//! For a list item whose type has a mapper clang passes, in the construct's `mappers` array, a
//! function it generated from the mapper's map clauses:
//!
//! ```c
//! void .omp_mapper.<type>.<id>(void *handle, void *base, void *begin, int64_t size,
//!                              int64_t type, void *name);
//! ```
//!
//! It describes the item as a list of map components, one `__tgt_push_mapper_component(handle,
//! base, begin, size, type, name)` per component (the struct, its members, the arrays its
//! pointers point to, element by element for an array section of structs; a member with a
//! mapper of its own calls that mapper's function with the same handle), reading
//! `__tgt_mapper_num_components(handle)` to number its `MEMBER_OF` fields. As libomptarget does,
//! the construct then maps the components in place of the item; its kernel parameter is still
//! the item's base, found on the device where the components put it.
use crate::map_type::MapType;
use crate::mapping::MapItem;
use crate::source_info::VarName;
use std::ffi::c_void;

/// The function clang generates for a `declare mapper`.
type MapperFn = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_void, i64, i64, *mut c_void);

/// What a mapper function's `handle` points to.
struct Components {
    items: Vec<MapItem>,
}

/// The construct's list (`plain`, from clang's arrays by `offload_abi::items`) with every item
/// that has a mapper replaced by its components, and for each original item the index of its
/// first entry in that list.
///
/// # Safety
/// `names` and `mappers` are clang's arrays for `plain`, one entry per item, or NULL; every
/// non-NULL mapper is a clang mapper function.
pub(crate) unsafe fn expand(
    plain: Vec<MapItem>,
    names: *const *mut c_void,
    mappers: *const *mut c_void,
) -> (Vec<MapItem>, Vec<usize>) {
    let mut out = Vec::with_capacity(plain.len());
    let mut first = Vec::with_capacity(plain.len());
    for (i, it) in plain.into_iter().enumerate() {
        first.push(out.len());
        let mapper = if mappers.is_null() {
            std::ptr::null_mut()
        } else {
            *mappers.add(i)
        };
        if mapper.is_null() {
            out.push(it);
            continue;
        }
        let f: MapperFn = std::mem::transmute::<*mut c_void, MapperFn>(mapper);
        let mut handle = Components { items: Vec::new() };
        let name = if names.is_null() {
            std::ptr::null_mut()
        } else {
            *names.add(i)
        };
        f(
            &mut handle as *mut Components as *mut c_void,
            it.base as *mut c_void,
            it.begin as *mut c_void,
            it.bytes as i64,
            it.ty.0 as i64,
            name,
        );
        for mut c in handle.items {
            // The item's own role (kernel parameter, use_device_ptr result) stays with the item.
            c.ty = MapType(c.ty.0 & !(MapType::TARGET_PARAM | MapType::RETURN_PARAM));
            if !c.name.is_known() {
                c.name = it.name.clone();
            }
            out.push(c);
        }
    }
    (out, first)
}

/// Whether any item of the construct has a mapper.
///
/// # Safety
/// `mappers` must be NULL or have `n` entries.
pub(crate) unsafe fn any(n: i32, mappers: *const *mut c_void) -> bool {
    !mappers.is_null() && (0..n.max(0) as usize).any(|i| !(*mappers.add(i)).is_null())
}

/// # Safety
/// `handle` is the one `expand` passed to the mapper function.
#[no_mangle]
pub unsafe extern "C" fn __tgt_mapper_num_components(handle: *mut c_void) -> i64 {
    match (handle as *mut Components).as_ref() {
        Some(c) => c.items.len() as i64,
        None => 0,
    }
}

/// # Safety
/// `handle` is the one `expand` passed to the mapper function; `name` is NULL or clang's
/// `";expr;file;line;col;;"` string.
#[no_mangle]
pub unsafe extern "C" fn __tgt_push_mapper_component(
    handle: *mut c_void,
    base: *mut c_void,
    begin: *mut c_void,
    size: i64,
    ty: i64,
    name: *mut c_void,
) {
    let Some(c) = (handle as *mut Components).as_mut() else {
        return;
    };
    let names = [name];
    c.items.push(MapItem {
        base: base as usize,
        begin: begin as usize,
        bytes: size.max(0) as u64,
        ty: MapType::from_raw(ty),
        name: VarName::from_names(names.as_ptr(), 0),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mapper like clang's for `struct { int n; double *v; }` with `map(s, s.v[0:s.n])`: the
    /// struct, then the array as a member of it (MEMBER_OF numbered from the handle's count).
    unsafe extern "C" fn vec_mapper(
        handle: *mut c_void,
        base: *mut c_void,
        begin: *mut c_void,
        size: i64,
        ty: i64,
        _name: *mut c_void,
    ) {
        let first = __tgt_mapper_num_components(handle);
        __tgt_push_mapper_component(handle, base, begin, size, ty & 3, std::ptr::null_mut());
        let member_of = (first + 1) << 48;
        let data = *(begin as *const *mut c_void).add(1);
        __tgt_push_mapper_component(
            handle,
            (begin as *mut *mut c_void).add(1) as *mut c_void,
            data,
            32,
            member_of | 0x10 | (ty & 3),
            std::ptr::null_mut(),
        );
    }

    #[test]
    fn components_replace_the_item_and_indices_follow() {
        let mut data = [0f64; 4];
        let mut s: [*mut c_void; 2] = [std::ptr::null_mut(), data.as_mut_ptr() as *mut c_void];
        let mut x = 0u64;
        let sp = s.as_mut_ptr() as *mut c_void;
        let xp = &mut x as *mut u64 as *mut c_void;
        let mut bases = [xp, sp, xp];
        let mut begins = [xp, sp, xp];
        let sizes = [8i64, 16, 8];
        let types = [0x23i64, 0x23, 0x63];
        let mappers: [*mut c_void; 3] = [
            std::ptr::null_mut(),
            vec_mapper as *mut c_void,
            std::ptr::null_mut(),
        ];
        let (list, first) = unsafe {
            let plain = crate::offload_abi::items(
                3,
                bases.as_mut_ptr(),
                begins.as_mut_ptr(),
                sizes.as_ptr(),
                types.as_ptr(),
                std::ptr::null(),
            );
            expand(plain, std::ptr::null(), mappers.as_ptr())
        };
        assert_eq!(first, vec![0, 1, 3]);
        assert_eq!(list.len(), 4);
        assert_eq!(list[1].begin, sp as usize);
        assert_eq!(list[1].bytes, 16);
        // The item's own role stays with the item: no TARGET_PARAM on its components.
        assert!(!list[1].ty.target_param() && list[1].ty.to() && list[1].ty.from());
        assert_eq!(list[2].begin, data.as_ptr() as usize);
        assert_eq!(list[2].ty.member_of(), Some(0));
        assert!(list[2].ty.ptr_and_obj());
        assert!(list[3].ty.return_param() && list[0].ty.target_param());
    }
}
