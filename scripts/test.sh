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

echo "Node: $(node --version) ($(command -v node))"
if [ -n "${DATABASE_URL:-}" ]; then echo "Database: $DATABASE_URL"; else echo "Database: embedded (PGlite, in memory per test file)"; fi
# The type check and the lint's three parts run side by side on two cores (ESLint alone is the
# longest; one after another they took about two minutes), each one's output printed whole after
# all end, and any one failing fails the run.
checks=$(mktemp -d)
pids=()
names=(typecheck lint:eslint lint:cycles lint:format lint:i18n)
# With the default projects, the browser tests' build of the web client is made meanwhile too
# (test/build-client.ts): ESLint keeps one core, the rest fit on the other.
if [ $# -eq 0 ]; then names+=(client-build); fi
for name in "${names[@]}"; do
  case "$name" in
    typecheck) npx tsc --noEmit -p . >"$checks/$name" 2>&1 & ;;
    client-build) npx tsx test/build-client.ts >"$checks/$name" 2>&1 & ;;
    *) npm run --silent "$name" >"$checks/$name" 2>&1 & ;;
  esac
  pids+=($!)
done
failed=()
for i in "${!names[@]}"; do
  wait "${pids[$i]}" || failed+=("${names[$i]}")
  cat "$checks/${names[$i]}"
done
rm -rf "$checks"
if [ ${#failed[@]} -ne 0 ]; then
  echo "Failed: ${failed[*]}" >&2
  exit 1
fi
mkdir -p test-output
status=0
# The bench project (the bench scripts' smoke run, about 75 s of one worker) is left to
# `npm run test:bench` so the suite stays within CI's 20 minutes; arguments choose projects as they like.
if [ $# -eq 0 ]; then set -- --project unit --project server --project security --project security-isolated --project e2e; fi
npx vitest run --reporter=default --reporter=json --outputFile.json=test-output/results.json "$@" || status=$?
node -e '
  const r = require("./test-output/results.json");
  console.log(`Tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' 2>/dev/null || true
exit $status
