#!/usr/bin/env bash
# Instructions the aarch64 build executes under qemu-user on one fixed workload, by path (NEON
# and portable), and their ratio: the proxy for the NEON path's speed on a machine without ARM.
#   bash benches/arm/instructions.sh [BINARY] [N]
# BINARY: the program built for aarch64-unknown-linux-gnu (default: the cross build of .ci/aarch64);
# N: the board, `count N -j 1` (default 16: a second or two per path under qemu).
# Needs qemu-aarch64 (Debian: qemu-user), a C compiler and the aarch64 libraries
# (/usr/aarch64-linux-gnu, Debian: libc6-dev-arm64-cross).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../target/cross/aarch64-unknown-linux-gnu/release/nqueens}
n=${2:-16}
plugin=$(mktemp -d)/libinsns.so
cc -shared -fPIC -O2 -o "$plugin" "$here/insns.c"
count() {
    NQUEENS_ISA=$1 qemu-aarch64 -L /usr/aarch64-linux-gnu -plugin "$plugin" -d plugin \
        "$bin" count "$n" -j 1 -q 2>&1 | awk '/^instructions/ { print $2 }'
}
neon=$(count neon)
portable=$(count portable)
echo "count $n -j 1 under qemu: neon $neon, portable $portable instructions"
awk -v a="$neon" -v b="$portable" 'BEGIN { printf "neon / portable: %.3f\n", a / b }'
