/* cov_report.h - `schedfuzz cov`: replay a corpus and report the
 * interleaving coverage it reaches (HaPSet pairs, MAP patterns). */
#ifndef SCHEDFUZZ_COV_REPORT_H
#define SCHEDFUZZ_COV_REPORT_H

/* argv after "cov": [--json] [--timeout SEC] CORPUS -- PROG [ARGS...] */
int cmd_cov(int argc, char **argv);

#endif
