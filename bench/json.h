/* bench/json.h — a small JSON writer: objects, arrays, numbers, strings. */
#ifndef EEL_BENCH_JSON_H
#define EEL_BENCH_JSON_H

#include <stdint.h>
#include <stdio.h>

struct json {
	FILE *f;
	int depth;
	int first[32];   /* no member written yet at this depth */
};

void json_begin(struct json *j, FILE *f);      /* opens the top-level object */
void json_end(struct json *j);                 /* closes it */
void json_obj(struct json *j, const char *key);   /* key may be NULL inside arrays */
void json_obj_end(struct json *j);
void json_arr(struct json *j, const char *key);
void json_arr_end(struct json *j);
void json_num(struct json *j, const char *key, double v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_str(struct json *j, const char *key, const char *v);
void json_bool(struct json *j, const char *key, int v);

#endif
