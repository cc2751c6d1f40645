/* tcp_echo: a loopback TCP echo between two threads. The server thread
 * listens on 127.0.0.1 port 0 (the kernel picks a free port), accepts
 * one connection and echoes what it receives until the client shuts its
 * side down; the client connects, sends messages of several sizes in
 * pieces and checks every byte that comes back. Both block in accept and
 * recv. (Messages of hundreds of kilobytes work too, but then the
 * kernel's own TCP timers make a schedule wait tens of milliseconds for
 * a window to open, as it does natively: too slow for CI.)
 * expect: clean. */
#include <arpa/inet.h>
#include <assert.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BIG 65536

static int listener;
static struct sockaddr_in addr;
static unsigned char out[BIG], in[BIG];

static void *server(void *arg)
{
	(void)arg;
	int c = accept(listener, NULL, NULL);
	assert(c >= 0);
	static unsigned char buf[65536];
	ssize_t n;
	while ((n = recv(c, buf, sizeof buf, 0)) > 0)
		assert(send(c, buf, (size_t)n, 0) == n);
	assert(n == 0);
	close(c);
	return NULL;
}

/* Send len bytes and read them back, while the server echoes. */
static void roundtrip(int s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (unsigned char)(i * 7 + len);
	/* The echo comes back while we send: send in pieces and drain
	 * in between, or both sides' buffers fill up. */
	size_t sent = 0, got = 0;
	while (got < len) {
		if (sent < len) {
			size_t piece = len - sent < 16384 ? len - sent : 16384;
			ssize_t w = send(s, out + sent, piece, 0);
			assert(w > 0);
			sent += (size_t)w;
		}
		ssize_t r = recv(s, in + got, len - got, 0);
		assert(r > 0);
		got += (size_t)r;
		if (sent < got)
			assert(0 && "more echoed than sent");
	}
	assert(memcmp(in, out, len) == 0);
}

int main(void)
{
	listener = socket(AF_INET, SOCK_STREAM, 0);
	assert(listener >= 0);
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addr.sin_port = 0;
	assert(bind(listener, (struct sockaddr *)&addr, sizeof addr) == 0);
	socklen_t len = sizeof addr;
	assert(getsockname(listener, (struct sockaddr *)&addr, &len) == 0);
	assert(listen(listener, 1) == 0);
	pthread_t t;
	pthread_create(&t, NULL, server, NULL);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	assert(s >= 0);
	assert(connect(s, (struct sockaddr *)&addr, sizeof addr) == 0);
	roundtrip(s, 1);
	roundtrip(s, 1000);
	roundtrip(s, 20000);
	shutdown(s, SHUT_WR);
	char c;
	assert(recv(s, &c, 1, 0) == 0); /* the server closed its end */
	pthread_join(t, NULL);
	close(s);
	close(listener);
	return 0;
}
