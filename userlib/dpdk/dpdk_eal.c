/* SPDX-License-Identifier: MIT */
/* userlib/dpdk/dpdk_eal.c — the EAL, once per process (userlib/dpdk/dpdk_eal.h).
 *
 * Programmer's Guide 22.11, "Environment Abstraction Layer": rte_eal_init()
 * parses the EAL's command line, sets up memory (hugepages, or anonymous
 * memory with --no-huge), scans the buses and probes the devices allowed
 * (-a for PCI, --vdev for virtual devices); it may run only once in a
 * process. Further devices are hot-plugged with rte_dev_probe() ("Device
 * hotplug" in the EAL chapter) and unplugged with rte_dev_remove().
 *
 * The library never prints: the EAL's log goes to a stream of ours
 * (rte_openlog_stream, rte_log.h), which keeps only the last error line for
 * eel's one-line messages.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>

#include "userlib/core/dev.h"
#include "userlib/dpdk/dpdk_eal.h"

static pthread_mutex_t eal_lock = PTHREAD_MUTEX_INITIALIZER;
static int eal_state;              /* 0 not tried, 1 up, -1 failed */
static char eal_failure[512];      /* the first failure, repeated to later callers */
static FILE *log_stream;
static char eal_args[1024];        /* the user's, split: the EAL may keep pointers into argv */

/* The log, as the EAL writes it: one message per fflush (rte_vlog). The
 * first error since the last reset names the cause, the last one what
 * failed in the end; EEL_DPDK_LOG=FILE keeps the whole log (for debugging). */
static char first_error[160], last_error[200];
static int hugepage_trouble;
static FILE *log_copy;

static void keep_line(char *dst, size_t cap, const char *buf, size_t size)
{
	size_t n = size < cap - 1 ? size : cap - 1;

	memcpy(dst, buf, n);
	while (n && isspace((unsigned char)dst[n - 1]))
		n--;
	dst[n] = 0;
	for (char *p = dst; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

static ssize_t log_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	if (log_copy) {
		fwrite(buf, 1, size, log_copy);
		fflush(log_copy);
	}
	if (rte_log_cur_msg_loglevel() <= (int)RTE_LOG_ERR) {
		if (!first_error[0])
			keep_line(first_error, sizeof(first_error), buf, size);
		keep_line(last_error, sizeof(last_error), buf, size);
	}
	if (memmem(buf, size, "hugepage", 8) &&
	    (memmem(buf, size, "No free", 7) || memmem(buf, size, "Cannot get", 10) ||
	     memmem(buf, size, "Not enough memory", 17) || memmem(buf, size, "Cannot init memory", 18) ||
	     memmem(buf, size, "no mounted hugetlbfs", 20)))
		hugepage_trouble = 1;
	if (memmem(buf, size, "Cannot init memory", 18) || memmem(buf, size, "Cannot get hugepage", 19))
		hugepage_trouble = 1;
	return (ssize_t)size;
}

/* "first; last", or the one there is */
const char *dpdk_eal_last_error(void)
{
	static char both[400];

	if (first_error[0] && strcmp(first_error, last_error))
		snprintf(both, sizeof(both), "%s; %s", first_error, last_error);
	else
		snprintf(both, sizeof(both), "%s", last_error);
	return both;
}

static void log_reset(void)
{
	first_error[0] = last_error[0] = 0;
}

static int is_hex(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* DDDD:BB:DD.F or BB:DD.F (rte_pci.h, PCI_PRI_FMT / PCI_SHORT_PRI_FMT) */
static int pci_address(const char *s, char *out, size_t n)
{
	char a[16];

	if (strlen(s) == 7)
		snprintf(a, sizeof(a), "0000:%s", s);
	else if (strlen(s) == 12)
		snprintf(a, sizeof(a), "%s", s);
	else
		return 0;
	if (!is_hex(a, 4) || a[4] != ':' || !is_hex(a + 5, 2) || a[7] != ':' || !is_hex(a + 8, 2) ||
	    a[10] != '.' || a[11] < '0' || a[11] > '7')
		return 0;
	for (char *p = a; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	snprintf(out, n, "%s", a);
	return 1;
}

int dpdk_devspec_parse(const char *args, struct dpdk_devspec *d)
{
	const char *comma, *iface;
	size_t n;

	memset(d, 0, sizeof(*d));
	if (!args || !*args)
		return eel_err(-EINVAL, "dpdk: no port given: use dpdk:<pci address> (e.g. dpdk:0000:00:03.0) "
			       "or dpdk:<vdev args> (e.g. dpdk:net_af_packet0,iface=veth0)");
	if (strlen(args) >= sizeof(d->args))
		return eel_err(-EINVAL, "dpdk: device arguments longer than %zu characters", sizeof(d->args) - 1);
	snprintf(d->args, sizeof(d->args), "%s", args);
	if (pci_address(args, d->name, sizeof(d->name))) {
		d->is_pci = 1;
		snprintf(d->args, sizeof(d->args), "%s", d->name);
		return 0;
	}
	comma = strchr(args, ',');
	n = comma ? (size_t)(comma - args) : strlen(args);
	if (n == 0 || n >= sizeof(d->name))
		return eel_err(-EINVAL, "dpdk:%s: expected a PCI address (0000:00:03.0) or a virtual device "
			       "(net_af_packet0,iface=veth0)", args);
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)args[i]) && args[i] != '_')
			return eel_err(-EINVAL, "dpdk:%s: '%.*s' is neither a PCI address (0000:00:03.0) nor a "
				       "virtual device name (net_af_packet0, net_pcap0, ...)", args, (int)n, args);
	memcpy(d->name, args, n);
	d->name[n] = 0;
	if (strncmp(d->name, "net_", 4))
		return eel_err(-EINVAL, "dpdk:%s: a virtual network device's name starts with net_ (net_af_packet0, "
			       "net_pcap0, net_tap0, ...); a PCI address looks like 0000:00:03.0", args);
	iface = strstr(args, "iface=");
	if (iface && (iface == args || iface[-1] == ',')) {
		iface += 6;
		n = strcspn(iface, ",");
		if (n < sizeof(d->iface)) {
			memcpy(d->iface, iface, n);
			d->iface[n] = 0;
		}
	}
	return 0;
}

/* Does the user's argument list already hold this option? */
static int has_opt(char **argv, int argc, const char *const *names)
{
	for (int i = 0; i < argc; i++)
		for (int k = 0; names[k]; k++) {
			size_t n = strlen(names[k]);

			if (!strncmp(argv[i], names[k], n) && (argv[i][n] == 0 || argv[i][n] == '='))
				return 1;
		}
	return 0;
}

#define MAX_EAL_ARGS 64

/* The EAL also prints straight to stdout and stderr (its usage text, and
 * rte_eal_init_alert): while it initialises, both go to a file of ours, whose
 * last line becomes the message when nothing better was logged. */
struct quiet {
	int fd, out, err;
};

static void quiet_begin(struct quiet *q)
{
	fflush(stdout);
	fflush(stderr);
	q->fd = memfd_create("eel-eal-output", 0);
	q->out = q->fd < 0 ? -1 : dup(1);
	q->err = q->fd < 0 ? -1 : dup(2);
	if (q->out >= 0 && q->err >= 0) {
		dup2(q->fd, 1);
		dup2(q->fd, 2);
	}
}

static void quiet_end(struct quiet *q)
{
	char buf[8192], *line, *end;
	ssize_t n;
	off_t size;

	fflush(stdout);
	fflush(stderr);
	if (q->out >= 0 && q->err >= 0) {
		dup2(q->out, 1);
		dup2(q->err, 2);
	}
	if (q->out >= 0)
		close(q->out);
	if (q->err >= 0)
		close(q->err);
	if (q->fd < 0)
		return;
	size = lseek(q->fd, 0, SEEK_END);
	n = pread(q->fd, buf, sizeof(buf) - 1, size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0);
	close(q->fd);
	if (n <= 0 || last_error[0])
		return;
	buf[n] = 0;
	end = buf + n;
	while (end > buf && isspace((unsigned char)end[-1]))
		*--end = 0;
	line = end;
	while (line > buf && line[-1] != '\n')
		line--;
	snprintf(last_error, sizeof(last_error), "%.199s", line);
}

/* One line for a failed rte_eal_init, with the fix. */
static int init_failed(int err, const char *user_args, int user_no_huge)
{
	const char *why = last_error[0] ? dpdk_eal_last_error() : rte_strerror(err);

	if (hugepage_trouble && !user_no_huge)
		return eel_err(-ENOMEM, "dpdk: the EAL found no usable hugepages (%s): reserve some "
			       "(echo 256 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages, hugetlbfs "
			       "mounted) or run without them: --eal \"--no-huge -m 512\"", why);
	if (access("/var/run/dpdk", W_OK) && errno != ENOENT)
		return eel_err(-EACCES, "dpdk: the EAL failed (%s): it needs a writable /var/run/dpdk: run "
			       "as root, or give --eal \"--in-memory\" with a writable XDG_RUNTIME_DIR", why);
	return eel_err(-EIO, "dpdk: the EAL failed to start (%s): check the EAL arguments%s%s%s", why,
		       user_args && *user_args ? " (--eal \"" : "", user_args ? user_args : "",
		       user_args && *user_args ? "\")" : "");
}

static int eal_init(const struct dpdk_devspec *d, const char *user_args)
{
	static const char *const o_prefix[] = { "--file-prefix", NULL };
	static const char *const o_mem[] = { "--in-memory", "--huge-unlink", "--no-shconf", NULL };
	static const char *const o_lcores[] = { "-l", "--lcores", "-c", "--main-lcore", NULL };
	static const char *const o_pci[] = { "-a", "--allow", "-b", "--block", "--no-pci", NULL };
	static const char *const o_nohuge[] = { "--no-huge", NULL };
	static const char *const o_tele[] = { "--telemetry", "--no-telemetry", NULL };
	char *user[MAX_EAL_ARGS], *argv[MAX_EAL_ARGS + 16];
	static char prefix[64], lcore[16], vdev[200], pci[64];
	char *save = NULL;
	int argc = 0, nuser = 0, rc, err, no_huge;
	struct quiet q;
	cpu_set_t saved;
	int have_saved;

	if (user_args) {
		if (strlen(user_args) >= sizeof(eal_args))
			return eel_err(-E2BIG, "dpdk: the EAL arguments are longer than %zu characters",
				       sizeof(eal_args) - 1);
		snprintf(eal_args, sizeof(eal_args), "%s", user_args);
		for (char *t = strtok_r(eal_args, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
			if (nuser == MAX_EAL_ARGS)
				return eel_err(-E2BIG, "dpdk: more than %d EAL arguments in --eal", MAX_EAL_ARGS);
			user[nuser++] = t;
		}
	}
	no_huge = has_opt(user, nuser, o_nohuge);
	argv[argc++] = "eel";
	/* One runtime folder per process, so that several coexist. */
	if (!has_opt(user, nuser, o_prefix)) {
		snprintf(prefix, sizeof(prefix), "--file-prefix=eel-%d", (int)getpid());
		argv[argc++] = prefix;
	}
	/* No files in hugetlbfs, no shared configuration: nothing is left
	 * behind by a process that dies, and no other process is disturbed.
	 * (--in-memory implies --huge-unlink, which --no-huge refuses.) */
	if (!has_opt(user, nuser, o_mem))
		argv[argc++] = no_huge ? "--no-shconf" : "--in-memory";
	/* One lcore, the one this thread runs on now: the EAL pins the calling
	 * thread to its main lcore and starts a worker per further lcore. */
	have_saved = !pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved);
	if (!has_opt(user, nuser, o_lcores)) {
		int cpu = sched_getcpu();

		snprintf(lcore, sizeof(lcore), "%d", cpu < 0 ? 0 : cpu);
		argv[argc++] = "-l";
		argv[argc++] = lcore;
	}
	if (!has_opt(user, nuser, o_tele))
		argv[argc++] = "--no-telemetry";
	if (d->is_pci) {
		if (!has_opt(user, nuser, o_pci)) {
			snprintf(pci, sizeof(pci), "%s", d->name);
			argv[argc++] = "-a";
			argv[argc++] = pci;
		}
	} else {
		if (!has_opt(user, nuser, o_pci))
			argv[argc++] = "--no-pci";
		snprintf(vdev, sizeof(vdev), "--vdev=%s", d->args);
		argv[argc++] = vdev;
	}
	for (int i = 0; i < nuser; i++)
		argv[argc++] = user[i];
	argv[argc] = NULL;

	if (getenv("EEL_DPDK_LOG"))
		log_copy = fopen(getenv("EEL_DPDK_LOG"), "a");
	log_stream = fopencookie(NULL, "w", (cookie_io_functions_t){ .write = log_write });
	if (log_stream)
		rte_openlog_stream(log_stream);
	quiet_begin(&q);
	rc = rte_eal_init(argc, argv);
	err = rte_errno;
	quiet_end(&q);
	if (have_saved)
		pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	if (rc < 0) {
		rc = init_failed(err, user_args, no_huge);
		if (rte_eal_get_runtime_dir()[0])
			rmdir(rte_eal_get_runtime_dir());
		return rc;
	}
	/* With no shared configuration the runtime folder stays empty. */
	rmdir(rte_eal_get_runtime_dir());
	return 0;
}

/* Why a PCI function did not become a port: its driver, from sysfs. */
static int pci_not_usable(const struct dpdk_devspec *d)
{
	char path[160], link[256];
	ssize_t n;
	const char *drv;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", d->name);
	if (access(path, F_OK))
		return eel_err(-ENODEV, "dpdk: there is no PCI function %s on this machine: list them with "
			       "lspci -D (or eel-probe)", d->name);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", d->name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return eel_err(-ENODEV, "dpdk: PCI function %s is bound to no driver: bind it to a "
			       "DPDK-capable one: dpdk-devbind.py -b uio_pci_generic %s (or vfio-pci)",
			       d->name, d->name);
	link[n] = 0;
	drv = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	if (!strcmp(drv, "uio_pci_generic") || !strcmp(drv, "vfio-pci") || !strcmp(drv, "igb_uio"))
		return eel_err(-ENODEV, "dpdk: %s is bound to %s but no DPDK driver took it (%s): is it a "
			       "NIC DPDK supports? (dpdk-devbind.py -s lists them)", d->name, drv,
			       last_error[0] ? dpdk_eal_last_error() : "no message from the EAL");
	return eel_err(-EBUSY, "dpdk: %s is bound to the kernel's %s driver, which DPDK cannot use: bind it to "
		       "a DPDK-capable driver: dpdk-devbind.py -b uio_pci_generic %s (or vfio-pci)",
		       d->name, drv, d->name);
}

int dpdk_eal_attach(const struct dpdk_devspec *d, const char *user_args)
{
	uint16_t port;
	int rc = 0;

	pthread_mutex_lock(&eal_lock);
	if (eal_state < 0) {
		rc = eel_err(-EIO, "%s", eal_failure);
		goto out;
	}
	log_reset();
	if (eal_state == 0) {
		rc = eal_init(d, user_args);
		if (rc) {
			eal_state = -1;
			snprintf(eal_failure, sizeof(eal_failure), "%s", eel_errmsg());
			goto out;
		}
		eal_state = 1;
	}
	/* The EAL probed the first device at init; any other is plugged now. */
	if (rte_eth_dev_get_port_by_name(d->name, &port)) {
		rc = rte_dev_probe(d->args);
		if (rc == -EEXIST || (!rc && rte_eth_dev_get_port_by_name(d->name, &port)))
			rc = -ENODEV;
	}
	if (rc) {
		if (d->is_pci)
			rc = pci_not_usable(d);
		else if (strstr(dpdk_eal_last_error(), "PACKET_FANOUT"))
			/* rte_eth_af_packet.c: group id = (getpid() ^ ifindex) & 0xffff,
			 * so two processes may meet in one group by chance */
			rc = eel_err(-EADDRINUSE, "dpdk: %s: af_packet's PACKET_FANOUT group (DPDK derives it from "
				     "the process id and the interface index) is taken by another process's port: "
				     "start this end again (a new process id), or give the interfaces indexes far "
				     "apart (ip link add NAME index N)", d->args);
		else
			rc = eel_err(-ENODEV, "dpdk: the virtual device %s could not be created (%s): check its "
				     "arguments%s%s", d->args, last_error[0] ? dpdk_eal_last_error() : rte_strerror(-rc),
				     d->iface[0] ? " and that the interface exists: ip link show " : "", d->iface);
	}
out:
	pthread_mutex_unlock(&eal_lock);
	return rc;
}

void dpdk_eal_detach(const struct dpdk_devspec *d)
{
	struct rte_eth_dev_info info;
	uint16_t port;

	pthread_mutex_lock(&eal_lock);
	if (eal_state == 1 && !rte_eth_dev_get_port_by_name(d->name, &port) &&
	    !rte_eth_dev_info_get(port, &info) && info.device)
		rte_dev_remove(info.device);
	pthread_mutex_unlock(&eal_lock);
}
