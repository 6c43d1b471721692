/*
 * wgpu.h for wgpu-shim: the wgpu-native extension API, on top of webgpu.h.
 *
 * Programs and language bindings written against wgpu-native v29.0.1.1
 * include <webgpu/wgpu.h> and link wgpu-shim instead of wgpu-native: every
 * type, enum value, sType, struct layout and function signature below is
 * the same as wgpu-native's, so compiled code needs no change either.
 * (The declarations were written for wgpu-shim; only the ABI is shared.)
 *
 * The Rust side of this header (src/native/abi.rs) is generated from this
 * file by tools/gen_wgpu_native.py, together with compile-time checks that
 * the Rust structs have the C layout; edit this file, then run the tool.
 * What wgpu-shim does with each extension, including the few options it
 * ignores (the DirectX 12 ones, memory budgets, API tracing), is in
 * docs/WGPU_NATIVE.md; docs/DECISIONS.md lists the behaviour wgpu-native
 * leaves unspecified.
 *
 * Layout rules the generator relies on: one declaration per line, enum
 * and flag values written as literals, struct fields one per line.
 */

#ifndef WGPU_H_
#define WGPU_H_

#include "webgpu.h"

/* ---- Enumerations ---------------------------------------------------- */

/* sTypes of the structs below (block 0x0003: wgpu-native). */
typedef enum WGPUNativeSType {
    WGPUSType_DeviceExtras = 0x00030001,
    WGPUSType_NativeLimits = 0x00030002,
    WGPUSType_ShaderSourceGLSL = 0x00030003,
    WGPUSType_InstanceExtras = 0x00030004,
    WGPUSType_BindGroupEntryExtras = 0x00030005,
    WGPUSType_BindGroupLayoutEntryExtras = 0x00030006,
    WGPUSType_QuerySetDescriptorExtras = 0x00030007,
    WGPUSType_SurfaceConfigurationExtras = 0x00030008,
    WGPUSType_SurfaceSourceSwapChainPanel = 0x00030009,
    WGPUSType_PrimitiveStateExtras = 0x0003000A,
    WGPUSType_SamplerDescriptorExtras = 0x0003000B,
    WGPUNativeSType_Force32 = 0x7FFFFFFF
} WGPUNativeSType;

/* An extra WGPUSurfaceGetCurrentTextureStatus value. */
typedef enum WGPUNativeSurfaceGetCurrentTextureStatus {
    WGPUSurfaceGetCurrentTextureStatus_Occluded = 0x00030001,
    WGPUNativeSurfaceGetCurrentTextureStatus_Force32 = 0x7FFFFFFF
} WGPUNativeSurfaceGetCurrentTextureStatus;

/* Extra WGPUFeatureName values: cast to WGPUFeatureName when requesting or
 * querying them. */
typedef enum WGPUNativeFeature {
    WGPUNativeFeature_Immediates = 0x00030001,
    WGPUNativeFeature_TextureAdapterSpecificFormatFeatures = 0x00030002,
    WGPUNativeFeature_MultiDrawIndirectCount = 0x00030004,
    WGPUNativeFeature_VertexWritableStorage = 0x00030005,
    WGPUNativeFeature_TextureBindingArray = 0x00030006,
    WGPUNativeFeature_SampledTextureAndStorageBufferArrayNonUniformIndexing = 0x00030007,
    WGPUNativeFeature_PipelineStatisticsQuery = 0x00030008,
    WGPUNativeFeature_StorageResourceBindingArray = 0x00030009,
    WGPUNativeFeature_PartiallyBoundBindingArray = 0x0003000A,
    WGPUNativeFeature_TextureFormat16bitNorm = 0x0003000B,
    WGPUNativeFeature_TextureCompressionAstcHdr = 0x0003000C,
    WGPUNativeFeature_MappablePrimaryBuffers = 0x0003000E,
    WGPUNativeFeature_BufferBindingArray = 0x0003000F,
    WGPUNativeFeature_StorageTextureArrayNonUniformIndexing = 0x00030010,
    WGPUNativeFeature_AddressModeClampToZero = 0x00030011,
    WGPUNativeFeature_AddressModeClampToBorder = 0x00030012,
    WGPUNativeFeature_PolygonModeLine = 0x00030013,
    WGPUNativeFeature_PolygonModePoint = 0x00030014,
    WGPUNativeFeature_ConservativeRasterization = 0x00030015,
    WGPUNativeFeature_ClearTexture = 0x00030016,
    WGPUNativeFeature_Multiview = 0x00030018,
    WGPUNativeFeature_VertexAttribute64bit = 0x00030019,
    WGPUNativeFeature_TextureFormatNv12 = 0x0003001A,
    WGPUNativeFeature_RayQuery = 0x0003001C,
    WGPUNativeFeature_ShaderF64 = 0x0003001D,
    WGPUNativeFeature_ShaderI16 = 0x0003001E,
    WGPUNativeFeature_ShaderEarlyDepthTest = 0x00030020,
    WGPUNativeFeature_Subgroup = 0x00030021,
    WGPUNativeFeature_SubgroupVertex = 0x00030022,
    WGPUNativeFeature_SubgroupBarrier = 0x00030023,
    WGPUNativeFeature_TimestampQueryInsideEncoders = 0x00030024,
    WGPUNativeFeature_TimestampQueryInsidePasses = 0x00030025,
    WGPUNativeFeature_ShaderInt64 = 0x00030026,
    WGPUNativeFeature_ShaderFloat32Atomic = 0x00030027,
    WGPUNativeFeature_TextureAtomic = 0x00030028,
    WGPUNativeFeature_TextureFormatP010 = 0x00030029,
    WGPUNativeFeature_PipelineCache = 0x0003002B,
    WGPUNativeFeature_ShaderInt64AtomicMinMax = 0x0003002C,
    WGPUNativeFeature_ShaderInt64AtomicAllOps = 0x0003002D,
    WGPUNativeFeature_TextureInt64Atomic = 0x00030030,
    WGPUNativeFeature_ShaderBarycentrics = 0x00030037,
    WGPUNativeFeature_SelectiveMultiview = 0x00030038,
    WGPUNativeFeature_MultisampleArray = 0x0003003A,
    WGPUNativeFeature_CooperativeMatrix = 0x0003003B,
    WGPUNativeFeature_ShaderPerVertex = 0x0003003C,
    WGPUNativeFeature_ShaderDrawIndex = 0x0003003D,
    WGPUNativeFeature_AccelerationStructureBindingArray = 0x0003003E,
    WGPUNativeFeature_MemoryDecorationCoherent = 0x0003003F,
    WGPUNativeFeature_MemoryDecorationVolatile = 0x00030040,
    WGPUNativeFeature_Force32 = 0x7FFFFFFF
} WGPUNativeFeature;

/* Levels of wgpuSetLogLevel and of the log callback's messages. */
typedef enum WGPULogLevel {
    WGPULogLevel_Off = 0x00000000,
    WGPULogLevel_Error = 0x00000001,
    WGPULogLevel_Warn = 0x00000002,
    WGPULogLevel_Info = 0x00000003,
    WGPULogLevel_Debug = 0x00000004,
    WGPULogLevel_Trace = 0x00000005,
    WGPULogLevel_Force32 = 0x7FFFFFFF
} WGPULogLevel;

/* Backends an instance uses (WGPUInstanceExtras.backends) or that adapter
 * enumeration considers; 0 means all. This build has Vulkan only. */
typedef WGPUFlags WGPUInstanceBackend;
static const WGPUInstanceBackend WGPUInstanceBackend_All = 0x0000000000000000;
static const WGPUInstanceBackend WGPUInstanceBackend_Vulkan = 0x0000000000000001;
static const WGPUInstanceBackend WGPUInstanceBackend_GL = 0x0000000000000002;
static const WGPUInstanceBackend WGPUInstanceBackend_Metal = 0x0000000000000004;
static const WGPUInstanceBackend WGPUInstanceBackend_DX12 = 0x0000000000000008;
static const WGPUInstanceBackend WGPUInstanceBackend_BrowserWebGPU = 0x0000000000000020;
static const WGPUInstanceBackend WGPUInstanceBackend_Primary = 0x000000000000002D;
static const WGPUInstanceBackend WGPUInstanceBackend_Secondary = 0x0000000000000002;
static const WGPUInstanceBackend WGPUInstanceBackend_Force32 = 0x000000007FFFFFFF;

/* Instance debugging and validation switches (WGPUInstanceExtras.flags).
 * Default (alone) means the build's defaults; WithEnv also reads the
 * WGPU_* environment variables wgpu honours. */
typedef WGPUFlags WGPUInstanceFlag;
static const WGPUInstanceFlag WGPUInstanceFlag_Empty = 0x0000000000000000;
static const WGPUInstanceFlag WGPUInstanceFlag_Debug = 0x0000000000000001;
static const WGPUInstanceFlag WGPUInstanceFlag_Validation = 0x0000000000000002;
static const WGPUInstanceFlag WGPUInstanceFlag_DiscardHalLabels = 0x0000000000000004;
static const WGPUInstanceFlag WGPUInstanceFlag_AllowUnderlyingNoncompliantAdapter = 0x0000000000000008;
static const WGPUInstanceFlag WGPUInstanceFlag_GPUBasedValidation = 0x0000000000000010;
static const WGPUInstanceFlag WGPUInstanceFlag_ValidationIndirectCall = 0x0000000000000020;
static const WGPUInstanceFlag WGPUInstanceFlag_AutomaticTimestampNormalization = 0x0000000000000040;
static const WGPUInstanceFlag WGPUInstanceFlag_Default = 0x0000000001000000;
static const WGPUInstanceFlag WGPUInstanceFlag_Debugging = 0x0000000002000000;
static const WGPUInstanceFlag WGPUInstanceFlag_AdvancedDebugging = 0x0000000004000000;
static const WGPUInstanceFlag WGPUInstanceFlag_WithEnv = 0x0000000008000000;
static const WGPUInstanceFlag WGPUInstanceFlag_Force32 = 0x000000007FFFFFFF;

/* DirectX 12 and OpenGL ES options (accepted and ignored: no such backend
 * in this build). */
typedef enum WGPUDx12Compiler {
    WGPUDx12Compiler_Undefined = 0x00000000,
    WGPUDx12Compiler_Fxc = 0x00000001,
    WGPUDx12Compiler_Dxc = 0x00000002,
    WGPUDx12Compiler_Force32 = 0x7FFFFFFF
} WGPUDx12Compiler;

typedef enum WGPUGles3MinorVersion {
    WGPUGles3MinorVersion_Automatic = 0x00000000,
    WGPUGles3MinorVersion_Version0 = 0x00000001,
    WGPUGles3MinorVersion_Version1 = 0x00000002,
    WGPUGles3MinorVersion_Version2 = 0x00000003,
    WGPUGles3MinorVersion_Force32 = 0x7FFFFFFF
} WGPUGles3MinorVersion;

/* What a pipeline-statistics query set counts, one value per statistic. */
typedef enum WGPUPipelineStatisticName {
    WGPUPipelineStatisticName_VertexShaderInvocations = 0x00000000,
    WGPUPipelineStatisticName_ClipperInvocations = 0x00000001,
    WGPUPipelineStatisticName_ClipperPrimitivesOut = 0x00000002,
    WGPUPipelineStatisticName_FragmentShaderInvocations = 0x00000003,
    WGPUPipelineStatisticName_ComputeShaderInvocations = 0x00000004,
    WGPUPipelineStatisticName_Force32 = 0x7FFFFFFF
} WGPUPipelineStatisticName WGPU_ENUM_ATTRIBUTE;

/* An extra WGPUQueryType value (needs WGPUQuerySetDescriptorExtras). */
typedef enum WGPUNativeQueryType {
    WGPUNativeQueryType_PipelineStatistics = 0x00030000,
    WGPUNativeQueryType_Force32 = 0x7FFFFFFF
} WGPUNativeQueryType WGPU_ENUM_ATTRIBUTE;

typedef enum WGPUDxcMaxShaderModel {
    WGPUDxcMaxShaderModel_V6_0 = 0x00000000,
    WGPUDxcMaxShaderModel_V6_1 = 0x00000001,
    WGPUDxcMaxShaderModel_V6_2 = 0x00000002,
    WGPUDxcMaxShaderModel_V6_3 = 0x00000003,
    WGPUDxcMaxShaderModel_V6_4 = 0x00000004,
    WGPUDxcMaxShaderModel_V6_5 = 0x00000005,
    WGPUDxcMaxShaderModel_V6_6 = 0x00000006,
    WGPUDxcMaxShaderModel_V6_7 = 0x00000007,
    WGPUDxcMaxShaderModel_Force32 = 0x7FFFFFFF
} WGPUDxcMaxShaderModel;

typedef enum WGPUGLFenceBehaviour {
    WGPUGLFenceBehaviour_Normal = 0x00000000,
    WGPUGLFenceBehaviour_AutoFinish = 0x00000001,
    WGPUGLFenceBehaviour_Force32 = 0x7FFFFFFF
} WGPUGLFenceBehaviour;

typedef enum WGPUDx12SwapchainKind {
    WGPUDx12SwapchainKind_Undefined = 0x00000000,
    WGPUDx12SwapchainKind_DxgiFromHwnd = 0x00000001,
    WGPUDx12SwapchainKind_DxgiFromVisual = 0x00000002,
    WGPUDx12SwapchainKind_Force32 = 0x7FFFFFFF
} WGPUDx12SwapchainKind;

/* Which member of WGPUNativeDisplayHandle.data is set. */
typedef enum WGPUNativeDisplayHandleType {
    WGPUNativeDisplayHandleType_None = 0x00000000,
    WGPUNativeDisplayHandleType_Xlib = 0x00000001,
    WGPUNativeDisplayHandleType_Xcb = 0x00000002,
    WGPUNativeDisplayHandleType_Wayland = 0x00000003,
    WGPUNativeDisplayHandleType_Force32 = 0x7FFFFFFF
} WGPUNativeDisplayHandleType;

/* ---- Structures ------------------------------------------------------ */

/* The display connection an instance may be told about: the OpenGL backend
 * (EGL) presents only to windows of that display. */
typedef struct WGPUXlibDisplayHandle {
    void * display;
    int screen;
} WGPUXlibDisplayHandle;

typedef struct WGPUXcbDisplayHandle {
    void * connection;
    int screen;
} WGPUXcbDisplayHandle;

typedef struct WGPUWaylandDisplayHandle {
    void * display;
} WGPUWaylandDisplayHandle;

typedef struct WGPUNativeDisplayHandle {
    WGPUNativeDisplayHandleType type;
    union {
        WGPUXlibDisplayHandle xlib;
        WGPUXcbDisplayHandle xcb;
        WGPUWaylandDisplayHandle wayland;
    } data;
} WGPUNativeDisplayHandle;

/* Chained to WGPUInstanceDescriptor: backends, instance flags, the GL
 * options and the display handle are used; the DirectX 12 options and the
 * memory budgets are ignored. */
typedef struct WGPUInstanceExtras {
    WGPUChainedStruct chain;
    WGPUInstanceBackend backends;
    WGPUInstanceFlag flags;
    WGPUDx12Compiler dx12ShaderCompiler;
    WGPUGles3MinorVersion gles3MinorVersion;
    WGPUGLFenceBehaviour glFenceBehaviour;
    WGPUStringView dxcPath;
    WGPUDxcMaxShaderModel dxcMaxShaderModel;
    WGPUDx12SwapchainKind dx12PresentationSystem;
    WGPU_NULLABLE uint8_t const * budgetForDeviceCreation;
    WGPU_NULLABLE uint8_t const * budgetForDeviceLoss;
    WGPUNativeDisplayHandle displayHandle;
} WGPUInstanceExtras;

/* Chained to WGPUDeviceDescriptor. API tracing is not in this build: a
 * non-empty tracePath is logged and ignored. */
typedef struct WGPUDeviceExtras {
    WGPUChainedStruct chain;
    WGPUStringView tracePath;
} WGPUDeviceExtras;

/* Chained to WGPULimits: in requiredLimits (WGPU_LIMIT_U32_UNDEFINED: the
 * default) and in the output of wgpuAdapterGetLimits/wgpuDeviceGetLimits. */
typedef struct WGPUNativeLimits {
    WGPUChainedStruct chain;
    uint32_t maxNonSamplerBindings;
    uint32_t maxBindingArrayElementsPerShaderStage;
    uint32_t maxBindingArraySamplerElementsPerShaderStage;
    uint32_t maxMultiviewViewCount;
} WGPUNativeLimits;

#define WGPU_NATIVE_LIMITS_INIT _wgpu_MAKE_INIT_STRUCT(WGPUNativeLimits, { \
    /*.chain=*/_wgpu_MAKE_INIT_STRUCT(WGPUChainedStruct, { \
        /*.next=*/NULL _wgpu_COMMA \
        /*.sType=*/(WGPUSType)WGPUSType_NativeLimits _wgpu_COMMA \
    }) _wgpu_COMMA \
    /*.maxNonSamplerBindings=*/WGPU_LIMIT_U32_UNDEFINED _wgpu_COMMA \
    /*.maxBindingArrayElementsPerShaderStage=*/WGPU_LIMIT_U32_UNDEFINED _wgpu_COMMA \
    /*.maxBindingArraySamplerElementsPerShaderStage=*/WGPU_LIMIT_U32_UNDEFINED _wgpu_COMMA \
    /*.maxMultiviewViewCount=*/WGPU_LIMIT_U32_UNDEFINED _wgpu_COMMA \
})

/* A queue submission, as returned by wgpuQueueSubmitForIndex. */
typedef uint64_t WGPUSubmissionIndex;

/* A preprocessor definition for a GLSL shader. */
typedef struct WGPUShaderDefine {
    WGPUStringView name;
    WGPUStringView value;
} WGPUShaderDefine;

/* Chained to WGPUShaderModuleDescriptor: GLSL source of one stage. */
typedef struct WGPUShaderSourceGLSL {
    WGPUChainedStruct chain;
    WGPUShaderStage stage;
    WGPUStringView code;
    uint32_t defineCount;
    WGPUShaderDefine const * defines;
} WGPUShaderSourceGLSL;

/* SPIR-V for wgpuDeviceCreateShaderModuleSpirV; sourceSize counts 32-bit
 * words. */
typedef struct WGPUShaderModuleDescriptorSpirV {
    WGPUStringView label;
    uint32_t sourceSize;
    uint32_t const * source;
} WGPUShaderModuleDescriptorSpirV;

/* Object counts of one kind (wgpuGenerateReport). */
typedef struct WGPURegistryReport {
    size_t numAllocated;
    size_t numKeptFromUser;
    size_t numReleasedFromUser;
    size_t elementSize;
} WGPURegistryReport;

typedef struct WGPUHubReport {
    WGPURegistryReport adapters;
    WGPURegistryReport devices;
    WGPURegistryReport queues;
    WGPURegistryReport pipelineLayouts;
    WGPURegistryReport shaderModules;
    WGPURegistryReport bindGroupLayouts;
    WGPURegistryReport bindGroups;
    WGPURegistryReport commandBuffers;
    WGPURegistryReport renderBundles;
    WGPURegistryReport renderPipelines;
    WGPURegistryReport computePipelines;
    WGPURegistryReport pipelineCaches;
    WGPURegistryReport querySets;
    WGPURegistryReport buffers;
    WGPURegistryReport textures;
    WGPURegistryReport textureViews;
    WGPURegistryReport samplers;
} WGPUHubReport;

typedef struct WGPUGlobalReport {
    WGPURegistryReport surfaces;
    WGPUHubReport hub;
} WGPUGlobalReport;

/* Options of wgpuInstanceEnumerateAdapters. */
typedef struct WGPUInstanceEnumerateAdapterOptions {
    WGPUChainedStruct const * nextInChain;
    WGPUInstanceBackend backends;
} WGPUInstanceEnumerateAdapterOptions;

/* Chained to WGPUBindGroupEntry: the resources of a binding array (set one
 * of the three lists, and leave the entry's own resource empty). */
typedef struct WGPUBindGroupEntryExtras {
    WGPUChainedStruct chain;
    WGPUBuffer const * buffers;
    size_t bufferCount;
    WGPUSampler const * samplers;
    size_t samplerCount;
    WGPUTextureView const * textureViews;
    size_t textureViewCount;
} WGPUBindGroupEntryExtras;

/* Chained to WGPUBindGroupLayoutEntry: the entry is a binding array of
 * `count` elements (0: not an array). */
typedef struct WGPUBindGroupLayoutEntryExtras {
    WGPUChainedStruct chain;
    uint32_t count;
} WGPUBindGroupLayoutEntryExtras;

/* Chained to WGPUQuerySetDescriptor whose type is
 * WGPUNativeQueryType_PipelineStatistics: what each query counts. */
typedef struct WGPUQuerySetDescriptorExtras {
    WGPUChainedStruct chain;
    WGPUPipelineStatisticName const * pipelineStatistics;
    size_t pipelineStatisticCount;
} WGPUQuerySetDescriptorExtras WGPU_STRUCTURE_ATTRIBUTE;

/* Surface options (this build has no surfaces). */
typedef struct WGPUSurfaceConfigurationExtras {
    WGPUChainedStruct chain;
    uint32_t desiredMaximumFrameLatency;
} WGPUSurfaceConfigurationExtras WGPU_STRUCTURE_ATTRIBUTE;

typedef struct WGPUSurfaceSourceSwapChainPanel {
    WGPUChainedStruct chain;
    void * panelNative;
} WGPUSurfaceSourceSwapChainPanel WGPU_STRUCTURE_ATTRIBUTE;

/* How triangles are rasterized (WGPUPrimitiveStateExtras). */
typedef enum WGPUPolygonMode {
    WGPUPolygonMode_Fill = 0x00000000,
    WGPUPolygonMode_Line = 0x00000001,
    WGPUPolygonMode_Point = 0x00000002,
} WGPUPolygonMode;

/* Chained to WGPUPrimitiveState. */
typedef struct WGPUPrimitiveStateExtras {
    WGPUChainedStruct chain;
    WGPUPolygonMode polygonMode;
    WGPUBool conservative;
} WGPUPrimitiveStateExtras WGPU_STRUCTURE_ATTRIBUTE;

/* Receives log messages (wgpuSetLogCallback). `message` is valid during
 * the call only. */
typedef void (*WGPULogCallback)(WGPULogLevel level, WGPUStringView message, void * userdata);

/* Extra WGPUTextureFormat values. */
typedef enum WGPUNativeTextureFormat {
    WGPUNativeTextureFormat_NV12 = 0x00030007,
    WGPUNativeTextureFormat_P010 = 0x00030008,
} WGPUNativeTextureFormat;

/* The part of a texture wgpuCommandEncoderClearTexture clears. */
typedef struct WGPUImageSubresourceRange {
    WGPUTextureAspect aspect;
    uint32_t baseMipLevel;
    uint32_t mipLevelCount;
    uint32_t baseArrayLayer;
    uint32_t arrayLayerCount;
} WGPUImageSubresourceRange WGPU_STRUCTURE_ATTRIBUTE;

/* Run-time checks a trusted shader module keeps
 * (wgpuDeviceCreateShaderModuleTrusted). */
typedef WGPUFlags WGPUShaderRuntimeChecks;
static const WGPUShaderRuntimeChecks WGPUShaderRuntimeChecks_None = 0x0000000000000000;
static const WGPUShaderRuntimeChecks WGPUShaderRuntimeChecks_BoundsChecks = 0x0000000000000001;
static const WGPUShaderRuntimeChecks WGPUShaderRuntimeChecks_ForceLoopBounding = 0x0000000000000002;
static const WGPUShaderRuntimeChecks WGPUShaderRuntimeChecks_RayQueryInitializationTracking = 0x0000000000000004;
static const WGPUShaderRuntimeChecks WGPUShaderRuntimeChecks_TaskShaderDispatchTracking = 0x0000000000000008;
static const WGPUShaderRuntimeChecks WGPUShaderRuntimeChecks_MeshShaderPrimitiveIndicesClamp = 0x0000000000000010;

/* An extra WGPUAddressMode value. */
typedef enum WGPUNativeAddressMode {
    WGPUNativeAddressMode_ClampToBorder = 0x00000004,
    WGPUNativeAddressMode_Force32 = 0x7FFFFFFF
} WGPUNativeAddressMode WGPU_ENUM_ATTRIBUTE;

/* Border colour of a sampler using WGPUNativeAddressMode_ClampToBorder. */
typedef enum WGPUSamplerBorderColor {
    WGPUSamplerBorderColor_Undefined = 0x00000000,
    WGPUSamplerBorderColor_TransparentBlack = 0x00000001,
    WGPUSamplerBorderColor_OpaqueBlack = 0x00000002,
    WGPUSamplerBorderColor_OpaqueWhite = 0x00000003,
    WGPUSamplerBorderColor_Zero = 0x00000004,
    WGPUSamplerBorderColor_Force32 = 0x7FFFFFFF
} WGPUSamplerBorderColor;

/* Chained to WGPUSamplerDescriptor. */
typedef struct WGPUSamplerDescriptorExtras {
    WGPUChainedStruct chain;
    WGPUSamplerBorderColor samplerBorderColor;
} WGPUSamplerDescriptorExtras WGPU_STRUCTURE_ATTRIBUTE;

/* ---- Functions ------------------------------------------------------- */

#ifdef __cplusplus
extern "C" {
#endif

/* Object counts of the instance's wgpu-core hub. */
WGPU_EXPORT void wgpuGenerateReport(WGPUInstance instance, WGPUGlobalReport * report) WGPU_FUNCTION_ATTRIBUTE;
/* Every adapter of the allowed backends. With `adapters` NULL only the
 * count is returned; otherwise `adapters` has room for that count and
 * receives one new adapter reference each. */
WGPU_EXPORT size_t wgpuInstanceEnumerateAdapters(WGPUInstance instance, WGPU_NULLABLE WGPUInstanceEnumerateAdapterOptions const * options, WGPUAdapter * adapters) WGPU_FUNCTION_ATTRIBUTE;
/* wgpuQueueSubmit that returns the submission's index (0 on failure). */
WGPU_EXPORT WGPUSubmissionIndex wgpuQueueSubmitForIndex(WGPUQueue queue, size_t commandCount, WGPUCommandBuffer const * commands) WGPU_FUNCTION_ATTRIBUTE;
/* Nanoseconds per timestamp tick. */
WGPU_EXPORT float wgpuQueueGetTimestampPeriod(WGPUQueue queue) WGPU_FUNCTION_ATTRIBUTE;
/* Moves the device forward; with `wait`, first sleeps until the given
 * submission (NULL: all queue work so far) has finished. Returns whether
 * the queue has nothing in flight. Callbacks keep their modes: see
 * docs/DECISIONS.md. */
WGPU_EXPORT WGPUBool wgpuDevicePoll(WGPUDevice device, WGPUBool wait, WGPU_NULLABLE WGPUSubmissionIndex const * submissionIndex) WGPU_FUNCTION_ATTRIBUTE;
/* A shader module from SPIR-V (translated and validated like a chained
 * WGPUShaderSourceSPIRV, without needing that instance feature). */
WGPU_EXPORT WGPUShaderModule wgpuDeviceCreateShaderModuleSpirV(WGPUDevice device, WGPUShaderModuleDescriptorSpirV const * descriptor) WGPU_FUNCTION_ATTRIBUTE;
/* Sends every log message at or above the log level to `callback` (NULL:
 * back to stderr). */
WGPU_EXPORT void wgpuSetLogCallback(WGPULogCallback callback, void * userdata) WGPU_FUNCTION_ATTRIBUTE;
/* The most detailed level logged. */
WGPU_EXPORT void wgpuSetLogLevel(WGPULogLevel level) WGPU_FUNCTION_ATTRIBUTE;
/* The version of the wgpu-native API provided, one byte per component:
 * 0xMMmmpphh for major.minor.patch.hotfix. */
WGPU_EXPORT uint32_t wgpuGetVersion(void) WGPU_FUNCTION_ATTRIBUTE;
/* Metal objects (NULL: no Metal backend in this build). */
WGPU_EXPORT void * wgpuDeviceGetNativeMetalDevice(WGPUDevice device) WGPU_FUNCTION_ATTRIBUTE;
WGPU_EXPORT void * wgpuQueueGetNativeMetalCommandQueue(WGPUQueue queue) WGPU_FUNCTION_ATTRIBUTE;
WGPU_EXPORT void * wgpuTextureGetNativeMetalTexture(WGPUTexture texture) WGPU_FUNCTION_ATTRIBUTE;
/* `count` indirect draws read one after another from `buffer`. */
WGPU_EXPORT void wgpuRenderPassEncoderMultiDrawIndirect(WGPURenderPassEncoder encoder, WGPUBuffer buffer, uint64_t offset, uint32_t count) WGPU_FUNCTION_ATTRIBUTE;
WGPU_EXPORT void wgpuRenderPassEncoderMultiDrawIndexedIndirect(WGPURenderPassEncoder encoder, WGPUBuffer buffer, uint64_t offset, uint32_t count) WGPU_FUNCTION_ATTRIBUTE;
/* As above, with the count read from `count_buffer` (at most `max_count`). */
WGPU_EXPORT void wgpuRenderPassEncoderMultiDrawIndirectCount(WGPURenderPassEncoder encoder, WGPUBuffer buffer, uint64_t offset, WGPUBuffer count_buffer, uint64_t count_buffer_offset, uint32_t max_count) WGPU_FUNCTION_ATTRIBUTE;
WGPU_EXPORT void wgpuRenderPassEncoderMultiDrawIndexedIndirectCount(WGPURenderPassEncoder encoder, WGPUBuffer buffer, uint64_t offset, WGPUBuffer count_buffer, uint64_t count_buffer_offset, uint32_t max_count) WGPU_FUNCTION_ATTRIBUTE;
/* Pipeline-statistics queries around part of a pass. */
WGPU_EXPORT void wgpuComputePassEncoderBeginPipelineStatisticsQuery(WGPUComputePassEncoder computePassEncoder, WGPUQuerySet querySet, uint32_t queryIndex) WGPU_FUNCTION_ATTRIBUTE;
WGPU_EXPORT void wgpuComputePassEncoderEndPipelineStatisticsQuery(WGPUComputePassEncoder computePassEncoder) WGPU_FUNCTION_ATTRIBUTE;
WGPU_EXPORT void wgpuRenderPassEncoderBeginPipelineStatisticsQuery(WGPURenderPassEncoder renderPassEncoder, WGPUQuerySet querySet, uint32_t queryIndex) WGPU_FUNCTION_ATTRIBUTE;
WGPU_EXPORT void wgpuRenderPassEncoderEndPipelineStatisticsQuery(WGPURenderPassEncoder renderPassEncoder) WGPU_FUNCTION_ATTRIBUTE;
/* A timestamp inside a pass (WGPUNativeFeature_TimestampQueryInsidePasses). */
WGPU_EXPORT void wgpuComputePassEncoderWriteTimestamp(WGPUComputePassEncoder computePassEncoder, WGPUQuerySet querySet, uint32_t queryIndex) WGPU_FUNCTION_ATTRIBUTE;
WGPU_EXPORT void wgpuRenderPassEncoderWriteTimestamp(WGPURenderPassEncoder renderPassEncoder, WGPUQuerySet querySet, uint32_t queryIndex) WGPU_FUNCTION_ATTRIBUTE;
/* Frame capture by an attached graphics debugger (RenderDoc). */
WGPU_EXPORT WGPUBool wgpuDeviceStartGraphicsDebuggerCapture(WGPUDevice device) WGPU_FUNCTION_ATTRIBUTE;
WGPU_EXPORT void wgpuDeviceStopGraphicsDebuggerCapture(WGPUDevice device) WGPU_FUNCTION_ATTRIBUTE;
/* Clears part of a texture to zero (WGPUNativeFeature_ClearTexture). */
WGPU_EXPORT void wgpuCommandEncoderClearTexture(WGPUCommandEncoder commandEncoder, WGPUTexture texture, WGPUImageSubresourceRange const * range) WGPU_FUNCTION_ATTRIBUTE;
/* wgpuDeviceCreateShaderModule with only the listed run-time checks. */
WGPU_EXPORT WGPUShaderModule wgpuDeviceCreateShaderModuleTrusted(WGPUDevice device, WGPUShaderModuleDescriptor const * descriptor, WGPUShaderRuntimeChecks runtimeChecks) WGPU_FUNCTION_ATTRIBUTE;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WGPU_H_ */
