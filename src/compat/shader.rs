//! WGSL that wgpu-native v29 accepts and naga 30 rejects: integer
//! inter-stage variables without `@interpolate(flat)`.
//!
//! naga 29's front end gave an integer `@location` variable `flat`
//! interpolation when the shader named none; naga 30 leaves it unset and its
//! validator then rejects the vertex output or fragment input ("`flat` must
//! be explicitly specified for integer I/O"). Shaders written against
//! wgpu-native (wgpu-py's tests, the text, point and blending shaders of
//! engines on it) rely on the old default. Under wgpu-native compatibility
//! the module is parsed here, the old default is applied to every integer
//! `@location` of the entry points' arguments and results (directly or as
//! struct members), and wgpu-core gets the patched module. A shader that
//! needs no patch, or that does not parse, goes to wgpu-core as WGSL, so its
//! diagnostics are unchanged.

use std::borrow::Cow;

use wgpu_core::naga;

use naga::{Binding, Handle, Interpolation, Module, ScalarKind, Type, TypeInner};

/// `code` with the `enable wgpu_binding_array;` directive that naga 30
/// requires before `binding_array` types and naga 29 did not, when the code
/// uses them without it. The directive goes in front of the first line, so
/// diagnostics keep their line numbers.
pub(crate) fn binding_arrays_enabled(code: &str) -> Option<String> {
    (code.contains("binding_array") && !code.contains("wgpu_binding_array"))
        .then(|| format!("enable wgpu_binding_array; {code}"))
}

/// The WGSL source and module to give wgpu-core for `code` under wgpu-native
/// compatibility: the source with naga 29's implicit directives, and, when
/// integer inter-stage variables need naga 29's `flat` default, the patched
/// module (see the module documentation).
pub(crate) fn naga29_wgsl(code: Cow<'_, str>) -> (Cow<'_, str>, Option<Module>) {
    let code = match binding_arrays_enabled(&code) {
        Some(enabled) if crate::compat::allows(crate::compat::Rule::BindingArraysWithoutEnable) => Cow::Owned(enabled),
        _ => code,
    };
    let module =
        integer_io_made_flat(&code).filter(|_| crate::compat::allows(crate::compat::Rule::IntegerIoDefaultsToFlat));
    (code, module)
}

/// The module of `code` with `flat` applied to integer `@location`
/// variables that name no interpolation; `None` when no such variable
/// exists (or the code does not parse: wgpu-core reports that).
pub(crate) fn integer_io_made_flat(code: &str) -> Option<Module> {
    // Cheap tests first, so most shaders are parsed once (by wgpu-core):
    // nothing to patch without a `@location` and an integer type.
    const INTEGER_TYPES: [&str; 8] = ["u32", "i32", "vec2u", "vec3u", "vec4u", "vec2i", "vec3i", "vec4i"];
    if !code.contains("@location") || !INTEGER_TYPES.iter().any(|t| code.contains(t)) {
        return None;
    }
    let mut module = naga::front::wgsl::parse_str(code).ok()?;
    rewrite_io_bindings(&mut module, make_flat).then_some(module)
}

/// Runs `f` on every binding of the entry points' arguments and results
/// (struct members included) with its type; `f` says whether it changed
/// the binding. A struct whose members change is replaced in the type arena
/// in place (the handle stays, so every use of the type sees the change).
/// Whether anything changed. (Also used by `conv::stage_io`, for the
/// standard's sampling defaults.)
pub(crate) fn rewrite_io_bindings(module: &mut Module, f: impl Fn(&mut Binding, &TypeInner) -> bool) -> bool {
    let mut changed = false;
    let mut structs = Vec::new();
    for ep in module.entry_points.iter_mut() {
        let function = &mut ep.function;
        let args = function.arguments.iter_mut().map(|a| (a.ty, a.binding.as_mut()));
        let result = function.result.as_mut().map(|r| (r.ty, r.binding.as_mut()));
        for (ty, binding) in args.chain(result) {
            match binding {
                Some(b) => changed |= f(b, &module.types[ty].inner),
                None if matches!(module.types[ty].inner, TypeInner::Struct { .. }) && !structs.contains(&ty) => {
                    structs.push(ty)
                }
                None => {}
            }
        }
    }
    for ty in structs {
        changed |= rewrite_struct(module, ty, &f);
    }
    changed
}

fn rewrite_struct(module: &mut Module, ty: Handle<Type>, f: &impl Fn(&mut Binding, &TypeInner) -> bool) -> bool {
    let mut new = module.types[ty].clone();
    let TypeInner::Struct { ref mut members, .. } = new.inner else { return false };
    let mut changed = false;
    for member in members.iter_mut() {
        if let Some(binding) = member.binding.as_mut() {
            changed |= f(binding, &module.types[member.ty].inner);
        }
    }
    // `replace` requires a value not in the arena yet; an identical struct
    // (same name and members) cannot already be there, but check rather
    // than rely on it.
    if !changed || module.types.get(&new).is_some() {
        return false;
    }
    module.types.replace(ty, new);
    true
}

/// naga 29's default for an integer `@location` with no interpolation.
fn make_flat(binding: &mut Binding, inner: &TypeInner) -> bool {
    match binding {
        Binding::Location { interpolation: interpolation @ None, sampling, .. }
            if matches!(inner.scalar_kind(), Some(ScalarKind::Sint | ScalarKind::Uint)) =>
        {
            *interpolation = Some(Interpolation::Flat);
            *sampling = None;
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INTEGER_IO: &str = "
        struct VOut { @builtin(position) pos: vec4<f32>, @location(0) id: u32, @location(1) c: vec4<f32> };
        @vertex fn vs(@builtin(vertex_index) i: u32) -> VOut {
            var o: VOut; o.pos = vec4<f32>(0.0); o.id = i; o.c = vec4<f32>(1.0); return o;
        }
        @fragment fn fs(@location(0) @interpolate(flat) id: u32, @location(1) c: vec4<f32>) -> @location(0) vec4<f32> {
            return c * f32(id);
        }";

    fn validate(module: &Module) -> Result<(), String> {
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(module)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn integer_struct_member_becomes_flat_and_validates() {
        let plain = naga::front::wgsl::parse_str(INTEGER_IO).unwrap();
        assert!(validate(&plain).is_err(), "naga 30 rejects the unpatched module");
        let patched = integer_io_made_flat(INTEGER_IO).expect("needs the patch");
        validate(&patched).unwrap();
    }

    #[test]
    fn integer_argument_and_result_become_flat() {
        let code = "
            @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> { return vec4<f32>(0.0); }
            @fragment fn fs(@location(0) id: vec2<i32>) -> @location(0) vec4<u32> { return vec4<u32>(u32(id.x)); }";
        let patched = integer_io_made_flat(code).expect("needs the patch");
        let ep = patched.entry_points.iter().find(|e| e.name == "fs").unwrap();
        assert!(matches!(
            ep.function.arguments[0].binding,
            Some(Binding::Location { interpolation: Some(Interpolation::Flat), .. })
        ));
        validate(&patched).unwrap();
    }

    #[test]
    fn binding_arrays_get_their_directive_on_the_first_line() {
        let code =
            "@group(0) @binding(0) var t: binding_array<texture_2d<f32>, 2>;\n@compute @workgroup_size(1) fn main() {}";
        let enabled = binding_arrays_enabled(code).expect("needs the directive");
        assert_eq!(enabled.lines().count(), code.lines().count());
        naga::front::wgsl::parse_str(&enabled).expect("naga 30 parses it");
        assert!(binding_arrays_enabled(&enabled).is_none());
        assert!(binding_arrays_enabled("fn main() {}").is_none());
    }

    #[test]
    fn nothing_to_patch_or_no_parse_gives_none() {
        let floats = "@fragment fn fs(@location(0) c: vec4<f32>) -> @location(0) vec4<f32> { return c; }";
        assert!(integer_io_made_flat(floats).is_none());
        let explicit = "@fragment fn fs(@location(0) @interpolate(flat) c: u32) -> @location(0) vec4<f32> { return vec4<f32>(f32(c)); }";
        assert!(integer_io_made_flat(explicit).is_none());
        assert!(integer_io_made_flat("@location(0) fn (").is_none());
        assert!(integer_io_made_flat("fn main() {}").is_none());
    }
}
