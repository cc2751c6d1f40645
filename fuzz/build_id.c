/* build_id.c - what build a binary is: its identity (the ELF build-id, or
 * a hash of its code when it has none) and the traits that tell two
 * builds of one source apart (sanitizer, engine, debug information), read
 * from the file itself: its notes, section names and symbol names. */
#define _GNU_SOURCE
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_id.h"
#include "cov_hash.h"
#include "read_file.h"

static bool in_file(size_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

/* Does the symbol table of section sh name the symbol? */
static bool has_symbol(const uint8_t *f, size_t size, const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
		       const char *name)
{
	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM)
			continue;
		if (sh[i].sh_link >= eh->e_shnum || !in_file(size, sh[i].sh_offset, sh[i].sh_size))
			continue;
		const Elf64_Shdr *strs = &sh[sh[i].sh_link];
		if (!in_file(size, strs->sh_offset, strs->sh_size))
			continue;
		const Elf64_Sym *sym = (const Elf64_Sym *)(f + sh[i].sh_offset);
		size_t n = sh[i].sh_size / sizeof *sym;
		for (size_t k = 0; k < n; k++) {
			if (sym[k].st_name >= strs->sh_size || sym[k].st_shndx == SHN_UNDEF)
				continue;
			const char *s = (const char *)f + strs->sh_offset + sym[k].st_name;
			if (!strncmp(s, name, strs->sh_size - sym[k].st_name) && !strcmp(s, name))
				return true;
		}
	}
	return false;
}

bool build_identify(const char *path, struct build_info *b)
{
	memset(b, 0, sizeof *b);
	const char *base = strrchr(path, '/');
	snprintf(b->name, sizeof b->name, "%s", base ? base + 1 : path);
	size_t size;
	uint8_t *f = read_whole_file(path, &size);
	if (!f)
		return false;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
	bool ok = size >= sizeof *eh && !memcmp(eh->e_ident, ELFMAG, SELFMAG) &&
		  eh->e_ident[EI_CLASS] == ELFCLASS64 &&
		  in_file(size, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) &&
		  eh->e_shstrndx < eh->e_shnum;
	if (!ok) {
		free(f);
		return false;
	}
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
	const Elf64_Shdr *names = &sh[eh->e_shstrndx];
	uint64_t code_hash = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < eh->e_shnum; i++) {
		const char *nm = names->sh_offset + sh[i].sh_name < size
					 ? (const char *)f + names->sh_offset + sh[i].sh_name
					 : "";
		bool data = sh[i].sh_type != SHT_NOBITS && in_file(size, sh[i].sh_offset, sh[i].sh_size);
		if (!strcmp(nm, ".debug_line"))
			b->line_info = true;
		if (!strcmp(nm, ".debug_loclists") || !strcmp(nm, ".debug_loc"))
			b->variable_info = true;
		if ((sh[i].sh_flags & SHF_EXECINSTR) && data) {
			code_hash = cov_hash64(f + sh[i].sh_offset, sh[i].sh_size, code_hash);
			b->code_size += sh[i].sh_size;
		}
		if (sh[i].sh_type == SHT_NOTE && data && !b->id[0]) {
			/* NT_GNU_BUILD_ID: namesz, descsz, type, "GNU\0", the id. */
			const uint8_t *p = f + sh[i].sh_offset, *end = p + sh[i].sh_size;
			while (p + 12 <= end) {
				const Elf64_Nhdr *nh = (const Elf64_Nhdr *)p;
				const uint8_t *desc = p + 12 + ((nh->n_namesz + 3) & ~3u);
				if (desc + nh->n_descsz > end)
					break;
				if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
				    !memcmp(p + 12, "GNU", 4) && nh->n_descsz * 2 < sizeof b->id)
					for (uint32_t k = 0; k < nh->n_descsz; k++)
						sprintf(b->id + 2 * k, "%02x", desc[k]);
				p = desc + ((nh->n_descsz + 3) & ~3u);
			}
		}
	}
	if (!b->id[0]) /* linked without --build-id: the code itself */
		snprintf(b->id, sizeof b->id, "code-%016" PRIx64, code_hash);
	b->asan = has_symbol(f, size, eh, sh, "__asan_init");
	if (has_symbol(f, size, eh, sh, "LLVMFuzzerRunDriver"))
		b->engine = "libfuzzer";
	else if (has_symbol(f, size, eh, sh, "__afl_area_ptr") ||
		 has_symbol(f, size, eh, sh, "__afl_manual_init"))
		b->engine = "afl";
	else if (has_symbol(f, size, eh, sh, "LLVMFuzzerTestOneInput"))
		b->engine = "standalone";
	else
		b->engine = "none";
	free(f);
	return true;
}

void build_traits(const struct build_info *b, char *out, size_t cap)
{
	snprintf(out, cap, "sanitizer=%s engine=%s debug=%s code=%" PRIu64,
		 b->asan ? "address" : "none", b->engine,
		 !b->line_info ? "none" : b->variable_info ? "full" : "lines", b->code_size);
}

bool build_parse_traits(const char *text, struct build_info *b)
{
	char san[32], engine[32], debug[32];
	unsigned long long code;
	if (sscanf(text, "sanitizer=%31s engine=%31s debug=%31s code=%llu", san, engine, debug,
		   &code) != 4)
		return false;
	b->asan = !strcmp(san, "address");
	static const char *const engines[] = { "libfuzzer", "afl", "standalone", "none" };
	b->engine = "none";
	for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
		if (!strcmp(engine, engines[i]))
			b->engine = engines[i];
	b->line_info = strcmp(debug, "none") != 0;
	b->variable_info = !strcmp(debug, "full");
	b->code_size = code;
	return true;
}

void build_differences(const struct build_info *made, const struct build_info *here, char *out,
		       size_t cap)
{
	size_t n = 0;
	out[0] = 0;
#define SAY(...) n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, __VA_ARGS__)
	if (made->asan != here->asan)
		SAY("%ssanitizer %s there, %s here", n ? "; " : "", made->asan ? "address" : "none",
		    here->asan ? "address" : "none");
	if (strcmp(made->engine, here->engine) != 0)
		SAY("%sengine %s there, %s here", n ? "; " : "", made->engine, here->engine);
	if (made->line_info != here->line_info || made->variable_info != here->variable_info)
		SAY("%sdebug information %s there, %s here", n ? "; " : "",
		    !made->line_info ? "none" : made->variable_info ? "full" : "line tables only",
		    !here->line_info ? "none" : here->variable_info ? "full" : "line tables only");
	if (made->code_size != here->code_size)
		SAY("%s%" PRIu64 " bytes of code there, %" PRIu64 " here (other optimisation or "
		    "instrumentation, or other source)", n ? "; " : "", made->code_size, here->code_size);
	if (!n)
		SAY("the same traits and code size, other code (another compiler, flags or source)");
#undef SAY
}
