# SPDX-License-Identifier: GPL-2.0
"""knotif-report: one self-contained HTML page (inline SVG) from knotif results."""
