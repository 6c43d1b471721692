/* Rule (WebGPU createBindGroupLayout, visibility): an entry's visibility may
 * be any combination of Vertex, Fragment and Compute (none at all is valid
 * too), except that a read-write storage buffer (buffer type Storage) and a
 * write-only or read-write storage texture may not be visible to Vertex;
 * such an entry makes creation a validation error. Every other binding kind
 * (uniform / read-only storage buffers, the three sampler types, sampled
 * textures of each sample type and multisampled ones, read-only storage
 * textures) is valid in every stage combination. Ports CTS
 * createBindGroupLayout visibility, visibility,VERTEX_shader_stage_buffer_type
 * and visibility,VERTEX_shader_stage_storage_texture_access (core limits:
 * the compatibility-mode per-stage storage limits are not zero here). */
#include "bind_group_util.h"

typedef struct {
  const char *name;
  WGPUBindGroupLayoutEntry entry;
  int vertex_forbidden;
} Kind;

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 60)) return test_finish();

  const WGPUShaderStage V = WGPUShaderStage_Vertex, F = WGPUShaderStage_Fragment, C = WGPUShaderStage_Compute;
  const WGPUTextureViewDimension D2 = WGPUTextureViewDimension_2D;
  Kind kinds[] = {
      {"uniform buffer", bg_buffer_entry(0, 0, WGPUBufferBindingType_Uniform, 0), 0},
      {"buffer type Undefined (uniform)", bg_buffer_entry(0, 0, WGPUBufferBindingType_Undefined, 0), 0},
      {"storage buffer", bg_buffer_entry(0, 0, WGPUBufferBindingType_Storage, 0), 1},
      {"read-only storage buffer", bg_buffer_entry(0, 0, WGPUBufferBindingType_ReadOnlyStorage, 0), 0},
      {"filtering sampler", bg_sampler_entry(0, 0, WGPUSamplerBindingType_Filtering), 0},
      {"non-filtering sampler", bg_sampler_entry(0, 0, WGPUSamplerBindingType_NonFiltering), 0},
      {"comparison sampler", bg_sampler_entry(0, 0, WGPUSamplerBindingType_Comparison), 0},
      {"float texture", bg_texture_entry(0, 0, WGPUTextureSampleType_Float, D2, 0), 0},
      {"unfilterable-float texture", bg_texture_entry(0, 0, WGPUTextureSampleType_UnfilterableFloat, D2, 0), 0},
      {"depth texture", bg_texture_entry(0, 0, WGPUTextureSampleType_Depth, D2, 0), 0},
      {"sint texture", bg_texture_entry(0, 0, WGPUTextureSampleType_Sint, D2, 0), 0},
      {"uint texture", bg_texture_entry(0, 0, WGPUTextureSampleType_Uint, D2, 0), 0},
      {"multisampled unfilterable texture", bg_texture_entry(0, 0, WGPUTextureSampleType_UnfilterableFloat, D2, 1), 0},
      {"write-only storage texture",
       bg_storage_texture_entry(0, 0, WGPUStorageTextureAccess_WriteOnly, WGPUTextureFormat_R32Uint, D2), 1},
      {"storage texture access Undefined (write-only)",
       bg_storage_texture_entry(0, 0, WGPUStorageTextureAccess_Undefined, WGPUTextureFormat_R32Uint, D2), 1},
      {"read-only storage texture",
       bg_storage_texture_entry(0, 0, WGPUStorageTextureAccess_ReadOnly, WGPUTextureFormat_R32Uint, D2), 0},
      {"read-write storage texture",
       bg_storage_texture_entry(0, 0, WGPUStorageTextureAccess_ReadWrite, WGPUTextureFormat_R32Uint, D2), 1},
  };

  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    for (WGPUShaderStage vis = 0; vis <= (V | F | C); vis++) {
      WGPUBindGroupLayoutEntry e = kinds[k].entry;
      e.visibility = vis;
      int want_error = kinds[k].vertex_forbidden && (vis & V);
      bg_case("%s with visibility %s%s%s%s", kinds[k].name, vis ? "" : "none", (vis & V) ? "V" : "",
              (vis & F) ? "F" : "", (vis & C) ? "C" : "");
      bg_layout_case(&ctx, want_error, &e, 1);
    }
  }

  return bg_finish(&ctx);
}
