/* rt_symbolize.c - turns code and data addresses into file:line and names,
 * with one llvm-symbolizer process per report.
 *
 * Addresses are sent as module + offset, so PIE and shared libraries work.
 * Code addresses are return addresses: we ask for the byte before, which
 * lies in the call instruction. Without a symbolizer, dladdr gives what
 * the dynamic symbol table knows, and a one-line note says why.
 *
 * Nothing here uses the heap (a report may follow glibc finding its heap
 * corrupt): buffers are mmap'd, the symbolizer is started with clone(),
 * its answers read with read(2). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_internal.h"
#include "rt_libc.h"

extern char **environ;

static bool module_of(uintptr_t addr, char *path, size_t cap, uintptr_t *off)
{
	Dl_info info;
	struct link_map *lm = NULL;
	if (!dladdr1((void *)addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return false;
	if (lm->l_name && lm->l_name[0]) {
		snprintf(path, cap, "%s", lm->l_name);
	} else {
		ssize_t n = readlink("/proc/self/exe", path, cap - 1);
		if (n <= 0)
			return false;
		path[n] = 0;
	}
	*off = addr - lm->l_addr;
	return true;
}

static const char *find_symbolizer(void)
{
	static const char *const names[] = { "llvm-symbolizer-14", "llvm-symbolizer" };
	const char *env = rt_env_initial("SCHEDFUZZ_SYMBOLIZER");
	if (env && *env)
		return env;
	const char *path = rt_env_initial("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	static char buf[4096];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		for (const char *p = path; *p;) {
			const char *e = strchr(p, ':');
			size_t len = e ? (size_t)(e - p) : strlen(p);
			snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, names[i]);
			if (access(buf, X_OK) == 0)
				return buf;
			p += len + (e ? 1 : 0);
		}
	}
	return NULL;
}

static const char *basename_of(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* ---- the symbolizer's process, started without the heap -------------------------- */

struct child {
	const char *tool;
	char *const *argv;
	int in, out;    /* become its stdin and stdout */
	sigset_t mask;  /* the caller's, restored before exec */
	int err;        /* why it could not start, written by the child */
};

/* posix_spawn's file actions live on the heap, which may be corrupt when a
 * report is made; this is what posix_spawn does, without them. The child
 * shares our memory until it execs (CLONE_VM | CLONE_VFORK), so no handler
 * of ours may run in it: they are reset before signals are let in. */
static int child_main(void *arg)
{
	struct child *c = arg;
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL &&
		    sa.sa_handler != SIG_IGN) {
			sa.sa_handler = SIG_DFL;
			sa.sa_flags = 0;
			sigaction(sig, &sa, NULL);
		}
	}
	sigprocmask(SIG_SETMASK, &c->mask, NULL);
	int null = open("/dev/null", O_WRONLY);
	if (dup2(c->in, 0) < 0 || dup2(c->out, 1) < 0 || null < 0 || dup2(null, 2) < 0) {
		c->err = errno;
		_exit(127);
	}
	execve(c->tool, c->argv, environ);
	c->err = errno ? errno : ENOEXEC;
	_exit(127);
}

#define CHILD_STACK (64u << 10)

static pid_t start_child(struct child *c)
{
	void *stack = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -1;
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &c->mask);
	c->err = 0;
	pid_t pid = clone(child_main, (char *)stack + CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, c);
	pthread_sigmask(SIG_SETMASK, &c->mask, NULL);
	munmap(stack, CHILD_STACK); /* the child has exec'd or exited: vfork */
	if (pid > 0 && c->err) {
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/* Write the queries while reading the answers, so that neither pipe can
 * fill up while the other waits. Returns the answers' length. */
static size_t converse(int to, int from, const char *q, size_t qlen, char *ans, size_t cap)
{
	size_t sent = 0, got = 0;
	if (qlen == 0) {
		close(to);
		to = -1;
	}
	while (from >= 0 && got < cap) {
		struct pollfd p[2] = { { from, POLLIN, 0 }, { to, POLLOUT, 0 } };
		if (poll(p, to >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (to >= 0 && (p[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = write(to, q + sent, qlen - sent);
			if (w > 0)
				sent += (size_t)w;
			if (w < 0 && errno != EINTR && errno != EAGAIN)
				sent = qlen; /* it stopped reading: take what it says */
			if (sent == qlen) {
				close(to);
				to = -1;
			}
		}
		if (p[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			ssize_t r = read(from, ans + got, cap - got);
			if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
				break;
			if (r > 0)
				got += (size_t)r;
		}
	}
	if (to >= 0)
		close(to);
	return got;
}

/* The next line of buf (up to end), NUL-terminated in place; NULL at the end. */
static char *next_line(char **pos, char *end)
{
	char *s = *pos;
	if (s >= end)
		return NULL;
	char *nl = memchr(s, '\n', (size_t)(end - s));
	*pos = nl ? nl + 1 : end;
	if (nl)
		*nl = 0;
	else
		*(end - 1) = 0; /* a cut-off last line: the buffer keeps a byte spare */
	return s;
}

/* Fill out[] from the symbolizer's answers; 0, or the errno of why it
 * could not run (a program that sandboxed itself may forbid the exec). */
static int run_symbolizer(const char *tool, const char *queries, size_t qlen, const bool *is_data,
			  struct rt_sym *out, int n)
{
	int in[2], res[2];
	if (pipe2(in, O_CLOEXEC))
		return errno;
	if (pipe2(res, O_CLOEXEC)) {
		int err = errno;
		close(in[0]);
		close(in[1]);
		return err;
	}
	char *argv[] = { (char *)tool, "--inlining=true", "--demangle", NULL };
	struct child c = { .tool = tool, .argv = argv, .in = in[0], .out = res[1] };
	pid_t pid = start_child(&c);
	int err = c.err ? c.err : errno;
	close(in[0]);
	close(res[1]);
	if (pid < 0) {
		close(in[1]);
		close(res[0]);
		return err ? err : ECHILD;
	}
	/* Two lines and a blank one per answer; names can be long. */
	size_t cap = (size_t)n * 2048 + 65536;
	char *ans = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t len = 0;
	/* A symbolizer that exits early must not take us with it (SIGPIPE). */
	sigset_t pipe_set, old, pending;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigpending(&pending);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	if (ans != MAP_FAILED)
		len = converse(in[1], res[0], queries, qlen, ans, cap - 1);
	else
		close(in[1]);
	close(res[0]);
	if (!sigismember(&pending, SIGPIPE))
		while (sigtimedwait(&pipe_set, NULL, &(struct timespec){ 0, 0 }) == SIGPIPE)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	int status = 0;
	waitpid(pid, &status, 0);
	if (ans == MAP_FAILED)
		return 0;
	if (len == 0 && n > 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		return EPERM; /* killed or refused before it answered: a seccomp filter? */
	ans[len] = 0;
	char *pos = ans, *end = ans + len + 1;
	for (int i = 0; i < n; i++) {
		char *line = next_line(&pos, end), *line2 = next_line(&pos, end);
		if (!line || !line2)
			break;
		if (is_data[i]) {
			/* "name" then "start size" */
			unsigned long start = 0, size = 0;
			sscanf(line2, "%lu %lu", &start, &size);
			if (strcmp(line, "??") != 0)
				snprintf(out[i].text, sizeof out[i].text, "%s", line);
			out[i].start = start;
		} else if (strcmp(line2, "??:0:0") != 0 && strncmp(line2, "??", 2) != 0) {
			/* "function" then "file:line:column" */
			char *col = strrchr(line2, ':');
			if (col)
				*col = 0;
			snprintf(out[i].text, sizeof out[i].text, "%s", basename_of(line2));
			snprintf(out[i].func, sizeof out[i].func, "%s", line);
		} else if (strcmp(line, "??") != 0) {
			snprintf(out[i].func, sizeof out[i].func, "%s", line);
		}
		for (char *l; (l = next_line(&pos, end)) && l[0];) /* the blank separator */
			;
	}
	munmap(ans, cap);
	return 0;
}

void rt_symbolize(const uintptr_t *addrs, const bool *is_data, struct rt_sym *out, int n)
{
	for (int i = 0; i < n; i++) {
		out[i].text[0] = out[i].func[0] = 0;
		out[i].start = 0;
		out[i].offset = 0;
	}
	/* mmap'd, not malloc'd: see the top of rt_report.c. */
	size_t cap = (size_t)n * 4200 + 1, len = 0;
	size_t bytes = cap + ((size_t)n + 1) * sizeof(uintptr_t);
	char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return;
	uintptr_t *offs = (uintptr_t *)mem;
	char *q = mem + ((size_t)n + 1) * sizeof(uintptr_t);
	for (int i = 0; i < n; i++) {
		char path[4096];
		uintptr_t off = 0, a = addrs[i] - (is_data[i] || !addrs[i] ? 0 : 1);
		if (!addrs[i] || !module_of(a, path, sizeof path, &off))
			snprintf(path, sizeof path, "/nonexistent");
		offs[i] = off;
		len += (size_t)snprintf(q + len, cap - len, "%s %s 0x%lx\n",
					is_data[i] ? "DATA" : "CODE", path, (unsigned long)off);
	}
	static bool warned;
	const char *tool = find_symbolizer();
	int err = tool ? run_symbolizer(tool, q, len, is_data, out, n) : ENOENT;
	if (err) {
		if (!warned && !tool)
			fprintf(stderr, "schedfuzz: note: llvm-symbolizer not found (set "
					"SCHEDFUZZ_SYMBOLIZER); sites are shown as module+offset\n");
		else if (!warned)
			fprintf(stderr, "schedfuzz: note: %s could not run here (%s: a program that "
					"sandboxes itself may forbid it); sites are shown as "
					"module+offset, and `schedfuzz replay` symbolizes its lanes "
					"from outside the program\n",
				tool, strerror(err));
		warned = true;
		for (int i = 0; i < n; i++) {
			Dl_info info;
			char path[4096];
			uintptr_t off;
			if (!addrs[i])
				continue;
			if (dladdr((void *)addrs[i], &info) && info.dli_sname)
				snprintf(is_data[i] ? out[i].text : out[i].func, sizeof out[i].text,
					 "%s", info.dli_sname);
			if (!is_data[i] && module_of(addrs[i] - 1, path, sizeof path, &off))
				snprintf(out[i].text, sizeof out[i].text, "%s+0x%lx", basename_of(path),
					 (unsigned long)off);
		}
	}
	for (int i = 0; i < n; i++)
		out[i].offset = is_data[i] && out[i].text[0] ? offs[i] - out[i].start : 0;
	munmap(mem, bytes);
}
