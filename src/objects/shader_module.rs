//! `WGPUShaderModule`: creation from WGSL, SPIR-V or GLSL, and the compilation
//! info kept from creation.

use std::borrow::Cow;
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::ShaderModuleId;
use wgpu_core::naga;
use wgpu_core::pipeline::{ShaderModuleDescriptor, ShaderModuleSource};
use wgpu_types as wgt;

use crate::abi::*;
use crate::conv::shader::Message;
use crate::ffi::boundary::{self, call, refcounted, set_label, ApiResult};
use crate::ffi::callback::{call_async, SendFn, UserData};
use crate::ffi::chain_walk::Chain;
use crate::ffi::handle::{Handle, Object};
use crate::futures::{Outcome, Source};
use crate::objects::device::Device;

/// A `WGPUShaderModule`.
#[repr(C)]
pub(crate) struct ShaderModule {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: ShaderModuleId,
    pub(crate) label: Mutex<String>,
    /// The compilation messages, from creation (empty on success).
    messages: Arc<[Message]>,
    /// The WGSL it was made of, for the checks pipelines make of their
    /// stages (`conv::stage_io`); none for other sources.
    pub(crate) wgsl: Option<crate::conv::stage_io::Source>,
}

impl Object for ShaderModule {
    type Raw = WGPUShaderModuleImpl;
    const NAME: &'static str = "WGPUShaderModule";
    const HEADER_OFFSET: usize = std::mem::offset_of!(ShaderModule, header);
}

impl Drop for ShaderModule {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a shader module", || self.device.global().shader_module_drop(self.id));
    }
}

refcounted!(ShaderModule, WGPUShaderModule, wgpuShaderModuleAddRef, wgpuShaderModuleRelease);
set_label!(ShaderModule, WGPUShaderModule, wgpuShaderModuleSetLabel);

/// SPIR-V options as wgpu uses them: SPIR-V coordinates are kept as they
/// are, and only known capabilities are accepted.
pub(crate) fn spirv_options() -> naga::front::spv::Options {
    naga::front::spv::Options { adjust_coordinate_space: false, strict_capabilities: true, block_ctx_dump_prefix: None }
}

/// Reads the source chained to a shader module descriptor: one of
/// `WGPUShaderSourceWGSL`, `WGPUShaderSourceSPIRV` and wgpu.h's
/// `WGPUShaderSourceGLSL`. The outer error is a synchronous rejection
/// (malformed memory); the inner one the message of a validation error (no
/// source, two sources, an unknown sType, or SPIR-V without the instance
/// feature).
///
/// # Safety
/// The descriptor's chain and the source it holds are valid.
unsafe fn read_source<'a>(
    desc: &WGPUShaderModuleDescriptor,
    spirv_enabled: bool,
) -> ApiResult<Result<ShaderModuleSource<'a>, String>> {
    use crate::abi::native::WGPUShaderSourceGLSL;
    use crate::conv::native_extras::SHADER_SOURCE_GLSL;
    // SAFETY: the chain is valid (caller).
    let chain = match unsafe { Chain::walk(desc.nextInChain, "WGPUShaderModuleDescriptor") } {
        Ok(chain) => chain,
        Err(why) => return Ok(Err(crate::conv::chain_error(why))),
    };
    // SAFETY: each sType names the struct it is read as.
    let (wgsl, spirv, glsl) = unsafe {
        (
            chain.get::<WGPUShaderSourceWGSL>(WGPUSType::ShaderSourceWGSL),
            chain.get::<WGPUShaderSourceSPIRV>(WGPUSType::ShaderSourceSPIRV),
            chain.get::<WGPUShaderSourceGLSL>(SHADER_SOURCE_GLSL),
        )
    };
    match (wgsl, spirv, glsl) {
        (None, None, None) => Ok(Err(
            "the descriptor chains no source (WGPUShaderSourceWGSL, WGPUShaderSourceSPIRV or WGPUShaderSourceGLSL)"
                .into(),
        )),
        (Some(wgsl), None, None) => {
            // SAFETY: the code view is valid (caller).
            let code = unsafe { boundary::str_arg(wgsl.code, "code") }?.or_empty();
            Ok(Ok(ShaderModuleSource::Wgsl(code)))
        }
        (None, Some(_), None)
            if !spirv_enabled && !crate::compat::allows(crate::compat::Rule::SpirvWithoutInstanceFeature) =>
        {
            Ok(Err("WGPUShaderSourceSPIRV needs the instance feature ShaderSourceSPIRV, which was not enabled".into()))
        }
        (None, Some(spirv), None) => {
            // SAFETY: `code` holds `codeSize` words (caller).
            let words = unsafe { boundary::slice_arg(spirv.code, spirv.codeSize as usize, "code") }?;
            Ok(Ok(ShaderModuleSource::SpirV(Cow::Borrowed(words), spirv_options())))
        }
        // SAFETY: the code, defines and their views are valid (caller).
        (None, None, Some(glsl)) => unsafe { crate::conv::native_extras::glsl_source(glsl) },
        _ => Ok(Err("the descriptor chains more than one source (WGSL, SPIR-V, GLSL); exactly one is allowed".into())),
    }
}

impl ShaderModule {
    /// Creates a module; a compilation error is reported on the device and
    /// kept for `GetCompilationInfo`.
    pub(crate) fn create(
        device: &Arc<Device>,
        label: String,
        source: ShaderModuleSource<'_>,
        runtime_checks: wgt::ShaderRuntimeChecks,
    ) -> ShaderModule {
        let desc = ShaderModuleDescriptor { label: crate::conv::label(&label), runtime_checks };
        let wgsl = match &source {
            ShaderModuleSource::Wgsl(code) => Some(crate::conv::stage_io::Source::new(code)),
            _ => None,
        };
        let source = match source {
            ShaderModuleSource::Wgsl(code) => {
                let (code, patched) = match crate::compat::active() {
                    true => crate::compat::naga29_wgsl(code),
                    false => (code, None),
                };
                match crate::conv::stage_io::sampling_made_explicit(&code, patched) {
                    Some(module) => ShaderModuleSource::Naga(std::borrow::Cow::Owned(module)),
                    None => ShaderModuleSource::Wgsl(code),
                }
            }
            other => other,
        };
        let (id, error) = device.global().device_create_shader_module(device.id, &desc, source, None);
        let messages: Arc<[Message]> = match error {
            None => Arc::new([]),
            Some(e) => {
                let message = crate::conv::shader::error_message(&e);
                device.report(e);
                Arc::new([message])
            }
        };
        ShaderModule {
            header: Default::default(),
            device: device.clone(),
            id,
            label: Mutex::new(label),
            messages,
            wgsl,
        }
    }

    /// An invalid module, for a descriptor this library rejected; the
    /// validation error is reported on the device.
    fn invalid(device: &Arc<Device>, label: String, why: String) -> ShaderModule {
        let id = crate::objects::invalid::shader_module(device.global(), device.id, &label);
        device.report_validation(format!("wgpuDeviceCreateShaderModule: {why}"));
        ShaderModule {
            header: Default::default(),
            device: device.clone(),
            id,
            label: Mutex::new(label),
            messages: Arc::new([Message::error(why)]),
            wgsl: None,
        }
    }
}

/// Creates a shader module from the `WGPUShaderSourceWGSL` or
/// `WGPUShaderSourceSPIRV` chained to `descriptor` (SPIR-V only when the
/// instance enabled `ShaderSourceSPIRV`), or from wgpu.h's
/// `WGPUShaderSourceGLSL` (one stage, with preprocessor defines). Compilation errors are reported
/// on the device and the module returned is invalid; its compilation info
/// holds the error.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or points at a valid
/// descriptor whose chain and strings are valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateShaderModule(
    device: WGPUDevice,
    descriptor: *const WGPUShaderModuleDescriptor,
) -> WGPUShaderModule {
    call("wgpuDeviceCreateShaderModule", std::ptr::null_mut(), || {
        // SAFETY: forwarded from the C caller.
        unsafe { create_module(device, descriptor, wgt::ShaderRuntimeChecks::checked()) }
    })
}

/// The body of `wgpuDeviceCreateShaderModule`, with the run-time checks the
/// module keeps (wgpu.h's `wgpuDeviceCreateShaderModuleTrusted` passes
/// fewer).
///
/// # Safety
/// As `wgpuDeviceCreateShaderModule`.
pub(crate) unsafe fn create_module(
    device: WGPUDevice,
    descriptor: *const WGPUShaderModuleDescriptor,
    checks: wgt::ShaderRuntimeChecks,
) -> ApiResult<WGPUShaderModule> {
    // SAFETY: the C caller passes a live handle and NULL or a valid
    // descriptor.
    let (device, desc) =
        unsafe { (boundary::arg::<Device>(device, "device")?, boundary::ptr_arg(descriptor, "descriptor")?) };
    let device = device.arc();
    // SAFETY: the descriptor's label, chain and source are valid.
    let (label, source) =
        unsafe { (boundary::label_arg(desc.label, "label")?, read_source(desc, device.instance.spirv)?) };
    let module = match source {
        Ok(source) => ShaderModule::create(&device, label, source, checks),
        Err(why) => ShaderModule::invalid(&device, label, why),
    };
    Ok(Handle::into_raw(Arc::new(module)))
}

/// Calls a compilation-info callback with `messages`, borrowed for the call.
///
/// # Safety
/// `f` is the application's callback.
unsafe fn deliver(
    f: unsafe extern "C" fn(
        WGPUCompilationInfoRequestStatus,
        *const WGPUCompilationInfo,
        *mut std::ffi::c_void,
        *mut std::ffi::c_void,
    ),
    messages: &[Message],
    ud: UserData,
) {
    let c: Vec<WGPUCompilationMessage> = messages
        .iter()
        .map(|m| WGPUCompilationMessage {
            nextInChain: std::ptr::null_mut(),
            message: boundary::out_str(&m.text),
            r#type: m.kind,
            lineNum: m.line_num,
            linePos: m.line_pos,
            offset: m.offset,
            length: m.length,
        })
        .collect();
    let info = WGPUCompilationInfo {
        nextInChain: std::ptr::null_mut(),
        messageCount: c.len(),
        messages: if c.is_empty() { std::ptr::null() } else { c.as_ptr() },
    };
    // SAFETY: the application's callback; `info` and the messages it points
    // at live until it returns.
    unsafe { f(WGPUCompilationInfoRequestStatus::Success, &info, ud.u1(), ud.u2()) };
}

/// Gets the compilation messages of a module: none for a module that
/// compiled, one error (with its place in the source when known) for one
/// that did not. The status is `Success` in both cases; the info is
/// borrowed for the duration of the callback. A CPU-timeline future.
///
/// # Safety
/// `shader_module` is a live shader module; the callback info's chain is
/// valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuShaderModuleGetCompilationInfo(
    shader_module: WGPUShaderModule,
    callback_info: WGPUCompilationInfoCallbackInfo,
) -> WGPUFuture {
    call_async(
        "wgpuShaderModuleGetCompilationInfo",
        || {
            let (cb, ud) = (SendFn(callback_info.callback), UserData(callback_info.userdata1, callback_info.userdata2));
            // The status has no error value: a rejected request gets
            // CallbackCancelled and no info.
            move |_why: Option<String>| {
                let Some(f) = cb.get() else { return };
                // SAFETY: the application's callback; no info.
                unsafe { f(WGPUCompilationInfoRequestStatus::CallbackCancelled, std::ptr::null(), ud.u1(), ud.u2()) };
            }
        },
        |on_reject| {
            let cb = SendFn(callback_info.callback);
            let ud = UserData(callback_info.userdata1, callback_info.userdata2);
            // SAFETY: the C caller passes a live handle.
            let module = unsafe { boundary::arg::<ShaderModule>(shader_module, "shaderModule") }?;
            let registry = &module.device.instance.registry;
            on_reject.registry(registry, Source::Cpu);
            // SAFETY: the callback info's chain is valid (caller).
            let mode = unsafe {
                on_reject.mode(
                    callback_info.mode,
                    callback_info.nextInChain,
                    "WGPUCompilationInfoCallbackInfo",
                    Some(crate::futures::Mode::AllowSpontaneous),
                )
            }?;
            let (future, completer) = registry.register::<Arc<[Message]>>(mode, Source::Cpu, move |out| {
                // Whole-value uses: the closure owns `cb` and `ud` (Send), not
                // their fields.
                let (cb, ud) = (cb, ud);
                let Some(f) = cb.get() else { return };
                match out {
                    // SAFETY: the application's callback.
                    Outcome::Done(messages) => unsafe { deliver(f, &messages, ud) },
                    // SAFETY: the application's callback; no info when cancelled.
                    Outcome::Cancelled => unsafe {
                        f(WGPUCompilationInfoRequestStatus::CallbackCancelled, std::ptr::null(), ud.u1(), ud.u2())
                    },
                }
            });
            on_reject.disarm();
            completer.complete(module.messages.clone());
            Ok(future)
        },
    )
}
