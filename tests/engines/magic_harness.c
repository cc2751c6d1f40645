/* magic_harness: a bug that data alone decides, behind a word the harness
 * compares with a libc function: a 4-byte magic with memcmp, or with
 * -DSTRCMP a command word with strcmp. libFuzzer finds the word only if it
 * learns the compared operands (rt_compare.c). A reader thread parses the
 * input while the main thread waits, so the comparison runs in a
 * controlled thread.
 * expect: assert. FIXED: the magic input is handled. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const uint8_t *input;
static size_t input_size;
static int handled, magic;

static int is_magic(void)
{
#ifdef STRCMP
	char word[16];
	size_t n = 0;
	while (n < input_size && n < sizeof word - 1 && input[n] != ' ')
		n++;
	memcpy(word, input, n);
	word[n] = 0;
	return strcmp(word, "unlock") == 0;
#else
	return input_size >= 4 && memcmp(input, "SfZ!", 4) == 0;
#endif
}

static void *reader(void *arg)
{
	(void)arg;
	magic = is_magic();
#ifndef FIXED
	if (magic)
		return NULL; /* the bug: the magic input is never handled */
#endif
	handled = 1;
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	input = data;
	input_size = size;
	handled = magic = 0;
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	pthread_join(t, NULL);
	assert(handled);
	return 0;
}
