//! Generates `wgpu_shim.h`, the header of this library's own extensions, from
//! `src/ext/mod.rs` with cbindgen.
//!
//! The result goes to `$OUT_DIR/wgpu_shim.h`; a unit test checks that the
//! committed `include/webgpu/wgpu_shim.h` is identical. Set
//! `WGPU_SHIM_UPDATE_HEADERS=1` to have the build rewrite the committed file.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src/ext/mod.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=WGPU_SHIM_UPDATE_HEADERS");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("wgpu_shim.h");
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml is readable");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/ext/mod.rs"))
        .generate()
        .expect("src/ext/mod.rs yields a header");
    bindings.write_to_file(&out);
    if std::env::var_os("WGPU_SHIM_UPDATE_HEADERS").is_some_and(|v| v == "1") {
        bindings.write_to_file(root.join("include/webgpu/wgpu_shim.h"));
    }
}
