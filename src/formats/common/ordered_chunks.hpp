// Text made in chunks on two threads and consumed in order on the calling thread: the big arrays
// of a JSON writer formatted by both cores, with a few chunks in memory at a time.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <functional>

namespace castkit::formats {

using ChunkText = fmt::memory_buffer;

// Threads::automatic adds a worker where the platform has threads and the machine two cores;
// Threads::one keeps to the calling thread (the tests compare the two).
enum class Threads { automatic, one };

// Whether `threads` gets a second thread here: Threads::automatic, on a platform with threads
// and a machine with at least two cores.
bool worker_wanted(Threads threads);

// Calls format(i, text) for every chunk i in [0, count), with `text` empty, on this thread and
// maybe one worker, and consume(text) for each on this thread in chunk order, until consume
// returns false. At most eight texts exist at a time. An exception from either is rethrown here,
// once the worker has stopped.
void format_in_order(std::size_t count, Threads threads,
                     const std::function<void(std::size_t, ChunkText&)>& format,
                     const std::function<bool(const ChunkText&)>& consume);

}  // namespace castkit::formats
