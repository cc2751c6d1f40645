// cancel_cxx: cancellation in C++ is a forced unwind: a std::unique_lock
// held across a condition wait is released by its destructor, a
// catch (...) that rethrows sees it pass, and the joiner gets
// PTHREAD_CANCELED.
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <pthread.h>

static std::mutex m;
static std::condition_variable cv;
static int unwound, caught;
static bool go;

struct Mark {
	~Mark() { unwound++; }
};

static void *worker(void *)
{
	Mark mark;
	try {
		std::unique_lock<std::mutex> lock(m);
		cv.wait(lock, [] { return go; });
	} catch (...) {
		caught++;
		throw; // abi::__forced_unwind must go on
	}
	return nullptr;
}

int main()
{
	unwound = caught = 0;
	go = false;
	pthread_t t;
	pthread_create(&t, nullptr, worker, nullptr);
	pthread_cancel(t);
	void *r;
	pthread_join(t, &r);
	assert(r == PTHREAD_CANCELED);
	assert(unwound == 1 && caught == 1);
	std::lock_guard<std::mutex> lock(m); // the unwinding released it
	return 0;
}
