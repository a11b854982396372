#!/usr/bin/python3
"""Makes ../form.pdf, a one-page PDF form, with Debian's python3-reportlab:
an independent PDF writer, so convfiles' form reading and filling is tested
against a form it did not make. Run: /usr/bin/python3 form.py"""
import os

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "form.pdf")
c = canvas.Canvas(out, pagesize=A4, invariant=1)
c.setTitle("Membership application")
c.setAuthor("convfiles tests")
c.setFont("Helvetica", 14)
c.drawString(72, 760, "Membership application")
c.setFont("Helvetica", 11)
c.drawString(72, 712, "Name:")
c.acroForm.textfield(name="full_name", x=140, y=700, width=300, height=24, borderWidth=1)
c.drawString(72, 672, "City:")
c.acroForm.textfield(name="city", x=140, y=660, width=300, height=24, borderWidth=1)
c.drawString(72, 632, "Subscribe:")
c.acroForm.checkbox(name="subscribe", x=140, y=626, size=18, checked=False)
c.drawString(72, 592, "Plan:")
c.acroForm.choice(name="plan", x=140, y=580, width=150, height=24, options=["basic", "plus", "pro"], value="basic")
c.showPage()
c.save()
