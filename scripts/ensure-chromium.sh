#!/usr/bin/env bash
# Installs Debian's Chromium for the end-to-end tests when it is missing. Playwright's own
# browser download cannot work on our machines, so e2e drives /usr/bin/chromium.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "Chromium is missing: installing Debian's chromium package (needs root)..."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
/usr/bin/chromium --version
