/* rt_input_hint.c - a word to the user when a harness's inputs are not what
 * schedfuzz expects: plain data seeds (read as genomes, so that the
 * harness gets only what follows the first 96 bytes), a portable
 * reproducer given to the harness itself, or a binary-exact input made on
 * another build that passed here.
 *
 * Every byte string is a valid schedule (docs/design/architecture.md, decision 8), so none of
 * this rejects or changes anything: it is a heuristic that speaks once per
 * process. An input looks like data when its first byte is not the genome
 * version (1), which every genome our tools write has (seeds, `schedfuzz
 * seed`, the explorer, the custom mutators' genomes). A fuzzer's byte
 * mutations may change it too, so under libFuzzer only the inputs run
 * before the first mutation (the corpus as given) are judged; in a replay
 * of one input (SCHEDFUZZ_INPUT, or a harness run over files) only an
 * input that passed is, since a failing one plainly was a schedule. Under
 * afl-fuzz the target's output is not shown, so nothing is said there. */
#define _GNU_SOURCE
#include <ctype.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "rt_input_hint.h"
#include "rt_internal.h"

bool rt_single_inputs;
bool rt_mutated;

static bool said;
static const uint8_t *last;
static size_t last_size;

void rt_input_hint_args(int argc, char **argv)
{
	if (rt.cfg.input_path)
		rt_single_inputs = true;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (argv[i][0] != '-' && stat(argv[i], &st) == 0 && S_ISREG(st.st_mode))
			rt_single_inputs = true; /* libFuzzer and the standalone driver run files */
	}
}

static bool looks_like_data(const uint8_t *data, size_t size)
{
	return size > 0 && data[0] != SF_GENOME_VERSION;
}

static bool is_portable(const uint8_t *data, size_t size)
{
	static const char magic[] = "schedfuzz-portable 1";
	return size >= sizeof magic - 1 && !memcmp(data, magic, sizeof magic - 1);
}

static void say_data(const uint8_t *data, size_t size)
{
	said = true;
	if (is_portable(data, size)) {
		fprintf(stderr, "schedfuzz: this input is a portable reproducer, not a schedule "
				"genome + data: replay it with `schedfuzz replay FILE -- PROG`, which "
				"translates its source lines to this binary\n");
		return;
	}
	size_t text = 0;
	while (text < size && text < 64 && (isprint(data[text]) || isspace(data[text])))
		text++;
	char first[8];
	snprintf(first, sizeof first, isprint(data[0]) ? "'%c'" : "0x%02x", data[0]);
	fprintf(stderr,
		"schedfuzz: an input of %zu bytes looks like plain data, not a schedule genome + data "
		"(it starts with %s%s; a genome starts with version byte 0x01): the first %d bytes "
		"are read as the schedule and the harness gets only the rest. Run `schedfuzz seed "
		"--data DIR -o DIR` to put genomes in front of existing data seeds, and fuzz or "
		"replay its output\n",
		size, first, text == size || text == 64 ? ", printable text" : "",
		SF_GENOME_HEADER);
}

void rt_input_hint_begin(const uint8_t *data, size_t size)
{
	last = data;
	last_size = size;
	if (said || rt_single_inputs || !rt.under_libfuzzer || rt_mutated)
		return;
	if (looks_like_data(data, size))
		say_data(data, size);
}

/* This binary's build-id, from its note in memory. */
static int own_note(struct dl_phdr_info *info, size_t size, void *out)
{
	if (info->dlpi_addr != rt.exe_bias)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
		while (p + 12 <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			const uint8_t *desc = p + 12 + ((nh->n_namesz + 3) & ~3u);
			if (desc + nh->n_descsz > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && nh->n_descsz >= 8 &&
			    !memcmp(p + 12, "GNU", 4)) {
				memcpy(out, desc, 8);
				return 1;
			}
			p = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 1;
}

void rt_input_hint_passed(void)
{
	if (said || !rt_single_inputs || !last)
		return;
	uint8_t made[8], here[8] = { 0 };
	if (sf_genome_stamped(last, last_size, made)) {
		if (rt.cfg.trace_path)
			return; /* `schedfuzz replay` says it, with more */
		dl_iterate_phdr(own_note, here);
		if (!memcmp(made, here, 8))
			return;
		said = true;
		fprintf(stderr, "schedfuzz: this input did not fail on this binary; it was made for "
				"build %02x%02x%02x%02x%02x%02x%02x%02x..., this is build "
				"%02x%02x%02x%02x%02x%02x%02x%02x...: a binary-exact input replays only "
				"on its own build. Replay its portable form (written by `schedfuzz min` "
				"as INPUT.portable) with `schedfuzz replay`, on any build\n",
			made[0], made[1], made[2], made[3], made[4], made[5], made[6], made[7],
			here[0], here[1], here[2], here[3], here[4], here[5], here[6], here[7]);
		return;
	}
	/* A main() program takes no data: only a portable file is worth a word. */
	if (looks_like_data(last, last_size) && (rt.harness || is_portable(last, last_size)))
		say_data(last, last_size);
}
