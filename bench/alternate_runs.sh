#!/bin/bash
# Runs two or more builds of animconv alternately on the same command line and prints, per build,
# the median wall clock (with quartiles and range) and the mean user and system time, from
# GNU time. Alternating, in one run, is how builds are compared on these noisy machines
# (docs/performance.md). A pause before every run lets the host take freed memory back, as it
# does between real jobs ("cold"); --pause 0 measures every run right after another ("hot").
#
#   bench/alternate_runs.sh [--rounds N] [--pause SECONDS] BIN... -- ARGS...
#
# Example (two builds, 16 rounds, cold):
#   bench/alternate_runs.sh --rounds 16 --pause 3 /tmp/old/animconv build/cli/animconv -- \
#     convert /tmp/walk120.csv -o /tmp/out.json --interval 0.008333333333333333
set -euo pipefail

rounds=10
pause=3
binaries=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --pause) pause="$2"; shift 2 ;;
    --) shift; break ;;
    *) binaries+=("$1"); shift ;;
  esac
done
if [[ ${#binaries[@]} -lt 1 || $# -lt 1 ]]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi

times_file=$(mktemp)
one_run=$(mktemp)
trap 'rm -f "$times_file" "$one_run"' EXIT
for ((round = 1; round <= rounds; ++round)); do
  for index in "${!binaries[@]}"; do
    sleep "$pause"
    if ! /usr/bin/time -o "$one_run" -f "%e %U %S" "${binaries[$index]}" "$@" >/dev/null 2>&1; then
      echo "alternate_runs: ${binaries[$index]} failed" >&2
      exit 1
    fi
    echo "$index $(cat "$one_run")" >>"$times_file"
  done
done

for index in "${!binaries[@]}"; do
  awk -v index_wanted="$index" '$1 == index_wanted { print $2, $3, $4 }' "$times_file" |
    sort -n |
    awk -v name="${binaries[$index]}" '
      { wall[NR] = $1; user_total += $2; system_total += $3 }
      END {
        median = NR % 2 ? wall[(NR + 1) / 2] : (wall[NR / 2] + wall[NR / 2 + 1]) / 2
        printf "%s: %d runs, wall median %.3f s (quartiles %.2f-%.2f, range %.2f-%.2f), user %.3f s, system %.3f s (means)\n",
          name, NR, median, wall[int(NR / 4) + 1], wall[int(3 * NR / 4) + 1], wall[1], wall[NR],
          user_total / NR, system_total / NR
      }'
done
