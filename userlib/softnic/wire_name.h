/* SPDX-License-Identifier: MIT */
/* userlib/softnic/wire_name.h — the wire's name in /dev/shm: unpredictable,
 * created exclusively, checked before the peer maps it, and removed on a
 * signal while it waits for the peer (the only time it has a name).
 */
#ifndef EEL_USERLIB_WIRE_NAME_H
#define EEL_USERLIB_WIRE_NAME_H

#include <stddef.h>

#define WIRE_NAME_PREFIX "/eel-wire-"
#define WIRE_NAME_MAX 64

/* Create a new object of size bytes under a random name (written to name):
 * the open fd (O_RDWR), or a negative errno with eel_err's message. The name
 * is also registered for removal on SIGINT, SIGTERM and SIGHUP until
 * wire_name_remove(name). */
int wire_name_create(char name[WIRE_NAME_MAX], size_t size);
/* Remove the name (if it is still there) and forget it. */
void wire_name_remove(char name[WIRE_NAME_MAX]);
/* The peer's wire: is name one this code makes? Opens it without following
 * a link or blocking on a FIFO and checks it is a regular object of this
 * user of exactly size bytes: the fd, or a negative errno with eel_err. */
int wire_name_open_peer(const char *name, size_t size);

#endif
