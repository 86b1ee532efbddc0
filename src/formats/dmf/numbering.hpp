// Numbering of keys in order of first appearance, for merging vertices in both DMF conversion
// directions (DMF shares vertices between faces; Cast splits them at every attribute seam).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../std_compat.hpp"

namespace castkit::dmf {

// A hint that `address` is read soon (nothing where the compiler has no prefetch).
inline void prefetch_address(const void* address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address);
#else
    (void)address;
#endif
}

// Word by word without a branch: std::array's == calls memcmp, a tenth of a DMF conversion.
template <std::size_t N>
bool same_words(const std::array<std::uint32_t, N>& a, const std::array<std::uint32_t, N>& b) {
    std::uint32_t differ = 0;
    for (std::size_t i = 0; i < N; ++i) differ |= a[i] ^ b[i];
    return differ == 0;
}

// Gives each distinct key the number of its first appearance (0, 1, 2, …); keys are compared
// and hashed as their bits, 32-bit words without padding (floats by bit pattern). A hash table
// of numbers with linear probing beside the list of keys: about sizeof(Key) + 8 bytes per key,
// against the ~sizeof(Key) + 48 of a std::map node, and O(1) expected per lookup instead of
// O(log keys) key comparisons. The list of keys is the list of distinct keys in order, which
// take_keys() hands over.
template <class Key>
class FirstSeen {
    static_assert(std::is_trivially_copyable_v<Key> && sizeof(Key) % 4 == 0);
    using Words = std::array<std::uint32_t, sizeof(Key) / 4>;
    static Words words(const Key& key) { return compat::bit_cast<Words>(key); }

  public:
    // Room for `count` keys without growing: each growth rehashes every key, a cache miss apiece.
    void reserve(std::size_t count) {
        keys_.reserve(count);
        std::size_t size = 64;
        while (size < 2 * count) size *= 2;
        if (size > slots_.size()) rehash(size);
    }
    // The number of `key`, and whether this call gave it (the key is new). O(1) expected.
    std::pair<std::uint32_t, bool> number(const Key& key) { return number(key, hash(key)); }
    // The same for a caller that has hash(key) already: it costs as much as the lookup itself
    // when the table is in cache, so callers that prefetch compute it once.
    std::pair<std::uint32_t, bool> number(const Key& key, std::uint64_t key_hash) {
        if (2 * (keys_.size() + 1) > slots_.size()) grow();
        std::size_t at = slot_of(key, key_hash);
        if (slots_[at] != kEmpty) return {slots_[at], false};
        slots_[at] = static_cast<std::uint32_t>(keys_.size());
        keys_.push_back(key);
        return {slots_[at], true};
    }

    // Asks memory for the slot of the key whose hash is `key_hash`, for a number(key) soon after:
    // numbering keys spread over a table bigger than the cache waits on a miss per key, and
    // misses in flight together overlap. Only a hint; the table is unchanged.
    void prefetch(std::uint64_t key_hash) const {
        if (!slots_.empty()) prefetch_address(&slots_[key_hash & (slots_.size() - 1)]);
    }
    // Then asks memory for the key stored in that slot, if any, which number(key) compares.
    void prefetch_stored(std::uint64_t key_hash) const {
        if (slots_.empty()) return;
        const std::uint32_t stored = slots_[key_hash & (slots_.size() - 1)];
        if (stored != kEmpty) prefetch_address(&keys_[stored]);
    }

    // The distinct keys in order of first appearance (number 0 first); the table is left empty.
    std::vector<Key> take_keys() && {
        slots_.clear();
        return std::move(keys_);
    }

    // The hash the table files `key` under. O(sizeof(Key)).
    static std::uint64_t hash(const Key& key) {
        std::uint64_t h = 0x9E3779B97F4A7C15ull;
        for (std::uint32_t word : words(key)) {
            h = (h ^ word) * 0xFF51AFD7ED558CCDull;
            h ^= h >> 32;
        }
        return h;
    }

  private:
    static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();

    // The slot holding `key` (whose hash is `key_hash`), or the empty slot where it belongs.
    std::size_t slot_of(const Key& key, std::uint64_t key_hash) const {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t at = static_cast<std::size_t>(key_hash) & mask;; at = (at + 1) & mask)
            if (slots_[at] == kEmpty || same_words(words(keys_[slots_[at]]), words(key))) return at;
    }
    // Doubles the table (at least 64 slots), keeping it at most half full.
    void grow() { rehash(slots_.empty() ? 64 : 2 * slots_.size()); }
    void rehash(std::size_t size) {
        slots_.assign(size, kEmpty);
        for (std::size_t i = 0; i < keys_.size(); ++i)
            slots_[slot_of(keys_[i], hash(keys_[i]))] = static_cast<std::uint32_t>(i);
    }

    std::vector<std::uint32_t> slots_;
    std::vector<Key> keys_;
};

// FirstSeen's numbering for keys whose first word is a vertex index (face corners): each vertex
// keeps the list of its own corners, so that a lookup reads memory near the last ones when faces
// come in mesh order, where one hash table of all corners misses the cache on nearly every
// lookup (most of DMF-to-Cast conversion). A vertex lists at most kListed corners; its others,
// and any vertex index past `vertex_count`, go to a FirstSeen, so no input makes a lookup cost
// more than kListed comparisons and a hash probe.
template <std::size_t N>
class CornerNumbers {
  public:
    using Key = std::array<std::uint32_t, N>;

    explicit CornerNumbers(std::size_t vertex_count) : first_(vertex_count, kNone) {}

    // The number of `key`, and whether this call gave it (the key is new).
    std::pair<std::uint32_t, bool> number(const Key& key) {
        if (key[0] < first_.size()) {
            std::uint32_t* link = &first_[key[0]];
            std::size_t length = 0;
            for (; *link != kNone; link = &listed_[*link].next, ++length)
                if (same_words(listed_[*link].key, key)) return {listed_[*link].number, false};
            if (length < kListed) {
                *link = static_cast<std::uint32_t>(listed_.size());
                listed_.push_back({key, kNone, count_});
                return {count_++, true};
            }
        }
        auto [index, inserted] = others_.number(key);
        if (inserted) other_numbers_.push_back(count_++);
        return {other_numbers_[index], inserted};
    }
    // Forgets every key, keeping the memory. O(keys numbered).
    void clear() {
        for (const Listed& corner : listed_) first_[corner.key[0]] = kNone;
        listed_.clear();
        others_ = FirstSeen<Key>();
        other_numbers_.clear();
        count_ = 0;
    }

  private:
    static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    static constexpr std::size_t kListed = 16;
    struct Listed {
        Key key;
        std::uint32_t next;  // the vertex's next listed corner, or kNone
        std::uint32_t number;
    };

    std::vector<std::uint32_t> first_;  // per vertex, its first listed corner, or kNone
    std::vector<Listed> listed_;
    FirstSeen<Key> others_;
    std::vector<std::uint32_t> other_numbers_;  // by others_' number
    std::uint32_t count_ = 0;
};

}  // namespace castkit::dmf
