/*
 * wgpu_shim.h: wgpu-shim's own extensions to webgpu.h.
 *
 * Every function here is also reachable through wgpuGetProcAddress, so a
 * program can test for it at run time when it may be linked against another
 * webgpu.h implementation.
 */
#ifndef WGPU_SHIM_H_
#define WGPU_SHIM_H_

#include "webgpu.h"

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(WGPU_SKIP_PROCS)
typedef WGPUFuture (*WGPUProcBufferMapAsync2)(WGPUBuffer buffer, WGPUMapMode mode, size_t offset, size_t size,
                                              WGPUBufferMapCallbackInfo callbackInfo) WGPU_FUNCTION_ATTRIBUTE;
#endif

#if !defined(WGPU_SKIP_DECLARATIONS)
/* The same as wgpuBufferMapAsync, under the transitional name some callers
 * still use: same arguments, same validation, same callback rules. */
WGPU_EXPORT WGPUFuture wgpuBufferMapAsync2(WGPUBuffer buffer, WGPUMapMode mode, size_t offset, size_t size,
                                           WGPUBufferMapCallbackInfo callbackInfo) WGPU_FUNCTION_ATTRIBUTE;
#endif

#ifdef __cplusplus
}
#endif

#endif /* WGPU_SHIM_H_ */
