#!/usr/bin/env python3
"""Mechanical checks of the documentation, run by scripts/test.sh.

1. Every relative link in README.md, the other top-level *.md files and
   docs/*.md points at a file or folder that exists, and every `#anchor`
   (in the same page or another Markdown page) names a heading there, as
   GitHub turns headings into anchors.
2. Every environment variable the code reads appears in the first column
   of the "Environment variables" table of docs/ENVIRONMENT.md (ENV_PAGE),
   which README.md links to. "The code" is: the Rust
   sources (`env::var("X")`, `env::var_os("X")`) of src/ and build.rs; the
   shell scripts in scripts/ and benches/ (`${X:-...}`, `${X-...}`,
   `${X+...}`, `${X:+...}`, `${X:=...}`: a variable read with a default is one
   a user may set); `os.environ.get("X")` / `os.environ["X"]` /
   `os.getenv("X")` in the Python of benches/, tools/ and examples/; and
   `getenv("X")` in the C of examples/ and benches/. Variables that belong to
   the system rather than to this project (IGNORED) are left out.
3. Every test the pages name exists: a C test `group.rule` (in backticks,
   `group` a folder of ffi-tests/) is a file ffi-tests/group/rule.c or .cpp
   or an `add_test(NAME ...)` of a CMakeLists.txt there; a Rust test
   `...tests::name` is a `fn name` in src/.
4. README.md's minimum Rust is Cargo.toml's `rust-version`.
5. Every statement of how long the profile-guided build (scripts/pgo.sh)
   takes, in the pages and in the help of scripts/*.sh, gives the same
   duration and names the commit it was measured on (a time, unlike a
   count, cannot be computed here).
6. The counts of COUNTS (tests, fault tests, Python-hosted tests, the
   valgrind subset, fuzz targets and corpus files, the functions of wgpu.h)
   are the tree's, computed here; any other count of tests in the pages ("N
   ... tests") names, in its sentence or its paragraph, the commit it was
   counted on.
7. The documentation that the release archive ships (tools/archive_docs.py:
   README.md, CHANGELOG.md, BENCHMARKS.md, docs/*.md and
   packaging/archive/INSTALL.md, with their links made to point inside the
   archive) has no link that does not resolve in the archive.

    python3 tools/check_docs.py [--root DIR]
    python3 tools/check_docs.py --links-only --root DIR   # 1. alone, e.g. on an unpacked archive
    python3 tools/check_docs.py --self-test

Exits 0 when everything holds; otherwise prints one line per problem and
exits 1. `--self-test` runs the checks on small trees made for the purpose
(a broken link, a broken anchor, a missing variable, a variable table
that is missing or left in README.md alone, a missing test, a stale minimum Rust, the PGO time stated two ways or without its commit, a
dangling link in the archive's INSTALL.md, a wrong count of fault tests, a
count of tests that nothing computes and names no commit, and trees
without problems) and exits 1 unless each is judged as it should be.
"""

import argparse
import bisect
import re
import sys
import tempfile
import unicodedata
from pathlib import Path

# Read by the code, but the system's: documented by their owners.
IGNORED = {
    "CARGO_MANIFEST_DIR",  # set by Cargo for build.rs
    "OUT_DIR",  # set by Cargo for build.rs
    "CARGO_CFG_TARGET_OS",  # set by Cargo for build.rs
    "CC",  # the C compiler, as everywhere
    "TMPDIR",  # the temporary folder, as everywhere
    "DISPLAY",  # the X server, as everywhere
    "HOME",
    "PATH",
    "RUST_BACKTRACE",  # Rust's own
    "CARGO_NET_RETRY",  # Cargo's own
    "CARGO_TERM_COLOR",  # Cargo's own
    "BASH_SOURCE",
}

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
RUST_ENV = re.compile(r"env::var(?:_os)?\(\s*\"([A-Z][A-Z0-9_]*)\"")
SHELL_ENV = re.compile(r"\$\{([A-Z][A-Z0-9_]*)(?::-|-|\+|:\+|:=)")
PY_ENV = re.compile(r"os\.(?:environ\.get\(|environ\[|getenv\()\s*[\"']([A-Z][A-Z0-9_]*)[\"']")
C_ENV = re.compile(r"\bgetenv\(\s*\"([A-Z][A-Z0-9_]*)\"")


def strip_code(text, inline=True):
    """The text with fenced code blocks blanked (lines kept) and inline code
    spans removed (with inline=False: kept), so that links inside code are not
    taken for links."""
    out = []
    fence = None
    for line in text.split("\n"):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * 3
            elif line.strip().startswith(fence):
                fence = None
            out.append("")
            continue
        if fence is not None:
            out.append("")
            continue
        out.append(re.sub(r"(`+)(.+?)\1", "", line) if inline else line)
    return "\n".join(out)


def slug(heading):
    """GitHub's anchor for a heading: lower case, inline markup dropped,
    punctuation other than '-' and '_' removed, spaces turned into '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = text.replace("`", "").replace("*", "")
    text = text.strip().lower()
    kept = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "-_" or cat[0] in "LN" or cat == "Mn":
            kept.append(ch)
        elif ch == " ":
            kept.append("-")
    return "".join(kept)


def anchors(path, cache):
    if path not in cache:
        names = set()
        seen = {}
        in_fence = False
        for line in path.read_text(encoding="utf-8").split("\n"):
            if re.match(r"^\s*(```|~~~)", line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            names.add(base if n == 0 else f"{base}-{n}")
        cache[path] = names
    return cache[path]


def doc_files(root):
    files = sorted(root.glob("*.md")) + sorted((root / "docs").glob("*.md"))
    return [f for f in files if f.is_file()]


def check_links(root):
    problems = []
    cache = {}
    for page in doc_files(root):
        text = strip_code(page.read_text(encoding="utf-8"))
        for lineno, line in enumerate(text.split("\n"), 1):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                where = f"{page.relative_to(root)}:{lineno}"
                path_part, _, anchor = target.partition("#")
                dest = (page.parent / path_part).resolve() if path_part else page
                if path_part and not dest.exists():
                    problems.append(f"{where}: link to {target}: {path_part} does not exist")
                    continue
                if anchor:
                    if dest.is_dir() or dest.suffix != ".md":
                        problems.append(f"{where}: link to {target}: an anchor into a file that is not Markdown")
                    elif anchor not in anchors(dest, cache):
                        problems.append(f"{where}: link to {target}: no heading with anchor #{anchor} in "
                                        f"{dest.relative_to(root) if dest.is_relative_to(root) else dest}")
    return problems


def variables_read(root):
    """{name: first place it is read}."""
    found = {}

    def scan(paths, pattern):
        for path in paths:
            if not path.is_file():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for lineno, line in enumerate(text.split("\n"), 1):
                for m in pattern.finditer(line):
                    found.setdefault(m.group(1), f"{path.relative_to(root)}:{lineno}")

    scan(sorted((root / "src").rglob("*.rs")) + [root / "build.rs"], RUST_ENV)
    scan(sorted((root / "scripts").glob("*.sh")) + sorted((root / "benches").glob("*.sh")), SHELL_ENV)
    py = [p for d in ("benches", "tools", "examples") for p in sorted((root / d).rglob("*.py"))]
    scan([p for p in py if p.name != "check_docs.py"], PY_ENV)
    c = [p for d in ("benches", "examples") for ext in ("*.c", "*.h") for p in sorted((root / d).rglob(ext))]
    scan(c, C_ENV)
    return {k: v for k, v in found.items() if k not in IGNORED}


# The page whose "Environment variables" table lists every variable the code reads.
ENV_PAGE = "docs/ENVIRONMENT.md"


def documented_variables(root):
    """The variables in the first column of the table under ENV_PAGE's
    heading "Environment variables" (of any level, up to the next heading);
    None when the page is missing."""
    page = root / ENV_PAGE
    if not page.is_file():
        return None
    names = set()
    in_section = False
    for line in strip_code(page.read_text(encoding="utf-8"), inline=False).split("\n"):
        m = HEADING.match(line)
        if m:
            in_section = m.group(2) == "Environment variables"
            continue
        if in_section and line.startswith("|"):
            first = line.split("|")[1]
            names.update(re.findall(r"`([A-Z][A-Z0-9_]*)`", first))
    return names


def check_variables(root):
    documented = documented_variables(root)
    if documented is None:
        return [f"{ENV_PAGE} is missing"]
    if not documented:
        return [f"{ENV_PAGE} has no \"Environment variables\" table"]
    return [f"{where}: reads {name}, which {ENV_PAGE}'s environment variable table does not list"
            for name, where in sorted(variables_read(root).items()) if name not in documented]


def check_tests(root):
    tests_dir = root / "ffi-tests"
    if not tests_dir.is_dir():
        return []
    groups = sorted(p.name for p in tests_dir.iterdir() if p.is_dir())
    names = {f"{f.parent.name}.{f.stem}" for ext in ("*.c", "*.cpp") for f in tests_dir.glob(f"*/{ext}")}
    for cmake in tests_dir.rglob("CMakeLists.txt"):
        names.update(re.findall(r'add_test\(NAME\s+"?([A-Za-z0-9_.]+)', cmake.read_text(encoding="utf-8")))
    rust = "\n".join(p.read_text(encoding="utf-8") for p in (root / "src").rglob("*.rs"))
    c_test = re.compile(r"`((?:%s)\.[A-Za-z0-9_]+)`" % "|".join(map(re.escape, groups))) if groups else None
    rust_test = re.compile(r"`(?:[A-Za-z_][A-Za-z0-9_]*::)*tests::([a-z_0-9]+)`")
    problems = []
    for page in doc_files(root):
        for lineno, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
            where = f"{page.relative_to(root)}:{lineno}"
            for m in c_test.finditer(line) if c_test else ():
                name = m.group(1)
                if name.rsplit(".", 1)[1] in ("rs", "c", "h", "md", "py", "txt", "sh"):
                    continue  # a file name, not a test
                if name not in names:
                    problems.append(f"{where}: names the C test {name}, which does not exist")
            for m in rust_test.finditer(line):
                if not re.search(r"\bfn %s\b" % re.escape(m.group(1)), rust):
                    problems.append(f"{where}: names the unit test {m.group(0)}, which does not exist")
    return problems


def check_msrv(root):
    """README.md states Cargo.toml's rust-version as the minimum Rust."""
    cargo = root / "Cargo.toml"
    readme = root / "README.md"
    if not cargo.is_file() or not readme.is_file():
        return []
    m = re.search(r'^rust-version\s*=\s*"([0-9.]+)"', cargo.read_text(encoding="utf-8"), re.M)
    if not m:
        return []
    wanted = f"**Rust {m.group(1)} or newer**"
    if wanted not in readme.read_text(encoding="utf-8"):
        return [f"README.md: does not say {wanted} (Cargo.toml's rust-version)"]
    return []


PGO_MENTION = re.compile(r"pgo|profile-guided", re.I)
SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
DURATION = re.compile(r"\b(?:about |under |over )?\d[\d,.]*(?: to \d[\d,.]*)?\s*(?:s|seconds?|min|minutes?)\b")
COMMIT = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")


def _shell_comment(line):
    """A shell line's comment text ("" for code); an item of a help list
    ("#   name ...", indented two or three spaces) is marked "- ", a list
    item, so that it starts a paragraph."""
    m = re.match(r"^\s*#+( *)(.*)$", line)
    if not m:
        return ""
    indent, rest = m.groups()
    return "- " + rest if rest and len(indent) in (2, 3) else rest


def paragraphs(path):
    """(first line, text, where each line starts in the text) of each
    paragraph, its lines joined with spaces: the
    blocks of a Markdown page (code blocks left out, inline code kept) that blank lines, list items,
    table rows and headings separate, or the comment blocks of a shell
    script, which blank comment lines and the items of a help list (a line
    "#   name ...", indented two or three spaces) separate."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".sh":
        lines = [_shell_comment(line) for line in text.split("\n")]
    else:
        lines = strip_code(text, inline=False).split("\n")
    out, start, block = [], 0, []
    for lineno, line in enumerate(lines + [""], 1):
        if block and re.match(r"^\s*(?:[-*+] |\d+[.)] |\||#)", line):  # a list item, table row or heading
            out.append((start, block))
            block = []
        if line.strip():
            if not block:
                start = lineno
            block.append(line.strip())
        elif block:
            out.append((start, block))
            block = []
    return [(start, " ".join(block), [sum(len(l) + 1 for l in block[:i]) for i in range(len(block))])
            for start, block in out]


def check_pgo_time(root):
    """Every statement of how long the profile-guided build takes, in the
    pages and in the scripts' help, gives the same duration and names the
    commit it was measured on (the same one). A statement is the first
    duration after a mention of pgo or "profile-guided" in the same sentence;
    its commit is a hash in that sentence, else in its paragraph."""
    statements, seen = [], set()
    files = doc_files(root) + sorted((root / "scripts").glob("*.sh"))
    for path in files:
        for start, para, offsets in paragraphs(path):
            for m in PGO_MENTION.finditer(para):
                lineno = start + bisect.bisect_right(offsets, m.start()) - 1
                end = SENTENCE_END.search(para, m.end())
                end = end.start() if end else len(para)
                d = DURATION.search(para, m.start(), end)
                if not d or (path, start, d.start()) in seen:  # that duration is counted once
                    continue
                seen.add((path, start, d.start()))
                commits = COMMIT.findall(para, m.start(), end) or COMMIT.findall(para)
                statements.append((f"{path.relative_to(root)}:{lineno}", d.group(0), commits[0] if commits else None))
    problems = [f"{where}: states the profile-guided build's time ({d}) without the commit it was measured on"
                for where, d, commit in statements if commit is None]
    figures = sorted({(d, commit) for _, d, commit in statements})
    if len(figures) > 1:
        problems.append("the profile-guided build's time is stated in different ways: " + "; ".join(
            f"{d} ({commit or 'no commit'}) at " + ", ".join(w for w, d2, c2 in statements if (d2, c2) == (d, commit))
            for d, commit in figures))
    return problems


def ctest_names(root):
    """The CTest tests of ffi-tests/ on Linux with the fault tests
    (WGPU_SHIM_FAULT_TESTS=ON, as scripts/sanitize.sh configures them): one
    per ffi-tests/<group>/<rule>.c or .cpp outside the helper folders
    (common, abi, wine, win32), plus every `add_test(NAME literal ...)` and
    `wgpu_abi_add_program(... NAME)` of the CMakeLists.txt files there
    (but the Windows-only win32.* and wine.* tests)."""
    tests_dir = root / "ffi-tests"
    names = set()
    for f in list(tests_dir.glob("*/*.c")) + list(tests_dir.glob("*/*.cpp")):
        if f.parent.name not in ("common", "abi", "wine", "win32"):
            names.add(f"{f.parent.name}.{f.stem}")
    for cmake in tests_dir.rglob("CMakeLists.txt"):
        # wine/ and win32/ register Windows-only tests.
        if cmake.parent.name in ("wine", "win32"):
            continue
        text = cmake.read_text(encoding="utf-8")
        added = re.findall(r'add_test\(NAME\s+"?([A-Za-z0-9_.]+)(?=["\s)])', text)
        names.update(n for n in added if not n.startswith(("win32.", "wine.")))
        names.update(re.findall(r"wgpu_abi_add_program\(\s*\S+\s+\S+\s+\S+\s+\S+\s+([A-Za-z0-9_.]+)\s*\)", text))
    return names


def valgrind_subset(root):
    """The tests that scripts/valgrind.sh's CI subset (its SUBSET) selects."""
    script = root / "scripts" / "valgrind.sh"
    m = re.search(r"^SUBSET='([^']*)'", script.read_text(encoding="utf-8"), re.M) if script.is_file() else None
    if not m:
        return None
    pattern = re.compile(m.group(1))
    return {n for n in ctest_names(root) if pattern.search(n)}


def python_hosted(root):
    """The Python-hosted tests: those ffi-tests/CMakeLists.txt's
    wgpu_shim_windows_skips gives a reason starting "Python-hosted"."""
    cmake = root / "ffi-tests" / "CMakeLists.txt"
    if not cmake.is_file():
        return None
    m = re.search(r"set\(wgpu_shim_windows_skips\b(.*?)\n\)", cmake.read_text(encoding="utf-8"), re.S)
    return re.findall(r"([A-Za-z0-9_.]+)\s+\"Python-hosted", m.group(1)) if m else None


def count_files(folder, pattern="*"):
    return len([f for f in folder.glob(pattern) if f.is_file()]) if folder.is_dir() else None


def wgpu_h_functions(root):
    header = root / "include" / "webgpu" / "wgpu.h"
    return len(re.findall(r"^WGPU_EXPORT\b", header.read_text(encoding="utf-8"), re.M)) if header.is_file() else None


def fuzz_targets(root):
    cargo = root / "fuzz" / "Cargo.toml"
    return len(re.findall(r"^\[\[bin\]\]", cargo.read_text(encoding="utf-8"), re.M)) if cargo.is_file() else None


def _len(x):
    return None if x is None else len(x)


# The counts the pages state that change with the tree, each computed here:
# (page, pattern whose groups n, n2... are the numbers, what is counted, how).
# Every match of the pattern in the page must give the tree's number. A space
# in a pattern matches any white space, a line break included.
COUNTS = [
    ("docs/RELIABILITY.md", r"all (?P<n>\d[\d,]*) CTests",
     "CTest tests on Linux with the fault tests", lambda r: len(ctest_names(r))),
    ("docs/RELIABILITY.md",
     r"the (?P<n>\d[\d,]*) fault tests|`fault\.\*`, (?P<n2>\d[\d,]*) tests|(?P<n3>\d[\d,]*) faults",
     "fault tests (ffi-tests/fault/*.c)", lambda r: count_files(r / "ffi-tests" / "fault", "*.c")),
    ("docs/RELIABILITY.md", r"the (?P<n>\d[\d,]*) Python-hosted tests",
     "Python-hosted tests (ffi-tests/CMakeLists.txt)", lambda r: _len(python_hosted(r))),
    ("docs/RELIABILITY.md", r"CI subset \(`scripts/valgrind\.sh`\) \| (?P<n>\d[\d,]*) tests|`scripts/valgrind\.sh` "
                            r"\((?P<n2>\d[\d,]*) tests\)",
     "tests of scripts/valgrind.sh's CI subset", lambda r: _len(valgrind_subset(r))),
    ("docs/RELIABILITY.md", r"\((?P<n>\d[\d,]*) targets",
     "fuzz targets (fuzz/Cargo.toml)", fuzz_targets),
    ("docs/RELIABILITY.md", r"(?P<n>\d[\d,]*) and (?P<n2>\d[\d,]*) files now",
     "files of fuzz/corpus/api_seq and api_seq_lost",
     lambda r: (count_files(r / "fuzz" / "corpus" / "api_seq"), count_files(r / "fuzz" / "corpus" / "api_seq_lost"))),
    ("docs/WGPU_NATIVE.md", r"Every one of the (?P<n>\d[\d,]*) functions `wgpu\.h` declares",
     "functions include/webgpu/wgpu.h declares (WGPU_EXPORT)", wgpu_h_functions),
]

# A count of tests in a page: a number, up to three words, then "tests".
TEST_COUNT = re.compile(r"\b\d[\d,]*(?: [A-Za-z`*.+-]+){0,3}? (?:C )?(?:tests|CTests)\b")


def check_counts(root):
    """Each count of COUNTS is the tree's; and every other count of tests in
    the pages (a number, up to three words, "tests") names, in its sentence
    or else its paragraph (a table row is one), the commit it was counted
    on."""
    problems = []
    checked = {}  # page: the patterns of the counts checked here
    for page, pattern, what, compute in COUNTS:
        path = root / page
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        pattern = pattern.replace(" ", r"\s+")
        matches = list(re.finditer(pattern, text))
        if not matches:
            continue  # no longer stated there: nothing to check
        want = compute(root)
        if want is None:
            continue
        want = want if isinstance(want, tuple) else (want,)
        checked.setdefault(page, []).append(pattern)
        for m in matches:
            got = tuple(int(v.replace(",", "")) for v in m.groups() if v is not None)
            if got != want[:len(got)]:
                lineno = text.count("\n", 0, m.start()) + 1
                problems.append(f"{page}:{lineno}: \"{m.group(0)}\": the tree has "
                                f"{' and '.join(map(str, want[:len(got)]))} {what}")
    for path in doc_files(root):
        page = str(path.relative_to(root))
        for start, para, offsets in paragraphs(path):
            spans = [c.span() for pattern in checked.get(page, ()) for c in re.finditer(pattern, para)]
            for m in TEST_COUNT.finditer(para):
                if any(a < m.end() and m.start() < b for a, b in spans):
                    continue  # computed above
                end = SENTENCE_END.search(para, m.end())
                before = max((s.end() for s in SENTENCE_END.finditer(para, 0, m.start())), default=0)
                sentence = para[before:end.start() if end else len(para)]
                if COMMIT.search(sentence) or COMMIT.search(para):
                    continue
                lineno = start + bisect.bisect_right(offsets, m.start()) - 1
                problems.append(f"{page}:{lineno}: \"{m.group(0)}\": a count of tests that check_docs does not "
                                f"compute (add it to COUNTS) and that names no commit it was counted on")
    return problems


def check_archive_links(root):
    """The documentation as tools/archive_docs.py puts it into the release
    archive (README.md, CHANGELOG.md, BENCHMARKS.md, docs/*.md,
    packaging/archive/INSTALL.md as INSTALL.md, links made to point inside
    the archive): every link resolves there."""
    import archive_docs  # beside this file; it imports this module

    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        archive_docs.stage(root, tree)
        return [f"in the release archive: {p}" for p in check_links(tree)]


def check(root):
    return (check_links(root) + check_variables(root) + check_tests(root) + check_msrv(root)
            + check_pgo_time(root) + check_archive_links(root) + check_counts(root))


def self_test():
    """Each bad tree must fail with the expected problem; the good one pass."""
    good_readme = ("# T\n\nSee [the guide](docs/G.md#a-b-c) and [the variables](docs/ENVIRONMENT.md).\n\n"
                   "```sh\n[not a link](nowhere.md)\n```\n")
    table = "| Variable | Meaning |\n|---|---|\n| `T_ONE`, `T_TWO` | x |\n"
    env_page = "# Environment variables\n\n" + table
    trees = {
        "good": ({}, None),
        "broken link": ({"README.md": good_readme.replace("docs/G.md", "docs/Missing.md")}, "does not exist"),
        "broken anchor": ({"docs/G.md": "# Guide\n\n## A, b: `c`\n\n[back](../README.md#nothing-here)\n"},
                          "no heading with anchor #nothing-here"),
        "missing variable": ({"scripts/x.sh": 'echo "${T_ONE:-}${T_THREE:-1}"\n'}, "reads T_THREE"),
        "variable in another section": ({"docs/ENVIRONMENT.md": env_page + "\n## Other\n\n| `T_THREE` | y |\n",
                                         "scripts/x.sh": 'echo "${T_ONE:-}${T_THREE:-1}"\n'}, "reads T_THREE"),
        "variable table in README only": ({"docs/ENVIRONMENT.md": "# Environment variables\n\nNone.\n",
                                           "README.md": good_readme + "\n## Environment variables\n\n" + table},
                                          "has no \"Environment variables\" table"),
        "no variable page": ({"docs/ENVIRONMENT.md": None, "docs/G.md": "# Guide\n\n## A, b: `c`\n",
                              "README.md": good_readme.replace("[the variables](docs/ENVIRONMENT.md)", "x")},
                             "docs/ENVIRONMENT.md is missing"),
        "missing test": ({"docs/G.md": "# Guide\n\n## A, b: `c`\n\nTests: `grp.there`, `grp.gone`.\n"},
                         "names the C test grp.gone"),
        "stale msrv": ({"Cargo.toml": '[package]\nrust-version = "1.99"\n',
                        "README.md": good_readme + "\n**Rust 1.90 or newer**\n"}, "does not say **Rust 1.99 or newer**"),
        "pgo time two ways": ({"README.md": good_readme + "\nThe `pgo` step took 291 s on commit d233f20.\n",
                               "scripts/install.sh": "#   --pgo   profile-guided (scripts/pgo.sh, "
                                                     "about 7 minutes on 1234abc)\n"},
                              "time is stated in different ways"),
        "archive link": ({"packaging/archive/INSTALL.md": "# Installing\n\n[the variables]"
                                                          "(../../README.md#no-such-heading)\n"},
                         "in the release archive: INSTALL.md:3: link to README.md#no-such-heading"),
        "wrong count": ({"docs/RELIABILITY.md": "# R\n\n| fault injection (`fault.*`, 2 tests) | x |\n",
                         "ffi-tests/fault/one.c": "int main(void) { return 0; }\n"},
                        "\"`fault.*`, 2 tests\": the tree has 1 fault tests"),
        "uncounted count": ({"docs/G.md": "# Guide\n\n## A, b: `c`\n\nAll 40 C tests pass.\n"},
                            "\"40 C tests\": a count of tests that check_docs does not compute"),
        "count with its commit": ({"docs/G.md": "# Guide\n\n## A, b: `c`\n\nAll 40 C tests passed on "
                                                "commit 1234abc.\n"}, None),
        "pgo and a time in another help item": ({"scripts/x.sh": '#   pgo     the profile-guided build\n'
                                                                '#   soak    stress.soak for 25 s\n'
                                                                'echo "${T_ONE:-}"\n'}, None),
        "pgo time without commit": ({"docs/G.md": "# Guide\n\n## A, b: `c`\n\nThe profile-guided build: two "
                                                  "builds, 6 to 7.5 minutes.\n"}, "without the commit"),
    }
    base = {
        "README.md": good_readme,
        "docs/G.md": "# Guide\n\n## A, b: `c`\n\n[back](../README.md#t) [variables](ENVIRONMENT.md#environment-variables)\n",
        "docs/ENVIRONMENT.md": env_page,
        "src/lib.rs": 'fn f() { let _ = std::env::var("T_TWO"); }\n',
        "scripts/x.sh": 'echo "${T_ONE:-}"\n',
        "ffi-tests/grp/there.c": "int main(void) { return 0; }\n",
    }
    failures = 0
    for name, (changes, expected) in trees.items():
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for rel, text in {**base, **changes}.items():
                if text is None:  # a file this tree leaves out
                    continue
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text, encoding="utf-8")
            problems = check(root)
            ok = not problems if expected is None else any(expected in p for p in problems)
            print(f"self-test {name}: {'ok' if ok else 'WRONG'} ({len(problems)} problem(s))")
            for p in problems:
                print(f"    {p}")
            failures += not ok
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--self-test", action="store_true", help="check that the checks catch what they should")
    parser.add_argument("--links-only", action="store_true",
                        help="check only the links and anchors (of DIR's *.md and docs/*.md)")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    root = args.root.resolve()
    if args.links_only:
        problems = check_links(root)
        for p in problems:
            print(p)
        print(f"check_docs: {len(doc_files(root))} pages, {len(problems)} link problem(s)")
        return 1 if problems else 0
    problems = check(root)
    for p in problems:
        print(p)
    pages = len(doc_files(root))
    if problems:
        print(f"check_docs: {len(problems)} problem(s) in {pages} pages")
        return 1
    print(f"check_docs: {pages} pages, every link resolves and every test named exists, the minimum Rust is "
          f"Cargo.toml's, the profile-guided build's time is stated one way with its commit, every link "
          f"of the release archive's documentation resolves in it, {len(COUNTS)} kinds of count are the tree's "
          f"and every other count of tests names its commit; "
          f"{len(variables_read(root))} environment variables read by the code, all in {ENV_PAGE}'s table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
