#include "ordered_chunks.hpp"

#include <array>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

namespace castkit::formats {
namespace {

using Format = std::function<void(std::size_t, ChunkText&)>;
using Consume = std::function<bool(const ChunkText&)>;

void one_thread(std::size_t count, const Format& format, const Consume& consume) {
    ChunkText text;
    for (std::size_t i = 0; i < count; ++i) {
        text.clear();
        format(i, text);
        if (!consume(text)) return;
    }
}

// Chunks taken in order by whichever thread is free (the calling thread also sends, so it takes
// fewer); chunk i is formatted into slot i % kSlots, which it holds until consumed.
class Pipeline {
  public:
    Pipeline(std::size_t count, const Format& format) : count_(count), format_(format) {}

    void work() {
        while (auto i = claim()) run(*i);
    }
    // Consumes every chunk in order, formatting one itself whenever the next is not ready.
    void drive(const Consume& consume) {
        std::unique_lock lock(mutex_);
        while (consumed_ < count_ && !stop_) {
            Slot& next = slots_[consumed_ % kSlots];
            if (next.ready) {
                lock.unlock();
                const bool more = consume(next.text);
                lock.lock();
                next.ready = false;
                ++consumed_;
                stop_ = stop_ || !more;
                changed_.notify_all();
            } else if (claimable()) {
                const std::size_t i = next_++;
                lock.unlock();
                run(i);
                lock.lock();
            } else {
                changed_.wait(lock);
            }
        }
    }
    void stop() {
        std::lock_guard lock(mutex_);
        stop_ = true;
        changed_.notify_all();
    }
    void rethrow_failure() const {
        if (failure_) std::rethrow_exception(failure_);
    }

  private:
    static constexpr std::size_t kSlots = 8;
    struct Slot {
        ChunkText text;
        bool ready = false;
    };

    // Chunk next_ may start once the chunk that used its slot before has been consumed.
    bool claimable() const { return next_ < count_ && next_ < consumed_ + kSlots; }
    std::optional<std::size_t> claim() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stop_ || next_ >= count_ || claimable(); });
        if (stop_ || next_ >= count_) return std::nullopt;
        return next_++;
    }
    void run(std::size_t i) {
        Slot& slot = slots_[i % kSlots];
        std::exception_ptr failure;
        try {
            slot.text.clear();
            format_(i, slot.text);
        } catch (...) {
            failure = std::current_exception();
        }
        std::lock_guard lock(mutex_);
        if (failure && !failure_) failure_ = failure;
        stop_ = stop_ || failure;
        slot.ready = true;
        changed_.notify_all();
    }

    const std::size_t count_;
    const Format& format_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::array<Slot, kSlots> slots_;
    std::size_t next_ = 0, consumed_ = 0;
    bool stop_ = false;
    std::exception_ptr failure_;
};

// Stops and joins the worker however drive() ends.
class Joined {
  public:
    Joined(Pipeline& pipeline, std::thread& worker) : pipeline_(pipeline), worker_(worker) {}
    ~Joined() {
        pipeline_.stop();
        worker_.join();
    }
    Joined(const Joined&) = delete;
    Joined& operator=(const Joined&) = delete;

  private:
    Pipeline& pipeline_;
    std::thread& worker_;
};

}  // namespace

bool worker_wanted(Threads threads) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    (void)threads;
    return false;  // a WebAssembly build without pthreads cannot start one
#else
    return threads == Threads::automatic && std::thread::hardware_concurrency() >= 2;
#endif
}

void format_in_order(std::size_t count, Threads threads, const Format& format,
                     const Consume& consume) {
    if (count < 2 || !worker_wanted(threads)) return one_thread(count, format, consume);
    Pipeline pipeline(count, format);
    std::thread worker;
    try {
        worker = std::thread([&] { pipeline.work(); });
    } catch (const std::system_error&) {
        return one_thread(count, format, consume);  // no thread to be had: the same text serially
    }
    {
        Joined joined(pipeline, worker);
        pipeline.drive(consume);
    }
    pipeline.rethrow_failure();
}

}  // namespace castkit::formats
