// SPDX-License-Identifier: GPL-2.0
/* The emulations knotif-run --emulate knows: one line each (emulation.h). */
#include "emulation.h"

extern const struct emulation mknod_emulation, mount_emulation, sysinfo_emulation;

const struct emulation *const emulations[] = {
	&mknod_emulation,
	&mount_emulation,
	&sysinfo_emulation,
	NULL,
};
