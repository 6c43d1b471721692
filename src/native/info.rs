//! Instance-level extensions: `wgpuGenerateReport`,
//! `wgpuInstanceEnumerateAdapters` and `wgpuGetVersion`.

use std::sync::Arc;

use wgpu_core::id::AdapterId;

use super::call;
use crate::abi::native::*;
use crate::abi::{WGPUAdapter, WGPUInstance};
use crate::ffi::boundary;
use crate::ffi::handle::Handle;
use crate::objects::adapter::Adapter;
use crate::objects::instance::Instance;

fn registry(r: &wgpu_core::registry::RegistryReport) -> WGPURegistryReport {
    WGPURegistryReport {
        numAllocated: r.num_allocated,
        numKeptFromUser: r.num_kept_from_user,
        numReleasedFromUser: r.num_released_from_user,
        elementSize: r.element_size,
    }
}

/// Writes the object counts of the instance's wgpu-core hub: per kind, the
/// ids allocated, the objects alive and the slots freed.
///
/// # Safety
/// `instance` is a live instance; `report` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn wgpuGenerateReport(instance: WGPUInstance, report: *mut WGPUGlobalReport) {
    call("wgpuGenerateReport", (), || {
        // SAFETY: the C caller passes a live handle and NULL or a writable
        // struct.
        let (instance, out) =
            unsafe { (boundary::arg::<Instance>(instance, "instance")?, boundary::out_arg(report, "report")?) };
        let r = instance.global.generate_report();
        let h = &r.hub;
        // The shared GL adapter (`objects/gl_adapter.rs`) counts once per
        // WGPUAdapter alive, as the ids wgpu-native makes per request would.
        let mut adapters = registry(&h.adapters);
        if matches!(*instance.gl_adapter.lock(), Some(Some(_))) {
            let alive = instance.gl_adapters_alive.load(std::sync::atomic::Ordering::Acquire);
            adapters.numAllocated = adapters.numAllocated.saturating_sub(1) + alive;
            adapters.numKeptFromUser = adapters.numKeptFromUser.saturating_sub(1) + alive;
        }
        *out = WGPUGlobalReport {
            surfaces: registry(&r.surfaces),
            hub: WGPUHubReport {
                adapters,
                devices: registry(&h.devices),
                queues: registry(&h.queues),
                pipelineLayouts: registry(&h.pipeline_layouts),
                shaderModules: registry(&h.shader_modules),
                bindGroupLayouts: registry(&h.bind_group_layouts),
                bindGroups: registry(&h.bind_groups),
                commandBuffers: registry(&h.command_buffers),
                renderBundles: registry(&h.render_bundles),
                renderPipelines: registry(&h.render_pipelines),
                computePipelines: registry(&h.compute_pipelines),
                pipelineCaches: registry(&h.pipeline_caches),
                querySets: registry(&h.query_sets),
                buffers: registry(&h.buffers),
                textures: registry(&h.textures),
                textureViews: registry(&h.texture_views),
                samplers: registry(&h.samplers),
            },
        };
        Ok(())
    })
}

/// The wgpu backends an enumeration may use: the requested ones (0: all)
/// that this build has (`conv::device::BUILT_BACKENDS`).
fn backends(requested: WGPUInstanceBackend) -> wgpu_types::Backends {
    let requested = crate::conv::native_chain::backends(requested);
    requested & crate::conv::device::BUILT_BACKENDS
}

/// Lists the adapters of the allowed backends. With `adapters` NULL, only
/// returns how many there are; otherwise writes that many new adapter
/// handles (each one the caller's reference) and returns the count. The
/// array must have room for the count a first call returned.
///
/// # Safety
/// `instance` is a live instance; `options` is NULL or valid; `adapters` is
/// NULL or has room for every adapter.
#[no_mangle]
pub unsafe extern "C" fn wgpuInstanceEnumerateAdapters(
    instance: WGPUInstance,
    options: *const WGPUInstanceEnumerateAdapterOptions,
    adapters: *mut WGPUAdapter,
) -> usize {
    call("wgpuInstanceEnumerateAdapters", 0, || {
        // SAFETY: the C caller passes a live handle and NULL or valid options.
        let (instance, options) = unsafe { (boundary::arg::<Instance>(instance, "instance")?.arc(), options.as_ref()) };
        let mut allowed = crate::conv::device::BUILT_BACKENDS;
        if let Some(o) = options {
            // SAFETY: the options' chain is valid (caller).
            unsafe { crate::ffi::chain_walk::expect_none(o.nextInChain, "WGPUInstanceEnumerateAdapterOptions") }?;
            allowed = backends(o.backends);
        }
        // GL's adapter is the instance's shared one (`objects/gl_adapter.rs`).
        let gl = wgpu_types::Backends::GL;
        let mut ids: Vec<(AdapterId, bool)> =
            instance.global.enumerate_adapters(allowed - gl, false).into_iter().map(|id| (id, false)).collect();
        if allowed.contains(gl) && crate::conv::device::BUILT_BACKENDS.contains(gl) {
            let any = crate::objects::gl_adapter::Wanted {
                power: wgpu_types::PowerPreference::None,
                fallback: false,
                surface: None,
            };
            if let Ok(id) = crate::objects::gl_adapter::gl_adapter(&instance, &any) {
                ids.push((id, true));
            }
        }
        if adapters.is_null() {
            for (id, shared) in &ids {
                if !shared {
                    instance.global.adapter_drop(*id);
                }
            }
            return Ok(ids.len());
        }
        for (i, (id, shared)) in ids.iter().enumerate() {
            let raw = Handle::into_raw(Arc::new(Adapter::with_owner(instance.clone(), *id, *shared)));
            // SAFETY: the caller made room for every adapter.
            unsafe { adapters.add(i).write(raw) };
        }
        Ok(ids.len())
    })
}

/// The version of the wgpu-native API this library provides (v29.0.1.1:
/// `0x1D000101`, one byte per component), which bindings check.
#[no_mangle]
pub extern "C" fn wgpuGetVersion() -> u32 {
    call("wgpuGetVersion", super::NATIVE_VERSION, || Ok(super::NATIVE_VERSION))
}
