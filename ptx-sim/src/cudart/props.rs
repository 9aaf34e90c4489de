//! `struct cudaDeviceProp` as CUDA 13's driver_types.h lays it out (1008 bytes), filled from the
//! driver's device attributes.

use std::ffi::{c_char, c_int, c_uint};

#[repr(C)]
pub struct CudaDeviceProp {
    pub name: [c_char; 256],
    pub uuid: [u8; 16],
    pub luid: [c_char; 8],
    pub luid_device_node_mask: c_uint,
    pub total_global_mem: usize,
    pub shared_mem_per_block: usize,
    pub regs_per_block: c_int,
    pub warp_size: c_int,
    pub mem_pitch: usize,
    pub max_threads_per_block: c_int,
    pub max_threads_dim: [c_int; 3],
    pub max_grid_size: [c_int; 3],
    pub total_const_mem: usize,
    pub major: c_int,
    pub minor: c_int,
    pub texture_alignment: usize,
    pub texture_pitch_alignment: usize,
    pub multi_processor_count: c_int,
    pub integrated: c_int,
    pub can_map_host_memory: c_int,
    pub max_texture_1d: c_int,
    pub max_texture_1d_mipmap: c_int,
    pub max_texture_2d: [c_int; 2],
    pub max_texture_2d_mipmap: [c_int; 2],
    pub max_texture_2d_linear: [c_int; 3],
    pub max_texture_2d_gather: [c_int; 2],
    pub max_texture_3d: [c_int; 3],
    pub max_texture_3d_alt: [c_int; 3],
    pub max_texture_cubemap: c_int,
    pub max_texture_1d_layered: [c_int; 2],
    pub max_texture_2d_layered: [c_int; 3],
    pub max_texture_cubemap_layered: [c_int; 2],
    pub max_surface_1d: c_int,
    pub max_surface_2d: [c_int; 2],
    pub max_surface_3d: [c_int; 3],
    pub max_surface_1d_layered: [c_int; 2],
    pub max_surface_2d_layered: [c_int; 3],
    pub max_surface_cubemap: c_int,
    pub max_surface_cubemap_layered: [c_int; 2],
    pub surface_alignment: usize,
    pub concurrent_kernels: c_int,
    pub ecc_enabled: c_int,
    pub pci_bus_id: c_int,
    pub pci_device_id: c_int,
    pub pci_domain_id: c_int,
    pub tcc_driver: c_int,
    pub async_engine_count: c_int,
    pub unified_addressing: c_int,
    pub memory_bus_width: c_int,
    pub l2_cache_size: c_int,
    pub persisting_l2_cache_max_size: c_int,
    pub max_threads_per_multi_processor: c_int,
    pub stream_priorities_supported: c_int,
    pub global_l1_cache_supported: c_int,
    pub local_l1_cache_supported: c_int,
    pub shared_mem_per_multiprocessor: usize,
    pub regs_per_multiprocessor: c_int,
    pub managed_memory: c_int,
    pub is_multi_gpu_board: c_int,
    pub multi_gpu_board_group_id: c_int,
    pub host_native_atomic_supported: c_int,
    pub pageable_memory_access: c_int,
    pub concurrent_managed_access: c_int,
    pub compute_preemption_supported: c_int,
    pub can_use_host_pointer_for_registered_mem: c_int,
    pub cooperative_launch: c_int,
    pub shared_mem_per_block_optin: usize,
    pub pageable_memory_access_uses_host_page_tables: c_int,
    pub direct_managed_mem_access_from_host: c_int,
    pub max_blocks_per_multi_processor: c_int,
    pub access_policy_max_window_size: c_int,
    pub reserved_shared_mem_per_block: usize,
    pub host_register_supported: c_int,
    pub sparse_cuda_array_supported: c_int,
    pub host_register_read_only_supported: c_int,
    pub timeline_semaphore_interop_supported: c_int,
    pub memory_pools_supported: c_int,
    pub gpu_direct_rdma_supported: c_int,
    pub gpu_direct_rdma_flush_writes_options: c_uint,
    pub gpu_direct_rdma_writes_ordering: c_int,
    pub memory_pool_supported_handle_types: c_uint,
    pub deferred_mapping_cuda_array_supported: c_int,
    pub ipc_event_supported: c_int,
    pub cluster_launch: c_int,
    pub unified_function_pointers: c_int,
    pub device_numa_config: c_int,
    pub device_numa_id: c_int,
    pub mps_enabled: c_int,
    pub host_numa_id: c_int,
    pub gpu_pci_device_id: c_uint,
    pub gpu_pci_subsystem_id: c_uint,
    pub host_numa_multinode_ipc_supported: c_int,
    pub reserved: [c_int; 56],
}

impl CudaDeviceProp {
    /// The properties of ptxsim's device: `attr` answers CUdevice_attribute numbers (None for
    /// what the device does not report, left 0).
    pub fn new(name: &str, total_mem: usize, attr: impl Fn(i32) -> Option<i32>) -> Self {
        // SAFETY: every field is an integer or an array of them: all zeros is a valid value.
        let mut p: CudaDeviceProp = unsafe { std::mem::zeroed() };
        for (d, s) in p.name.iter_mut().zip(name.bytes().take(255)) {
            *d = s as c_char;
        }
        let a = |n| attr(n).unwrap_or(0);
        p.total_global_mem = total_mem;
        p.shared_mem_per_block = a(8) as usize;
        p.regs_per_block = a(12);
        p.warp_size = a(10);
        p.mem_pitch = i32::MAX as usize;
        p.max_threads_per_block = a(1);
        p.max_threads_dim = [a(2), a(3), a(4)];
        p.max_grid_size = [a(5), a(6), a(7)];
        p.total_const_mem = a(9) as usize;
        p.major = a(75);
        p.minor = a(76);
        p.multi_processor_count = a(16);
        p.integrated = a(18);
        p.can_map_host_memory = a(19);
        p.concurrent_kernels = a(31);
        p.async_engine_count = a(40);
        p.unified_addressing = a(41);
        p.memory_bus_width = a(37);
        p.l2_cache_size = a(38);
        p.max_threads_per_multi_processor = a(39);
        p.shared_mem_per_multiprocessor = a(81) as usize;
        p.regs_per_multiprocessor = a(82);
        p.managed_memory = a(83);
        p.pageable_memory_access = a(88);
        p.concurrent_managed_access = a(89);
        p.shared_mem_per_block_optin = a(97) as usize;
        p.max_blocks_per_multi_processor = a(106);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::CudaDeviceProp;
    use std::mem::{offset_of, size_of};

    /// The offsets gcc gives CUDA 13's struct cudaDeviceProp.
    #[test]
    fn layout_is_cuda_13s() {
        assert_eq!(size_of::<CudaDeviceProp>(), 1008);
        assert_eq!(offset_of!(CudaDeviceProp, multi_processor_count), 384);
        assert_eq!(
            offset_of!(CudaDeviceProp, max_blocks_per_multi_processor),
            688
        );
        assert_eq!(offset_of!(CudaDeviceProp, reserved), 784);
    }
}

/// `struct cudaFuncAttributes` as CUDA 13 lays it out (144 bytes).
#[repr(C)]
pub struct CudaFuncAttributes {
    pub shared_size_bytes: usize,
    pub const_size_bytes: usize,
    pub local_size_bytes: usize,
    pub max_threads_per_block: c_int,
    pub num_regs: c_int,
    pub ptx_version: c_int,
    pub binary_version: c_int,
    pub cache_mode_ca: c_int,
    pub max_dynamic_shared_size_bytes: c_int,
    pub preferred_shmem_carveout: c_int,
    pub cluster_dim_must_be_set: c_int,
    pub required_cluster_width: c_int,
    pub required_cluster_height: c_int,
    pub required_cluster_depth: c_int,
    pub cluster_scheduling_policy_preference: c_int,
    pub non_portable_cluster_size_allowed: c_int,
    pub device_node_update_status: c_int,
    pub shared_memory_mode: c_int,
    pub reserved: [c_int; 14],
}

#[cfg(test)]
mod func_tests {
    #[test]
    fn layout_is_cuda_13s() {
        assert_eq!(std::mem::size_of::<super::CudaFuncAttributes>(), 144);
    }
}
