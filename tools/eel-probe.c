/* SPDX-License-Identifier: MIT */
/*
 * eel-probe: the PCI functions of this machine and how they attach to it.
 *
 *   eel-probe [--all] [--json] [--dump FILE] [ADDRESS...]
 *
 * Network controllers by default, every function with --all, or the
 * functions named. Facts come from userlib/pci/pci_facts.c (libpci, pci.ids,
 * sysfs); this file only prints them: a table, or JSON with --json.
 */
#include <eel/eel.h>
#include <eel/pci_facts.h>

#include "method/longopt.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/probe_map.h"

#ifndef EEL_GIT
#error "EEL_GIT: tools/version.mk passes it to the objects in VERSION_SRC; list this file there"
#endif

#define PROBE_JSON_VERSION 2 /* 2: each function's netdevs, rdma, uris; soft_rdma */

static const char *usage_text =
	"usage: eel-probe [--all] [--json] [--dump FILE] [ADDRESS...]\n"
	"  Lists PCI functions (network controllers unless --all or ADDRESS):\n"
	"  names, driver, NUMA node, PCIe link now/max, max payload and read\n"
	"  request sizes, BARs, IOMMU group; then the map: each function's\n"
	"  network and RDMA devices and the eel-bench -d URIs that drive it,\n"
	"  and the soft RDMA devices (rxe, siw). Run as root for the facts that\n"
	"  live in config space beyond its first 64 bytes (MPS, MRRS).\n"
	"  --all        every function, not only network controllers\n"
	"  --json       JSON instead of a table\n"
	"  --dump FILE  read `lspci -xxx` output instead of this machine\n"
	"  ADDRESS      DDDD:BB:DD.F or BB:DD.F: only these functions\n"
	"  --version    the release and the git commit of this build\n"
	"Full reference: man eel-probe (or docs/man/eel-probe.1.md)\n";

static const char *pcie_type_name(int t)
{
	switch (t) {
	case EEL_PCIE_NONE: return "pci";
	case EEL_PCIE_UNKNOWN: return NULL;
	case EEL_PCIE_ENDPOINT: return "endpoint";
	case EEL_PCIE_LEGACY_ENDPOINT: return "legacy-endpoint";
	case EEL_PCIE_ROOT_PORT: return "root-port";
	case EEL_PCIE_UPSTREAM_PORT: return "upstream-port";
	case EEL_PCIE_DOWNSTREAM_PORT: return "downstream-port";
	case EEL_PCIE_PCI_BRIDGE: return "pcie-to-pci-bridge";
	case EEL_PCIE_PCIE_BRIDGE: return "pci-to-pcie-bridge";
	case EEL_PCIE_RC_INTEGRATED: return "rc-integrated-endpoint";
	case EEL_PCIE_RC_EVENT_COLLECTOR: return "rc-event-collector";
	}
	return "other";
}

static void human_size(char *buf, size_t len, uint64_t n)
{
	static const char unit[] = "BKMGTPE";
	int u = 0;

	while (n >= 1024 && n % 1024 == 0 && u < 6) {
		n /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)n, unit[u]);
}

/* "8GT/s x4", "-" (no link), "?" (unknown: not root) */
static void link_str(char *buf, size_t len, const struct eel_pci_facts *f,
		     uint32_t mts, uint32_t width)
{
	if (!mts && !width) {
		snprintf(buf, len, "%s",
			 f->pcie_type == EEL_PCIE_UNKNOWN ? "?" : "-");
		return;
	}
	snprintf(buf, len, "%gGT/s x%u", mts / 1000.0, width);
}

static void size_or_dash(char *buf, size_t len, const struct eel_pci_facts *f,
			 uint32_t v)
{
	if (v)
		snprintf(buf, len, "%u", v);
	else
		snprintf(buf, len, "%s", f->config_full ? "-" : "?");
}

static void bars_str(char *buf, size_t len, const struct eel_pci_facts *f)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < EEL_PCI_FACTS_BARS && at < len; i++) {
		const struct eel_pci_bar_fact *b = &f->bar[i];
		char sz[24];

		if (!b->size)
			continue;
		human_size(sz, sizeof(sz), b->size);
		at += snprintf(buf + at, len - at, "%s%d=%s%s%s%s",
			       at ? " " : "", i, sz, b->io ? "/io" : "",
			       b->is64 ? "/64" : "", b->prefetch ? "/pf" : "");
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void print_table(const struct eel_pci_facts *list, size_t n,
			const char *dump)
{
	bool unknown = false;
	size_t i;

	printf("%-13s %-9s %-6s %-12s %-4s %-13s %-13s %-5s %-5s %-5s %-24s %s\n",
	       "ADDRESS", "ID", "CLASS", "DRIVER", "NUMA", "LINK", "LINK-MAX",
	       "MPS", "MRRS", "IOMMU", "BARS", "NAME");
	for (i = 0; i < n; i++) {
		const struct eel_pci_facts *f = &list[i];
		char id[16], numa[8], lnk[24], lmax[24], mps[12], mrrs[12];
		char grp[12], bars[160];

		snprintf(id, sizeof(id), "%04x:%04x", f->vendor_id,
			 f->device_id);
		snprintf(numa, sizeof(numa), "%d", f->numa_node);
		snprintf(grp, sizeof(grp), "%d", f->iommu_group);
		link_str(lnk, sizeof(lnk), f, f->link_speed_mts, f->link_width);
		link_str(lmax, sizeof(lmax), f, f->link_speed_max_mts,
			 f->link_width_max);
		size_or_dash(mps, sizeof(mps), f, f->max_payload);
		size_or_dash(mrrs, sizeof(mrrs), f, f->max_read_req);
		bars_str(bars, sizeof(bars), f);
		unknown |= !f->config_full;
		printf("%-13s %-9s %-6.4x %-12s %-4s %-13s %-13s %-5s %-5s %-5s %-24s %s%s%s\n",
		       f->addr, id, f->class_code >> 8,
		       f->driver[0] ? f->driver : "-",
		       f->numa_node < 0 ? "-" : numa, lnk, lmax, mps, mrrs,
		       f->iommu_group < 0 ? "-" : grp, bars,
		       f->vendor[0] ? f->vendor : "?",
		       f->device[0] ? " " : "", f->device);
	}
	if (unknown && dump)
		printf("? = not in the dump: make it with `lspci -xxx` as root\n");
	else if (unknown)
		printf("? = in config space beyond its first 64 bytes: run as root to see it\n");
}

/* The map (tools/probe_map.c): each function with a netdev, an RDMA device
 * or a URI, and the soft RDMA devices. Not for a dump (no sysfs). */
static void print_map(const struct eel_pci_facts *list, size_t n)
{
	struct probe_soft soft[PROBE_MAX];
	int ns = probe_soft_rdma(soft, PROBE_MAX), rows = 0;

	for (size_t i = 0; i < n; i++) {
		struct probe_map m;
		char net[96] = "", rdma[96] = "", numa[16] = "-";

		probe_map_get(&list[i], &m);
		if (!m.nuri)
			continue;
		if (!rows++)
			printf("\n%-13s %-4s %-12s %-12s %-12s %s\n", "ADDRESS", "NUMA", "DRIVER", "NETDEV", "RDMA",
			       "eel-bench -d URI (first: what it needs)");
		for (int k = 0; k < m.nnet; k++)
			snprintf(net + strlen(net), sizeof(net) - strlen(net), "%s%s", k ? "," : "", m.netdevs[k]);
		for (int k = 0; k < m.nrdma; k++)
			snprintf(rdma + strlen(rdma), sizeof(rdma) - strlen(rdma), "%s%s", k ? "," : "", m.rdma[k]);
		if (list[i].numa_node >= 0)
			snprintf(numa, sizeof(numa), "%d", list[i].numa_node);
		for (int k = 0; k < m.nuri; k++)
			printf("%-13s %-4s %-12s %-12s %-12s %s%s%s%s\n", k ? "" : list[i].addr, k ? "" : numa,
			       k ? "" : list[i].driver[0] ? list[i].driver : "-", k ? "" : net[0] ? net : "-",
			       k ? "" : rdma[0] ? rdma : "-", m.uris[k].uri, m.uris[k].needs[0] ? " (first: " : "",
			       m.uris[k].needs, m.uris[k].needs[0] ? ")" : "");
	}
	for (int k = 0; k < ns; k++)
		printf("%ssoft RDMA    %s (%s) on %s: %s\n", k ? "" : "\n", soft[k].dev, soft[k].driver,
		       soft[k].netdev[0] ? soft[k].netdev : "?", soft[k].uri);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_str_or_null(const char *s)
{
	if (s && s[0])
		json_str(s);
	else
		printf("null");
}

static void json_uint_or_null(uint32_t v)
{
	if (v)
		printf("%u", v);
	else
		printf("null");
}

static void json_link(uint32_t mts, uint32_t width)
{
	if (!mts && !width) {
		printf("null");
		return;
	}
	printf("{\"speed_gts\": %g, \"width\": %u}", mts / 1000.0, width);
}

static void print_json_one(const struct eel_pci_facts *f)
{
	int i;
	bool first = true;

	printf("    {\"address\": \"%s\", \"vendor_id\": \"%04x\", \"device_id\": \"%04x\",\n",
	       f->addr, f->vendor_id, f->device_id);
	printf("     \"subsystem_vendor_id\": \"%04x\", \"subsystem_device_id\": \"%04x\",\n",
	       f->subsys_vendor_id, f->subsys_device_id);
	printf("     \"class\": \"%06x\", \"revision\": %u,\n", f->class_code,
	       f->revision);
	printf("     \"vendor\": ");
	json_str_or_null(f->vendor);
	printf(", \"device\": ");
	json_str_or_null(f->device);
	printf(", \"class_name\": ");
	json_str_or_null(f->class_name);
	printf(",\n     \"driver\": ");
	json_str_or_null(f->driver);
	printf(", \"numa_node\": ");
	if (f->numa_node < 0)
		printf("null");
	else
		printf("%d", f->numa_node);
	printf(", \"iommu_group\": ");
	if (f->iommu_group < 0)
		printf("null");
	else
		printf("%d", f->iommu_group);
	printf(",\n     \"config_readable\": %s, \"pcie_type\": ",
	       f->config_full ? "true" : "false");
	json_str_or_null(pcie_type_name(f->pcie_type));
	printf(",\n     \"link\": ");
	json_link(f->link_speed_mts, f->link_width);
	printf(", \"link_max\": ");
	json_link(f->link_speed_max_mts, f->link_width_max);
	printf(",\n     \"max_payload\": ");
	json_uint_or_null(f->max_payload);
	printf(", \"max_payload_supported\": ");
	json_uint_or_null(f->max_payload_cap);
	printf(", \"max_read_request\": ");
	json_uint_or_null(f->max_read_req);
	printf(",\n     \"bars\": [");
	for (i = 0; i < EEL_PCI_FACTS_BARS; i++) {
		const struct eel_pci_bar_fact *b = &f->bar[i];

		if (!b->size)
			continue;
		printf("%s{\"index\": %d, \"size\": %llu, \"type\": \"%s\", \"is64\": %s, \"prefetchable\": %s}",
		       first ? "" : ", ", i, (unsigned long long)b->size,
		       b->io ? "io" : "mem", b->is64 ? "true" : "false",
		       b->prefetch ? "true" : "false");
		first = false;
	}
	printf("]");
}

static void json_names(const char *key, char (*names)[64], int n, size_t w)
{
	printf(", \"%s\": [", key);
	for (int i = 0; i < n; i++) {
		printf("%s", i ? ", " : "");
		json_str(names[0] + (size_t)i * w);
	}
	printf("]");
}

/* The map's part of a function (null: a dump has no sysfs to read). */
static void print_json_map(const struct eel_pci_facts *f, bool dump)
{
	struct probe_map m;
	char net[PROBE_MAX][64];

	if (dump) {
		printf(",\n     \"netdevs\": null, \"rdma\": null, \"uris\": null}");
		return;
	}
	probe_map_get(f, &m);
	for (int i = 0; i < m.nnet; i++)
		snprintf(net[i], sizeof(net[i]), "%s", m.netdevs[i]);
	printf(",\n     \"netdevs\": [");
	for (int i = 0; i < m.nnet; i++) {
		printf("%s", i ? ", " : "");
		json_str(net[i]);
	}
	printf("]");
	json_names("rdma", m.rdma, m.nrdma, sizeof(m.rdma[0]));
	printf(", \"uris\": [");
	for (int i = 0; i < m.nuri; i++) {
		printf("%s{\"backend\": \"%s\", \"uri\": ", i ? ", " : "", m.uris[i].backend);
		json_str(m.uris[i].uri);
		printf(", \"needs\": ");
		json_str_or_null(m.uris[i].needs);
		printf("}");
	}
	printf("]}");
}

static void print_json(const struct eel_pci_facts *list, size_t n, bool dump)
{
	struct probe_soft soft[PROBE_MAX];
	int ns = dump ? 0 : probe_soft_rdma(soft, PROBE_MAX);
	size_t i;

	/* schema and schema_version, as every eel document names itself;
	 * eel_probe_version, the same number, for readers of version 2 */
	printf("{\"schema\": \"eel.probe\", \"schema_version\": %d, \"eel_probe_version\": %d, \"functions\": [\n",
	       PROBE_JSON_VERSION, PROBE_JSON_VERSION);
	for (i = 0; i < n; i++) {
		print_json_one(&list[i]);
		print_json_map(&list[i], dump);
		printf("%s\n", i + 1 < n ? "," : "");
	}
	printf("], \"soft_rdma\": ");
	if (dump)
		printf("null");
	for (int k = 0; !dump && k <= ns; k++) {
		printf("%s", k ? (k < ns ? ", " : "") : "[");
		if (k == ns) {
			printf("]");
			break;
		}
		printf("{\"device\": ");
		json_str(soft[k].dev);
		printf(", \"driver\": \"%s\", \"netdev\": ", soft[k].driver);
		json_str_or_null(soft[k].netdev);
		printf(", \"uri\": ");
		json_str(soft[k].uri);
		printf("}");
	}
	printf("}\n");
}

static int die(int code, const char *msg)
{
	fprintf(stderr, "eel-probe: %s\n", msg);
	return code;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "dump", required_argument, NULL, 'd' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct eel_pci_facts_opts opts = { 0 };
	struct eel_pci_facts *list = NULL;
	bool json = false;
	size_t n = 0;
	static const char shortopts[] = "ajd:Vh";
	char msg[400];
	int c, i, err;

	if (longopt_check(argc, argv, shortopts, longopts, NULL, msg, sizeof(msg))) {
		fprintf(stderr, "eel-probe: %s: see `eel-probe --help`\n", msg);
		return 2;
	}
	opterr = 0;	/* one line of our own instead of getopt's */
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			opts.all = true;
			break;
		case 'j':
			json = true;
			break;
		case 'd':
			opts.dump_file = optarg;
			break;
		case 'V':
			printf("eel-probe %s (git %s)\n", EEL_VERSION, EEL_GIT);
			return 0;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fprintf(stderr,
				"eel-probe: %s '%s': see `eel-probe --help`\n",
				c == ':' || (optopt && strchr("d", optopt)) ?
				"option needs a value" : "unknown option",
				argv[optind - 1]);
			return 2;
		}
	}

	if (optind == argc) {
		err = eel_pci_facts_list(&opts, &list, &n);
		if (err)
			return die(1, eel_pci_facts_error());
	} else {
		char norm[EEL_PCI_ADDR_LEN];

		/* Check every address before scanning: one clear line each. */
		for (i = optind; i < argc; i++)
			if (eel_pci_addr_normalize(argv[i], norm))
				return die(2, eel_pci_facts_error());
		n = (size_t)(argc - optind);
		list = calloc(n, sizeof(*list));
		if (!list)
			return die(1, "out of memory");
		for (i = optind; i < argc; i++) {
			err = eel_pci_facts_get(&opts, argv[i],
						&list[i - optind]);
			if (err) {
				free(list);
				return die(1, eel_pci_facts_error());
			}
		}
	}

	if (json)
		print_json(list, n, opts.dump_file != NULL);
	else if (n)
		print_table(list, n, opts.dump_file);
	if (!json && !opts.dump_file)
		print_map(list, n);
	if (!json && !n)
		printf("no %sPCI functions found%s\n",
		       opts.all ? "" : "network ",
		       opts.all ? "" : " (--all lists every function)");
	eel_pci_facts_free(list);
	return 0;
}
