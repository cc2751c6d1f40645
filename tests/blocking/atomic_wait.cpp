// atomic_wait: a C++20 hand-off with std::atomic<int>::wait/notify_one:
// a worker waits for each item the main thread publishes, processes it
// and publishes its answer, which the main thread waits for in turn.
// libstdc++ implements wait and notify with the futex system call.
//
// BUG: the main thread publishes the last item with a store that is not
// followed by a notify (it "knows" the worker is busy): when the worker
// is already asleep in the futex wait, nobody wakes it, and the main
// thread waits for its answer: a deadlock, named as a futex wait.
// expect: clean with -DFIXED.
#include <atomic>
#include <cassert>
#include <thread>

static std::atomic<int> request{0}, answer{0};

static void worker()
{
	for (int i = 1; i <= 3; i++) {
		request.wait(i - 1); // until request moves past the last one
		assert(request.load() == i);
		answer.store(i * 10);
		answer.notify_one();
	}
}

int main()
{
	request.store(0);
	answer.store(0);
	std::thread t(worker);
	for (int i = 1; i <= 3; i++) {
		request.store(i);
#ifndef FIXED
		if (i < 3)
#endif
			request.notify_one();
		int want = i * 10, seen;
		while ((seen = answer.load()) != want)
			answer.wait(seen); // until answer moves away from what was seen
	}
	t.join();
	return 0;
}
