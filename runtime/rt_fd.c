/* rt_fd.c - the descriptors controlled threads created, and whether only
 * this process can make one ready.
 *
 * A wait on a descriptor is part of a deadlock only when nothing outside
 * the execution can end it (rt_external.c). That holds for a pipe or a
 * socket pair both of whose ends a controlled thread created and no other
 * process holds (found in /proc, so a forked or spawned child that
 * inherited an end counts), for a TCP or Unix connection whose other end
 * is such a socket of ours, and for an eventfd created here before any
 * fork. A listening socket, a timer, a terminal, an epoll set and anything
 * created outside the execution may be made ready from outside. The
 * entries are checked against the descriptor's inode, so one closed
 * behind our back (inside libc) and reused is not mistaken for ours. The
 * checks run only when no thread can run, never on a fast path. */
#define _GNU_SOURCE
#include <dirent.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "rt_io.h"

#define FD_MAX 4096

struct fd_entry {
	ino_t ino;
	dev_t dev;
	int peer;  /* the other end, -1 if none known */
	bool ours; /* created by a controlled thread, not closed since */
};
static struct fd_entry fds[FD_MAX];
static bool forked; /* eventfds cannot be told apart in /proc: any fork shares them */

static bool stat_fd(int fd, struct stat *st)
{
	return fstat(fd, st) == 0;
}

void rt_fd_created(int fd, int peer)
{
	struct stat st;
	if (fd < 0 || fd >= FD_MAX || !stat_fd(fd, &st))
		return;
	fds[fd] = (struct fd_entry){ st.st_ino, st.st_dev, peer, true };
}

void rt_fd_closed(int fd)
{
	if (fd >= 0 && fd < FD_MAX)
		fds[fd].ours = false;
}

void rt_fd_forked(void)
{
	forked = true;
}

static bool ours(int fd)
{
	struct stat st;
	return fd >= 0 && fd < FD_MAX && fds[fd].ours && stat_fd(fd, &st) &&
	       st.st_ino == fds[fd].ino && st.st_dev == fds[fd].dev;
}

/* readlink of /proc/self/fd/N: "pipe:[123]", "socket:[45]",
 * "anon_inode:[eventfd]", a path. */
static void link_of(int fd, char *buf, size_t cap)
{
	char path[48];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, buf, cap - 1);
	buf[n > 0 ? n : 0] = 0;
}

/* Does a process other than this one hold a descriptor linked to what? */
static bool held_elsewhere(const char *what)
{
	DIR *proc = opendir("/proc");
	if (!proc)
		return true;
	char self[16], path[300], link[64];
	snprintf(self, sizeof self, "%d", (int)getpid());
	bool found = false;
	struct dirent *p;
	while (!found && (p = readdir(proc)) != NULL) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9' || !strcmp(p->d_name, self))
			continue;
		snprintf(path, sizeof path, "/proc/%s/fd", p->d_name);
		DIR *d = opendir(path);
		if (!d)
			continue; /* gone, or another user's: it cannot hold ours */
		struct dirent *f;
		while (!found && (f = readdir(d)) != NULL) {
			snprintf(path, sizeof path, "/proc/%s/fd/%s", p->d_name, f->d_name);
			ssize_t n = readlink(path, link, sizeof link - 1);
			if (n > 0) {
				link[n] = 0;
				found = !strcmp(link, what);
			}
		}
		closedir(d);
	}
	closedir(proc);
	return found;
}

static bool same_addr(const struct sockaddr_storage *a, socklen_t la,
		      const struct sockaddr_storage *b, socklen_t lb)
{
	return la == lb && la > 0 && memcmp(a, b, la) == 0;
}

/* The socket of ours whose local address is fd's peer address, or -1. */
static int peer_socket(int fd)
{
	struct sockaddr_storage peer, local;
	socklen_t lp = sizeof peer;
	if (getpeername(fd, (struct sockaddr *)&peer, &lp) != 0)
		return -1; /* not connected: anybody may connect or send */
	if (peer.ss_family == AF_UNIX)
		return fds[fd].peer; /* unnamed: only a socket pair's other end is known */
	for (int i = 0; i < FD_MAX; i++) {
		if (i == fd || !fds[i].ours)
			continue;
		socklen_t ll = sizeof local;
		if (getsockname(i, (struct sockaddr *)&local, &ll) == 0 &&
		    same_addr(&peer, lp, &local, ll) && ours(i))
			return i;
	}
	return -1;
}

bool rt_fd_internal(int fd, short events)
{
	(void)events;
	if (!ours(fd))
		return false;
	char link[64], peer_link[64];
	link_of(fd, link, sizeof link);
	if (!strncmp(link, "pipe:", 5))
		return !held_elsewhere(link); /* both ends share the inode */
	if (!strcmp(link, "anon_inode:[eventfd]"))
		return !forked;
	if (!strncmp(link, "socket:", 7)) {
		int peer = fds[fd].peer >= 0 && ours(fds[fd].peer) ? fds[fd].peer : peer_socket(fd);
		if (peer < 0)
			return false;
		link_of(peer, peer_link, sizeof peer_link);
		return !held_elsewhere(peer_link) && !held_elsewhere(link);
	}
	return false;
}

void rt_fd_kind(int fd, char *buf, size_t cap)
{
	char link[64];
	link_of(fd, link, sizeof link);
	if (!strncmp(link, "pipe:", 5)) {
		snprintf(buf, cap, "pipe");
	} else if (!strncmp(link, "anon_inode:[", 12)) {
		snprintf(buf, cap, "%.*s", (int)strcspn(link + 12, "]"), link + 12);
	} else if (!strncmp(link, "socket:", 7)) {
		int domain = 0, type = 0;
		socklen_t l = sizeof domain;
		getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &l);
		l = sizeof type;
		getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l);
		const char *d = domain == AF_UNIX ? "Unix" : domain == AF_INET ? "IPv4"
						 : domain == AF_INET6 ? "IPv6" : "other";
		const char *t = type == SOCK_STREAM ? (domain == AF_UNIX ? "stream" : "TCP")
				: type == SOCK_DGRAM ? (domain == AF_UNIX ? "datagram" : "UDP")
						     : "";
		if (domain == AF_UNIX)
			snprintf(buf, cap, "Unix %s socket", t);
		else
			snprintf(buf, cap, "%s %s socket", t, d);
	} else if (link[0]) {
		snprintf(buf, cap, "%s", link);
	} else {
		snprintf(buf, cap, "descriptor");
	}
}

/* ---- the calls that create descriptors ---------------------------------------- */

RT_INTERPOSE int pipe(int p[2])
{
	int r = IO_REAL(pipe)(p);
	if (r == 0 && rt_io_self(RT_CALLER())) {
		rt_fd_created(p[0], p[1]);
		rt_fd_created(p[1], p[0]);
	}
	return r;
}

RT_INTERPOSE int pipe2(int p[2], int flags)
{
	int r = IO_REAL(pipe2)(p, flags);
	if (r == 0 && rt_io_self(RT_CALLER())) {
		rt_fd_created(p[0], p[1]);
		rt_fd_created(p[1], p[0]);
	}
	return r;
}

RT_INTERPOSE int socketpair(int domain, int type, int proto, int sv[2])
{
	int r = IO_REAL(socketpair)(domain, type, proto, sv);
	if (r == 0 && rt_io_self(RT_CALLER())) {
		rt_fd_created(sv[0], sv[1]);
		rt_fd_created(sv[1], sv[0]);
	}
	return r;
}

RT_INTERPOSE int socket(int domain, int type, int proto)
{
	int fd = IO_REAL(socket)(domain, type, proto);
	if (fd >= 0 && rt_io_self(RT_CALLER()))
		rt_fd_created(fd, -1);
	return fd;
}

RT_INTERPOSE int eventfd(unsigned initval, int flags)
{
	int fd = IO_REAL(eventfd)(initval, flags);
	if (fd >= 0 && rt_io_self(RT_CALLER()))
		rt_fd_created(fd, -1);
	return fd;
}

RT_INTERPOSE int close(int fd)
{
	struct rt_thread *self = rt_io_self(RT_CALLER());
	if (self)
		rt_fd_closed(fd);
	int r = IO_REAL(close)(fd);
	if (self)
		rt_ext_changed(); /* a reader of the other end sees its end */
	return r;
}
