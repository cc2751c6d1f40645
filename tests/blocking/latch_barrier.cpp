// latch_barrier: C++20 std::latch, std::barrier and
// std::counting_semaphore, which libstdc++ builds on the futex system
// call. Three workers fill their slot of a table in two phases separated
// by a barrier whose completion step sums the phase; at most two of them
// hold the semaphore at once (checked); the main thread waits on a latch
// for all three, then checks the sums.
// expect: clean.
#include <atomic>
#include <barrier>
#include <cassert>
#include <latch>
#include <semaphore>
#include <thread>

#define WORKERS 3

static int slot[WORKERS];
static int sums[2];
static int phase;
static std::atomic<int> inside{0};

int main()
{
	phase = 0;
	sums[0] = sums[1] = 0;
	std::latch done(WORKERS);
	std::counting_semaphore<2> room(2);
	auto step = [&]() noexcept {
		int s = 0;
		for (int i = 0; i < WORKERS; i++)
			s += slot[i];
		sums[phase++] = s;
	};
	std::barrier sync(WORKERS, step);
	std::thread t[WORKERS];
	for (int w = 0; w < WORKERS; w++)
		t[w] = std::thread([&, w] {
			for (int p = 1; p <= 2; p++) {
				room.acquire();
				assert(inside.fetch_add(1) < 2);
				slot[w] = p * (w + 1);
				inside.fetch_sub(1);
				room.release();
				sync.arrive_and_wait();
			}
			done.count_down();
		});
	done.wait();
	assert(sums[0] == 1 + 2 + 3);
	assert(sums[1] == 2 + 4 + 6);
	for (auto &x : t)
		x.join();
	return 0;
}
