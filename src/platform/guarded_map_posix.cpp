// map_file_guarded on POSIX: a file mapping that another program cannot pull from under the
// process. On Linux the mapping holds a read lease on its file (fcntl F_SETLEASE): before the
// kernel lets another open for writing or a truncation go through, it signals this process, whose
// handler copies the mapped pages into memory of its own at the same addresses and then gives the
// lease back. Readers never see a change, nothing is copied while no one writes, and the writer
// waits only for that copy. Where no lease can be had (another system, a file open for writing,
// a file of another user, a file system without leases), the file is read into memory instead.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <new>

#include "platform.hpp"

namespace castkit::platform {

#if defined(__linux__) && defined(F_SETLEASE) && defined(F_SETSIG) && defined(MREMAP_FIXED)

namespace {

// The life of a slot, one per guarded mapping. Only the signal handler moves Leased to Broken
// or Active to Copying; only the owner of the slot frees it.
enum SlotState : int {
    kFree,     // unused
    kSetting,  // being filled or emptied by its owner: the handler leaves it alone
    kLeased,   // the lease is held, the file not yet mapped
    kBroken,   // the lease was broken (and given back) before the file was mapped
    kActive,   // mapped under a lease
    kCopying,  // the handler is copying the pages in
    kCopied,   // the pages are the process's own; the lease was given back
};

struct Slot {
    std::atomic<int> state{kFree};
    int fd = -1;
    void* address = nullptr;
    std::size_t size = 0;
};

// More guarded mappings at once than this are read into memory instead.
constexpr int kSlots = 4096;
Slot slots[kSlots];

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free slots");

int lease_signal = 0;  // 0 when no signal could be had: then nothing is guarded
struct sigaction displaced {};

// Replaces the mapped pages of `slot` by a copy in anonymous memory at the same addresses, in one
// step of the kernel (mremap), so that a reader at any moment sees the same bytes. Only
// async-signal-safe calls. False when memory for the copy cannot be had.
bool copy_in_place(const Slot& slot) {
    void* copy =
        ::mmap(nullptr, slot.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (copy == MAP_FAILED) return false;
    std::memcpy(copy, slot.address, slot.size);
    ::mprotect(copy, slot.size, PROT_READ);
    if (::mremap(copy, slot.size, slot.size, MREMAP_MAYMOVE | MREMAP_FIXED, slot.address) ==
        MAP_FAILED) {
        ::munmap(copy, slot.size);
        return false;
    }
    return true;
}

// A forked child shares the parent's leases, but the kernel signals the parent alone, which then
// copies only its own pages: the child's mappings would still follow the file. So the child
// copies its pages at once and stops counting on the lease (its slots end Copied), and the
// parent, asked to give a lease back, first waits for the children still copying: they read the
// file the lease holds still. The count of those children is in memory that forks share.
std::atomic<int>* children_copying = nullptr;

// How long the parent waits for a copying child before giving a lease back all the same (a child
// that died mid-copy, or a fork that failed, never counts down).
constexpr int kChildWaitMilliseconds = 2000;

void wait_for_copying_children() {
    const timespec millisecond{0, 1'000'000};
    for (int waited = 0; children_copying->load() > 0 && waited < kChildWaitMilliseconds; ++waited)
        ::nanosleep(&millisecond, nullptr);
}

// Whether the fork under way was counted in children_copying: set before the fork, so that the
// child, which inherits it, counts down exactly what was counted.
bool fork_counted = false;

extern "C" void count_child_before_fork() {
    fork_counted = false;
    for (const Slot& slot : slots)
        if (const int state = slot.state.load(); state == kActive || state == kCopying) {
            children_copying->fetch_add(1);
            fork_counted = true;
            return;
        }
}

extern "C" void copy_mappings_in_child() {
    // Only the forking thread lives on here: a slot another thread was copying (in the
    // parent's handler) is copied again, and one being mapped stays taken.
    for (Slot& slot : slots) {
        const int state = slot.state.load();
        if (state == kActive || state == kCopying) {
            copy_in_place(slot);
            slot.state.store(kCopied);
        }
    }
    if (fork_counted) children_copying->fetch_sub(1);
    fork_counted = false;
}

// Whether the signal was for a lease of ours; if so, the pages are copied in (or, before they are
// mapped, the slot marked broken) and the lease given back, which lets the writer go on.
bool answer_lease_break(int fd) {
    bool ours = false;
    for (Slot& slot : slots) {
        int state = slot.state.load();
        if ((state != kLeased && state != kActive) || slot.fd != fd) continue;
        if (state == kLeased && slot.state.compare_exchange_strong(state, kBroken)) {
            ::fcntl(fd, F_SETLEASE, F_UNLCK);
            ours = true;
        } else if (state == kActive && slot.state.compare_exchange_strong(state, kCopying)) {
            // Without memory for the copy the lease is given back all the same: holding it
            // would only make the writer wait for the kernel's timeout (lease-break-time).
            copy_in_place(slot);
            wait_for_copying_children();
            ::fcntl(fd, F_SETLEASE, F_UNLCK);
            slot.state.store(kCopied);
            ours = true;
        }
    }
    return ours;
}

extern "C" void on_lease_signal(int signal, siginfo_t* info, void* context) {
    const int saved_errno = errno;
    const bool ours = info != nullptr && answer_lease_break(info->si_fd);
    errno = saved_errno;
    if (ours) return;
    // Someone else's use of the signal, set up before ours.
    if ((displaced.sa_flags & SA_SIGINFO) != 0 && displaced.sa_sigaction != nullptr)
        displaced.sa_sigaction(signal, info, context);
    else if (displaced.sa_handler != SIG_DFL && displaced.sa_handler != SIG_IGN)
        displaced.sa_handler(signal);
}

// Installs the handler on a real-time signal no one else handles, once; 0 when none is free.
int install_lease_handler() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = on_lease_signal;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        for (int signal = SIGRTMAX; signal >= SIGRTMIN; --signal) {
            struct sigaction current {};
            if (::sigaction(signal, nullptr, &current) != 0) continue;
            const bool unused = (current.sa_flags & SA_SIGINFO) == 0 &&
                                (current.sa_handler == SIG_DFL || current.sa_handler == SIG_IGN);
            if (!unused) continue;
            void* shared = ::mmap(nullptr, sizeof(std::atomic<int>), PROT_READ | PROT_WRITE,
                                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
            if (shared == MAP_FAILED) return;
            children_copying = new (shared) std::atomic<int>(0);
            if (::sigaction(signal, &action, &displaced) != 0) return;
            ::pthread_atfork(count_child_before_fork, nullptr, copy_mappings_in_child);
            lease_signal = signal;
            return;
        }
    });
    return lease_signal;
}

Slot* claim_slot(int fd, std::size_t size) {
    for (Slot& slot : slots) {
        int state = kFree;
        if (slot.state.compare_exchange_strong(state, kSetting)) {
            slot.fd = fd;
            slot.address = nullptr;
            slot.size = size;
            return &slot;
        }
    }
    return nullptr;
}

// Takes `slot` back from the handler: returns once the handler has finished with it.
void take_back(Slot& slot) {
    for (;;) {
        int state = slot.state.load();
        if (state == kCopying) {
            ::sched_yield();
            continue;
        }
        if (slot.state.compare_exchange_weak(state, kSetting)) return;
    }
}

// Empties `slot` for the next mapping, once the handler is done with it (taking back a slot its
// owner holds already changes nothing).
void free_slot(Slot& slot) {
    take_back(slot);
    slot.fd = -1;
    slot.address = nullptr;
    slot.state.store(kFree);
}

class GuardedMapping final : public MappedFile {
  public:
    GuardedMapping(Slot& slot) : slot_(slot) {}
    ~GuardedMapping() override {
        take_back(slot_);
        ::munmap(slot_.address, slot_.size);
        ::close(slot_.fd);  // gives the lease back if it was still held
        free_slot(slot_);
    }
    std::span<const std::byte> bytes() const override {
        return {static_cast<const std::byte*>(slot_.address), slot_.size};
    }

  private:
    Slot& slot_;
};

// Maps the open regular file `fd` of `size` bytes under a read lease; null when the lease cannot
// be had or breaks before the mapping is in place (the caller then reads the file).
std::shared_ptr<const MappedFile> map_under_lease(int fd, std::size_t size) {
    const int signal = install_lease_handler();
    if (signal == 0) return nullptr;
    Slot* slot = claim_slot(fd, size);
    if (slot == nullptr) return nullptr;
    slot->state.store(kLeased);
    const f_owner_ex owner{F_OWNER_PID, ::getpid()};
    if (::fcntl(fd, F_SETSIG, signal) != 0 || ::fcntl(fd, F_SETOWN_EX, &owner) != 0 ||
        ::fcntl(fd, F_SETLEASE, F_RDLCK) != 0) {
        free_slot(*slot);
        return nullptr;
    }
    void* address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address != MAP_FAILED) {
        ::madvise(address, size, MADV_WILLNEED);
        slot->address = address;
        int leased = kLeased;
        if (slot->state.compare_exchange_strong(leased, kActive))
            return std::make_shared<GuardedMapping>(*slot);
        ::munmap(address, size);  // the lease broke meanwhile: the file is changing
    }
    ::fcntl(fd, F_SETLEASE, F_UNLCK);
    free_slot(*slot);
    return nullptr;
}

}  // namespace

#endif

Expected<std::shared_ptr<const MappedFile>> map_file_guarded(const std::filesystem::path& path) {
#if defined(__linux__) && defined(F_SETLEASE) && defined(F_SETSIG) && defined(MREMAP_FIXED)
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        struct stat st {};
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
            if (auto mapped = map_under_lease(fd, static_cast<std::size_t>(st.st_size)))
                return mapped;
        ::close(fd);
    }
#endif
    // Errors (no such file, a device) are load_file's to report.
    return load_file(path);
}

}  // namespace castkit::platform
