/* driver_inputs.c - a harness run over files and directories (driver.h).
 * Each input is one controlled execution: the runtime's wrapper of
 * LLVMFuzzerTestOneInput decodes its genome and reports any failure. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "read_file.h"

static int run_file(const char *path)
{
	size_t size;
	uint8_t *data = read_whole_file(path, &size);
	if (!data) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", path, strerror(errno));
		return 2;
	}
	fprintf(stderr, "schedfuzz: running %s (%zu bytes)\n", path, size);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int run_dir(const char *dir)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, by_name);
	if (n < 0) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", dir, strerror(errno));
		return 2;
	}
	int status = 0;
	for (int i = 0; i < n; i++) {
		char *path;
		struct stat st;
		if (list[i]->d_name[0] != '.' && asprintf(&path, "%s/%s", dir, list[i]->d_name) >= 0) {
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && run_file(path) != 0)
				status = 2;
			free(path);
		}
		free(list[i]);
	}
	free(list);
	return status;
}

int driver_run_inputs(int argc, char **argv)
{
	int status = 0, ran = 0;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1])
			continue; /* libFuzzer-style flags mean nothing here */
		struct stat st;
		bool dir = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode);
		if ((dir ? run_dir(argv[i]) : run_file(argv[i])) != 0)
			status = 2;
		ran++;
	}
	if (!ran)
		status = run_file("-");
	return status;
}
