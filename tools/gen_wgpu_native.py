#!/usr/bin/env python3
"""Generate the Rust mirror of include/webgpu/wgpu.h (the wgpu-native
extension header) and check its layout against the C compiler's.

Output: src/abi/native.rs, holding for every declaration of wgpu.h
  - enums and flag types with their values,
  - #[repr(C)] structs (unions included),
  - the log callback type,
  - a `WGPUProc*` function pointer type per function, which the exported
    functions are checked against at compile time (src/native/procs.rs),
  - compile-time assertions that every struct's size, alignment and field
    offsets are what the C compiler computes for the header (the tool
    compiles and runs a small probe program to learn them),
  - the FNV-1a hash of the header, which a unit test compares with the
    header in the tree, so a header edit without a regeneration fails
    `cargo test`.

Usage (from anywhere):
  python3 tools/gen_wgpu_native.py            write src/abi/native.rs
  python3 tools/gen_wgpu_native.py --check    exit 1 when it is out of date
  python3 tools/gen_wgpu_native.py --compare OTHER/wgpu.h
      compile OTHER/wgpu.h (for example wgpu-native's) and ours and compare
      every ABI fact: enum and flag values, struct sizes and offsets, and
      function prototypes; exit 1 on any difference.

Needs a C compiler (`cc`, or $CC).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "webgpu" / "wgpu.h"
OUT = ROOT / "src" / "abi" / "native.rs"

PRIMITIVES = {
    "void": "c_void",
    "int": "c_int",
    "float": "f32",
    "double": "f64",
    "size_t": "usize",
    "uint8_t": "u8",
    "uint16_t": "u16",
    "uint32_t": "u32",
    "uint64_t": "u64",
    "int32_t": "i32",
    "int64_t": "i64",
}


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


class Header:
    def __init__(self, text: str):
        self.text = text
        body = strip_comments(text)
        body = re.sub(r"#define[^\n]*(\\\n[^\n]*)*", "", body)
        self.enums: list[tuple[str, list[tuple[str, int]]]] = []
        self.flags: list[tuple[str, list[tuple[str, int]]]] = []
        self.structs: list[tuple[str, list[tuple[str, str]]]] = []
        self.unions: list[tuple[str, list[tuple[str, str]]]] = []
        self.callbacks: list[tuple[str, str, list[tuple[str, str]]]] = []
        self.functions: list[tuple[str, str, list[tuple[str, str]]]] = []
        self.aliases: list[tuple[str, str]] = []
        for m in re.finditer(r"typedef enum (\w+)\s*\{(.*?)\}\s*(\w+)", body, re.S):
            values = [(n, int(v, 0)) for n, v in re.findall(r"(\w+)\s*=\s*(0x[0-9A-Fa-f]+|\d+)", m.group(2))]
            self.enums.append((m.group(1), values))
        for m in re.finditer(r"typedef WGPUFlags (\w+);", body):
            name = m.group(1)
            values = [
                # Values are C integer expressions (`1 << 3`, `(1 << 0) | (1 << 2)`)
                # that Python reads the same way.
                (n, int(eval(v, {"__builtins__": {}})))
                for n, v in re.findall(r"static const " + name + r" (\w+) = ([^;]+);", body)
            ]
            self.flags.append((name, values))
        for m in re.finditer(r"typedef (uint\d+_t|int) (\w+);", body):
            self.aliases.append((m.group(2), m.group(1)))
        for m in re.finditer(r"typedef struct (\w+)\s*\{(.*?)\n\}\s*(\w+)", body, re.S):
            name, inner = m.group(1), m.group(2)
            fields = []
            for u in re.finditer(r"union\s*\{(.*?)\}\s*(\w+);", inner, re.S):
                uname = f"{name}_{u.group(2)}"
                self.unions.append((uname, self.fields(u.group(1))))
            inner = re.sub(r"union\s*\{(.*?)\}\s*(\w+);", lambda u: f"{name}_{u.group(2)} {u.group(2)};", inner, flags=re.S)
            fields = self.fields(inner)
            self.structs.append((name, fields))
        for m in re.finditer(r"typedef (\w[\w\s\*]*?)\s*\(\*(\w+)\)\((.*?)\);", body, re.S):
            self.callbacks.append((m.group(2), m.group(1).strip(), self.params(m.group(3))))
        fn_re = r"^\s*(?:WGPU_EXPORT )?(\w[\w \*]*?)\s*\b(wgpu\w+)\((.*?)\)\s*(?:WGPU_FUNCTION_ATTRIBUTE)?;"
        for m in re.finditer(fn_re, body, re.M):
            self.functions.append((m.group(2), m.group(1).strip(), self.params(m.group(3))))

    @staticmethod
    def fields(inner: str) -> list[tuple[str, str]]:
        out = []
        for decl in inner.split(";"):
            decl = " ".join(decl.split())
            if decl:
                out.append(split_decl(decl))
        return out

    @staticmethod
    def params(text: str) -> list[tuple[str, str]]:
        text = " ".join(text.split())
        if text in ("", "void"):
            return []
        return [split_decl(p.strip()) for p in text.split(",")]


def split_decl(decl: str) -> tuple[str, str]:
    """'WGPU_NULLABLE T const * name' -> (C type, name)."""
    decl = decl.replace("WGPU_NULLABLE", "").replace("*", " * ")
    tokens = decl.split()
    return " ".join(tokens[:-1]), tokens[-1]


RUST_KEYWORDS = {"type", "match", "ref", "move", "fn", "mod", "use", "impl", "loop", "box", "in", "as"}


def ident(name: str) -> str:
    """A C name as a Rust identifier (`type` -> `r#type`)."""
    return f"r#{name}" if name in RUST_KEYWORDS else name


def rust_type(ctype: str) -> str:
    tokens = ctype.split()
    stars = tokens.count("*")
    base = [t for t in tokens if t not in ("*", "const", "struct")]
    assert len(base) == 1, ctype
    b = PRIMITIVES.get(base[0], base[0])
    if stars == 0:
        return "()" if b == "c_void" else b
    # Pointer constness: `T const *` or `const T *` make a const pointer.
    first_star = tokens.index("*")
    const = "const" in tokens[:first_star]
    out = b
    for i in range(stars):
        out = ("*const " if (const and i == 0) else "*mut ") + out
    return out


def rust_ret(ctype: str) -> str:
    r = rust_type(ctype)
    return "" if r == "()" else f" -> {r}"


def c_layout(header_dir: Path, h: Header, header_name: str = "wgpu.h", include_dirs=()) -> dict[str, int]:
    """Sizes, alignments and offsets of every struct, and every enum/flag
    value, as the C compiler sees them."""
    lines = ["#include <stdio.h>", "#include <stddef.h>", f'#include "{header_name}"', "int main(void) {"]
    for name, fields in h.structs + h.unions:
        kw = "union " if (name, fields) in h.unions else ""
        tname = f"{kw}{name}" if not kw else name
        lines.append(f'printf("size {name} %zu\\n", sizeof({tname}));')
        lines.append(f'printf("align {name} %zu\\n", _Alignof({tname}));')
        for _, f in fields:
            lines.append(f'printf("offset {name}.{f} %zu\\n", offsetof({tname}, {f}));')
    for _, values in h.enums + h.flags:
        for n, _ in values:
            lines.append(f'printf("value {n} %llu\\n", (unsigned long long){n});')
    lines.append("return 0; }")
    src = "\n".join(lines)
    # Unions are anonymous in C: name them through the member.
    for name, fields in h.unions:
        owner, member = name.rsplit("_", 1)
        src = src.replace(f"sizeof({name})", f"sizeof((({owner}*)0)->{member})")
        src = src.replace(f"_Alignof({name})", f"_Alignof(__typeof__((({owner}*)0)->{member}))")
        src = re.sub(rf"offsetof\({name}, (\w+)\)", rf"offsetof({owner}, {member}.\1) - offsetof({owner}, {member})", src)
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory() as tmp:
        c = Path(tmp) / "probe.c"
        exe = Path(tmp) / "probe"
        c.write_text(src)
        incs = [f"-I{d}" for d in (header_dir, *include_dirs)]
        subprocess.run([cc, "-std=gnu11", *incs, str(c), "-o", str(exe)], check=True)
        out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    facts = {}
    for line in out.splitlines():
        kind, key, value = line.split()
        facts[f"{kind} {key}"] = int(value)
    return facts


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def generate(h: Header, facts: dict[str, int], header_bytes: bytes) -> str:
    o = []
    w = o.append
    w("// @generated by tools/gen_wgpu_native.py from include/webgpu/wgpu.h — do not edit")
    w("//! Rust mirror of `include/webgpu/wgpu.h`: the wgpu-native extension types,")
    w("//! with compile-time checks that every struct has the C compiler's layout.")
    w("")
    w("#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code, clippy::all)]")
    w("")
    w("use core::ffi::{c_int, c_void};")
    w("use core::mem::{align_of, offset_of, size_of};")
    w("")
    w("use crate::abi::*;")
    w("")
    w(f"/// FNV-1a hash of the header this file was generated from.")
    w(f"pub const HEADER_FNV1A: u64 = {fnv1a(header_bytes):#018x};")
    w("")
    for name, base in h.aliases:
        w(f"pub type {name} = {PRIMITIVES.get(base, base)};")
    w("")
    for name, values in h.enums:
        w(f"pub type {name} = u32;")
        for n, v in values:
            w(f"pub const {n}: {name} = {v:#010x};")
        w("")
    for name, values in h.flags:
        w(f"pub type {name} = WGPUFlags;")
        for n, v in values:
            w(f"pub const {n}: {name} = {v:#x};")
        w("")
    for name, fields in h.unions:
        w("#[repr(C)]")
        w("#[derive(Clone, Copy)]")
        w(f"pub union {name} {{")
        for t, f in fields:
            w(f"    pub {ident(f)}: {rust_type(t)},")
        w("}")
        w("")
    for name, fields in h.structs:
        w("#[repr(C)]")
        w("#[derive(Clone, Copy)]")
        w(f"pub struct {name} {{")
        for t, f in fields:
            w(f"    pub {ident(f)}: {rust_type(t)},")
        w("}")
        w("")
    for name, ret, params in h.callbacks:
        args = ", ".join(f"{ident(n)}: {rust_type(t)}" for t, n in params)
        w(f"pub type {name} = Option<unsafe extern \"C\" fn({args}){rust_ret(ret)}>;")
    w("")
    for name, ret, params in h.functions:
        args = ", ".join(f"{ident(n)}: {rust_type(t)}" for t, n in params)
        w(f"pub type WGPUProc{name[4:]} = Option<unsafe extern \"C\" fn({args}){rust_ret(ret)}>;")
    w("")
    w("/// Every function the header declares.")
    w("pub const FUNCTIONS: &[&str] = &[")
    for name, _, _ in h.functions:
        w(f'    "{name}",')
    w("];")
    w("")
    w("// The C compiler's layout of every struct (sizes, alignments, offsets).")
    w("const _: () = {")
    for name, fields in h.unions + h.structs:
        w(f"    assert!(size_of::<{name}>() == {facts[f'size {name}']});")
        w(f"    assert!(align_of::<{name}>() == {facts[f'align {name}']});")
        for _, f in fields:
            w(f"    assert!(offset_of!({name}, {ident(f)}) == {facts[f'offset {name}.{f}']});")
    w("};")
    return "\n".join(o) + "\n"


def compare(ours: Path, other: Path) -> int:
    """Compares every ABI fact of two wgpu.h headers."""
    h_ours = Header(ours.read_text())
    h_other = Header(other.read_text())
    inc = ROOT / "include" / "webgpu"
    f_ours = c_layout(ours.parent, h_ours)
    # The other header is compiled against its own webgpu.h when it sits
    # next to it, else against ours.
    f_other = c_layout(other.parent, h_other, other.name, include_dirs=(inc,))
    bad = 0
    for key in sorted(set(f_ours) | set(f_other)):
        if f_ours.get(key) != f_other.get(key):
            print(f"differs: {key}: ours {f_ours.get(key)} theirs {f_other.get(key)}")
            bad += 1
    norm = lambda fns: {n: (" ".join(r.split()), [(" ".join(t.split()), p) for t, p in ps]) for n, r, ps in fns}
    fo, ft = norm(h_ours.functions), norm(h_other.functions)
    for n in sorted(set(fo) | set(ft)):
        a, b = fo.get(n), ft.get(n)
        if a is None or b is None or a[0] != b[0] or [rust_type(t) for t, _ in a[1]] != [rust_type(t) for t, _ in b[1]]:
            print(f"differs: function {n}: ours {a} theirs {b}")
            bad += 1
    print(f"{len(f_ours)} layout/value facts and {len(fo)} functions compared, {bad} differences")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--compare", type=Path)
    args = ap.parse_args()
    if args.compare:
        return compare(HEADER, args.compare)
    data = HEADER.read_bytes()
    h = Header(data.decode())
    text = generate(h, c_layout(HEADER.parent, h), data)
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run tools/gen_wgpu_native.py", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
