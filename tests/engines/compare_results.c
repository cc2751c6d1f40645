/* compare_results: memcmp, bcmp, strcmp, strncmp, strcasecmp, strncasecmp,
 * strstr, strcasestr and memmem give libc's answers when the runtime
 * intercepts them: in a constructor (before the runtime starts), in the
 * main thread and in a controlled thread. Prints "compare: N checks" and
 * exits 0, or names the first wrong answer and exits 1. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int sign(long v)
{
	return (v > 0) - (v < 0);
}

/* Through volatile pointers, so that clang cannot fold a call away. */
static int (*volatile memcmp_p)(const void *, const void *, size_t) = memcmp;
static int (*volatile bcmp_p)(const void *, const void *, size_t) = bcmp;
static int (*volatile strcmp_p)(const char *, const char *) = strcmp;
static int (*volatile strncmp_p)(const char *, const char *, size_t) = strncmp;
static int (*volatile strcasecmp_p)(const char *, const char *) = strcasecmp;
static int (*volatile strncasecmp_p)(const char *, const char *, size_t) = strncasecmp;
static char *(*volatile strstr_p)(const char *, const char *) = strstr;
static char *(*volatile strcasestr_p)(const char *, const char *) = strcasestr;
static void *(*volatile memmem_p)(const void *, size_t, const void *, size_t) = memmem;

static int checks, wrong;

static void expect(const char *what, long got, long want)
{
	checks++;
	if (got != want && !wrong) {
		printf("compare: %s gave %ld, expected %ld\n", what, got, want);
		wrong = 1;
	}
}

static void run_all(const char *where)
{
	static const char hay[] = "the Quick brown fox";
	char w[64];
	snprintf(w, sizeof w, "%s memcmp", where);
	expect(w, sign(memcmp_p("abc", "abd", 3)), -1);
	expect(w, sign(memcmp_p("abd", "abc", 3)), 1);
	expect(w, sign(memcmp_p("ab\0x", "ab\0y", 3)), 0);
	expect(w, sign(memcmp_p("ab\0x", "ab\0y", 4)), -1);
	expect(w, sign(memcmp_p("\xff", "\x01", 1)), 1); /* bytes are unsigned */
	expect(w, memcmp_p("x", "y", 0), 0);
	snprintf(w, sizeof w, "%s bcmp", where);
	expect(w, bcmp_p("SfZ!", "SfZ!", 4) != 0, 0);
	expect(w, bcmp_p("SfZ!", "SfZ?", 4) != 0, 1);
	snprintf(w, sizeof w, "%s strcmp", where);
	expect(w, sign(strcmp_p("unlock", "unlock")), 0);
	expect(w, sign(strcmp_p("unlock", "unlocked")), -1);
	expect(w, sign(strcmp_p("b", "a")), 1);
	expect(w, sign(strcmp_p("\xe9", "e")), 1);
	snprintf(w, sizeof w, "%s strncmp", where);
	expect(w, sign(strncmp_p("unlock", "unlocked", 6)), 0);
	expect(w, sign(strncmp_p("unlock", "unlocked", 7)), -1);
	expect(w, sign(strncmp_p("ab", "ab", 100)), 0);
	snprintf(w, sizeof w, "%s strcasecmp", where);
	expect(w, sign(strcasecmp_p("UnLock", "unlock")), 0);
	expect(w, sign(strcasecmp_p("A", "b")), -1);
	snprintf(w, sizeof w, "%s strncasecmp", where);
	expect(w, sign(strncasecmp_p("UNLOCKED", "unlock", 6)), 0);
	expect(w, sign(strncasecmp_p("UNLOCKED", "unlock", 7)), 1);
	snprintf(w, sizeof w, "%s strstr", where);
	expect(w, strstr_p(hay, "brown") - hay, 10);
	expect(w, strstr_p(hay, "quick") == NULL, 1);
	expect(w, strstr_p(hay, "") - hay, 0);
	snprintf(w, sizeof w, "%s strcasestr", where);
	expect(w, strcasestr_p(hay, "quick") - hay, 4);
	expect(w, strcasestr_p(hay, "FOX") - hay, 16);
	expect(w, strcasestr_p(hay, "wolf") == NULL, 1);
	snprintf(w, sizeof w, "%s memmem", where);
	expect(w, (const char *)memmem_p(hay, sizeof hay - 1, "fox", 3) - hay, 16);
	expect(w, memmem_p(hay, 3, "fox", 3) == NULL, 1);
	expect(w, (const char *)memmem_p("a\0b\0c", 5, "b\0c", 3) - "a\0b\0c" >= 0, 1);
}

__attribute__((constructor)) static void early(void)
{
	run_all("constructor");
}

static void *thread(void *arg)
{
	run_all(arg);
	return NULL;
}

int main(void)
{
	run_all("main");
	pthread_t t;
	pthread_create(&t, NULL, thread, "thread");
	pthread_join(t, NULL);
	printf("compare: %d checks%s\n", checks, wrong ? ", wrong answers" : "");
	return wrong;
}
