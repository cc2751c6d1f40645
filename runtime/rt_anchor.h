/* rt_anchor.h - decisions anchored to source lines (rt_anchor.c): the
 * replay of a portable reproducer. */
#ifndef SCHEDFUZZ_RT_ANCHOR_H
#define SCHEDFUZZ_RT_ANCHOR_H

#include <stdbool.h>

#include "rt_internal.h"

/* SCHEDFUZZ_ANCHORS is set and loaded: the anchors observe the events
 * (rt_anchors_observer) and override decisions. */
extern bool rt_anchors_on RT_HIDDEN;

/* Read SCHEDFUZZ_ANCHORS once (a setup error exits with one line). */
RT_HIDDEN void rt_anchors_load(void);
/* The value an anchor gives self's decision now (a pick before its
 * pending operation, or a choice after its last event), or -1. */
RT_HIDDEN int rt_anchors_want(const struct rt_thread *self, bool choice);

#endif
