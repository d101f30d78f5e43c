/* SPDX-License-Identifier: MIT */
/* tests/unit/test_flood_json.c — the flood's parameters in the JSON document
 * (bench/flood_report.c, flood_json_parameters): a G the flood measured is
 * written with its bandwidth and M; a G it could not measure (the largest
 * messages no slower than the smallest: flood_derive leaves G 0) is null with
 * why, and so are the bandwidth and M derived from it and their figures run
 * by run, never 0 ns/B (a bandwidth without bound), 0 B/ns or a stat of 0s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "check.h"
#include "bench/report/json.h"

static struct eel_clock clk = { .hz = 2e9, .ns_per_cycle = 0.5 };

/* A point of g ns at 8 bytes and G ns a byte beyond, q deep. */
static struct flood_point point(uint32_t size, uint32_t q, double g, double G)
{
	struct flood_point p = { .size = size, .q = q, .msgs = 100 };

	p.t.n = 4;
	p.t.min = p.t.median = p.t.p25 = p.t.p75 = p.t.max = p.t.mean = g + G * (size - 8);
	return p;
}

/* The JSON of the flood's parameters after flood_derive over pts: a
 * document of its own, in a buffer the caller frees. */
static char *json_of(struct flood_point *pts, int n)
{
	static const uint32_t sizes[] = { 8, 131072 };
	struct session s = { 0 };
	static struct results r;
	struct json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		perror("open_memstream");
		exit(1);
	}
	s.clk = &clk;
	s.plan.nsizes = 2;
	memcpy(s.plan.sizes, sizes, sizeof(sizes));
	s.plan.ndepths = 1;
	s.plan.depths[0] = 1;
	memset(&r, 0, sizeof(r));
	r.fl.pt = pts;
	r.fl.npt = n;
	r.fl.done = 1;
	flood_derive(&s, &r.fl);
	json_begin(&j, f);
	flood_json_parameters(&j, &s, &r);
	CHECK(json_end(&j) == 0, "json_end");
	fclose(f);
	return buf;
}

int main(void)
{
	struct flood_point flat[2] = { point(8, 1, 1000, 0), point(131072, 1, 1000, 0) };
	struct flood_point slope[2] = { point(8, 1, 1000, 0.125), point(131072, 1, 1000, 0.125) };
	char *out;

	out = json_of(flat, 2);
	CHECK(strstr(out, "\"ns_per_byte\": null") && strstr(out, "\"why\": \"" FLOOD_G_UNMEASURED "\""),
	      "G not measured: null with why, got\n%s", out);
	CHECK(strstr(out, "\"bandwidth_bytes_per_ns\": null") && strstr(out, "\"M_bytes\": null") &&
	      strstr(out, "\"from_size\": null"), "G not measured: bandwidth, M and from_size null, got\n%s", out);
	CHECK(!strstr(out, "\"ns_per_byte\": 0") && !strstr(out, "\"bandwidth_bytes_per_ns\": 0"),
	      "G not measured: no 0 ns/B or 0 B/ns, got\n%s", out);
	CHECK(strstr(out, "\"runs\": null") && strstr(out, "\"bandwidth_runs\": null") && strstr(out, "\"M_runs\": null"),
	      "G not measured: no stat of 0s run by run, got\n%s", out);
	free(out);

	out = json_of(slope, 2);
	CHECK(strstr(out, "\"ns_per_byte\": 0.125") && strstr(out, "\"bandwidth_bytes_per_ns\": 8") &&
	      strstr(out, "\"M_bytes\": 8000") && !strstr(out, "\"why\""),
	      "G measured: 0.125 ns/B, 8 B/ns, M 8000 B, no why, got\n%s", out);
	free(out);
	CHECK_DONE();
}
