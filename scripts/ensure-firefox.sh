#!/usr/bin/env bash
# Installs Debian's Firefox ESR for the extension's Firefox run (packages/extension/test/
# firefox.test.ts) when it is missing; that test is skipped, saying so, where it cannot be.
set -euo pipefail
if [ -x /usr/bin/firefox-esr ]; then
  exit 0
fi
echo "Firefox ESR is missing: installing Debian's firefox-esr package (needs root)..."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends firefox-esr >/dev/null
/usr/bin/firefox-esr --version
