/* SPDX-License-Identifier: MIT */
/* bench/report/json.h — writing one JSON document: objects, arrays, numbers, strings.
 *
 * A thin layer over jansson (Debian libjansson-dev): the calls build the
 * document in memory and json_end() writes it whole, two spaces an indent,
 * members in the order they were given. Numbers keep ten significant digits
 * (what the bench measures is good to fewer); NaN and inf are written as
 * null (JSON has no NaN). Text that is not UTF-8 is kept readable: each byte
 * of an ill-formed sequence becomes the character of that value (U+0080 to
 * U+00FF), so the document stays JSON and the byte can be read back.
 */
#ifndef EEL_BENCH_JSON_H
#define EEL_BENCH_JSON_H

#include <stdint.h>
#include <stdio.h>

struct json_t;   /* jansson's value */

struct json {
	FILE *f;
	int depth;
	int failed;                  /* out of memory, or a call out of place */
	struct json_t *open[32];     /* the open containers, the document first */
};

void json_begin(struct json *j, FILE *f);      /* opens the top-level object */
/* Closes it and writes the document to the FILE; 0, or -1 when it could not
 * be built (out of memory, calls out of place: nothing is written then). A
 * write error (a full disk) is not -1: it shows in ferror(f), errno set. */
int json_end(struct json *j);
void json_obj(struct json *j, const char *key);   /* key may be NULL inside arrays */
void json_obj_end(struct json *j);
void json_arr(struct json *j, const char *key);
void json_arr_end(struct json *j);
void json_num(struct json *j, const char *key, double v);
/* Up to INT64_MAX exactly (jansson's integers are signed 64-bit); above it as
 * a real with ten digits, which is what a JSON reader's double holds anyway. */
void json_u64(struct json *j, const char *key, uint64_t v);
void json_str(struct json *j, const char *key, const char *v);
void json_bool(struct json *j, const char *key, int v);
/* null: a value that is not known (its reason beside it, where there is one) */
void json_none(struct json *j, const char *key);

#endif
