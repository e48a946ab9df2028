#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan + UBSan, fuzz/CMakeLists.txt) in build-fuzz and runs
# each for SECONDS (default 60), one after another; FUZZ_JOBS=2 runs two at a time.
# Usage: scripts/fuzz.sh [SECONDS [FORMAT_ID...]]   (no ids: every harness)
# FUZZ_BUILD_DIR=DIR fuzzes from another build folder (default build-fuzz).
# FUZZ_CPU=1 makes SECONDS the harness's CPU time instead of the wall clock (the long by-hand run
# on a shared machine: "10 CPU-minutes per harness" is `FUZZ_CPU=1 scripts/fuzz.sh 600`): a
# watcher reads the process's CPU time from /proc every 5 s and interrupts it (SIGINT, which
# libFuzzer ends cleanly with its final stats) once it has had SECONDS.
# FUZZ_SEED=N fixes libFuzzer's random seed (default: a new one each run), so that a short run used
# as a gate explores the same inputs wherever it runs and its result reproduces; exploring with new
# seeds is the long by-hand run (docs/reliability.md; CI replays the corpora, it does not fuzz).
#
# Seeds: fuzz/corpus/<id>, fuzz/regressions/<id>, tests/bad/<id> (read only), and the third-party
# samples of ANIMCONV_SHARED_DATA with the reader's extensions when that folder exists (copied to
# build-fuzz/shared-seeds/<id>, never into the repository). Inputs that reach new code are kept in
# build-fuzz/corpus/<id>, so later runs continue from there. A finding leaves its input in
# build-fuzz/artifacts/<id>/ and the log in build-fuzz/logs/<id>.log; reproduce it with
# `build-fuzz/fuzz/fuzz_<id> ARTIFACT`. docs/reliability.md says what to do with it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
only=("$@")
jobs=${FUZZ_JOBS:-1}
seed=${FUZZ_SEED:-0}  # libFuzzer's -seed=0: a random seed
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
source scripts/clang_env.sh

# A build folder configured with ANIMCONV_FUZZ already (CI hands in build-asan, which
# `SANITIZE_FUZZ=1 scripts/sanitize.sh` built with the harnesses and the tests) is used as it is;
# otherwise build-fuzz holds the harnesses alone, with the sanitizer build's flags.
if ! grep -q '^ANIMCONV_FUZZ:BOOL=ON$' "$build_dir/CMakeCache.txt" 2>/dev/null; then
  cmake -S . -B "$build_dir" -DCMAKE_CXX_COMPILER="$CLANGXX" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$SANITIZE_OPT_FLAGS" \
    -DANIMCONV_FUZZ=ON -DANIMCONV_BUILD_TESTS=OFF -DANIMCONV_BUILD_BENCH=OFF \
    -DANIMCONV_WERROR=ON >/dev/null
fi
cmake --build "$build_dir" -j2

# True when no ids were given or $1 is one of them.
wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local id
  for id in "${only[@]}"; do
    if [ "$id" = "$1" ]; then return 0; fi
  done
  return 1
}

# Sends SIGINT to process $1 once its CPU time (user + system, its own and its waited-for
# children's: /proc/PID/stat fields 14 to 17, in clock ticks) reaches $2 seconds, and creates the
# file $3 to say so; returns when the process is gone. libFuzzer's SIGINT handler allocates, so an
# interrupt that lands inside ASan's allocator can deadlock it after its final stats (seen on
# fuzz_glb at 600 CPU-seconds, waiting on the allocator's futex): a process still there a minute
# later is killed, and the log (stats printed, no error) still tells a clean end.
watch_cpu() {
  local pid=$1 limit=$2 marker=$3 ticks
  ticks=$(getconf CLK_TCK)
  while [ -r "/proc/$pid/stat" ]; do
    local used
    used=$(awk '{print int(($14 + $15 + $16 + $17) / '"$ticks"')}' "/proc/$pid/stat" 2>/dev/null) ||
      return 0
    if [ "${used:-0}" -ge "$limit" ]; then
      touch "$marker"
      kill -INT "$pid" 2>/dev/null
      for _ in $(seq 60); do
        [ -r "/proc/$pid/stat" ] || return 0
        sleep 1
      done
      kill -KILL "$pid" 2>/dev/null
      return 0
    fi
    sleep 5
  done
}

# Runs one harness; its summary line goes to stdout, everything else to its log.
fuzz_one() {
  local binary=$1 id=$2 max_len=$3
  shift 3
  local corpus=$build_dir/corpus/$id artifacts=$build_dir/artifacts/$id log=$build_dir/logs/$id.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  local seeds=(fuzz/corpus/"$id")
  for folder in fuzz/regressions/"$id" tests/bad/"$id"; do
    if [ -d "$folder" ]; then seeds+=("$folder"); fi
  done
  if [ -d "$shared_data" ] && [ $# -gt 0 ]; then
    local shared=$build_dir/shared-seeds/$id extension
    rm -rf "$shared"
    mkdir -p "$shared"
    for extension in "$@"; do
      # Larger files would only be cut to max_len; the copies are named by content.
      find "$shared_data" -type f -iname "*$extension" -size -1024k -print0 |
        while IFS= read -r -d '' file; do
          cp "$file" "$shared/$(sha1sum "$file" | cut -c1-40)"
        done
    done
    seeds+=("$shared")
  fi
  # The time and memory bounds are checked per input by the harness itself (fuzz/resource_bounds.h:
  # CPU time 1 s + 0.2 s per MiB of input and output, 3 x (input + output) of heap). libFuzzer's
  # limits are backstops: -timeout for an input that never returns, in wall-clock seconds, so it
  # must exceed the harness's own CPU bound (x20 in this sanitizer build: 48 s for the 103-byte CSV
  # writing 7 MB, fuzz/regressions/csv) by what a shared machine slows it: that input took 61 s of
  # wall time beside two builds and came back as a "timeout" (300 s); -rss_limit_mb for memory
  # outside operator new (ASan's quarantine alone may hold 256 MiB of freed blocks, so RSS is no
  # measure of one).
  local timeout=300
  local wall_seconds=$seconds
  if [ "${FUZZ_CPU:-0}" = 1 ]; then wall_seconds=$((seconds * 50)); fi  # the watcher ends it first
  local options=(-max_total_time="$wall_seconds" -timeout="$timeout" -rss_limit_mb=2048 -max_len="$max_len"
    -artifact_prefix="$artifacts/" -print_final_stats=1 -seed="$seed")
  if [ -f fuzz/dict/"$id".dict ]; then options+=(-dict=fuzz/dict/"$id".dict); fi
  "$binary" "${options[@]}" "$corpus" "${seeds[@]}" >"$log" 2>&1 &
  local pid=$!
  local interrupted=$build_dir/logs/$id.interrupted
  rm -f "$interrupted"
  if [ "${FUZZ_CPU:-0}" = 1 ]; then watch_cpu "$pid" "$seconds" "$interrupted" & fi
  local status=0
  wait "$pid" || status=$?
  # libFuzzer 14 ends an interrupted run with a non-zero status (it has no -interrupted_exitcode):
  # the watcher's own interrupt with no error before it is a clean end.
  if [ "$status" -ne 0 ] && [ -f "$interrupted" ] &&
    grep -q "libFuzzer: run interrupted; exiting" "$log" && ! grep -q "==ERROR" "$log"; then
    status=0
  fi
  if [ "$status" -eq 0 ]; then
    local runs done_line cpu=""
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    done_line=$(sed -n 's/^#[0-9]*[[:space:]]*\(DONE\|INTERRUPTED\)[[:space:]]*//p' "$log")
    # An interrupted libFuzzer 14 prints no DONE line, only "run interrupted": its last status
    # line's coverage and corpus then.
    if [ -z "$done_line" ]; then
      done_line=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1 |
        sed -E 's/^#[0-9]+[[:space:]]+[A-Za-z]+[[:space:]]+//; s/[[:space:]]+(lim|exec\/s):.*//')
    fi
    if [ "${FUZZ_CPU:-0}" = 1 ]; then cpu=" of CPU time"; fi
    echo "fuzz: $id: clean, ${runs:-?} runs in $seconds s$cpu ($done_line)"
  else
    echo "fuzz: $id: FINDING; log $log, input in $artifacts/"
    grep -E "^(==[0-9]+==ERROR|SUMMARY|.*runtime error|terminate called|  what\(\))" "$log" |
      head -n 5 | sed 's/^/    /'
    return 1
  fi
}

shared_data=$(cat "$build_dir/fuzz/shared_data.txt")
failed=0
running=0
started=0
while read -r binary id max_len extensions; do
  if ! wanted "$id"; then continue; fi
  started=$((started + 1))
  # shellcheck disable=SC2086 # the extensions are separate words
  fuzz_one "$binary" "$id" "$max_len" $extensions &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done <"$build_dir/fuzz/targets.txt"
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
if [ "$started" -eq 0 ]; then
  echo "fuzz: no harness for ${only[*]}; see fuzz/CMakeLists.txt" >&2
  exit 1
fi
exit "$failed"
