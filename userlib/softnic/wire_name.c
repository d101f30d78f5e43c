/* SPDX-License-Identifier: MIT */
/* userlib/softnic/wire_name.c — the wire's name in /dev/shm (wire_name.h).
 *
 * The name comes from 64 random bits the client sends (getrandom, in its
 * connection information), so another user cannot create it first and make
 * this end's runs fail, and the client knows every name the server may have
 * used: O_EXCL, so nothing planted at a name is ever opened; a name taken is
 * retried under the next of the nonce's WIRE_NAME_TRIES names. The name
 * exists only from its creation to the peer's attach (both ends remove it
 * then, so a SIGKILL of either end afterwards leaves nothing); a SIGINT,
 * SIGTERM or SIGHUP in that window removes it before the signal's own action,
 * and a client whose server went away (even by SIGKILL) before it attached
 * removes the nonce's names itself (wire_name_forget).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "userlib/core/dev.h"
#include "userlib/softnic/wire_name.h"

#define SHM_DIR "/dev/shm"  /* where glibc's shm_open puts names on Linux */
#define PENDING 8           /* names waiting for a peer at once, per process */

static const int guarded[] = { SIGINT, SIGTERM, SIGHUP };

/* The full paths the handler unlinks (unlink is async-signal-safe,
 * shm_unlink is not listed as such); a slot is in use when [0] != 0. */
static char pending[PENDING][sizeof(SHM_DIR) + WIRE_NAME_MAX];
static struct sigaction was[3];
static int installed;

static void on_signal(int sig)
{
	for (int i = 0; i < PENDING; i++)
		if (pending[i][0])
			unlink(pending[i]);
	/* then what the signal would have done: its old action, raised again */
	for (int i = 0; i < 3; i++)
		if (guarded[i] == sig)
			sigaction(sig, &was[i], NULL);
	raise(sig);
}

/* Install the handler while any name is pending; a signal this process
 * ignores stays ignored (then nobody is stopping it). */
static void guard(int on)
{
	if (on && !installed) {
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		for (int i = 0; i < 3; i++) {
			sigaction(guarded[i], NULL, &was[i]);
			if (was[i].sa_handler != SIG_IGN)
				sigaction(guarded[i], &sa, NULL);
		}
		installed = 1;
	} else if (!on && installed) {
		for (int i = 0; i < 3; i++)
			sigaction(guarded[i], &was[i], NULL);
		installed = 0;
	}
}

static void pending_set(const char *name, int add)
{
	char path[sizeof(pending[0])];
	int any = 0;

	snprintf(path, sizeof(path), SHM_DIR "%s", name);
	for (int i = 0; i < PENDING; i++) {
		if (add && !pending[i][0]) {
			memcpy(pending[i], path, sizeof(path));
			add = 0;
		} else if (!add && !strcmp(pending[i], path)) {
			pending[i][0] = 0;
		}
		any |= pending[i][0] != 0;
	}
	guard(any);
}

int wire_name_nonce(uint64_t *nonce)
{
	if (getrandom(nonce, sizeof(*nonce), 0) != sizeof(*nonce))
		return eel_err(-EIO, "softnic: no random bytes for the wire's name: %s", strerror(errno));
	return 0;
}

static void name_of(uint64_t nonce, int k, char name[WIRE_NAME_MAX])
{
	snprintf(name, WIRE_NAME_MAX, WIRE_NAME_PREFIX "%016llx", (unsigned long long)(nonce + (uint64_t)k));
}

int wire_name_create(uint64_t nonce, char name[WIRE_NAME_MAX], size_t size)
{
	int fd = -1, err = EEXIST;

	/* a name taken (by chance or on purpose) is not an error: try the next */
	for (int k = 0; k < WIRE_NAME_TRIES && fd < 0 && err == EEXIST; k++) {
		name_of(nonce, k, name);
		fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
		err = fd < 0 ? errno : 0;
	}
	if (fd < 0) {
		name[0] = 0;
		return eel_err(-err, "softnic: cannot create the wire in " SHM_DIR ": %s%s", strerror(err),
			       err == EEXIST ? " (the client's 16 names all taken: is someone filling " SHM_DIR "?)" : "");
	}
	pending_set(name, 1);
	if (ftruncate(fd, (off_t)size)) {
		err = errno;
		close(fd);
		wire_name_remove(name);
		return eel_err(-err, "softnic: cannot size the wire (%zu bytes) in " SHM_DIR ": %s", size,
			       strerror(err));
	}
	return fd;
}

void wire_name_remove(char name[WIRE_NAME_MAX])
{
	if (!name[0])
		return;
	shm_unlink(name);
	pending_set(name, 0);
	name[0] = 0;
}

/* One of the nonce's names, nothing else: no '/', no "..", nothing outside
 * /dev/shm, no other run's wire. */
static int name_ok(const char *name, uint64_t nonce)
{
	char want[WIRE_NAME_MAX];

	for (int k = 0; k < WIRE_NAME_TRIES; k++) {
		name_of(nonce, k, want);
		if (!strcmp(name, want))
			return 1;
	}
	return 0;
}

void wire_name_forget(uint64_t nonce)
{
	char name[WIRE_NAME_MAX], path[sizeof(SHM_DIR) + WIRE_NAME_MAX];
	struct stat st;

	for (int k = 0; k < WIRE_NAME_TRIES; k++) {
		name_of(nonce, k, name);
		snprintf(path, sizeof(path), SHM_DIR "%s", name);
		if (!lstat(path, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid())
			shm_unlink(name);
	}
}

int wire_name_open_peer(const char *name, uint64_t nonce, size_t size)
{
	struct stat st;
	int fd, err;

	if (!name_ok(name, nonce))
		return eel_err(-EPROTO, "softnic: the peer named '%s' as its wire, not a name this end asked "
			       "for (" WIRE_NAME_PREFIX "<its nonce>): is the peer eel-bench of this version?", name);
	/* glibc's shm_open adds O_NOFOLLOW (a symlink fails with ELOOP);
	 * O_NONBLOCK: a FIFO planted there must not block the open */
	fd = shm_open(name, O_RDWR | O_NONBLOCK, 0);
	if (fd < 0) {
		err = errno;
		return eel_err(-err, "softnic: cannot open the peer's wire " SHM_DIR "%s: %s", name,
			       err == ELOOP ? "it is a symbolic link" :
			       /* glibc's shm_open turns EISDIR into EINVAL */
			       err == EINVAL ? "not a shared-memory object (a folder?)" : strerror(err));
	}
	if (fstat(fd, &st)) {
		err = errno;
		close(fd);
		return eel_err(-err, "softnic: cannot look at the peer's wire " SHM_DIR "%s: %s", name, strerror(err));
	}
	if (!S_ISREG(st.st_mode))
		err = eel_err(-EPROTO, "softnic: the peer's wire " SHM_DIR "%s is not a regular shared-memory "
			      "object: not mapping it", name);
	else if (st.st_uid != geteuid())
		err = eel_err(-EPERM, "softnic: the peer's wire " SHM_DIR "%s belongs to uid %u, not to this "
			      "user (uid %u): run both ends as the same user", name, (unsigned)st.st_uid,
			      (unsigned)geteuid());
	else if ((uint64_t)st.st_size != size)
		err = eel_err(-EPROTO, "softnic: the peer's wire " SHM_DIR "%s is %lld bytes, a wire of this "
			      "mtu is %zu: run the same eel with the same mtu on both ends", name,
			      (long long)st.st_size, size);
	else
		return fd;
	close(fd);
	return err;
}
