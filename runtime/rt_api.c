/* rt_api.c - the public API of schedfuzz.h. */
#include "rt_internal.h"

RT_EXPORT int schedfuzz_controlled(void)
{
	return rt_self != NULL && rt.active;
}

RT_EXPORT int schedfuzz_thread_id(void)
{
	struct rt_thread *self = rt_self;
	return self && rt.active ? self->tid : -1;
}
