#!/usr/bin/env bash
# `npm test`: type-check, lint (ESLint and Prettier, zero warnings), then every test of every
# project in vitest.config.ts (the e2e project builds the web client once, for the browser tests).
# Arguments go to vitest (`npm test -- --project unit`). Uses DATABASE_URL when set, the embedded
# database otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium for the browser tests..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The browser tests need Chromium. Install it with:  sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi

if [ -n "${DATABASE_URL:-}" ]; then echo "Database: $DATABASE_URL"; else echo "Database: embedded (PGlite, in memory per test file)"; fi
# The type check and the lint are one process each: side by side on two cores, each one's output
# printed whole after both end, and either one failing fails the run.
checks=$(mktemp -d)
npx tsc --noEmit -p . >"$checks/tsc" 2>&1 &
tsc_pid=$!
npm run --silent lint >"$checks/lint" 2>&1 &
lint_pid=$!
tsc_status=0; wait $tsc_pid || tsc_status=$?
lint_status=0; wait $lint_pid || lint_status=$?
cat "$checks/tsc" "$checks/lint"
rm -rf "$checks"
if [ $tsc_status -ne 0 ] || [ $lint_status -ne 0 ]; then
  echo "Type check exit $tsc_status, lint exit $lint_status" >&2
  exit 1
fi
mkdir -p test-output
status=0
# The bench project (the bench scripts' smoke run, about 75 s of one worker) is left to
# `npm run test:bench` so the suite stays within CI's 20 minutes; arguments choose projects as they like.
if [ $# -eq 0 ]; then set -- --project unit --project server --project security --project e2e; fi
npx vitest run --reporter=default --reporter=json --outputFile.json=test-output/results.json "$@" || status=$?
node -e '
  const r = require("./test-output/results.json");
  console.log(`Tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' 2>/dev/null || true
exit $status
