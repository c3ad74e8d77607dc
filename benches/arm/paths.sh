#!/usr/bin/env bash
# Times each instruction-set path of this machine side by side (on ARM: NEON and portable), so
# that an ARM user can say what the NEON path gains there:
#   bash benches/arm/paths.sh [N...]      (default: 17 18)
# Uses hyperfine when it is installed (alternating runs, mean ± σ), else three timed runs each.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --bin nqueens
bin=target/release/nqueens
case $(uname -m) in
    aarch64 | arm64) paths="neon portable" ;;
    x86_64) paths="avx512 avx2 portable" ;;
    *) paths="portable" ;;
esac
"$bin" bench --n 8 --threads 1 --runs 1 --warmup 0 2>/dev/null | grep -E '^(cpu|dispatch)'
for n in "${@:-17 18}"; do
    runs=()
    for path in $paths; do
        # A path this CPU lacks is refused (exit 2): left out.
        NQUEENS_ISA=$path "$bin" count 4 -q >/dev/null 2>&1 || continue
        runs+=("$path")
    done
    if command -v hyperfine >/dev/null; then
        args=()
        for path in "${runs[@]}"; do
            args+=(-n "$path" "NQUEENS_ISA=$path $bin count $n -j 1 -q")
        done
        hyperfine -w 1 -r 5 "${args[@]}"
    else
        for path in "${runs[@]}"; do
            for _ in 1 2 3; do
                start=$(date +%s.%N)
                NQUEENS_ISA=$path "$bin" count "$n" -j 1 -q >/dev/null
                echo "count $n -j 1, $path: $(echo "$(date +%s.%N) - $start" | bc) s"
            done
        done
    fi
done
