#!/usr/bin/env bash
# The installable package, as another project gets it: `npm pack`, install the tarball into a
# temporary project (with vitest, to run an emitted test), then run the CLI there: --version, a
# campaign, a replay of a baseline entry that emits a regression test, that test, and the
# trace viewer's page of the replay (--html).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tarball=$(npm pack --silent --pack-destination "$work" | tail -1)
mkdir "$work/project"
cd "$work/project"
echo '{ "name": "uses-mcp-sim", "private": true, "type": "module" }' > package.json
npm install --no-audit --no-fund --silent "$work/$tarball" vitest@4.1.12 vite@8.3.8 >/dev/null

echo "pack-check: $(npx mcp-sim --version) installed from $tarball"
test ! -e node_modules/mcp-sim/src || { echo "pack-check: the package ships src/"; exit 1; }
npx mcp-sim check --runs 200 > check.log 2>/dev/null || { tail -20 check.log; echo "pack-check: check failed"; exit 1; }
tail -1 check.log
entry='cancel.not-initialize memory reordered'
# A replay that reproduces a violation exits 1: the emitted file is what counts here.
npx mcp-sim replay --baseline "$entry" --emit-test regression.test.ts --emit-expect present > replay.log || true
grep -q '^reproduced: cancel.not-initialize' replay.log && test -s regression.test.ts || { cat replay.log; echo "pack-check: replay did not emit the test"; exit 1; }
npx vitest run regression.test.ts > vitest.log 2>&1 || { cat vitest.log; echo "pack-check: the emitted test failed"; exit 1; }
# The trace viewer's template ships in dist/: the page of a replay, with its report embedded.
npx mcp-sim replay --baseline "$entry" --html replay.html > html.log || true
grep -q '^html: replay.html' html.log && grep -q 'id="mcp-sim-report">{' replay.html || { cat html.log; echo "pack-check: replay --html wrote no page"; exit 1; }
echo "pack-check: replay --html wrote the viewer's page from the installed package"
echo "pack-check: the emitted test passes in a project that installed the package"
