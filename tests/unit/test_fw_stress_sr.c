/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_stress_sr.c — test_fw_stress.c with both receivers in
 * selective repeat (EEL_FW_RECOVERY_SR, firmware/fw_sr.c): kept out-of-order
 * packets, resends of only the missing PSNs, E-register loads among them,
 * under every fault at once; exactly once, in order, every byte. */
#define RECOVERY EEL_FW_RECOVERY_SR
#include "test_fw_stress.c"
