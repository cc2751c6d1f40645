/* rt_anchor.h - decisions anchored to source lines (rt_anchor.c): the
 * replay of a portable reproducer. */
#ifndef SCHEDFUZZ_RT_ANCHOR_H
#define SCHEDFUZZ_RT_ANCHOR_H

#include <stdbool.h>

#include "rt_internal.h"

/* SCHEDFUZZ_ANCHORS is set and loaded: events go to rt_anchors_event. */
extern bool rt_anchors_on RT_HIDDEN;

/* Read SCHEDFUZZ_ANCHORS once (a setup error exits with one line). */
RT_HIDDEN void rt_anchors_load(void);
/* A new execution: every anchor unused, every thread at no line. */
RT_HIDDEN void rt_anchors_begin(void);
/* Self performed ev at site. */
RT_HIDDEN void rt_anchors_event(struct rt_thread *self, enum rt_ev ev, const void *site);
/* The value an anchor gives self's decision now (a pick before its
 * pending operation, or a choice after its last event), or -1. */
RT_HIDDEN int rt_anchors_want(const struct rt_thread *self, bool choice);

#endif
