#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the image: the languages of the
# submissions (python3, a JDK, the .NET SDK: keep the ones your course uses) and arbiter.
source "$(dirname "$0")/lib/install.sh"
install default-jdk-headless dotnet-sdk-8.0
install_arbiter
