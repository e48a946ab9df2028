# shellcheck shell=bash
# Sourced by scripts/sanitize.sh and scripts/fuzz.sh. Sets CLANGXX to a clang++ that has the
# sanitizer and libFuzzer runtimes (installing Debian's clang-14 and libclang-rt-14-dev when
# there is none), and points ASan at llvm-symbolizer so reports name files and lines.
# CLANGXX may be set by the caller to use another clang.

has_fuzzer_runtime() {
  command -v "$1" >/dev/null 2>&1 &&
    [ -f "$("$1" -print-file-name="libclang_rt.fuzzer-$(uname -m).a")" ]
}

if [ -z "${CLANGXX:-}" ]; then
  for candidate in clang++-14 clang++; do
    if has_fuzzer_runtime "$candidate"; then
      CLANGXX=$candidate
      break
    fi
  done
fi
if [ -z "${CLANGXX:-}" ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "clang: installing clang-14 libclang-rt-14-dev"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    clang-14 libclang-rt-14-dev llvm-14 >/dev/null
  CLANGXX=clang++-14
fi
has_fuzzer_runtime "$CLANGXX" || {
  echo "clang: $CLANGXX lacks the libFuzzer runtime (libclang-rt-*-dev)" >&2
  exit 1
}
export CLANGXX
# The sanitizer and fuzz builds' optimisation (their CMAKE_CXX_FLAGS_RELWITHDEBINFO): -O1, what
# ASan's documentation advises, and line tables only: reports and stack traces keep file and
# line, and the builds skip full debug info, which took a third of the compile time
# (docs/testing.md, "CI time").
export SANITIZE_OPT_FLAGS=${SANITIZE_OPT_FLAGS:-"-O1 -gline-tables-only -DNDEBUG"}

symbolizer=$(command -v "$("$CLANGXX" -print-prog-name=llvm-symbolizer)" || true)
if [ -n "$symbolizer" ]; then export ASAN_SYMBOLIZER_PATH=$symbolizer; fi
# Every report is fatal; leaks count; stack traces for UBSan too.
asan_options=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
asan_options+=:check_initialization_order=1:strict_init_order=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-$asan_options}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Leaks inside Debian's libassimp on rejected files are upstream bugs (scripts/lsan.supp).
# print_suppressions=0: the CLI tests expect exactly the error line on stderr.
lsan_supp=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lsan.supp
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$lsan_supp:print_suppressions=0}
