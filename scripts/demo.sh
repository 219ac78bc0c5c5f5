#!/usr/bin/env bash
# The README's main command: installs what is missing, builds, and runs feedcheck on its
# embedded default example. (Grows into the full pre-flight demo: Azurite + sample logs.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
echo "demo: the embedded default is not wired yet"
