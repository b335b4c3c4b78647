#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the image:
# python3 (for a1.py and arbiter's Python host) and arbiter.
source "$(dirname "$0")/lib/install.sh"
install
install_arbiter
