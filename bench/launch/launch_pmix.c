/* SPDX-License-Identifier: MIT */
/* bench/launch/launch_pmix.c — the ranks' bootstrap through PMIx (launch.h): the
 * PMIx standard v4's client calls PMIx_Init, PMIx_Put, PMIx_Commit,
 * PMIx_Fence (with PMIX_COLLECT_DATA for an exchange, without for a barrier),
 * PMIx_Get and PMIx_Finalize, as Open MPI's mpirun and Slurm's srun
 * --mpi=pmix serve them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

#include "launch.h"

struct lpmix {
	pmix_proc_t me, all;
};

static int fail(struct launch *l, const char *what, pmix_status_t rc, const char *fix)
{
	snprintf(l->err, sizeof(l->err), "PMIx: %s failed (%s): %s", what, PMIx_Error_string(rc), fix);
	return -1;
}

const char *launch_missing(void)
{
	return NULL;
}

/* The ranks on this machine: PMIx's PMIX_LOCAL_SIZE, else Open MPI's
 * OMPI_COMM_WORLD_LOCAL_SIZE; 0 when neither says. */
static int local_size(struct lpmix *p)
{
	pmix_value_t *v = NULL;
	const char *env = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
	int n = 0;

	if (PMIx_Get(&p->all, PMIX_LOCAL_SIZE, NULL, 0, &v) == PMIX_SUCCESS && v && v->type == PMIX_UINT32)
		n = (int)v->data.uint32;
	if (v)
		PMIX_VALUE_RELEASE(v);
	if (!n && env)
		n = atoi(env);
	return n > 0 ? n : 0;
}

int launch_init(struct launch *l)
{
	struct lpmix *p = calloc(1, sizeof(*p));
	pmix_value_t *v = NULL;
	pmix_status_t rc;

	memset(l->err, 0, sizeof(l->err));
	if (!p) {
		snprintf(l->err, sizeof(l->err), "out of memory");
		return -1;
	}
	l->priv = p;
	rc = PMIx_Init(&p->me, NULL, 0);
	if (rc != PMIX_SUCCESS) {
		free(p);
		l->priv = NULL;
		return fail(l, "PMIx_Init", rc, "start eel-bench with mpirun or srun --mpi=pmix, or without "
			    "PMIX_RANK and PMIX_NAMESPACE in its environment for the two-host mode");
	}
	PMIX_LOAD_PROCID(&p->all, p->me.nspace, PMIX_RANK_WILDCARD);
	rc = PMIx_Get(&p->all, PMIX_JOB_SIZE, NULL, 0, &v);
	if (rc != PMIX_SUCCESS || !v || v->type != PMIX_UINT32) {
		if (v)
			PMIX_VALUE_RELEASE(v);
		return fail(l, "PMIx_Get of the job's size", rc, "the launcher does not say how many ranks it started");
	}
	l->rank = (int)p->me.rank;
	l->size = (int)v->data.uint32;
	PMIX_VALUE_RELEASE(v);
	l->local_size = local_size(p);
	return 0;
}

int launch_put(struct launch *l, const char *key, const void *buf, size_t len)
{
	pmix_value_t v;
	pmix_status_t rc;

	PMIX_VALUE_CONSTRUCT(&v);
	v.type = PMIX_BYTE_OBJECT;
	v.data.bo.bytes = (char *)buf;   /* PMIx_Put copies it */
	v.data.bo.size = len;
	rc = PMIx_Put(PMIX_GLOBAL, key, &v);
	return rc == PMIX_SUCCESS ? 0 : fail(l, "PMIx_Put", rc, "the launcher's PMIx server refused the data");
}

static int fence(struct launch *l, int collect)
{
	struct lpmix *p = l->priv;
	pmix_info_t info;
	bool yes = true;
	pmix_status_t rc;

	PMIX_INFO_CONSTRUCT(&info);
	PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
	rc = PMIx_Fence(&p->all, 1, collect ? &info : NULL, collect ? 1 : 0);
	PMIX_INFO_DESTRUCT(&info);
	return rc == PMIX_SUCCESS ? 0 : fail(l, "PMIx_Fence", rc, "a rank has ended or was lost: see its message");
}

int launch_exchange(struct launch *l)
{
	pmix_status_t rc = PMIx_Commit();

	return rc == PMIX_SUCCESS ? fence(l, 1) : fail(l, "PMIx_Commit", rc, "the launcher's PMIx server is gone");
}

int launch_barrier(struct launch *l)
{
	return fence(l, 0);
}

int launch_get(struct launch *l, int rank, const char *key, void *buf, size_t cap, size_t *len)
{
	struct lpmix *p = l->priv;
	pmix_proc_t who;
	pmix_value_t *v = NULL;
	pmix_status_t rc;

	PMIX_LOAD_PROCID(&who, p->me.nspace, (pmix_rank_t)rank);
	rc = PMIx_Get(&who, key, NULL, 0, &v);
	if (rc != PMIX_SUCCESS || !v || v->type != PMIX_BYTE_OBJECT || v->data.bo.size > cap) {
		char what[96];

		if (v)
			PMIX_VALUE_RELEASE(v);
		snprintf(what, sizeof(what), "PMIx_Get of rank %d's %s", rank, key);
		if (rc == PMIX_SUCCESS)
			snprintf(l->err, sizeof(l->err), "PMIx: %s: not what eel-bench put there: run the same "
				 "eel-bench on every rank", what);
		return rc == PMIX_SUCCESS ? -1 : fail(l, what, rc, "run the same eel-bench on every rank");
	}
	memcpy(buf, v->data.bo.bytes, v->data.bo.size);
	*len = v->data.bo.size;
	PMIX_VALUE_RELEASE(v);
	return 0;
}

void launch_fini(struct launch *l)
{
	if (!l->priv)
		return;
	PMIx_Finalize(NULL, 0);
	free(l->priv);
	l->priv = NULL;
}
