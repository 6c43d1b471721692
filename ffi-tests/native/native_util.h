/* What the wgpu.h (wgpu-native compatibility) tests include: wgpu.h and the
 * harness (request_adapter / request_device give them adapters and
 * devices of their own). */
#ifndef WGPU_SHIM_NATIVE_UTIL_H
#define WGPU_SHIM_NATIVE_UTIL_H

#include <webgpu/wgpu.h>

#include "harness.h"

#endif
