#!/usr/bin/env bash
# What CI runs for the Rust implementation (issue 14): build it offline, its unit tests, then, from the repository root,
# the kit over stdio against it (every suite), exact parity with the TypeScript reference on every suite,
# and the SK1–SK8 harness self-test with the Rust driver. Exits non-zero on the first failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/build.sh"
(cd "$here" && cargo test --release --locked --quiet)
cd "$here/../.."
D="implementations/rust/target/release/skill-driver"
npm run conformance -- --smoke --exec "$D"
for dir in conformance/cases conformance/cases-*/; do
  suite="$(basename "$dir")"
  suite="${suite#cases-}"
  [ "$suite" = cases ] && suite=spec
  npm run conformance -- --suite "$suite" --profile exact --exec "$D"   # every rule scored: spec, decisions, rendering
  npm run conformance -- --suite "$suite" --parity --reference --exec "$D"
done
npm run e2e -- --model scripted:good -n 1 --exec "$D"
