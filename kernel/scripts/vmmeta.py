# SPDX-License-Identifier: GPL-2.0
"""vmmeta.py: the meta.txt that kernel/scripts/vm-run.sh writes beside a
guest run (label, kernel, QEMU and its arguments, the series' patches), read
once for every table script."""
import os


def load_meta(d):
    """meta.txt of run directory d: {key: value}, with "patches" a list"""
    meta, patches, key = {}, [], None
    with open(os.path.join(d, "meta.txt")) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("  ") and key == "patches":
                patches.append(line.strip())
                continue
            if ":" in line:
                key, _, val = line.partition(":")
                meta[key.strip()] = val.strip()
    meta["patches"] = patches
    return meta
