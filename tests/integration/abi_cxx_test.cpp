// abi_cxx_test: what C++ adds: vptr hooks, function-local statics, and the
// standard library's threads, mutexes, condition variables and atomics
// running on the modelled primitives.
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

struct Shape {
	virtual ~Shape() {}
	virtual int sides() const { return 0; }
};
struct Square : Shape {
	int sides() const override { return 4; }
};

static int constructed;
struct Registry {
	Registry() { constructed++; }
	int value = 7;
};

static Registry &registry()
{
	static Registry r; // __cxa_guard_acquire / release
	return r;
}

int main()
{
	std::mutex m;
	std::condition_variable cv;
	std::atomic<int> hits{ 0 };
	int ready = 0, total = 0;
	std::vector<std::thread> threads;
	for (int i = 0; i < 3; i++) {
		threads.emplace_back([&] {
			Square sq;
			Shape *s = &sq;
			int sides = s->sides();
			hits.fetch_add(registry().value);
			std::unique_lock<std::mutex> lock(m);
			total += sides;
			if (++ready == 3)
				cv.notify_all();
			else
				cv.wait(lock, [&] { return ready == 3; });
		});
	}
	for (auto &t : threads)
		t.join();
	assert(constructed == 1);
	assert(hits.load() == 21);
	assert(total == 12);
	return 0;
}
