/* SPDX-License-Identifier: MIT */
/* userlib/softnic/wire_name.h — the wire's name in /dev/shm: unpredictable,
 * created exclusively, checked before the peer maps it, and removed on a
 * signal while it waits for the peer (the only time it has a name).
 */
#ifndef EEL_USERLIB_WIRE_NAME_H
#define EEL_USERLIB_WIRE_NAME_H

#include <stddef.h>
#include <stdint.h>

#define WIRE_NAME_PREFIX "/eel-wire-"
#define WIRE_NAME_MAX 64

#define WIRE_NAME_TRIES 16  /* names a nonce gives: nonce, nonce + 1, ... */

/* The client's 64 random bits (getrandom), from which the server's name for
 * the wire is made: 0, or a negative errno with eel_err's message. */
int wire_name_nonce(uint64_t *nonce);
/* Create a new object of size bytes under a name the client's nonce gives
 * (the first of its WIRE_NAME_TRIES not taken; written to name): the open fd
 * (O_RDWR), or a negative errno with eel_err's message. The name is also
 * registered for removal on SIGINT, SIGTERM and SIGHUP until
 * wire_name_remove(name). */
int wire_name_create(uint64_t nonce, char name[WIRE_NAME_MAX], size_t size);
/* The client, when the server went away before it attached: remove what the
 * server may have left under the nonce's names (this user's objects only). */
void wire_name_forget(uint64_t nonce);
/* Remove the name (if it is still there) and forget it. */
void wire_name_remove(char name[WIRE_NAME_MAX]);
/* The peer's wire: is name one this end's nonce gives? Opens it without following
 * a link or blocking on a FIFO and checks it is a regular object of this
 * user of exactly size bytes: the fd, or a negative errno with eel_err. */
int wire_name_open_peer(const char *name, uint64_t nonce, size_t size);

#endif
