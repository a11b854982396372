#!/usr/bin/env bash
# Remakes the office samples in content/testdata with independent tools:
# budget.xlsx (formulas) and libreoffice-schedule.pdf by LibreOffice
# headless from budget.fods and schedule.csv, chromium-report.pdf by
# Chromium's print to PDF from report.html, and form.pdf (a PDF form) by
# Debian's python3-reportlab from form.py.
# Needs: apt-get install libreoffice-calc python3-reportlab chromium
set -euo pipefail
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
soffice -env:UserInstallation="file://$tmp/profile" --headless --convert-to xlsx --outdir "$tmp" budget.fods >/dev/null
cp "$tmp/budget.xlsx" ../budget.xlsx
soffice -env:UserInstallation="file://$tmp/profile" --headless --convert-to pdf --outdir "$tmp" schedule.csv >/dev/null
cp "$tmp/schedule.pdf" ../libreoffice-schedule.pdf
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf="$tmp/report.pdf" report.html 2>/dev/null
cp "$tmp/report.pdf" ../chromium-report.pdf
/usr/bin/python3 form.py
