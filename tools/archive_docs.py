#!/usr/bin/env python3
"""Puts the documentation into a release archive's tree, with every link
resolving inside the archive; run by scripts/package.sh.

    python3 tools/archive_docs.py TREE [--root DIR]

Copies into TREE (the unpacked archive's top folder):
  README.md, CHANGELOG.md, BENCHMARKS.md   as they are named in the repository
  docs/*.md                                docs/
  packaging/archive/INSTALL.md             INSTALL.md
  LICENSE*, LICENCE*, COPYING*             as they are named
and rewrites the relative links of the Markdown pages: a link to a page or
file that the archive ships points at it there (relative to the page's new
place); a link to anything else (source files, examples, .ci/run), which the
archive does not hold, is replaced by its text (the path in the source
repository). Links inside code are left as they are.

Then checks the tree's links with tools/check_docs.py's link check (every
relative link names a file there, every anchor a heading) and exits 1, one
line per problem, when one does not resolve. Prints what it copied.
"""

import argparse
import os
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_docs  # noqa: E402  (beside this file)

INLINE_CODE = re.compile(r"(`+).+?\1")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:")


def shipped(root):
    """{repository path: archive path} of every file the archive's
    documentation part holds."""
    files = {}
    for name in ("README.md", "CHANGELOG.md", "BENCHMARKS.md"):
        if (root / name).is_file():
            files[name] = name
    for page in sorted((root / "docs").glob("*.md")):
        files[f"docs/{page.name}"] = f"docs/{page.name}"
    if (root / "packaging/archive/INSTALL.md").is_file():
        files["packaging/archive/INSTALL.md"] = "INSTALL.md"
    for pattern in ("LICENSE*", "LICENCE*", "COPYING*"):
        for f in sorted(root.glob(pattern)):
            if f.is_file():
                files[f.name] = f.name
    return files


def rewrite_links(text, source, dest, files, root):
    """`text` of the page at repository path `source`, to be put at archive
    path `dest`, with its links rewritten (see the module's doc)."""

    def link(m):
        whole, target = m.group(0), m.group(1)
        if EXTERNAL.match(target):
            return whole
        path_part, hash_, anchor = target.partition("#")
        if not path_part:
            return whole  # an anchor in the same page
        resolved = os.path.normpath(os.path.join(os.path.dirname(source), path_part))
        if resolved in files:
            new = os.path.relpath(files[resolved], os.path.dirname(dest) or ".")
            return whole.replace(f"({target}", f"({new}{hash_}{anchor}", 1)
        # Not in the archive: keep the link's text.
        return re.match(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]", whole).group(1)

    out = []
    fence = None
    for line in text.split("\n"):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * 3
            elif line.strip().startswith(fence):
                fence = None
            out.append(line)
            continue
        if fence is not None:
            out.append(line)
            continue
        # A link that starts inside an inline code span is code, not a link.
        spans = [c.span() for c in INLINE_CODE.finditer(line)]
        out.append(check_docs.LINK.sub(
            lambda m: m.group(0) if any(a <= m.start() < b for a, b in spans) else link(m), line))
    return "\n".join(out)


def stage(root, tree):
    """Copies the documentation into `tree`; returns the archive paths."""
    files = shipped(root)
    for source, dest in files.items():
        target = tree / dest
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.endswith(".md"):
            text = (root / source).read_text(encoding="utf-8")
            target.write_text(rewrite_links(text, source, dest, files, root), encoding="utf-8")
        else:
            shutil.copyfile(root / source, target)
        target.chmod(0o644)
    return sorted(files.values())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path, help="the archive's top folder")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    root = args.root.resolve()
    tree = args.tree.resolve()
    tree.mkdir(parents=True, exist_ok=True)
    copied = stage(root, tree)
    print("archive_docs: " + ", ".join(copied))
    problems = check_docs.check_links(tree)
    for p in problems:
        print(f"archive_docs: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
