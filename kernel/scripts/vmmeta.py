# SPDX-License-Identifier: GPL-2.0
"""vmmeta.py: the meta.txt that kernel/scripts/vm-run.sh writes beside a
guest run (label, kernel, QEMU and its arguments, the series' patches), read
once for every table script."""
import datetime
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


def run_date(dates):
    """when the guest runs were made: the earliest of their context dates, else now"""
    dates = sorted(d for d in dates if d)
    return dates[0] if dates else datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def make_command(target, debian_config, placement, *extra):
    """the make command a table says it was produced by"""
    return " ".join(["make -f Makefile.kernel", target, *extra] + (["KCONFIG=debian"] if debian_config else [])
                    + ([] if placement in ("", "same") else [f"PLACEMENT={placement}"]))
