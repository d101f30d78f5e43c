/* tools/json_read.c — a small, strict JSON reader (RFC 8259): see json_read.h.
 *
 * One recursive-descent pass over the bytes builds the tree in an arena owned
 * by the document. Every error names the byte it was found at, and whether
 * the document was cut short (the input ended where more was due: a file
 * written by a run that died) or is malformed (a wrong byte). */
#include "json_read.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEF_MAX_BYTES ((size_t)16 << 20)
#define DEF_MAX_NODES ((size_t)2000000)
#define DEF_MAX_DEPTH 64
#define BLOCK_BYTES   ((size_t)64 << 10)

struct block {
	struct block *next;
	size_t used, cap;
	max_align_t data[];
};

struct jr_doc {
	struct jr_val *root;
	struct block *blocks;
};

struct parser {
	const unsigned char *s;
	size_t n, i;
	struct jr_doc *d;
	struct jr_limits lim;
	size_t nodes;
	int depth;
	int failed;
	char *err;
	size_t errlen;
	struct jr_val **stack;    /* members of the open containers, innermost last */
	size_t sp, scap;
};

/* ---- memory ---- */

static void *arena(struct parser *p, size_t size)
{
	struct block *b = p->d->blocks;
	size_t al = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);

	if (!b || b->cap - b->used < al) {
		size_t cap = al > BLOCK_BYTES ? al : BLOCK_BYTES;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->cap = cap;
		b->used = 0;
		if (p->d->blocks && al > BLOCK_BYTES) {
			/* a large one goes behind the current block, which keeps its free space */
			b->next = p->d->blocks->next;
			p->d->blocks->next = b;
		} else {
			b->next = p->d->blocks;
			p->d->blocks = b;
		}
	}
	b->used += al;
	return (char *)b->data + b->used - al;
}

void jr_free(struct jr_doc *d)
{
	if (!d)
		return;
	for (struct block *b = d->blocks, *nx; b; b = nx) {
		nx = b->next;
		free(b);
	}
	free(d);
}

/* ---- errors ---- */

static void where(const struct parser *p, size_t at, char *buf, size_t len)
{
	size_t line = 1, col = 1;

	for (size_t k = 0; k < at && k < p->n; k++) {
		if (p->s[k] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(buf, len, "byte %zu (line %zu, column %zu)", at, line, col);
}

static int fail(struct parser *p, const char *kind, size_t at, const char *fmt, ...)
{
	char w[96], msg[200];
	va_list ap;

	if (p->failed)
		return -1;
	p->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	where(p, at, w, sizeof(w));
	snprintf(p->err, p->errlen, "%s at %s: %s", kind, w, msg);
	return -1;
}

#define TRUNC(p, ...) fail(p, "truncated", (p)->n, __VA_ARGS__)
#define BAD(p, at, ...) fail(p, "malformed", at, __VA_ARGS__)

static int oom(struct parser *p)
{
	return fail(p, "out of memory", p->i, "the document needs more memory than this machine gave");
}

static const char *show(int c, char *buf, size_t len)
{
	if (c >= 0x21 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c & 0xff);
	return buf;
}

/* s, cut at 40 bytes, with control bytes shown as '?': safe inside a one-line message. */
static const char *printable(const char *s, char *buf, size_t len)
{
	size_t k = 0;

	for (; s[k] && k + 1 < len && k < 40; k++)
		buf[k] = (unsigned char)s[k] < 0x20 || s[k] == 0x7f ? '?' : s[k];
	buf[k] = 0;
	return buf;
}

/* ---- scanning ---- */

static void ws(struct parser *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
		p->i++;
}

static struct jr_val *node(struct parser *p, enum jr_type t, size_t off)
{
	struct jr_val *v;

	if (++p->nodes > p->lim.max_nodes) {
		fail(p, "too large", off, "more than %zu values: the limit for one document", p->lim.max_nodes);
		return NULL;
	}
	v = arena(p, sizeof(*v));
	if (!v) {
		oom(p);
		return NULL;
	}
	memset(v, 0, sizeof(*v));
	v->type = t;
	v->off = off;
	return v;
}

static int push(struct parser *p, struct jr_val *v)
{
	if (p->sp == p->scap) {
		size_t cap = p->scap ? p->scap * 2 : 256;
		struct jr_val **s = realloc(p->stack, cap * sizeof(*s));

		if (!s)
			return oom(p);
		p->stack = s;
		p->scap = cap;
	}
	p->stack[p->sp++] = v;
	return 0;
}

/* Moves the members pushed since base into the container. */
static int adopt(struct parser *p, struct jr_val *c, size_t base)
{
	c->len = p->sp - base;
	if (c->len) {
		c->kids = arena(p, c->len * sizeof(*c->kids));
		if (!c->kids)
			return oom(p);
		memcpy(c->kids, p->stack + base, c->len * sizeof(*c->kids));
	}
	p->sp = base;
	return 0;
}

static int hex4(const unsigned char *s, unsigned *out)
{
	unsigned v = 0;

	for (int k = 0; k < 4; k++) {
		int c = s[k], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v << 4 | (unsigned)d;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Length of the well-formed UTF-8 sequence at s[0..avail), or 0. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned c = s[0];
	size_t k;
	unsigned lo = 0x80, hi = 0xBF;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		k = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		k = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		k = 4;
	else
		return 0;
	if (avail < k)
		return 0;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;   /* no UTF-16 surrogates */
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;   /* nothing above U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t j = 2; j < k; j++)
		if (s[j] < 0x80 || s[j] > 0xBF)
			return 0;
	return k;
}

/* A string starting at the '"' at p->i: decoded into the arena. */
static int string(struct parser *p, const char **out, size_t *outlen)
{
	size_t open = p->i, end = p->i + 1, o = 0;
	char *buf;

	while (end < p->n && p->s[end] != '"')
		end += p->s[end] == '\\' ? 2 : 1;
	if (end >= p->n)
		return TRUNC(p, "the document ends inside a string opened at byte %zu", open);
	buf = arena(p, end - open);   /* decoded is never longer than escaped, plus the NUL */
	if (!buf)
		return oom(p);
	for (size_t k = open + 1; k < end;) {
		unsigned c = p->s[k];

		if (c < 0x20)
			return BAD(p, k, "control byte 0x%02x inside a string (JSON wants it escaped)", c);
		if (c != '\\') {
			size_t l = utf8_len(p->s + k, end - k);

			if (!l)
				return BAD(p, k, "byte 0x%02x is not UTF-8 (a string must be UTF-8)", c);
			memcpy(buf + o, p->s + k, l);
			o += l;
			k += l;
			continue;
		}
		c = p->s[k + 1];
		switch (c) {
		case '"': case '\\': case '/':
			buf[o++] = (char)c;
			break;
		case 'b': buf[o++] = '\b'; break;
		case 'f': buf[o++] = '\f'; break;
		case 'n': buf[o++] = '\n'; break;
		case 'r': buf[o++] = '\r'; break;
		case 't': buf[o++] = '\t'; break;
		case 'u': {
			unsigned cp, lo;

			if (end - k < 6 || hex4(p->s + k + 2, &cp))
				return BAD(p, k, "\\u must be followed by four hex digits");
			if (cp >= 0xDC00 && cp <= 0xDFFF)
				return BAD(p, k, "\\u%04X is the second half of a UTF-16 pair with no first half", cp);
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				if (end - k < 12 || p->s[k + 6] != '\\' || p->s[k + 7] != 'u' || hex4(p->s + k + 8, &lo) ||
				    lo < 0xDC00 || lo > 0xDFFF)
					return BAD(p, k, "\\u%04X is the first half of a UTF-16 pair with no second half", cp);
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				k += 6;
			}
			o += put_utf8(buf + o, cp);
			k += 6;
			continue;
		}
		default: {
			char sh[16];

			return BAD(p, k, "unknown escape \\ followed by %s", show((int)c, sh, sizeof(sh)));
		}
		}
		k += 2;
	}
	buf[o] = 0;
	*out = buf;
	*outlen = o;
	p->i = end + 1;
	return 0;
}

static int digits(struct parser *p, const char *what, size_t start)
{
	char sh[16];

	if (p->i >= p->n)
		return TRUNC(p, "the document ends inside a number that began at byte %zu", start);
	if (p->s[p->i] < '0' || p->s[p->i] > '9')
		return BAD(p, p->i, "%s, found %s", what, show(p->s[p->i], sh, sizeof(sh)));
	while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
		p->i++;
	return 0;
}

static int number(struct parser *p, struct jr_val *v)
{
	size_t start = p->i, len;
	char small[64], *copy = small, *endp;

	if (p->s[p->i] == '-')
		p->i++;
	if (p->i < p->n && p->s[p->i] == '0') {
		p->i++;
		if (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
			return BAD(p, start, "a number with a leading zero");
	} else if (digits(p, "a digit must follow '-'", start)) {
		return -1;
	}
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		if (digits(p, "a digit must follow the decimal point", start))
			return -1;
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (digits(p, "a digit must follow the exponent's 'e'", start))
			return -1;
	}
	len = p->i - start;
	if (len >= sizeof(small)) {
		copy = malloc(len + 1);
		if (!copy)
			return oom(p);
	}
	memcpy(copy, p->s + start, len);
	copy[len] = 0;
	errno = 0;
	v->num = strtod(copy, &endp);
	if (copy != small)
		free(copy);
	if (isinf(v->num) || isnan(v->num))
		return BAD(p, start, "the number does not fit in a double");
	/* nothing eel writes comes near this; beyond it, the plots' arithmetic
	 * (a range, a label's place) could overflow to inf, which gnuplot takes
	 * for an undefined variable */
	if (fabs(v->num) > JR_NUM_MAX)
		return BAD(p, start, "the number is beyond %g, more than eel ever writes", JR_NUM_MAX);
	return 0;
}

static int literal(struct parser *p, struct jr_val *v)
{
	static const struct { const char *w; enum jr_type t; double num; } lit[] = {
		{ "true", JR_BOOL, 1 }, { "false", JR_BOOL, 0 }, { "null", JR_NULL, 0 },
	};
	char sh[16];

	for (size_t k = 0; k < sizeof(lit) / sizeof(lit[0]); k++) {
		size_t l = strlen(lit[k].w), have = p->n - p->i < l ? p->n - p->i : l;

		if (p->s[p->i] != (unsigned char)lit[k].w[0])
			continue;
		if (memcmp(p->s + p->i, lit[k].w, have))
			break;
		if (have < l)
			return TRUNC(p, "the document ends inside '%s'", lit[k].w);
		v->type = lit[k].t;
		v->num = lit[k].num;
		p->i += l;
		return 0;
	}
	return BAD(p, p->i, "expected a value (object, array, string, number, true, false or null), found %s",
		   show(p->s[p->i], sh, sizeof(sh)));
}

static int value(struct parser *p, struct jr_val **out);

static int array(struct parser *p, struct jr_val *a)
{
	size_t base = p->sp;
	char sh[16];

	p->i++;
	ws(p);
	if (p->i < p->n && p->s[p->i] == ']') {
		p->i++;
		return 0;
	}
	for (;;) {
		struct jr_val *e;

		if (value(p, &e) || push(p, e))
			return -1;
		ws(p);
		if (p->i >= p->n)
			return TRUNC(p, "the document ends inside an array opened at byte %zu", a->off);
		if (p->s[p->i] == ']')
			break;
		if (p->s[p->i] != ',')
			return BAD(p, p->i, "expected ',' or ']' after an array element, found %s",
				   show(p->s[p->i], sh, sizeof(sh)));
		p->i++;
		ws(p);
		if (p->i < p->n && p->s[p->i] == ']')
			return BAD(p, p->i, "']' after ',': JSON allows no trailing comma");
	}
	p->i++;
	return adopt(p, a, base);
}

static int object(struct parser *p, struct jr_val *o)
{
	size_t base = p->sp;
	char sh[16];

	p->i++;
	ws(p);
	if (p->i < p->n && p->s[p->i] == '}') {
		p->i++;
		return 0;
	}
	for (;;) {
		struct jr_val *m;
		const char *key;
		size_t klen;

		if (p->i >= p->n)
			return TRUNC(p, "the document ends inside an object opened at byte %zu", o->off);
		if (p->s[p->i] != '"')
			return BAD(p, p->i, "expected a member name in double quotes, found %s",
				   show(p->s[p->i], sh, sizeof(sh)));
		if (string(p, &key, &klen))
			return -1;
		ws(p);
		if (p->i >= p->n)
			return TRUNC(p, "the document ends inside an object opened at byte %zu", o->off);
		if (p->s[p->i] != ':') {
			char pk[48];

			return BAD(p, p->i, "expected ':' after the member name \"%s\", found %s",
				   printable(key, pk, sizeof(pk)), show(p->s[p->i], sh, sizeof(sh)));
		}
		p->i++;
		if (value(p, &m) || push(p, m))
			return -1;
		m->key = key;
		ws(p);
		if (p->i >= p->n)
			return TRUNC(p, "the document ends inside an object opened at byte %zu", o->off);
		if (p->s[p->i] == '}')
			break;
		if (p->s[p->i] != ',')
			return BAD(p, p->i, "expected ',' or '}' after a member, found %s",
				   show(p->s[p->i], sh, sizeof(sh)));
		p->i++;
		ws(p);
		if (p->i < p->n && p->s[p->i] == '}')
			return BAD(p, p->i, "'}' after ',': JSON allows no trailing comma");
	}
	p->i++;
	return adopt(p, o, base);
}

static int value(struct parser *p, struct jr_val **out)
{
	struct jr_val *v;
	int c, rc;

	ws(p);
	if (p->i >= p->n) {
		if (p->n == 0 || p->depth == 0)
			return TRUNC(p, "the document is empty");
		return TRUNC(p, "the document ends where a value was due");
	}
	c = p->s[p->i];
	v = node(p, JR_NULL, p->i);
	if (!v)
		return -1;
	*out = v;
	switch (c) {
	case '{':
	case '[':
		if (++p->depth > p->lim.max_depth)
			return fail(p, "too deep", p->i, "arrays and objects nested deeper than %d levels",
				    p->lim.max_depth);
		v->type = c == '{' ? JR_OBJ : JR_ARR;
		rc = c == '{' ? object(p, v) : array(p, v);
		p->depth--;
		return rc;
	case '"':
		v->type = JR_STR;
		return string(p, &v->str, &v->len);
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		v->type = JR_NUM;
		return number(p, v);
	default:
		return literal(p, v);
	}
}

struct jr_doc *jr_parse(const char *buf, size_t len, const struct jr_limits *lim, char *err, size_t errlen)
{
	static char dummy[1];
	struct parser p = {
		.s = (const unsigned char *)(buf ? buf : ""), .n = buf ? len : 0,
		.err = err && errlen ? err : dummy, .errlen = err && errlen ? errlen : sizeof(dummy),
	};
	struct jr_val *root;

	p.lim.max_bytes = lim && lim->max_bytes ? lim->max_bytes : DEF_MAX_BYTES;
	p.lim.max_nodes = lim && lim->max_nodes ? lim->max_nodes : DEF_MAX_NODES;
	p.lim.max_depth = lim && lim->max_depth > 0 ? lim->max_depth : DEF_MAX_DEPTH;
	p.err[0] = 0;
	if (p.n > p.lim.max_bytes) {
		snprintf(p.err, p.errlen, "too large: %zu bytes, more than the limit of %zu bytes for one document",
			 p.n, p.lim.max_bytes);
		return NULL;
	}
	p.d = calloc(1, sizeof(*p.d));
	if (!p.d) {
		snprintf(p.err, p.errlen, "out of memory");
		return NULL;
	}
	if (value(&p, &root) == 0) {
		ws(&p);
		if (p.i < p.n) {
			char sh[16];

			BAD(&p, p.i, "%s after the end of the document", show(p.s[p.i], sh, sizeof(sh)));
		}
	}
	free(p.stack);
	if (p.failed) {
		jr_free(p.d);
		return NULL;
	}
	p.d->root = root;
	return p.d;
}

struct jr_doc *jr_parse_file(const char *path, const struct jr_limits *lim, char *err, size_t errlen)
{
	size_t max = lim && lim->max_bytes ? lim->max_bytes : DEF_MAX_BYTES, len = 0, cap = 0;
	char *buf = NULL, e[256];
	struct jr_doc *d;
	struct stat st;
	/* O_NONBLOCK: a FIFO with no writer must not hang the open */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: is %s, not a regular file", path,
			 S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			 S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "not a file");
		close(fd);
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	for (;;) {
		ssize_t r;

		if (len == cap) {
			char *nb;

			if (cap > max) {
				snprintf(err, errlen, "%s: too large: more than the limit of %zu bytes for one document",
					 path, max);
				goto fail;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			buf = nb;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	d = jr_parse(buf, len, lim, e, sizeof(e));
	free(buf);
	if (!d)
		snprintf(err, errlen, "%s: %s", path, e);
	return d;
fail:
	close(fd);
	free(buf);
	return NULL;
}

const struct jr_val *jr_root(const struct jr_doc *d)
{
	return d ? d->root : NULL;
}

/* ---- lookups ---- */

static const struct jr_val *key_n(const struct jr_val *obj, const char *key, size_t klen)
{
	if (!obj || obj->type != JR_OBJ)
		return NULL;
	for (size_t k = 0; k < obj->len; k++) {
		const char *mk = obj->kids[k]->key;

		if (!strncmp(mk, key, klen) && mk[klen] == 0)
			return obj->kids[k];
	}
	return NULL;
}

const struct jr_val *jr_key(const struct jr_val *obj, const char *key)
{
	return key ? key_n(obj, key, strlen(key)) : NULL;
}

const struct jr_val *jr_at(const struct jr_val *arr, size_t i)
{
	if (!arr || arr->type != JR_ARR || i >= arr->len)
		return NULL;
	return arr->kids[i];
}

const struct jr_val *jr_get(const struct jr_val *v, const char *path)
{
	const char *s = path ? path : "";
	int first = 1;

	while (v && *s) {
		if (*s == '[') {
			size_t idx = 0;
			const char *d = ++s;

			while (*s >= '0' && *s <= '9') {
				if (idx > (SIZE_MAX - 9) / 10)
					return NULL;
				idx = idx * 10 + (size_t)(*s++ - '0');
			}
			if (s == d || *s != ']')
				return NULL;
			s++;
			v = jr_at(v, idx);
		} else {
			size_t l;

			if (*s == '.') {
				if (first)
					return NULL;
				s++;
			}
			l = strcspn(s, ".[");
			if (!l)
				return NULL;
			v = key_n(v, s, l);
			s += l;
		}
		first = 0;
	}
	return v;
}

int jr_num(const struct jr_val *v, const char *path, double *out)
{
	const struct jr_val *x = jr_get(v, path);

	if (!x || x->type != JR_NUM)
		return 0;
	if (out)
		*out = x->num;
	return 1;
}

int jr_bool(const struct jr_val *v, const char *path, int *out)
{
	const struct jr_val *x = jr_get(v, path);

	if (!x || x->type != JR_BOOL)
		return 0;
	if (out)
		*out = x->num != 0;
	return 1;
}

const char *jr_str(const struct jr_val *v, const char *path)
{
	const struct jr_val *x = jr_get(v, path);

	return x && x->type == JR_STR ? x->str : NULL;
}

size_t jr_len(const struct jr_val *v, const char *path)
{
	const struct jr_val *x = jr_get(v, path);

	return x && (x->type == JR_ARR || x->type == JR_OBJ) ? x->len : 0;
}

const char *jr_type_name(enum jr_type t)
{
	switch (t) {
	case JR_NULL: return "null";
	case JR_BOOL: return "a boolean";
	case JR_NUM: return "a number";
	case JR_STR: return "a string";
	case JR_ARR: return "an array";
	case JR_OBJ: return "an object";
	}
	return "?";
}
