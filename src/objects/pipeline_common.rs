//! What compute and render pipeline creation share: the failure type, its
//! reporting, and the asynchronous form's future.

use std::ffi::c_void;
use std::sync::Arc;

use wgpu_types::error::{ErrorType, WebGpuError};

use crate::abi::*;
use crate::ffi::boundary;
use crate::ffi::callback::{SendFn, UserData};
use crate::ffi::handle::{Handle, Object};
use crate::futures::Mode;
use crate::futures::{Outcome, Source};
use crate::objects::device::Device;

/// Why a creation failed.
pub(crate) enum Failure<E> {
    /// wgpu-core's error.
    Core(E),
    /// A validation error this library found in the descriptor.
    Ours(String),
}

impl<E: WebGpuError> Failure<E> {
    /// Reports the failure on the device (the synchronous form).
    pub(crate) fn report(self, device: &Device, func: &str) {
        match self {
            Failure::Core(e) => device.report(e),
            Failure::Ours(why) => device.report_validation(format!("{func}: {why}")),
        }
    }
}

/// The callback status and message for a creation. A lost device resolves
/// with the (invalid) pipeline, as in JavaScript.
fn async_status<E: WebGpuError>(
    device: &Device,
    failure: &Option<Failure<E>>,
) -> (WGPUCreatePipelineAsyncStatus, String) {
    let status = match failure {
        None => return (WGPUCreatePipelineAsyncStatus::Success, String::new()),
        _ if device.is_lost() => return (WGPUCreatePipelineAsyncStatus::Success, String::new()),
        Some(Failure::Ours(why)) => return (WGPUCreatePipelineAsyncStatus::ValidationError, why.clone()),
        Some(Failure::Core(e)) => match e.webgpu_error_type() {
            ErrorType::Validation => WGPUCreatePipelineAsyncStatus::ValidationError,
            ErrorType::Internal | ErrorType::OutOfMemory => WGPUCreatePipelineAsyncStatus::InternalError,
            ErrorType::DeviceLost => return (WGPUCreatePipelineAsyncStatus::Success, String::new()),
        },
    };
    let message = match failure {
        Some(Failure::Core(e)) => crate::conv::describe(e),
        _ => String::new(),
    };
    (status, message)
}

/// The C callback of an asynchronous pipeline creation.
pub(crate) type AsyncCallback<P> = Option<
    unsafe extern "C" fn(
        status: WGPUCreatePipelineAsyncStatus,
        pipeline: *mut <P as Object>::Raw,
        message: WGPUStringView,
        userdata1: *mut c_void,
        userdata2: *mut c_void,
    ),
>;

/// The callback of a rejected asynchronous creation
/// (`ffi::callback::call_async`): `ValidationError` with NULL and the
/// reason, or `CallbackCancelled`.
pub(crate) fn async_fail<P: Object>(callback: AsyncCallback<P>, userdata: UserData) -> impl crate::ffi::callback::Fail {
    let cb = SendFn(callback);
    move |why: Option<String>| {
        let Some(f) = cb.get() else { return };
        let status = if why.is_some() {
            WGPUCreatePipelineAsyncStatus::ValidationError
        } else {
            WGPUCreatePipelineAsyncStatus::CallbackCancelled
        };
        let message = why.unwrap_or_else(|| "the instance was released before the pipeline was delivered".into());
        // SAFETY: the application's callback with its userdata.
        unsafe { f(status, std::ptr::null_mut(), boundary::out_str(&message), userdata.u1(), userdata.u2()) };
    }
}

/// Registers the future of an asynchronous creation and completes it at
/// once (a CPU-timeline future): `Success` with a pipeline the application
/// owns, or `ValidationError` / `InternalError` with NULL and a message.
/// Errors go only to the callback, not to the device.
pub(crate) fn complete_async<P: Object, E: WebGpuError>(
    device: &Arc<Device>,
    mode: Mode,
    callback: AsyncCallback<P>,
    userdata: UserData,
    pipeline: Arc<P>,
    failure: Option<Failure<E>>,
) -> WGPUFuture {
    type Result<P> = (WGPUCreatePipelineAsyncStatus, Arc<P>, String);
    let cb = SendFn(callback);
    let (future, completer) = device.instance.registry.register::<Result<P>>(mode, Source::Cpu, move |out| {
        let Some(f) = cb.get() else { return };
        let (status, handle, message) = match out {
            Outcome::Done((status, pipeline, message)) => {
                let handle = if status == WGPUCreatePipelineAsyncStatus::Success {
                    Handle::into_raw(pipeline)
                } else {
                    std::ptr::null_mut()
                };
                (status, handle, message)
            }
            Outcome::Cancelled => (
                WGPUCreatePipelineAsyncStatus::CallbackCancelled,
                std::ptr::null_mut(),
                "the instance was released before the pipeline was delivered".to_string(),
            ),
        };
        // SAFETY: the application's callback; it owns the pipeline.
        unsafe { f(status, handle, boundary::out_str(&message), userdata.u1(), userdata.u2()) };
    });
    let (status, message) = async_status(device, &failure);
    completer.complete((status, pipeline, message));
    future
}

/// Pipeline descriptors, for [`creation_args`].
pub(crate) trait Labelled {
    fn label(&self) -> WGPUStringView;
}

impl Labelled for WGPUComputePipelineDescriptor {
    fn label(&self) -> WGPUStringView {
        self.label
    }
}

impl Labelled for WGPURenderPipelineDescriptor {
    fn label(&self) -> WGPUStringView {
        self.label
    }
}

/// The device, descriptor and label of a pipeline creation call.
///
/// # Safety
/// `device` is NULL or a live device; `descriptor` is NULL or valid.
pub(crate) unsafe fn creation_args<'a, D: Labelled>(
    device: WGPUDevice,
    descriptor: *const D,
) -> boundary::ApiResult<(Arc<Device>, &'a D, String)> {
    // SAFETY: forwarded from the caller.
    unsafe {
        let device = boundary::arg::<Device>(device, "device")?.arc();
        let desc = boundary::ptr_arg(descriptor, "descriptor")?;
        Ok((device, desc, boundary::label_arg(desc.label(), "label")?))
    }
}

/// The handle of a bind group layout a pipeline's `GetBindGroupLayout`
/// produced; its error (an index without a layout) is reported and the
/// layout is invalid.
pub(crate) fn bind_group_layout<E: WebGpuError>(
    device: &Arc<Device>,
    (id, error): (wgpu_core::id::BindGroupLayoutId, Option<E>),
) -> WGPUBindGroupLayout {
    if let Some(e) = error {
        device.report(e);
    }
    Handle::into_raw(Arc::new(crate::objects::bind_group_layout::BindGroupLayout::from_id(device, id, String::new())))
}

/// A `*CallbackInfo` of an asynchronous pipeline creation, taken apart.
pub(crate) struct AsyncInfo<P: Object> {
    pub(crate) next: *mut WGPUChainedStruct,
    pub(crate) mode: WGPUCallbackMode,
    pub(crate) callback: AsyncCallback<P>,
    pub(crate) userdata: UserData,
}

/// The body of `wgpuDeviceCreate{Compute,Render}PipelineAsync` inside its
/// `call_async`: checks the device and the callback info, builds the
/// pipeline with `build` (the synchronous form's steps: read the descriptor,
/// create) and completes the future with it, in the callback's mode. A
/// rejection before that delivers the callback once with `ValidationError`
/// (`ffi::callback::call_async`, with [`async_fail`]).
///
/// # Safety
/// `device` is NULL or a live device; `descriptor` is NULL or valid;
/// `info.next` is a valid chain.
pub(crate) unsafe fn create_async<'r, P: Object, D: Labelled, E: WebGpuError, F: crate::ffi::callback::MakeFail>(
    on_reject: &mut crate::ffi::callback::OnReject<'r, F>,
    info_name: &'static str,
    device: &'r Handle<Device>,
    descriptor: *const D,
    info: AsyncInfo<P>,
    build: impl FnOnce(&Arc<Device>, &D, &str) -> boundary::ApiResult<(Arc<P>, Option<Failure<E>>)>,
) -> boundary::ApiResult<WGPUFuture> {
    on_reject.registry(&device.instance.registry, Source::Cpu);
    let device = device.arc();
    // SAFETY: the C caller passes a valid callback info chain.
    let mode = unsafe { on_reject.mode(info.mode, info.next, info_name, Some(Mode::AllowSpontaneous))? };
    // SAFETY: the C caller passes NULL or a valid descriptor.
    let desc = unsafe { boundary::ptr_arg(descriptor, "descriptor")? };
    // SAFETY: as above.
    let label = unsafe { boundary::label_arg(desc.label(), "label")? };
    let (pipeline, failure) = build(&device, desc, &label)?;
    on_reject.disarm();
    Ok(complete_async(&device, mode, info.callback, info.userdata, pipeline, failure))
}
