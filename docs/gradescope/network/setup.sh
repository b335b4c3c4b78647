#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the image:
# a JDK (for the player package and arbiter's Java host) and arbiter.
source "$(dirname "$0")/lib/install.sh"
install default-jdk-headless
install_arbiter
