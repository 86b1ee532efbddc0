// The temporary files of atomic outputs not yet committed, kept where a signal handler (or a
// Windows console handler) can remove them: fixed slots of preallocated path buffers whose state
// is a lock-free atomic, so removing them takes no lock and allocates nothing (async-signal-safe).
// Shared by the POSIX and Windows implementations of platform.hpp.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace castkit::platform::detail {

template <typename Char>
class LiveTemporaries {
  public:
    // Outputs written at once (a batch writes one per worker, plus its images) fit many times
    // over; a temporary past the last slot, or with a longer path, is written all the same but
    // not removed on interruption.
    static constexpr std::size_t kSlots = 128;
    static constexpr std::size_t kPathCapacity = 4096;

    // Records `path` before its file is created, so that no moment exists when the file is there
    // but unrecorded. Returns the slot (-1 when none is free), or nullopt when the process is
    // ending: the caller then creates nothing, since remove_all may have finished its last pass
    // and the process may end before the file could be removed. O(slots).
    // Each add() that returns a slot is paired with one created() once the file exists (or
    // failed to).
    std::optional<int> add(std::basic_string_view<Char> path) {
        creating_.fetch_add(1);
        if (ending_.load()) {
            creating_.fetch_sub(1);
            return std::nullopt;
        }
        if (path.size() >= kPathCapacity) return -1;
        for (std::size_t i = 0; i < kSlots; ++i) {
            std::uint8_t expected = kFree;
            if (!slots_[i].state.compare_exchange_strong(expected, kFilling)) continue;
            std::memcpy(slots_[i].path.data(), path.data(), path.size() * sizeof(Char));
            slots_[i].path[path.size()] = Char{};
            slots_[i].state.store(kLive);
            return static_cast<int>(i);
        }
        return -1;
    }

    // Forgets slot `slot` (its file committed or removed). A slot being removed by the handler
    // stays taken: the process is ending. O(1).
    void forget(int slot) {
        if (slot < 0) return;
        std::uint8_t expected = kLive;
        slots_[static_cast<std::size_t>(slot)].state.compare_exchange_strong(expected, kFree);
    }

    // Calls `remove_file` (unlink, DeleteFileW) on every recorded path, each once, and marks the
    // process as ending. Async-signal-safe when `remove_file` is. O(slots).
    template <typename RemoveFile>
    void remove_all(RemoveFile remove_file) {
        ending_.store(true);
        remove_live(remove_file);
        // The process ends when the handler returns: a file another thread is creating at this
        // moment would outlive it, so wait (up to about a second) for creations under way, then
        // remove what they left.
        for (int wait = 0; wait < 1000 && creating_.load() > 0; ++wait) pause_a_millisecond();
        remove_live(remove_file);
    }

    // The creation add() announced is over: the file exists (or was never made), and its
    // creator has asked ending() and removed the file itself if so. O(1).
    void created() { creating_.fetch_sub(1); }

    // Whether remove_all has begun: the process is ending. A creator that add() let through may
    // create its file after remove_all passed, so it asks here once the file exists and removes
    // the file itself if so. Every operation is sequentially consistent: either add() sees the
    // process ending and nothing is created, or remove_all sees the creation under way and waits
    // for it, and then of the two (remove_all seeing the slot live, the creator seeing the process
    // ending) at least one happens. O(1).
    bool ending() const { return ending_.load(); }

  private:
    template <typename RemoveFile>
    void remove_live(RemoveFile remove_file) {
        for (Slot& slot : slots_) {
            std::uint8_t expected = kLive;
            if (slot.state.compare_exchange_strong(expected, kRemoving))
                remove_file(slot.path.data());
        }
    }
    static void pause_a_millisecond();  // defined by each platform's implementation

    static constexpr std::uint8_t kFree = 0, kFilling = 1, kLive = 2, kRemoving = 3;
    static_assert(std::atomic<std::uint8_t>::is_always_lock_free);
    struct Slot {
        std::atomic<std::uint8_t> state{kFree};
        std::array<Char, kPathCapacity> path{};
    };
    std::array<Slot, kSlots> slots_{};
    std::atomic<bool> ending_{false};
    std::atomic<int> creating_{0};
};

template <>
void LiveTemporaries<char>::pause_a_millisecond();
template <>
void LiveTemporaries<wchar_t>::pause_a_millisecond();

}  // namespace castkit::platform::detail
