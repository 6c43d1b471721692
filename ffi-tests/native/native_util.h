/* Helpers for the wgpu.h (wgpu-native compatibility) tests. */
#ifndef WGPU_SHIM_NATIVE_UTIL_H
#define WGPU_SHIM_NATIVE_UTIL_H

#include <webgpu/wgpu.h>

#include "harness.h"

static void native_on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                              void *userdata1, void *userdata2) {
  (void)message, (void)userdata2;
  if (status == WGPURequestAdapterStatus_Success) *(WGPUAdapter *)userdata1 = adapter;
}

static void native_on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message,
                             void *userdata1, void *userdata2) {
  (void)message, (void)userdata2;
  if (status == WGPURequestDeviceStatus_Success) *(WGPUDevice *)userdata1 = device;
}

/* An adapter of `instance`, waited for. */
static inline WGPUAdapter native_adapter(WGPUInstance instance) {
  WGPUAdapter adapter = NULL;
  WGPURequestAdapterCallbackInfo cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.callback = native_on_adapter;
  cb.userdata1 = &adapter;
  wait_one(instance, wgpuInstanceRequestAdapter(instance, NULL, cb));
  return adapter;
}

/* A device of `adapter` for `desc` (NULL: defaults), waited for. */
static inline WGPUDevice native_device(WGPUInstance instance, WGPUAdapter adapter, const WGPUDeviceDescriptor *desc) {
  WGPUDevice device = NULL;
  WGPURequestDeviceCallbackInfo cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.callback = native_on_device;
  cb.userdata1 = &device;
  wait_one(instance, wgpuAdapterRequestDevice(adapter, desc, cb));
  return device;
}

#endif
