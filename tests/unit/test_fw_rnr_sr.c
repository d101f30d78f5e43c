/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_rnr_sr.c — test_fw_rnr.c with the receiver in selective
 * repeat: a NOTIFY put refused for a full CQ while later ones are kept out of
 * order (firmware/fw_sr.c) is dropped and resent, and everything still lands
 * exactly once and in order. */
#define RECOVERY EEL_FW_RECOVERY_SR
#include "test_fw_rnr.c"
