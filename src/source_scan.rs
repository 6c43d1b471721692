//! Tests of rules that hold over the whole source rather than one module:
//! the layer diagram of `docs/ARCHITECTURE.md` ("Layout") and the length of
//! hand-written functions. [`source_files`] also serves the other scans
//! (every export inside `call`, thread-locals through `try_with`, the proc
//! table), which live beside the code they guard.

use std::path::{Path, PathBuf};

/// Every file under `src/` with its text.
pub(crate) fn source_files() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&src_dir(), &mut out);
    out.sort();
    out
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// A line with its `//` comment and the insides of its string and character
/// literals removed (good enough for this code base: no raw strings span
/// braces or paths the scans look for).
fn code_of(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '"' => {
                out.push('"');
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                out.push('"');
            }
            // A character literal ('{', '\'', '\n'), not a lifetime ('a).
            '\'' => {
                let rest: String = chars.clone().take(3).collect();
                let literal_len = if rest.starts_with('\\') {
                    rest.char_indices().skip(1).find(|&(_, c)| c == '\'').map(|(i, _)| i + 1)
                } else if rest.chars().nth(1) == Some('\'') {
                    Some(2)
                } else {
                    None
                };
                match literal_len {
                    Some(n) => {
                        for _ in 0..n {
                            chars.next();
                        }
                        out.push_str("' '");
                    }
                    None => out.push('\''),
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The folders of `src/` from the bottom of the diagram up: a folder may
    /// name only folders of a lower rank (folders of the same rank are side
    /// by side and name each other neither). The modules at the top of
    /// `src/` (`procs`, `fuzz_hooks`, this one) are above every folder.
    const LAYERS: &[(&str, u32)] = &[
        ("abi", 0),
        ("futures", 1),
        ("compat", 1),
        ("ffi", 2),
        ("engine", 3),
        ("conv", 3),
        ("objects", 4),
        ("native", 5),
        ("ext", 5),
    ];

    /// Imports that run against the diagram, each with its reason (also
    /// listed in docs/ARCHITECTURE.md): (file under `src/`, folder it names).
    const EXCEPTIONS: &[(&str, &str, &str)] = &[];

    /// Functions longer than [`MAX_FUNCTION_LINES`], each with its reason:
    /// (file under `src/`, function).
    const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[];

    /// The most lines a hand-written function may span, signature and
    /// closing brace included.
    const MAX_FUNCTION_LINES: usize = 120;

    fn rank(folder: &str) -> Option<u32> {
        LAYERS.iter().find(|(f, _)| *f == folder).map(|&(_, r)| r)
    }

    /// The folder of a file under `src/` (`None` for the modules at the top).
    fn folder_of(relative: &Path) -> Option<String> {
        let mut parts = relative.components();
        let first = parts.next()?.as_os_str().to_str()?.to_string();
        parts.next().map(|_| first)
    }

    /// The folders `code` names through `crate::` paths.
    fn named_folders(code: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            out.push(name);
        }
        out
    }

    /// Every (file, line, folder named) that runs against the diagram.
    fn wrong_way_imports(files: &[(PathBuf, String)]) -> Vec<String> {
        let src = src_dir();
        let mut wrong = Vec::new();
        for (path, text) in files {
            let relative = path.strip_prefix(&src).unwrap_or(path);
            let Some(folder) = folder_of(relative) else { continue };
            let own = rank(&folder).unwrap_or_else(|| panic!("src/{folder}/ is not in the layer table"));
            let file = relative.to_string_lossy().replace('\\', "/");
            for (n, line) in text.lines().enumerate() {
                for named in named_folders(&code_of(line)) {
                    let allowed = named == folder
                        || named == "source_scan"
                        || rank(&named).is_some_and(|r| r < own)
                        || (rank(&named).is_none() && !["procs", "fuzz_hooks"].contains(&named.as_str()))
                        || EXCEPTIONS.iter().any(|&(f, to, _)| f == file && to == named);
                    if !allowed {
                        wrong.push(format!("src/{file}:{}: {folder}/ names {named}/", n + 1));
                    }
                }
            }
        }
        wrong
    }

    /// Each folder names only the folders below it in the diagram.
    #[test]
    fn folders_name_only_lower_folders() {
        let files = source_files();
        let folders: Vec<String> =
            files.iter().filter_map(|(p, _)| folder_of(p.strip_prefix(src_dir()).unwrap())).collect();
        for (folder, _) in LAYERS {
            assert!(folders.iter().any(|f| f == folder), "the layer table names {folder}/, which is gone");
        }
        let wrong = wrong_way_imports(&files);
        assert!(wrong.is_empty(), "imports against docs/ARCHITECTURE.md's diagram:\n{}", wrong.join("\n"));
        for &(file, to, reason) in EXCEPTIONS {
            assert!(!reason.is_empty(), "exception {file} -> {to} has no reason");
        }
    }

    /// The scan sees a wrong-way import, and only code (not comments).
    #[test]
    fn the_layer_scan_catches_a_wrong_way_import() {
        let file = |path: &str, text: &str| (src_dir().join(path), text.to_string());
        let files = [
            file("ffi/new.rs", "use crate::objects::device::Device;\n"),
            file("futures/new.rs", "let x = crate::engine::spin::UNSET; // crate::objects\n"),
            file("objects/new.rs", "use crate::ffi::boundary::call;\n/// See [`crate::native::call`].\n"),
            file("conv/new.rs", "use crate::engine::spin::Spin;\n"),
            file("abi/new.rs", "let s = \"crate::ffi\";\n"),
        ];
        let wrong = wrong_way_imports(&files);
        assert_eq!(
            wrong,
            [
                "src/ffi/new.rs:1: ffi/ names objects/",
                "src/futures/new.rs:1: futures/ names engine/",
                "src/conv/new.rs:1: conv/ names engine/",
            ]
        );
    }

    /// (file, line, name, lines) of every function, nested ones included.
    fn functions(text: &str) -> Vec<(usize, String, usize)> {
        let lines: Vec<String> = text.lines().map(code_of).collect();
        let mut out = Vec::new();
        for (start, line) in lines.iter().enumerate() {
            let Some(at) = line.find("fn ").filter(|&i| i == 0 || !line.as_bytes()[i - 1].is_ascii_alphanumeric())
            else {
                continue;
            };
            let name: String =
                line[at + 3..].trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if name.is_empty() {
                continue;
            }
            let mut depth = 0i64;
            let mut opened = false;
            for (end, code) in lines.iter().enumerate().skip(start) {
                let from = if end == start { at } else { 0 };
                for c in code[from..].chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        _ => {}
                    }
                }
                if opened && depth <= 0 {
                    out.push((start + 1, name.clone(), end - start + 1));
                    break;
                }
                if !opened && code.trim_end().ends_with(';') {
                    break;
                }
            }
        }
        out
    }

    /// No hand-written function is longer than about 120 lines without a
    /// stated reason (the generated `abi/` is not hand-written).
    #[test]
    fn functions_stay_short() {
        let src = src_dir();
        let mut long = Vec::new();
        for (path, text) in source_files() {
            let relative = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
            if relative.starts_with("abi/") {
                continue;
            }
            for (line, name, n) in functions(&text) {
                let excused = LONG_FUNCTIONS.iter().any(|&(f, fun, _)| f == relative && fun == name);
                if n > MAX_FUNCTION_LINES && !excused {
                    long.push(format!("src/{relative}:{line}: {name} is {n} lines"));
                }
            }
        }
        assert!(long.is_empty(), "functions over {MAX_FUNCTION_LINES} lines:\n{}", long.join("\n"));
    }

    #[test]
    fn function_lengths_are_measured_from_signature_to_closing_brace() {
        let text = "fn a() {\n    let s = \"}\";\n    let c = '{';\n}\nfn decl();\nfn b<'x>(v: &'x str) {\n    if v.is_empty() { }\n}\n";
        let found = functions(text);
        assert_eq!(found, [(1, "a".to_string(), 4), (6, "b".to_string(), 3)]);
    }
}
