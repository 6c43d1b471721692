/* Rule (WebGPU createBindGroupLayout, texture and storage texture entries):
 * - a multisampled texture entry must have viewDimension 2D (Undefined
 *   defaults to 2D) and a sampleType other than Float (Undefined defaults
 *   to Float, so it is an error too);
 * - a storage texture entry may not have viewDimension Cube or CubeArray;
 * - a storage texture entry's format must be usable with its access: the
 *   core storage formats (RGBA8Unorm/Snorm/Uint/Sint, RGBA16Uint/Sint/Float,
 *   R32Uint/Sint/Float, RG32Uint/Sint/Float, RGBA32Uint/Sint/Float) for
 *   write-only and read-only, and only R32Uint/Sint/Float for read-write;
 *   any other format (sRGB, BGRA8Unorm without bgra8unorm-storage, tier-1
 *   formats without texture-formats-tier1, depth/stencil) is an error.
 * Each error still returns a (invalid) layout. Ports CTS
 * createBindGroupLayout multisampled_validation, storage_texture,
 * layout_dimension and storage_texture,formats (on a device without
 * optional features).
 *
 * On OpenGL (a downlevel adapter) wgpu-core takes the storage formats from
 * the GL backend's own table instead of WebGPU's: the write-only /
 * read-only cases of a core storage format that GL has no storage textures
 * of (RG32Uint/Sint/Float: a StorageBinding texture of it cannot be made)
 * are left out there (and counted). GL's table also allows read-write
 * storage of every storage format; the library applies WebGPU's table, so
 * those cases run on GL too. */
#include "bind_group_util.h"

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 60)) return test_finish();

  const WGPUTextureViewDimension dims[] = {WGPUTextureViewDimension_Undefined, WGPUTextureViewDimension_1D,
                                           WGPUTextureViewDimension_2D,        WGPUTextureViewDimension_2DArray,
                                           WGPUTextureViewDimension_Cube,      WGPUTextureViewDimension_CubeArray,
                                           WGPUTextureViewDimension_3D};
  const size_t ndims = sizeof dims / sizeof dims[0];

  /* multisampled_validation */
  const WGPUTextureSampleType types[] = {WGPUTextureSampleType_Undefined, WGPUTextureSampleType_Float,
                                         WGPUTextureSampleType_UnfilterableFloat, WGPUTextureSampleType_Depth,
                                         WGPUTextureSampleType_Sint, WGPUTextureSampleType_Uint};
  const char *type_names[] = {"Undefined", "Float", "UnfilterableFloat", "Depth", "Sint", "Uint"};
  for (size_t d = 0; d < ndims; d++)
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
      WGPUBindGroupLayoutEntry e = bg_texture_entry(0, WGPUShaderStage_Compute, types[t], dims[d], 1);
      int dim_ok = dims[d] == WGPUTextureViewDimension_2D || dims[d] == WGPUTextureViewDimension_Undefined;
      int type_ok = types[t] != WGPUTextureSampleType_Float && types[t] != WGPUTextureSampleType_Undefined;
      bg_case("multisampled texture, viewDimension %s, sampleType %s", bg_dim_name(dims[d]), type_names[t]);
      bg_layout_case(&ctx, !(dim_ok && type_ok), &e, 1);
    }

  /* storage_texture,layout_dimension */
  for (size_t d = 0; d < ndims; d++) {
    WGPUBindGroupLayoutEntry e = bg_storage_texture_entry(0, WGPUShaderStage_Compute,
                                                          WGPUStorageTextureAccess_WriteOnly,
                                                          WGPUTextureFormat_RGBA8Unorm, dims[d]);
    bg_case("write-only storage texture, viewDimension %s", bg_dim_name(dims[d]));
    bg_layout_case(&ctx, dims[d] == WGPUTextureViewDimension_Cube || dims[d] == WGPUTextureViewDimension_CubeArray, &e,
                   1);
  }

  /* storage_texture,formats: 0 = not a storage format, 1 = write-only and
   * read-only, 2 = also read-write. */
  struct {
    WGPUTextureFormat f;
    const char *name;
    int level;
  } fmts[] = {
      {WGPUTextureFormat_RGBA8Unorm, "RGBA8Unorm", 1},   {WGPUTextureFormat_RGBA8Snorm, "RGBA8Snorm", 1},
      {WGPUTextureFormat_RGBA8Uint, "RGBA8Uint", 1},     {WGPUTextureFormat_RGBA8Sint, "RGBA8Sint", 1},
      {WGPUTextureFormat_RGBA16Uint, "RGBA16Uint", 1},   {WGPUTextureFormat_RGBA16Sint, "RGBA16Sint", 1},
      {WGPUTextureFormat_RGBA16Float, "RGBA16Float", 1}, {WGPUTextureFormat_R32Uint, "R32Uint", 2},
      {WGPUTextureFormat_R32Sint, "R32Sint", 2},         {WGPUTextureFormat_R32Float, "R32Float", 2},
      {WGPUTextureFormat_RG32Uint, "RG32Uint", 1},       {WGPUTextureFormat_RG32Sint, "RG32Sint", 1},
      {WGPUTextureFormat_RG32Float, "RG32Float", 1},     {WGPUTextureFormat_RGBA32Uint, "RGBA32Uint", 1},
      {WGPUTextureFormat_RGBA32Sint, "RGBA32Sint", 1},   {WGPUTextureFormat_RGBA32Float, "RGBA32Float", 1},
      {WGPUTextureFormat_R8Unorm, "R8Unorm", 0},         {WGPUTextureFormat_R8Snorm, "R8Snorm", 0},
      {WGPUTextureFormat_RG8Unorm, "RG8Unorm", 0},       {WGPUTextureFormat_R16Float, "R16Float", 0},
      {WGPUTextureFormat_RG16Float, "RG16Float", 0},     {WGPUTextureFormat_RGBA8UnormSrgb, "RGBA8UnormSrgb", 0},
      {WGPUTextureFormat_BGRA8Unorm, "BGRA8Unorm", 0},   {WGPUTextureFormat_BGRA8UnormSrgb, "BGRA8UnormSrgb", 0},
      {WGPUTextureFormat_RGB10A2Unorm, "RGB10A2Unorm", 0}, {WGPUTextureFormat_RG11B10Ufloat, "RG11B10Ufloat", 0},
      {WGPUTextureFormat_RGB9E5Ufloat, "RGB9E5Ufloat", 0}, {WGPUTextureFormat_Depth32Float, "Depth32Float", 0},
      {WGPUTextureFormat_Depth24Plus, "Depth24Plus", 0}, {WGPUTextureFormat_Stencil8, "Stencil8", 0},
  };
  const WGPUStorageTextureAccess acc[] = {WGPUStorageTextureAccess_WriteOnly, WGPUStorageTextureAccess_ReadOnly,
                                          WGPUStorageTextureAccess_ReadWrite};
  const char *acc_names[] = {"write-only", "read-only", "read-write"};
  BgLeftOut left = {0};
  for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
    int gl_no_storage = fmts[i].level >= 1 && bg_gl_lacks(&ctx, fmts[i].f, WGPUTextureUsage_StorageBinding);
    for (size_t a = 0; a < 3; a++) {
      WGPUBindGroupLayoutEntry e =
          bg_storage_texture_entry(0, WGPUShaderStage_Compute, acc[a], fmts[i].f, WGPUTextureViewDimension_2D);
      int rw = acc[a] == WGPUStorageTextureAccess_ReadWrite;
      int ok = rw ? fmts[i].level >= 2 : fmts[i].level >= 1;
      bg_case("%s storage texture of %s", acc_names[a], fmts[i].name);
      if (ok && gl_no_storage) {
        bg_leave_out(&left, "GL has no storage textures of the format (its format table)");
        continue;
      }
      bg_layout_case(&ctx, !ok, &e, 1);
    }
  }
  bg_left_out_print(&left);

  return bg_finish(&ctx);
}
