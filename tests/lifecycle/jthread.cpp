// jthread: std::jthread workers that count under a std::mutex until
// asked to stop through their std::stop_token; the jthread destructor
// requests the stop and joins. A plain std::thread joins too.
#include <atomic>
#include <cassert>
#include <mutex>
#include <stop_token>
#include <thread>

static std::mutex m;
static int total;

int main()
{
	total = 0;
	std::atomic<int> started{0};
	{
		std::jthread a([&](std::stop_token st) {
			started++;
			while (!st.stop_requested()) {
				std::lock_guard<std::mutex> g(m);
				total++;
				std::this_thread::yield();
			}
		});
		std::jthread b([&](std::stop_token st) {
			started++;
			while (!st.stop_requested())
				std::this_thread::yield();
		});
		std::thread c([] {
			std::lock_guard<std::mutex> g(m);
			total += 1000;
		});
		c.join();
		while (started.load() < 2)
			std::this_thread::yield();
	} // both stop and join here
	std::lock_guard<std::mutex> g(m);
	assert(total >= 1000);
	return 0;
}
