//! What compute and render pipeline creation share: the failure type, its
//! reporting, the asynchronous form's future, and the three exports of each
//! kind ([`pipeline_exports`], over the per-kind facts of [`Kind`]).

use std::ffi::c_void;
use std::sync::Arc;

use wgpu_core::binding_model::GetBindGroupLayoutError;
use wgpu_core::global::Global;
use wgpu_core::id::{BindGroupLayoutId, DeviceId};
use wgpu_types::error::{ErrorType, WebGpuError};

use crate::abi::*;
use crate::ffi::boundary::{self, ApiResult};
use crate::ffi::callback::{SendFn, UserData};
use crate::ffi::handle::{Handle, Object};
use crate::futures::Mode;
use crate::futures::{Outcome, Source};
use crate::objects::device::Device;

/// Why a creation failed.
enum Failure<E> {
    /// wgpu-core's error.
    Core(E),
    /// A validation error this library found in the descriptor.
    Ours(String),
}

impl<E: WebGpuError> Failure<E> {
    /// Reports the failure on the device (the synchronous form).
    fn report(self, device: &Device, func: &str) {
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
fn complete_async<P: Object, E: WebGpuError>(
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
unsafe fn creation_args<'a, D: Labelled>(
    device: WGPUDevice,
    descriptor: *const D,
) -> ApiResult<(Arc<Device>, &'a D, String)> {
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
fn bind_group_layout<E: WebGpuError>(
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
/// pipeline (the synchronous form's steps: read the descriptor, create) and
/// completes the future with it, in the callback's mode. A rejection before
/// that delivers the callback once with `ValidationError`
/// (`ffi::callback::call_async`, with [`async_fail`]).
///
/// # Safety
/// `device` is NULL or a live device; `descriptor` is NULL or valid, with
/// valid contents; `info.next` is a valid chain.
pub(crate) unsafe fn create_async<'r, K: Kind, F: crate::ffi::callback::MakeFail>(
    on_reject: &mut crate::ffi::callback::OnReject<'r, F>,
    info_name: &'static str,
    device: WGPUDevice,
    descriptor: *const K::Desc,
    info: AsyncInfo<K>,
) -> ApiResult<WGPUFuture> {
    // SAFETY: the C caller passes a live device.
    let device: &'r Handle<Device> = unsafe { boundary::arg::<Device>(device, "device")? };
    on_reject.registry(&device.instance.registry, Source::Cpu);
    let device = device.arc();
    // SAFETY: the C caller passes a valid callback info chain.
    let mode = unsafe { on_reject.mode(info.mode, info.next, info_name, Some(Mode::AllowSpontaneous))? };
    // SAFETY: the C caller passes NULL or a valid descriptor.
    let desc = unsafe { boundary::ptr_arg(descriptor, "descriptor")? };
    // SAFETY: as above.
    let label = unsafe { boundary::label_arg(desc.label(), "label")? };
    // SAFETY: the descriptor's contents are valid (caller).
    let read = unsafe { (K::READ)(&device, desc, &label) }?;
    let (pipeline, failure) = create::<K>(&device, label.clone(), read);
    on_reject.disarm();
    Ok(complete_async(&device, mode, info.callback, info.userdata, pipeline, failure))
}

/// Reads a descriptor of kind `K`. The outer error is a synchronous
/// rejection (NULL module, wrong handle types, malformed arrays or
/// strings); the inner one a validation error (chains, unknown enum values,
/// non-finite or repeated constants, objects of another instance than the
/// device's).
pub(crate) type ReadFn<K> =
    for<'a, 'd> unsafe fn(&Device, &'d <K as Kind>::Desc, &'a str) -> ApiResult<Result<<K as Kind>::Core<'a>, String>>;

/// wgpu-core's creation of a pipeline of kind `K`.
pub(crate) type CreateFn<K> = for<'g, 'd, 'a> fn(
    &'g Global,
    DeviceId,
    &'d <K as Kind>::Core<'a>,
    Option<<K as Kind>::Id>,
) -> (<K as Kind>::Id, Option<<K as Kind>::Error>);

/// wgpu-core's bind group layout of a pipeline of kind `K`.
pub(crate) type LayoutFn<K> = fn(
    &Global,
    <K as Kind>::Id,
    u32,
    Option<BindGroupLayoutId>,
) -> (BindGroupLayoutId, Option<GetBindGroupLayoutError>);

/// What differs between compute and render pipelines, for the creation and
/// layout steps they share.
pub(crate) trait Kind: Object {
    /// The webgpu.h descriptor.
    type Desc: Labelled;
    /// wgpu-core's descriptor, borrowing the label.
    type Core<'a>;
    /// wgpu-core's id.
    type Id: Copy;
    /// wgpu-core's creation error.
    type Error: WebGpuError;
    /// Reads a descriptor.
    ///
    /// # Safety
    /// The descriptor's chains, strings, arrays and handles are valid.
    const READ: ReadFn<Self>;
    /// Creates the wgpu-core pipeline.
    const CREATE: CreateFn<Self>;
    /// Creates an invalid wgpu-core pipeline (`objects::invalid`).
    const INVALID: fn(&Global, DeviceId, &str) -> Self::Id;
    /// Makes the bind group layout of a group of the pipeline.
    const LAYOUT: LayoutFn<Self>;
    /// The object for a wgpu-core pipeline.
    fn new(device: Arc<Device>, id: Self::Id, label: String) -> Self;
    /// The device and the wgpu-core id of the object.
    fn parts(&self) -> (&Arc<Device>, Self::Id);
}

/// Creates the pipeline (an invalid one when `desc` is a validation error).
fn create<K: Kind>(
    device: &Arc<Device>,
    label: String,
    desc: Result<K::Core<'_>, String>,
) -> (Arc<K>, Option<Failure<K::Error>>) {
    let global = device.global();
    let (id, failure) = match desc {
        Ok(desc) => {
            let (id, error) = (K::CREATE)(global, device.id, &desc, None);
            (id, error.map(Failure::Core))
        }
        Err(why) => ((K::INVALID)(global, device.id, &label), Some(Failure::Ours(why))),
    };
    (Arc::new(K::new(device.clone(), id, label)), failure)
}

/// The body of `wgpuDeviceCreate{Compute,Render}Pipeline` (`func`) inside
/// its `call`: reads the descriptor and creates the pipeline; errors are
/// reported on the device and give an invalid pipeline.
///
/// # Safety
/// `device` is NULL or a live device; `descriptor` is NULL or valid, with
/// valid contents.
pub(crate) unsafe fn create_sync<K: Kind>(
    func: &str,
    device: WGPUDevice,
    descriptor: *const K::Desc,
) -> ApiResult<*mut K::Raw> {
    // SAFETY: the C caller passes a live device and NULL or a valid
    // descriptor.
    let (device, desc, label) = unsafe { creation_args(device, descriptor) }?;
    // SAFETY: the descriptor's contents are valid (caller).
    let read = unsafe { (K::READ)(&device, desc, &label) }?;
    let (pipeline, failure) = create::<K>(&device, label.clone(), read);
    if let Some(failure) = failure {
        failure.report(&device, func);
    }
    Ok(Handle::into_raw(pipeline))
}

/// The body of `wgpu{Compute,Render}PipelineGetBindGroupLayout` inside its
/// `call`: the bind group layout of group `group_index` of the pipeline
/// (`param` names the pipeline in a rejection).
///
/// # Safety
/// `pipeline` is NULL or a live pipeline of kind `K`.
pub(crate) unsafe fn get_bind_group_layout<K: Kind>(
    pipeline: *mut K::Raw,
    param: &str,
    group_index: u32,
) -> ApiResult<WGPUBindGroupLayout> {
    // SAFETY: forwarded from the caller.
    let pipeline = unsafe { boundary::arg::<K>(pipeline, param) }?;
    let (device, id) = pipeline.parts();
    let made = (K::LAYOUT)(device.global(), id, group_index, None);
    Ok(bind_group_layout(device, made))
}

/// Defines a pipeline kind's exports from their doc comments and
/// signatures, in this order: `wgpuDeviceCreate*Pipeline`, its `Async`
/// form and `wgpu*PipelineGetBindGroupLayout` (after the kind and the
/// name of its handle parameter). Their bodies are [`create_sync`],
/// [`create_async`] and [`get_bind_group_layout`]; each kind's module lists
/// its own signatures and its [`Kind`] facts, which look alike line for line.
macro_rules! pipeline_exports {
    (
        $kind:ty, $param:literal;
        $(#[$create_doc:meta])*
        pub unsafe extern "C" fn $create:ident(device: WGPUDevice, descriptor: *const $desc:ty) -> $ret:ty;
        $(#[$async_doc:meta])*
        pub unsafe extern "C" fn $create_async:ident(device: WGPUDevice, descriptor: *const $async_desc:ty, callback_info: $info:ident) -> WGPUFuture;
        $(#[$layout_doc:meta])*
        pub unsafe extern "C" fn $layout:ident($pipeline:ident: $pipeline_ty:ty, group_index: u32) -> WGPUBindGroupLayout;
    ) => {
        $(#[$create_doc])*
        #[no_mangle]
        pub unsafe extern "C" fn $create(device: WGPUDevice, descriptor: *const $desc) -> $ret {
            $crate::ffi::boundary::call(stringify!($create), std::ptr::null_mut(), || {
                // SAFETY: the C caller passes a live device and NULL or a
                // valid descriptor whose contents are valid.
                unsafe { $crate::objects::pipeline_common::create_sync::<$kind>(stringify!($create), device, descriptor) }
            })
        }

        $(#[$async_doc])*
        #[no_mangle]
        pub unsafe extern "C" fn $create_async(device: WGPUDevice, descriptor: *const $async_desc, callback_info: $info) -> WGPUFuture {
            crate::ffi::callback::call_async(
                stringify!($create_async),
                || {
                    $crate::objects::pipeline_common::async_fail::<$kind>(
                        callback_info.callback,
                        $crate::ffi::callback::UserData(callback_info.userdata1, callback_info.userdata2),
                    )
                },
                |on_reject| {
                    let info = $crate::objects::pipeline_common::AsyncInfo {
                        next: callback_info.nextInChain,
                        mode: callback_info.mode,
                        callback: callback_info.callback,
                        userdata: $crate::ffi::callback::UserData(callback_info.userdata1, callback_info.userdata2),
                    };
                    // SAFETY: the C caller passes a live device, NULL or a
                    // valid descriptor whose contents are valid, and a valid
                    // callback info chain.
                    unsafe {
                        $crate::objects::pipeline_common::create_async::<$kind, _>(
                            on_reject,
                            stringify!($info),
                            device,
                            descriptor,
                            info,
                        )
                    }
                },
            )
        }

        $(#[$layout_doc])*
        #[no_mangle]
        pub unsafe extern "C" fn $layout($pipeline: $pipeline_ty, group_index: u32) -> WGPUBindGroupLayout {
            $crate::ffi::boundary::call(stringify!($layout), std::ptr::null_mut(), || {
                // SAFETY: the C caller passes a live handle.
                unsafe { $crate::objects::pipeline_common::get_bind_group_layout::<$kind>($pipeline, $param, group_index) }
            })
        }
    };
}
pub(crate) use pipeline_exports;
