//! Generates `wgpu_shim.h`, the header of this library's own extensions, from
//! `src/ext/mod.rs` with cbindgen, and gives the shared library its SONAME.
//!
//! The header goes to `$OUT_DIR/wgpu_shim.h`; a unit test checks that the
//! committed `include/webgpu/wgpu_shim.h` is identical. Set
//! `WGPU_SHIM_UPDATE_HEADERS=1` to have the build rewrite the committed file.
//! The version macros at its top (`WGPU_SHIM_VERSION_*`) are written from
//! Cargo.toml's version, so that test also fails when the committed header
//! and Cargo.toml disagree.
//!
//! On Linux the cdylib is linked with `-soname libwgpu_shim.so.<major>`, and
//! a symbolic link of that name is made beside cargo's `libwgpu_shim.so`
//! (docs/DECISIONS.md, "Installing"), so a program linked against the
//! library in `target/release` finds it there at run time.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=src/ext/mod.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=WGPU_SHIM_UPDATE_HEADERS");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let version = |part: &str| std::env::var(format!("CARGO_PKG_VERSION_{part}")).expect("cargo sets the version");
    let (major, minor, patch) = (version("MAJOR"), version("MINOR"), version("PATCH"));

    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        let soname = format!("libwgpu_shim.so.{major}");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
        link_soname_beside_artifact(&out_dir, &soname);
    }

    let mut config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml is readable");
    let version_macros = format!(
        "\n/* The version of wgpu-shim this header belongs to (Cargo.toml). */\n\
         #define WGPU_SHIM_VERSION_MAJOR {major}\n\
         #define WGPU_SHIM_VERSION_MINOR {minor}\n\
         #define WGPU_SHIM_VERSION_PATCH {patch}\n\
         #define WGPU_SHIM_VERSION_STRING \"{major}.{minor}.{patch}\"\n\n"
    );
    config.after_includes = Some(version_macros + config.after_includes.as_deref().unwrap_or(""));
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/ext/mod.rs"))
        .generate()
        .expect("src/ext/mod.rs yields a header");
    bindings.write_to_file(out_dir.join("wgpu_shim.h"));
    if std::env::var_os("WGPU_SHIM_UPDATE_HEADERS").is_some_and(|v| v == "1") {
        bindings.write_to_file(root.join("include/webgpu/wgpu_shim.h"));
    }
}

/// Makes `<artifact dir>/<soname>` a relative symbolic link to
/// `libwgpu_shim.so`. Cargo puts the final libraries three levels above a
/// build script's `OUT_DIR` (`<target>/<profile>/build/<pkg>-<hash>/out`);
/// when `OUT_DIR` is not laid out that way nothing is made. A failure is a
/// warning, not an error: the library itself is still right, and
/// scripts/install.sh makes its own links.
fn link_soname_beside_artifact(out_dir: &Path, soname: &str) {
    let Some(build_dir) = out_dir.parent().and_then(Path::parent) else {
        return;
    };
    let Some(artifact_dir) = build_dir.parent() else {
        return;
    };
    if build_dir.file_name().is_none_or(|n| n != "build") {
        return;
    }
    let link = artifact_dir.join(soname);
    if std::fs::read_link(&link).is_ok_and(|target| target == Path::new("libwgpu_shim.so")) {
        return;
    }
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    if let Err(e) = std::os::unix::fs::symlink("libwgpu_shim.so", &link) {
        println!("cargo:warning=cannot link {} to libwgpu_shim.so: {e}", link.display());
    }
}
