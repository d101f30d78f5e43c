/* SPDX-License-Identifier: MIT */
/* firmware/fw_mr.h — memory-region key and bounds checks (fw_mr.c). */
#ifndef EEL_FW_MR_H
#define EEL_FW_MR_H

#include "fw.h"

int fw_mr_check(struct fw *fw, uint32_t key, uint64_t addr, uint64_t len, uint32_t need);

#endif
