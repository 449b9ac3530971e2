#!/usr/bin/env bash
# Run every test of opcost: installs what is missing, then the whole workspace's tests
# (unit tests, real-gfortran end-to-end tests in quick mode).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo test --workspace --all-targets "$@"
