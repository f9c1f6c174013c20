# SPDX-License-Identifier: GPL-2.0
"""workload_env.py: where analysis/workloads' scripts run, in the tree or
installed, and what they share: their knotif-run, the commit they report,
their default output folder, one-line usage errors.

Installed (cmake --install), a script sits in PREFIX/bin beside knotif-run,
its data in PREFIX/share/knotif, this module in PREFIX/lib/python3/dist-packages;
in the tree, the script is analysis/workloads/NAME and knotif-run is build's."""
import argparse
import os
import subprocess
import sys


class Env:
    def __init__(self, script):
        self.prog = os.path.basename(script)
        self.here = os.path.dirname(os.path.abspath(script))
        self.root = os.path.normpath(os.path.join(self.here, "..", ".."))
        self.installed = (os.path.isfile(os.path.join(self.here, "knotif-run")) and
                          os.path.isdir(os.path.join(self.here, "..", "share", "knotif")))
        self.knotif_run = os.path.join(self.here if self.installed else os.path.join(self.root, "build"),
                                       "knotif-run")
        # results: the reference results in the tree; installed, ./knotif-workloads
        self.default_out = (os.path.join(os.getcwd(), "knotif-workloads") if self.installed
                            else os.path.join(self.root, "results", "workloads"))

    def die(self, msg, code=1):
        print(f"{self.prog}: {msg}", file=sys.stderr)
        sys.exit(code)

    def parser(self, **kw):
        """argparse whose usage errors are one line and exit 2"""
        env = self

        class Parser(argparse.ArgumentParser):
            def error(self, message):
                env.die(f"{message} (see --help)", 2)
        return Parser(**kw)

    def git_sha(self, knotif_run):
        """The commit measured: the tree's, or, installed or with another
        knotif-run given, the one that knotif-run was built from ("0.1.0 (SHA)")."""
        if self.installed or os.path.realpath(knotif_run) != os.path.realpath(self.knotif_run):
            out = subprocess.run([knotif_run, "--version"], capture_output=True, text=True).stdout
            return out.rsplit("(", 1)[-1].rstrip(")\n") if "(" in out else "unknown"
        return subprocess.run(["git", "-C", self.root, "describe", "--always", "--dirty", "--abbrev=12"],
                              capture_output=True, text=True).stdout.strip() or "unknown"

    def out_folder(self, path):
        """path made a folder this user can write (its parent must exist), or exit 2"""
        if os.path.exists(path) and not os.path.isdir(path):
            self.die(f"cannot write --out={path}: not a folder", 2)
        try:
            if not os.path.isdir(path):
                os.mkdir(path)	# one level: a mistyped path is an error, not a tree
        except OSError as e:
            self.die(f"cannot write --out={path}: {e.strerror or e}", 2)
        if not os.access(path, os.W_OK | os.X_OK):
            self.die(f"cannot write --out={path}: not writable", 2)
