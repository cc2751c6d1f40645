/* accept_forever: a server thread accepts on a loopback socket that
 * nobody in the program connects to, and main joins it. Someone outside
 * the process could still connect, so this is no deadlock the runtime can
 * be sure of: it really waits, and when the time runs out reports a hang
 * that names the wait ("accept on TCP IPv4 socket fd N").
 * expect: hang (--timeout). */
#include <arpa/inet.h>
#include <assert.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int listener;

static void *server(void *arg)
{
	(void)arg;
	int c = accept(listener, NULL, NULL);
	if (c >= 0)
		close(c);
	return NULL;
}

int main(void)
{
	listener = socket(AF_INET, SOCK_STREAM, 0);
	assert(listener >= 0);
	struct sockaddr_in addr;
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert(bind(listener, (struct sockaddr *)&addr, sizeof addr) == 0);
	assert(listen(listener, 1) == 0);
	pthread_t t;
	pthread_create(&t, NULL, server, NULL);
	pthread_join(t, NULL);
	close(listener);
	return 0;
}
