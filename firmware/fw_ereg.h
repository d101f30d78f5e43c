/* SPDX-License-Identifier: MIT */
/* firmware/fw_ereg.h — E-register commands (fw_ereg.c). */
#ifndef EEL_FW_EREG_H
#define EEL_FW_EREG_H

#include "fw.h"

int fw_fetch_eregs(struct fw *fw);

#endif
