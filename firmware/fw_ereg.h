/* SPDX-License-Identifier: MIT */
/* firmware/fw_ereg.h — E-register commands (fw_ereg.c). */
#ifndef EEL_FW_EREG_H
#define EEL_FW_EREG_H

#include "fw.h"

int fw_ereg_scan(struct fw *fw, uint64_t db);

/* New E-register commands, if the doorbell moved (fw_ereg_scan). Inline:
 * every send pass reads the doorbell, and a put's pass finds it still. */
static inline int fw_fetch_eregs(struct fw *fw)
{
	uint64_t db = hal_reg_read64(&fw->hal, FW_REG(ereg_doorbell));

	return db == fw->ereg_db_seen ? 0 : fw_ereg_scan(fw, db);
}

#endif
