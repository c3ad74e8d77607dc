#!/usr/bin/env bash
# The benchmark suite behind the README's performance table: nqueens side by side with the C
# yardstick (benches/baseline/baseline.c, one thread) in one hyperfine run per board size, every
# count checked against the published value.
#
#   bash benches/suite.sh [OUT_DIR]     # default OUT_DIR: target/suite
#
# Needs hyperfine and a C compiler (apt-get install hyperfine gcc). Takes about 6 minutes on two
# cores. Writes OUT_DIR/n17.md, n18.md, n19.md, n20.md (hyperfine's markdown) and OUT_DIR/machine.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/suite}
mkdir -p "$out"
for tool in hyperfine cc; do
  command -v "$tool" >/dev/null || { echo "suite.sh: $tool is not installed" >&2; exit 1; }
done

cargo build --release --quiet
bin=target/release/nqueens
cc -O3 -march=native -o "$out/baseline" benches/baseline/baseline.c

# Every count verified before anything is timed: a wrong count stops the suite.
for n in 17 18 19 20; do
  "$bin" count "$n" -q --json | grep -q '"verified":true' || { echo "n = $n not verified" >&2; exit 1; }
done

{
  echo "commit  $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "date    $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs) ($(nproc) CPUs)"
  echo "rustc   $(rustc --version)"
} | tee "$out/machine.txt"

hyperfine -N -w 1 -r 3 --export-markdown "$out/n17.md" \
  "$out/baseline 17" "$bin count 17 -j 1 -q" "$bin count 17 -j 2 -q" \
  "$bin count 17 -j 2 -q --engine symmetry"
hyperfine -N -w 1 -r 5 --export-markdown "$out/n18.md" \
  "$bin count 18 -j 1 -q" "$bin count 18 -j 2 -q"
hyperfine -N -w 0 -r 3 --export-markdown "$out/n19.md" \
  "$bin count 19 -j 1 -q" "$bin count 19 -j 2 -q"
hyperfine -N -w 0 -r 1 --export-markdown "$out/n20.md" "$bin count 20 -j 2 -q"
