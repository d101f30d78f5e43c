/* SPDX-License-Identifier: MIT */
/* tools/report/gnuplot.h — rendering one plot with gnuplot (Debian's
 * gnuplot-nox: its svg and pngcairo terminals). */
#ifndef EEL_TOOLS_REPORT_GNUPLOT_H
#define EEL_TOOLS_REPORT_GNUPLOT_H

#include <stddef.h>

/* Writes DIR/gnuplot/NAME.gp (the terminal settings around body, which holds
 * its data inline) and runs gnuplot on it in DIR, giving DIR/NAME.svg and
 * DIR/NAME.png; gnuplot's messages go to DIR/gnuplot/NAME.log. On failure
 * writes one line to err and returns -1. */
int gp_render(const char *dir, const char *name, const char *body, char *err, size_t errlen);

/* "gnuplot" or $EEL_GNUPLOT: 0 when it runs and has the svg and pngcairo
 * terminals, else -1 and one line in err naming the fix. */
int gp_check(char *err, size_t errlen);

#endif
