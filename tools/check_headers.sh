#!/usr/bin/env bash
# Compiles the public headers (include/webgpu/webgpu.h, wgpu.h, wgpu_shim.h)
# as every C and C++ standard they are meant for, with every compiler given,
# under -Wall -Wextra -Werror -pedantic, and fails if any compilation gives a
# diagnostic (each one is shown).
#
#   tools/check_headers.sh [COMPILER...]     (default: gcc clang)
#
# For each compiler and standard it compiles (-fsyntax-only) one translation
# unit per header, alone, and one that includes all three and evaluates every
# *_INIT macro they define (each expands to a C compound literal or a C++
# functional cast, so the macros are held to the same rules). C: c99 c11 c17
# c23; C++: c++11 c++14 c++17 c++20 c++23. A compiler that does not know a
# standard's final name gets its draft name (gcc 12 and clang 14: c2x for C23;
# clang 14: c++2b for C++23); the output says which spelling each used.
set -uo pipefail

for arg in "$@"; do
  case "$arg" in
    -h | --help)
      sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    -*)
      echo "check_headers.sh: unknown option $arg (the arguments are C compilers: gcc, clang, ...)" >&2
      exit 2
      ;;
  esac
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
inc="$root/include"
headers=(webgpu.h wgpu.h wgpu_shim.h)
compilers=("$@")
[ "${#compilers[@]}" -gt 0 ] || compilers=(gcc clang)
flags=(-Wall -Wextra -Werror -pedantic -fsyntax-only -I"$inc")

work="$(mktemp -d "${TMPDIR:-/tmp}/wgpu-shim-headers.XXXXXX")" || exit 1
trap 'rm -rf "$work"' EXIT

# The translation unit that uses every *_INIT macro of the three headers.
{
  for h in "${headers[@]}"; do
    printf '#include <webgpu/%s>\n' "$h"
  done
  echo 'void wgpu_shim_header_check(void);'
  echo 'void wgpu_shim_header_check(void) {'
  sed -n 's/^#define \(WGPU[A-Z0-9_]*_INIT\) .*/  (void)\1;/p' "${headers[@]/#/$inc/webgpu/}" | sort -u
  echo '}'
} >"$work/all.c"
macros="$(grep -c '(void)' "$work/all.c")"
if [ "$macros" -lt 50 ]; then
  echo "error: only $macros *_INIT macros found in $inc/webgpu (expected over 50)" >&2
  exit 1
fi
cp "$work/all.c" "$work/all.cpp"
for h in "${headers[@]}"; do
  printf '#include <webgpu/%s>\n' "$h" >"$work/${h%.h}.c"
  cp "$work/${h%.h}.c" "$work/${h%.h}.cpp"
done

# cxx_of COMPILER: the C++ driver beside a C compiler.
cxx_of() {
  case "$1" in
    gcc*) echo "g++${1#gcc}" ;;
    clang*) echo "clang++${1#clang}" ;;
    cc) echo "c++" ;;
    *) echo "$1" ;;
  esac
}

# spelling COMPILER LANG STD...: the first -std= spelling COMPILER accepts.
spelling() {
  local cc="$1" lang="$2" std
  shift 2
  for std in "$@"; do
    if "$cc" -x "$lang" -std="$std" -fsyntax-only - </dev/null >/dev/null 2>&1; then
      echo "$std"
      return 0
    fi
  done
  return 1
}

failed=0
checked=0
for cc in "${compilers[@]}"; do
  cxx="$(cxx_of "$cc")"
  missing=0
  for driver in "$cc" "$cxx"; do
    if ! command -v "$driver" >/dev/null 2>&1; then
      echo "FAIL $driver: not found"
      missing=1
    fi
  done
  if [ "$missing" -eq 1 ]; then
    failed=1
    continue
  fi
  printf '%s: %s\n' "$cc" "$("$cc" --version | head -n 1)"
  for std in c99 c11 c17 "c23 c2x" c++11 c++14 c++17 c++20 "c++23 c++2b"; do
    case "$std" in
      c++*) driver="$cxx" lang=c++ ext=cpp ;;
      *) driver="$cc" lang=c ext=c ;;
    esac
    # shellcheck disable=SC2086 # the alternatives are words
    if ! used="$(spelling "$driver" "$lang" $std)"; then
      echo "FAIL $driver: knows none of -std=${std// /, -std=}"
      failed=1
      continue
    fi
    local_fail=0
    for tu in "$work"/*."$ext"; do
      checked=$((checked + 1))
      if ! "$driver" -x "$lang" -std="$used" "${flags[@]}" "$tu" 2>"$work/err"; then
        echo "FAIL $driver -std=$used $(basename "$tu"):"
        head -n 20 "$work/err" | sed 's/^/    /'
        failed=1
        local_fail=1
      fi
    done
    [ "$local_fail" -eq 0 ] && printf '  ok   %-8s -std=%s\n' "$driver" "$used"
  done
done
echo "$checked compilations ($macros *_INIT macros), flags: ${flags[*]}"
[ "$failed" -eq 0 ]
