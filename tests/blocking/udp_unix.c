/* udp_unix: datagrams between two threads. A receiver binds a UDP socket
 * on 127.0.0.1 port 0 and waits for each datagram with select(), then
 * acknowledges it over a Unix datagram socket pair; the sender sends a
 * numbered datagram, waits for its acknowledgement with recv() on the
 * pair, and sends the next. Datagrams are never merged or split.
 * expect: clean. */
#include <arpa/inet.h>
#include <assert.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#define COUNT 4

static int udp, pair[2];
static struct sockaddr_in addr;

static void *receiver(void *arg)
{
	(void)arg;
	for (int i = 1; i <= COUNT; i++) {
		fd_set r;
		FD_ZERO(&r);
		FD_SET(udp, &r);
		assert(select(udp + 1, &r, NULL, NULL, NULL) == 1 && FD_ISSET(udp, &r));
		int got[2];
		assert(recvfrom(udp, got, sizeof got, 0, NULL, NULL) == sizeof got);
		assert(got[0] == i && got[1] == i * i);
		assert(send(pair[1], &i, sizeof i, 0) == sizeof i);
	}
	return NULL;
}

int main(void)
{
	udp = socket(AF_INET, SOCK_DGRAM, 0);
	assert(udp >= 0);
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert(bind(udp, (struct sockaddr *)&addr, sizeof addr) == 0);
	socklen_t len = sizeof addr;
	assert(getsockname(udp, (struct sockaddr *)&addr, &len) == 0);
	assert(socketpair(AF_UNIX, SOCK_DGRAM, 0, pair) == 0);
	int out = socket(AF_INET, SOCK_DGRAM, 0);
	assert(out >= 0);
	pthread_t t;
	pthread_create(&t, NULL, receiver, NULL);
	for (int i = 1; i <= COUNT; i++) {
		int msg[2] = { i, i * i };
		assert(sendto(out, msg, sizeof msg, 0, (struct sockaddr *)&addr, sizeof addr) ==
		       sizeof msg);
		int ack;
		assert(recv(pair[0], &ack, sizeof ack, 0) == sizeof ack);
		assert(ack == i);
	}
	pthread_join(t, NULL);
	close(out);
	close(udp);
	close(pair[0]);
	close(pair[1]);
	return 0;
}
