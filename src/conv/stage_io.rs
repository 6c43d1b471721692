//! What the standard checks of a pipeline's shader stages and wgpu-core 30
//! leaves out, read from the stages' WGSL with naga:
//!
//! - a colour target that is written (a format and a non-zero write mask)
//!   needs a fragment output at its location, and one that blends with the
//!   source alpha needs that output to have an alpha channel;
//! - alpha to coverage cannot be combined with a fragment stage that writes
//!   `@builtin(sample_mask)`;
//! - a fragment input must have exactly the type of the vertex output at its
//!   location (wgpu-core lets a wider output through);
//! - a compute stage's workgroup size and workgroup memory stay within the
//!   device's limits once the pipeline's overrides are applied (wgpu-core
//!   checks neither the memory nor override-sized workgroups).
//!
//! And what wgpu-core refuses that the standard allows: an interpolation
//! sampling left out on one side and written out as its default on the
//! other ([`sampling_made_explicit`]).
//!
//! A module whose source is not WGSL, or does not parse or validate here,
//! is not checked: wgpu-core reports what is wrong with it.

use std::borrow::Cow;
use std::sync::OnceLock;

use wgpu_core::naga;

use naga::{AddressSpace, Binding, BuiltIn, Handle, Interpolation, Module, Sampling, ShaderStage, Type, TypeInner};

/// A module's WGSL, parsed and validated on first use.
pub(crate) struct Source {
    wgsl: Box<str>,
    parsed: OnceLock<Option<Reflected>>,
}

/// A parsed, validated module.
pub(crate) struct Reflected {
    module: Module,
    info: naga::valid::ModuleInfo,
}

impl Source {
    pub(crate) fn new(wgsl: &str) -> Source {
        Source { wgsl: wgsl.into(), parsed: OnceLock::new() }
    }

    /// The module, or `None` when it does not parse or validate.
    pub(crate) fn reflected(&self) -> Option<&Reflected> {
        self.parsed.get_or_init(|| reflect(&self.wgsl)).as_ref()
    }
}

fn validator() -> naga::valid::Validator {
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
}

fn reflect(wgsl: &str) -> Option<Reflected> {
    let module = naga::front::wgsl::parse_str(wgsl).ok()?;
    let info = validator().validate(&module).ok()?;
    Some(Reflected { module, info })
}

/// The entry point of `stage` named `name`, or the only one of that stage.
fn entry_point<'m>(
    module: &'m Module,
    stage: ShaderStage,
    name: Option<&str>,
) -> Option<(usize, &'m naga::EntryPoint)> {
    let mut of_stage = module.entry_points.iter().enumerate().filter(|(_, ep)| ep.stage == stage);
    match name {
        Some(name) => of_stage.find(|(_, ep)| ep.name == name),
        None => match (of_stage.next(), of_stage.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        },
    }
}

/// The bindings of an argument or result and their types, struct members
/// flattened.
fn io_of(module: &Module, ty: Handle<Type>, binding: Option<&Binding>, out: &mut Vec<(Binding, TypeInner)>) {
    match (binding, &module.types[ty].inner) {
        (Some(b), inner) => out.push((b.clone(), inner.clone())),
        (None, TypeInner::Struct { members, .. }) => {
            for m in members {
                if let Some(b) = &m.binding {
                    out.push((b.clone(), module.types[m.ty].inner.clone()));
                }
            }
        }
        (None, _) => {}
    }
}

fn inputs(module: &Module, ep: &naga::EntryPoint) -> Vec<(Binding, TypeInner)> {
    let mut out = Vec::new();
    for arg in &ep.function.arguments {
        io_of(module, arg.ty, arg.binding.as_ref(), &mut out);
    }
    out
}

fn outputs(module: &Module, ep: &naga::EntryPoint) -> Vec<(Binding, TypeInner)> {
    let mut out = Vec::new();
    if let Some(result) = &ep.function.result {
        io_of(module, result.ty, result.binding.as_ref(), &mut out);
    }
    out
}

fn at_location(io: &[(Binding, TypeInner)], location: u32) -> Option<&TypeInner> {
    io.iter().find_map(|(b, ty)| match b {
        Binding::Location { location: l, blend_src: None | Some(0), .. } if *l == location => Some(ty),
        _ => None,
    })
}

/// How a pipeline uses one colour target, for [`check_fragment`].
pub(crate) struct TargetUse {
    pub(crate) location: u32,
    /// A format and a non-zero write mask.
    pub(crate) written: bool,
    /// Its blend state's colour component reads the source alpha
    /// (`SrcAlpha`, `OneMinusSrcAlpha`, `SrcAlphaSaturated`; the alpha
    /// component may read it from any output).
    pub(crate) blends_src_alpha: bool,
}

/// Checks a fragment stage against the colour targets and alpha to
/// coverage.
pub(crate) fn check_fragment(
    frag: &Reflected,
    entry: Option<&str>,
    targets: &[TargetUse],
    alpha_to_coverage: bool,
) -> Result<(), String> {
    let Some((_, ep)) = entry_point(&frag.module, ShaderStage::Fragment, entry) else { return Ok(()) };
    let outputs = outputs(&frag.module, ep);
    for t in targets {
        match at_location(&outputs, t.location) {
            None if t.written => {
                return Err(format!(
                    "fragment.targets[{0}] is written (it has a format and a writeMask), but the fragment stage has no \
                     output at @location({0})",
                    t.location
                ))
            }
            Some(ty) if t.blends_src_alpha && components(ty) != Some(4) => {
                return Err(format!(
                    "fragment.targets[{0}] blends with the source alpha, but the fragment output at @location({0}) has \
                     no alpha channel ({1})",
                    t.location,
                    type_name(ty)
                ))
            }
            _ => {}
        }
    }
    let writes_sample_mask = outputs.iter().any(|(b, _)| matches!(b, Binding::BuiltIn(BuiltIn::SampleMask)));
    if alpha_to_coverage && writes_sample_mask {
        return Err("multisample.alphaToCoverageEnabled cannot be used with a fragment stage that writes \
                    @builtin(sample_mask)"
            .into());
    }
    Ok(())
}

/// Checks that each fragment input has the type of the vertex output at its
/// location.
pub(crate) fn check_inter_stage(
    vertex: &Reflected,
    vertex_entry: Option<&str>,
    frag: &Reflected,
    frag_entry: Option<&str>,
) -> Result<(), String> {
    let (Some((_, vs)), Some((_, fs))) = (
        entry_point(&vertex.module, ShaderStage::Vertex, vertex_entry),
        entry_point(&frag.module, ShaderStage::Fragment, frag_entry),
    ) else {
        return Ok(());
    };
    let outputs = outputs(&vertex.module, vs);
    for (binding, ty) in inputs(&frag.module, fs) {
        let Binding::Location { location, .. } = binding else { continue };
        if let Some(out) = at_location(&outputs, location) {
            if *out != ty {
                return Err(format!(
                    "the fragment input at @location({location}) is {}, but the vertex output there is {}: \
                     inter-stage variables must have the same type",
                    type_name(&ty),
                    type_name(out)
                ));
            }
        }
    }
    Ok(())
}

/// A stage's module with the pipeline's constants applied, its information,
/// and the entry point's name.
type Specialised<'m> = (Cow<'m, Module>, Cow<'m, naga::valid::ModuleInfo>, String);

/// The module of one stage with the pipeline's `constants` applied to its
/// overrides, and the entry point's name; `Ok(None)` when the entry point
/// is not there (wgpu-core reports that), `Err` when the constants do not
/// fit the module (a key naming no override, a value out of the override
/// type's range or not finite, an override without a value). wgpu-core
/// finds those too, but only while compiling each stage: a render
/// pipeline's vertex stage is compiled by then, and wgpu-hal 30 leaks it
/// on that error path.
fn with_constants<'m>(
    module: &'m Reflected,
    stage: ShaderStage,
    entry: Option<&str>,
    constants: &naga::back::PipelineConstants,
) -> Result<Option<Specialised<'m>>, String> {
    let Some((_, ep)) = entry_point(&module.module, stage, entry) else { return Ok(None) };
    let name = ep.name.clone();
    match naga::back::pipeline_constants::process_overrides(
        &module.module,
        &module.info,
        Some((stage, &name)),
        constants,
    ) {
        Ok((m, info)) => Ok(Some((m, info, name))),
        Err(e) => Err(format!("the {} stage's constants: {e}", format!("{stage:?}").to_lowercase())),
    }
}

/// Checks that a stage's `constants` fit its module's overrides (see
/// [`with_constants`]).
pub(crate) fn check_constants(
    module: &Reflected,
    stage: ShaderStage,
    entry: Option<&str>,
    constants: &naga::back::PipelineConstants,
) -> Result<(), String> {
    with_constants(module, stage, entry, constants).map(|_| ())
}

/// Checks a compute stage's constants, and its workgroup size and workgroup
/// memory against `limits` with the constants applied to its overrides.
pub(crate) fn check_compute(
    module: &Reflected,
    entry: Option<&str>,
    constants: &naga::back::PipelineConstants,
    limits: &wgpu_types::Limits,
) -> Result<(), String> {
    let Some((module, info, name)) = with_constants(module, ShaderStage::Compute, entry, constants)? else {
        return Ok(());
    };
    let Some((index, ep)) = entry_point(&module, ShaderStage::Compute, Some(&name)) else { return Ok(()) };
    check_workgroup_size(ep.workgroup_size, limits)?;
    let mut layouter = naga::proc::Layouter::default();
    if layouter.update(module.to_ctx()).is_err() {
        return Ok(());
    }
    let uses = info.get_entry_point(index);
    let bytes: u64 = module
        .global_variables
        .iter()
        .filter(|(h, g)| g.space == AddressSpace::WorkGroup && !uses[*h].is_empty())
        .map(|(_, g)| u64::from(layouter[g.ty].size).div_ceil(16) * 16)
        .sum();
    if bytes > u64::from(limits.max_compute_workgroup_storage_size) {
        return Err(format!(
            "the compute stage uses {bytes} bytes of workgroup memory, more than the device's \
             maxComputeWorkgroupStorageSize ({})",
            limits.max_compute_workgroup_storage_size
        ));
    }
    Ok(())
}

/// Checks the storage textures a stage's entry point uses against the
/// standard's table (`conv::texture::check_storage_access`): read-write
/// access only for formats that allow it. An auto layout takes its entries
/// from these, so no bind group layout was checked for them.
pub(crate) fn check_storage_textures(
    module: &Reflected,
    stage: ShaderStage,
    entry: Option<&str>,
    features: wgpu_types::Features,
) -> Result<(), String> {
    let Some((index, _)) = entry_point(&module.module, stage, entry) else { return Ok(()) };
    let uses = module.info.get_entry_point(index);
    for (h, g) in module.module.global_variables.iter() {
        let TypeInner::Image { class: naga::ImageClass::Storage { format, access }, .. } =
            module.module.types[g.ty].inner
        else {
            continue;
        };
        if uses[h].is_empty() || !access.contains(naga::StorageAccess::LOAD | naga::StorageAccess::STORE) {
            continue;
        }
        let format = wgpu_naga_bridge::map_storage_format_from_naga(format);
        let name = g.name.as_deref().unwrap_or("a storage texture");
        crate::conv::texture::check_storage_access(format, wgpu_types::StorageTextureAccess::ReadWrite, features)
            .map_err(|why| format!("the {} stage's `{name}`: {why}", format!("{stage:?}").to_lowercase()))?;
    }
    Ok(())
}

fn check_workgroup_size(size: [u32; 3], limits: &wgpu_types::Limits) -> Result<(), String> {
    let max =
        [limits.max_compute_workgroup_size_x, limits.max_compute_workgroup_size_y, limits.max_compute_workgroup_size_z];
    for (axis, (n, max)) in ["x", "y", "z"].iter().zip(size.iter().zip(max)) {
        if *n > max {
            return Err(format!(
                "the compute stage's workgroup size {size:?} is above the device's limit in {axis} ({max})"
            ));
        }
    }
    let invocations = size.iter().map(|&n| u64::from(n)).product::<u64>();
    if invocations > u64::from(limits.max_compute_invocations_per_workgroup) {
        return Err(format!(
            "the compute stage's workgroup size {size:?} makes {invocations} invocations, more than the device's \
             maxComputeInvocationsPerWorkgroup ({})",
            limits.max_compute_invocations_per_workgroup
        ));
    }
    Ok(())
}

fn components(ty: &TypeInner) -> Option<u32> {
    match ty {
        TypeInner::Scalar(_) => Some(1),
        TypeInner::Vector { size, .. } => Some(*size as u32),
        _ => None,
    }
}

fn type_name(ty: &TypeInner) -> String {
    let scalar = |s: &naga::Scalar| format!("{:?}{}", s.kind, s.width * 8).to_lowercase();
    match ty {
        TypeInner::Scalar(s) => scalar(s),
        TypeInner::Vector { size, scalar: s } => format!("vec{}<{}>", *size as u32, scalar(s)),
        other => format!("{other:?}"),
    }
}

/// The module of `code` (or `patched`, a module made of it already) with
/// every inter-stage sampling written out as the standard's default where
/// the shader left it out: `center` for `perspective` and `linear`, and
/// `flat`'s `first` left out as naga writes plain `flat`. naga 30 compares
/// the samplings as written, so a vertex output `@interpolate(perspective)`
/// did not match a fragment input with no attribute (`perspective, center`)
/// although the standard makes them the same. `None` when nothing changes
/// and nothing was patched before (most shaders: no `@interpolate`).
pub(crate) fn sampling_made_explicit(code: &str, patched: Option<Module>) -> Option<Module> {
    if !code.contains("@interpolate") {
        return patched;
    }
    let had = patched.is_some();
    let mut module = match patched {
        Some(m) => m,
        None => naga::front::wgsl::parse_str(code).ok()?,
    };
    let changed = crate::compat::rewrite_io_bindings(&mut module, |b, _| explicit(b));
    (changed || had).then_some(module)
}

fn explicit(binding: &mut Binding) -> bool {
    let Binding::Location { interpolation, sampling, .. } = binding else { return false };
    match (*interpolation, *sampling) {
        (Some(Interpolation::Perspective | Interpolation::Linear), None) => *sampling = Some(Sampling::Center),
        (Some(Interpolation::Flat), Some(Sampling::First)) => *sampling = None,
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAGES: &str = "struct V { @builtin(position) p: vec4f, @location(0) @interpolate(perspective) a: vec3f }\n\
        @vertex fn vs() -> V { return V(vec4f(0.0), vec3f(0.0)); }\n\
        @fragment fn fs(@location(0) a: vec2f) -> @location(0) vec3f { return vec3f(a, 0.0); }\n\
        @compute @workgroup_size(8) fn cs() {}\n";

    #[test]
    fn fragment_outputs_and_targets() {
        let r = reflect(STAGES).unwrap();
        let t = |location, written, blends_src_alpha| TargetUse { location, written, blends_src_alpha };
        assert!(check_fragment(&r, None, &[t(0, true, false)], false).is_ok());
        assert!(check_fragment(&r, None, &[t(1, true, false)], false).unwrap_err().contains("@location(1)"));
        assert!(check_fragment(&r, None, &[t(1, false, false)], false).is_ok());
        assert!(check_fragment(&r, Some("fs"), &[t(0, true, true)], false).unwrap_err().contains("alpha"));
    }

    #[test]
    fn inter_stage_types_must_be_equal() {
        let r = reflect(STAGES).unwrap();
        let e = check_inter_stage(&r, None, &r, None).unwrap_err();
        assert!(e.contains("vec2<float32>") && e.contains("vec3<float32>"), "{e}");
    }

    #[test]
    fn compute_limits() {
        let r = reflect(STAGES).unwrap();
        let mut limits = wgpu_types::Limits::default();
        assert!(check_compute(&r, None, &Default::default(), &limits).is_ok());
        limits.max_compute_workgroup_size_x = 4;
        assert!(check_compute(&r, None, &Default::default(), &limits).unwrap_err().contains("in x"));
    }

    #[test]
    fn samplings_get_their_defaults() {
        let m = sampling_made_explicit(STAGES, None).expect("the vertex output names perspective alone");
        let (_, vs) = entry_point(&m, ShaderStage::Vertex, None).unwrap();
        let out = outputs(&m, vs);
        assert!(out.iter().any(|(b, _)| matches!(b, Binding::Location { sampling: Some(Sampling::Center), .. })));
        assert!(validator().validate(&m).is_ok());
        assert!(sampling_made_explicit("@compute @workgroup_size(1) fn main() {}", None).is_none());
    }
}
