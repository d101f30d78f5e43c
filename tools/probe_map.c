/* SPDX-License-Identifier: MIT */
/* tools/probe_map.c — which network and RDMA devices sit on a PCI function,
 * and how eel-bench reaches each (the URIs of README.md's table). A device
 * belongs to the function when its sysfs `device` link resolves to the
 * function's folder or below it (virtio-net: 0000:00:03.0/virtio2; an
 * mlx5 port: the function itself). Soft RDMA devices (rxe, siw) have no
 * `device`: their network device is their `parent`, else the one under
 * GID 0 (Documentation/ABI/stable/sysfs-class-infiniband). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/probe_map.h"

/* Is the device of the sysfs class entry dir/name the function addr, or under it? */
static int on_function(const char *dir, const char *name, const char *addr)
{
	char path[PATH_MAX], real[PATH_MAX], want[32];
	const char *at;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s/device", dir, name);
	if (!realpath(path, real))
		return 0;
	snprintf(want, sizeof(want), "/%s", addr);
	n = strlen(want);
	for (at = strstr(real, want); at; at = strstr(at + 1, want))
		if (at[n] == '/' || at[n] == 0)
			return 1;
	return 0;
}

/* The names in a sysfs class whose device is the function, sorted. */
static int class_members(const char *dir, const char *addr, char (*out)[64], size_t w, int max)
{
	struct dirent **e;
	int n = scandir(dir, &e, NULL, alphasort), k = 0;

	for (int i = 0; i < n; i++) {
		if (e[i]->d_name[0] != '.' && k < max && on_function(dir, e[i]->d_name, addr))
			snprintf(out[k++], w, "%.63s", e[i]->d_name);
		free(e[i]);
	}
	if (n >= 0)
		free(e);
	return k;
}

static void add_uri(struct probe_map *m, const char *backend, const char *needs, const char *fmt, const char *a)
{
	struct probe_uri *u;

	if (m->nuri >= (int)(sizeof(m->uris) / sizeof(m->uris[0])))
		return;
	u = &m->uris[m->nuri++];
	u->backend = backend;
	snprintf(u->uri, sizeof(u->uri), fmt, a);
	snprintf(u->needs, sizeof(u->needs), "%s", needs);
}

/* eel's raw driver knows these (userlib/raw/e1000_init.c, e1000_supported) */
static int raw_supported(const struct eel_pci_facts *f)
{
	return f->vendor_id == 0x8086 && (f->device_id == 0x100e || f->device_id == 0x10d3);
}

void probe_map_get(const struct eel_pci_facts *f, struct probe_map *m)
{
	char net[PROBE_MAX][64], needs[128];
	int network = (f->class_code >> 16) == 0x02;

	memset(m, 0, sizeof(*m));
	m->nnet = class_members("/sys/class/net", f->addr, net, sizeof(net[0]), PROBE_MAX);
	for (int i = 0; i < m->nnet; i++)
		snprintf(m->netdevs[i], sizeof(m->netdevs[i]), "%.31s", net[i]);
	m->nrdma = class_members("/sys/class/infiniband", f->addr, m->rdma, sizeof(m->rdma[0]), PROBE_MAX);
	for (int i = 0; i < m->nrdma; i++)
		add_uri(m, "verbs", "", "verbs:%s", m->rdma[i]);
	if (!network && !m->nrdma && !m->nnet)
		return;
	/* DPDK drives a PCI port bound to vfio-pci (userlib/dpdk/README.md) */
	snprintf(needs, sizeof(needs), "%s", !strcmp(f->driver, "vfio-pci") || !strcmp(f->driver, "uio_pci_generic") ?
		 "" : "dpdk-devbind.py -b vfio-pci ");
	if (needs[0])
		strncat(needs, f->addr, sizeof(needs) - strlen(needs) - 1);
	add_uri(m, "dpdk", needs, "dpdk:%s", f->addr);
	/* or a kernel netdev's packets through af_packet, the function left to its driver */
	for (int i = 0; i < m->nnet; i++)
		add_uri(m, "dpdk", "", "dpdk:net_af_packet0,iface=%s", m->netdevs[i]);
	if (raw_supported(f)) {
		snprintf(needs, sizeof(needs), "%s", strcmp(f->driver, "eel_pci") ? "tools/eel-bind " : "");
		if (needs[0])
			strncat(needs, f->addr, sizeof(needs) - strlen(needs) - 1);
		add_uri(m, "raw", needs, "raw:%s", f->addr);
	}
}

/* The first line of a sysfs file into out ("" when absent). */
static void line(const char *path, char *out, size_t n)
{
	FILE *fp = fopen(path, "r");

	out[0] = 0;
	if (fp && fgets(out, (int)n, fp))
		out[strcspn(out, "\n")] = 0;
	if (fp)
		fclose(fp);
}

int probe_soft_rdma(struct probe_soft *out, int max)
{
	struct dirent **e;
	int n = scandir("/sys/class/infiniband", &e, NULL, alphasort), k = 0;

	for (int i = 0; i < n; i++) {
		char path[PATH_MAX], real[PATH_MAX], type[32];
		struct probe_soft *s = &out[k];
		const char *d = e[i]->d_name;

		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device", d);
		if (d[0] == '.' || k >= max || realpath(path, real)) {
			free(e[i]);
			continue; /* a bus device's: listed with its function */
		}
		snprintf(s->dev, sizeof(s->dev), "%.63s", d);
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/parent", d);
		line(path, s->netdev, sizeof(s->netdev));
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/gid_attrs/ndevs/0", d);
		if (!s->netdev[0])
			line(path, s->netdev, sizeof(s->netdev));
		/* the kernel's soft RDMA drivers: siw is iWARP (node type RNIC), rxe RoCE (CA) */
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/node_type", d);
		line(path, type, sizeof(type));
		s->driver = strstr(type, "RNIC") ? "siw" : "rdma_rxe";
		snprintf(s->uri, sizeof(s->uri), "verbs:%.63s", d);
		k++;
		free(e[i]);
	}
	if (n >= 0)
		free(e);
	return k;
}
