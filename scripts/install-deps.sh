#!/usr/bin/env bash
# Install what opcost needs and the machine lacks: gfortran (and gcov, which comes with GCC)
# from Debian's packages. Safe to run again: it only installs what is missing.
set -euo pipefail
need=()
command -v gfortran >/dev/null 2>&1 || need+=(gfortran)
command -v cargo >/dev/null 2>&1 || { echo "cargo is missing: install Rust (https://rustup.rs) first" >&2; exit 1; }
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
