#!/usr/bin/env bash
# Debian packages the tests need: Chromium for the browser tests (Playwright drives
# /usr/bin/chromium; browser downloads are impossible here), Pango and fonts for WeasyPrint,
# gettext for compilemessages, poppler (pdftoppm) and zbar (zbarimg) to read the QR codes of the
# printed PDFs back, a C compiler for the tests of the seat-plan generators (tools/seating_plans),
# Node.js and npm for ESLint and the JavaScript's unit tests. Installs only what is missing, and
# only as root.
set -euo pipefail

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
ldconfig -p 2>/dev/null | grep -q 'libpango-1.0' || need+=(libpango-1.0-0 libpangoft2-1.0-0)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# The condensed faces of the lists drawn with ReportLab (tournament/exports/drawn.py).
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf ] || need+=(fonts-dejavu-extra)
command -v msgfmt >/dev/null || need+=(gettext)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
command -v zbarimg >/dev/null || need+=(zbar-tools)
command -v cc >/dev/null || need+=(gcc)
[ -e /usr/include/stdio.h ] || need+=(libc6-dev)
# Node.js for ESLint and the JavaScript unit tests (make lint, make jstest).
command -v node >/dev/null || need+=(nodejs npm)

[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "Missing Debian packages: ${need[*]}" >&2
  echo "Install them with: sudo apt-get install ${need[*]}" >&2
  exit 1
fi
echo "Installing Debian packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
