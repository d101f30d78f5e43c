/* SPDX-License-Identifier: MIT */
/* bench/report/csv.c — CSV rows (--csv FILE): one header for every row, a
 * row's cells (docs/json.md, "CSV"). Each number is written as the JSON
 * document holds it, with ten significant digits; an unknown one (NAN) is an
 * empty cell. The frame, which rows in which order: report_csv.c. */
#include <math.h>
#include <stdio.h>

#include "bench/report/csv.h"

void csv_header(FILE *f)
{
	fputs("test,figure,unit,bytes,n,value,min,median,mean,p99,p99_9,max,spread,bw_avg_gbit_per_s,msg_rate_mpps\n",
	      f);
}

struct csv_row csv_row(const char *test, const char *figure, const char *unit)
{
	struct csv_row row = { test, figure, unit, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };

	return row;
}

void csv_row_stat(struct csv_row *row, const struct stat *st)
{
	row->n = st->n;
	row->min = st->min;
	row->median = st->median;
	row->mean = st->mean;
	row->max = st->max;
	row->spread = st->spread;
}

static void cell(FILE *f, double v, int last)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	fputc(last ? '\n' : ',', f);
}

void csv_row_write(FILE *f, const struct csv_row *row)
{
	const double v[] = { row->bytes, row->n, row->value, row->min, row->median, row->mean, row->p99,
			     row->p99_9, row->max, row->spread, row->bw_avg_gbit_per_s, row->msg_rate_mpps };
	const int nv = (int)(sizeof(v) / sizeof(v[0]));

	fprintf(f, "%s,%s,%s,", row->test, row->figure, row->unit);
	for (int i = 0; i < nv; i++)
		cell(f, v[i], i == nv - 1);
}
