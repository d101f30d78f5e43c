/* SPDX-License-Identifier: MIT */
/* bench/machine.c — facts about this machine for the report. */
#include <stdio.h>
#include <string.h>

#include "bench.h"

void machine_cpu_model(char *out, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(out, n, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && (!strncmp(line, "model name", 10) || !strncmp(line, "Model", 5))) {
			colon += 2;
			colon[strcspn(colon, "\n")] = 0;
			snprintf(out, n, "%s", colon);
			break;
		}
	}
	fclose(f);
}
