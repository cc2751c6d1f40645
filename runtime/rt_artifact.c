/* rt_artifact.c - the file an engine saves a failing input to, so that a
 * report's replay line names the real file instead of "<saved input>".
 *
 * libFuzzer saves the input that crashed as <-artifact_prefix>crash-<SHA-1
 * of the input, in hex>, or at -exact_artifact_path; the SHA-1 is computed
 * here (FIPS 180-4) over the bytes libFuzzer passed, which are the bytes it
 * saves; when libFuzzer runs inputs named on its command line it saves
 * nothing, and the input is the file named. afl-fuzz names its files by
 * queue order, known only to it: the report says where they go. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_internal.h"
#include "rt_libc.h"

static uint32_t rol(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

static void sha1_block(uint32_t h[5], const uint8_t *p)
{
	uint32_t w[80];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	for (int i = 0; i < 80; i++) {
		uint32_t f, k;
		if (i < 20)
			f = (b & c) | (~b & d), k = 0x5a827999;
		else if (i < 40)
			f = b ^ c ^ d, k = 0x6ed9eba1;
		else if (i < 60)
			f = (b & c) | (b & d) | (c & d), k = 0x8f1bbcdc;
		else
			f = b ^ c ^ d, k = 0xca62c1d6;
		uint32_t t = rol(a, 5) + f + e + k + w[i];
		e = d, d = c, c = rol(b, 30), b = a, a = t;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

void rt_sha1_hex(const uint8_t *data, size_t size, char out[41])
{
	uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };
	size_t i = 0;
	for (; i + 64 <= size; i += 64)
		sha1_block(h, data + i);
	uint8_t tail[128] = { 0 };
	size_t rest = size - i;
	memcpy(tail, data + i, rest);
	tail[rest] = 0x80;
	size_t len = rest + 1 + 8 <= 64 ? 64 : 128;
	uint64_t bits = (uint64_t)size * 8;
	for (int k = 0; k < 8; k++)
		tail[len - 1 - k] = (uint8_t)(bits >> (8 * k));
	sha1_block(h, tail);
	if (len == 128)
		sha1_block(h, tail + 64);
	for (int k = 0; k < 5; k++)
		snprintf(out + 8 * k, 9, "%08x", h[k]);
}

/* The value of libFuzzer's flag -name=VALUE on its command line, or NULL. */
static const char *libfuzzer_flag(const char *name)
{
	size_t n = strlen(name);
	for (char **a = rt_main_argv ? rt_main_argv + 1 : NULL; a && *a; a++)
		if ((*a)[0] == '-' && !strncmp(*a + 1, name, n) && (*a)[1 + n] == '=')
			return *a + 2 + n;
	return NULL;
}

/* The input libFuzzer passed for the current execution. */
static const uint8_t *engine_input;
static size_t engine_size;

void rt_artifact_input(const uint8_t *data, size_t size)
{
	engine_input = data;
	engine_size = size;
}

/* Does the file at path hold exactly the current input? */
static bool holds_input(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != engine_size)
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool same = true;
	uint8_t buf[4096];
	for (size_t done = 0; same && done < engine_size;) {
		ssize_t n = read(fd, buf, sizeof buf);
		same = n > 0 && memcmp(buf, engine_input + done, (size_t)n) == 0;
		done += n > 0 ? (size_t)n : 0;
	}
	close(fd);
	return same;
}

bool rt_artifact_path(char *out, size_t cap)
{
	if (rt.under_libfuzzer && engine_input) {
		/* Inputs named on the command line are run as they are, and
		 * libFuzzer saves no artifact: the input is that file. */
		for (char **a = rt_main_argv ? rt_main_argv + 1 : NULL; a && *a; a++)
			if ((*a)[0] != '-' && holds_input(*a)) {
				snprintf(out, cap, "%s", *a);
				return true;
			}
		const char *exact = libfuzzer_flag("exact_artifact_path");
		if (exact) {
			snprintf(out, cap, "%s", exact);
			return true;
		}
		char hex[41];
		rt_sha1_hex(engine_input, engine_size, hex);
		const char *prefix = libfuzzer_flag("artifact_prefix");
		snprintf(out, cap, "%scrash-%s", prefix ? prefix : "./", hex);
		return true;
	}
	if (getenv("__AFL_SHM_ID")) { /* set by afl-fuzz for its target */
		snprintf(out, cap, "<the file afl-fuzz saves in its -o DIR, under <instance>/crashes/>");
		return true;
	}
	return false;
}
