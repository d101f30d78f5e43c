/* SPDX-License-Identifier: MIT */
/* bench/post.h — posting helpers shared by the tests (bench/post.c). */
#ifndef EEL_BENCH_POST_H
#define EEL_BENCH_POST_H

#include "bench.h"

int put_slot(struct session *s, int slot, uint64_t value);
int put_wait(struct session *s, const struct eel_mr *mr, const void *src, size_t len, const struct eel_window *dst,
	     uint64_t off, unsigned flags);
int poll_at_least(struct session *s, int want, const char *what);
int poll_until(struct session *s, uint32_t *completed, uint32_t target, const char *what);

#endif
