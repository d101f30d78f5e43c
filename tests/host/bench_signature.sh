#!/usr/bin/env bash
# Culler et al. 1996's signature with the receiving host's reply (issue 13): a request
# is answered by a put the receiving host issues when it sees the request,
# not by the NIC's acknowledgement, so o_r is the receive overhead. On the
# inline software NIC the receiving host's core also runs its NIC: a 3000 ns
# payload DMA injected at the receiver is receive overhead (o_r >= 3000 ns),
# and a round trip crosses it twice (request and reply). With the NIC's ACK
# as the reply, o_r came out ~150 ns and the 3000 ns went into L.
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$B/eel-bench" -d 'softnic?dma_ns=3000' -t signature --sig-samples 100 -q --json "$out/s.json"
jq -c '.signature | {rtt_ns, o_s_ns, g_ns, o_r_ns, L_ns}' "$out/s.json"
check() {
  jq -e "$1" "$out/s.json" >/dev/null || { echo "FAILED: $2 ($1)"; exit 1; }
  echo "ok: $2"
}
check '.signature.o_r_ns >= 3000' 'the receive DMA the receiving host runs is in o_r'
check '.signature.rtt_ns >= 6000' 'a request and its reply cross the receive DMA twice'
check '.signature.L_ns < .signature.o_r_ns' 'L is the transport, not the receiver'
