# What every course's setup.sh shares; each one sources this file.
#
# Gradescope runs setup.sh once, as root, when it builds the autograder's image (Ubuntu), with
# the zip unpacked in /autograder/source.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

# install PACKAGE...: the languages the course's submissions need, from Ubuntu's archive, and
# what building arbiter needs.
install() {
  apt-get update
  apt-get install -y --no-install-recommends python3 ca-certificates curl build-essential "$@"
}

# install_arbiter: arbiter, built from the source in the zip (arbiter-src/, a copy of the
# repository) with a Rust toolchain from rustup, as Ubuntu's own is older than arbiter needs.
# A prebuilt `arbiter` already on PATH (copied to /usr/local/bin) is kept.
install_arbiter() {
  if ! command -v arbiter >/dev/null 2>&1; then
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    "$HOME/.cargo/bin/cargo" install --locked --path /autograder/source/arbiter-src --root /usr/local
  fi
  arbiter --version
}
