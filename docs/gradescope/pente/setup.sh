#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the image: the seed's three languages
# (python3, g++ for C++11, a JDK) and arbiter.
source "$(dirname "$0")/lib/install.sh"
install default-jdk-headless
install_arbiter
