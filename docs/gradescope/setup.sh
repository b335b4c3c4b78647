#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu), with this
# zip unpacked in /autograder/source. It installs what the bots need and arbiter itself.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
# The languages of the submissions: keep the ones your course uses.
apt-get install -y --no-install-recommends python3 default-jdk-headless dotnet-sdk-8.0 \
  ca-certificates curl build-essential

# arbiter, built from the source in the zip (arbiter-src/, a copy of the repository): a Rust
# toolchain from rustup, as Ubuntu's own is older than arbiter needs.
if ! command -v arbiter >/dev/null 2>&1; then
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  "$HOME/.cargo/bin/cargo" install --locked --path /autograder/source/arbiter-src --root /usr/local
fi
arbiter --version
