/* SPDX-License-Identifier: MIT */
/* tools/json_read.h — a strict JSON reader (RFC 8259) for eel's tools, over
 * jansson (Debian libjansson-dev), which does the parsing.
 *
 * jr_parse() reads a whole document into a tree of jr_val nodes held by one
 * jr_doc (freed at once by jr_free). Malformed or truncated input never
 * crashes: it gives NULL and one line saying what is wrong and where, e.g.
 * "truncated at byte 1234 (line 40, column 3): the document ends too soon
 * ('}' expected near end of file)": "truncated" when jansson stopped at the
 * end of the input (a file written by a run that died), "malformed" when it
 * stopped at a wrong byte inside it (jansson's position: just past the token
 * it could not take). Strings must be UTF-8, an object may not repeat a key,
 * numbers beyond JR_NUM_MAX are refused ("out of range at PATH"). Nesting
 * depth ("too deep at PATH"), document size and node count ("too large")
 * are bounded.
 *
 * Lookups take a path of keys and array indices: "parameters.eel.ns.min",
 * "bulk.points[2].size", "[0]" on an array. A key holding '.' or '[' can be
 * reached with jr_key(). JSON null is a value of its own: jr_num() refuses
 * it, so a number the writer could not represent (eel-bench writes NaN and
 * inf as null) reads as absent.
 */
#ifndef EEL_TOOLS_JSON_READ_H
#define EEL_TOOLS_JSON_READ_H

#include <stddef.h>

enum jr_type { JR_NULL, JR_BOOL, JR_NUM, JR_STR, JR_ARR, JR_OBJ };

/* The largest magnitude a number may have: nothing eel writes comes near it
 * (ns, bytes, Hz), and a plot's arithmetic on it cannot overflow. */
#define JR_NUM_MAX 1e30

struct jr_val {
	enum jr_type type;
	const char *key;          /* the member's key when the parent is an object, else NULL */
	double num;               /* JR_NUM; JR_BOOL: 0 or 1 */
	const char *str;          /* JR_STR: decoded UTF-8, NUL-terminated (may hold NULs: see len) */
	size_t len;               /* JR_STR: bytes; JR_ARR, JR_OBJ: members */
	struct jr_val **kids;     /* JR_ARR, JR_OBJ: the members in document order */
};

struct jr_limits {
	size_t max_bytes;         /* larger documents are refused (default 16 MiB) */
	size_t max_nodes;         /* values in all (default 2,000,000) */
	int max_depth;            /* nested arrays and objects (default 64) */
};

struct jr_doc;

/* The whole of buf[0..len) must be one JSON value, with only white space
 * around it. lim may be NULL for the defaults. On error returns NULL and
 * writes one line to err (no file name, no newline, printable ASCII). */
struct jr_doc *jr_parse(const char *buf, size_t len, const struct jr_limits *lim, char *err, size_t errlen);

/* Reads and parses a file. Errors are prefixed with the path:
 * "run.json: truncated at byte 1234: ...", "run.json: cannot open: No such file". */
struct jr_doc *jr_parse_file(const char *path, const struct jr_limits *lim, char *err, size_t errlen);

void jr_free(struct jr_doc *d);
const struct jr_val *jr_root(const struct jr_doc *d);

/* Lookups: NULL when v is NULL, the path does not exist, or a step meets the
 * wrong type. An empty path is v itself. A malformed path gives NULL. */
const struct jr_val *jr_get(const struct jr_val *v, const char *path);
const struct jr_val *jr_key(const struct jr_val *obj, const char *key);
const struct jr_val *jr_at(const struct jr_val *arr, size_t i);

/* Typed lookups: 1 when the path holds a value of that type (copied to *out), else 0. */
int jr_num(const struct jr_val *v, const char *path, double *out);
int jr_bool(const struct jr_val *v, const char *path, int *out);
/* The string at path, or NULL. */
const char *jr_str(const struct jr_val *v, const char *path);
/* Members of the array or object at path; 0 when there is none. */
size_t jr_len(const struct jr_val *v, const char *path);

const char *jr_type_name(enum jr_type t);

/* s (a string of a document: a host name, a URI) with anything but printable
 * ASCII shown as '?', in place: safe to print on a terminal, one line. */
void jr_printable(char *s);

#endif
