#!/usr/bin/env bash
# Remakes the office samples in content/testdata with independent tools:
# budget.xlsx (formulas) by LibreOffice headless from budget.fods, and
# form.pdf (a PDF form) by Debian's python3-reportlab from form.py.
# Needs: apt-get install libreoffice-calc python3-reportlab
set -euo pipefail
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
soffice -env:UserInstallation="file://$tmp/profile" --headless --convert-to xlsx --outdir "$tmp" budget.fods >/dev/null
cp "$tmp/budget.xlsx" ../budget.xlsx
/usr/bin/python3 form.py
