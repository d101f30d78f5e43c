/* SPDX-License-Identifier: MIT */
/* firmware/fw_recv.h — the receive side (fw_recv.c): frames off the wire. */
#ifndef EEL_FW_RECV_H
#define EEL_FW_RECV_H

#include "fw.h"

int fw_recv(struct fw *fw);

#endif
