# SPDX-License-Identifier: GPL-2.0
"""stress_pending.py: the pending-notification curve a guest's
knotif-stress --pending wrote (knotif-stress-pending.json in a vm-run.sh run
directory), read once for every table script."""
import os

import gbrows  # the one reader of Google Benchmark rows (scripts/, on the caller's path)


def curve(d):
    """M -> {"send": [p50...], "id_valid": [p50...]} over the repetitions, or
    None when the guest wrote no curve"""
    path = os.path.join(d, "knotif-stress-pending.json")
    if not os.path.exists(path):
        return None
    out = {}
    for r in gbrows.runs(gbrows.load(path)).values():
        for b in r["iterations"]:
            if "pending" not in b:
                continue
            m = out.setdefault(int(b["pending"]), {"send": [], "id_valid": []})
            m["send"].append(b["send_p50"])
            m["id_valid"].append(b["id_valid_p50"])
    return out
