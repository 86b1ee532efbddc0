// Expected<T>: a value or the Diagnostic that explains why there is none. castkit never throws
// across its API; every fallible call returns one of these.
#pragma once

#include <castkit/diagnostic.hpp>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <variant>

namespace castkit {

// Wraps a Diagnostic so that constructing an Expected from an error is explicit.
struct Unexpected {
    Diagnostic error;
};

inline Unexpected make_error(Diagnostic diagnostic) {
    diagnostic.severity = Severity::Error;
    return Unexpected{std::move(diagnostic)};
}

namespace detail {
// Reading the value of an error, or the error of a value, is a bug in the caller: castkit says
// which on stderr (with the error, when there is one) and aborts, in every build, rather than
// throw std::bad_variant_access across an API that promises never to throw.
[[noreturn]] inline void expected_misuse(const char* what, const Diagnostic* error) {
    std::fprintf(stderr, "castkit: %s\n", what);
    if (error != nullptr) std::fprintf(stderr, "  the error: %s\n", error->to_string().c_str());
    std::abort();
}
}  // namespace detail

template <class T>
class [[nodiscard]] Expected {
  public:
    using value_type = T;

    Expected() requires std::is_default_constructible_v<T> : state_(std::in_place_index<0>) {}
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Expected(Unexpected error) : state_(std::in_place_index<1>, std::move(error.error)) {}

    bool has_value() const { return state_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    // The value; calling these on an error aborts (detail::expected_misuse). A temporary
    // Expected gives its value by value, never a reference or pointer into itself that would
    // outlive it: `for (const Model& m : open(path)->models())` does not compile, and
    // `(*open(path)).models()` is refused by Document (its views need a document that lives
    // on); `Document document = *open(path);` moves the value out.
    T& value() & { return *checked_value(); }
    const T& value() const& { return *checked_value(); }
    T value() && { return std::move(*checked_value()); }
    T value() const&& = delete;
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T operator*() && { return std::move(*this).value(); }
    T operator*() const&& = delete;
    T* operator->() & { return &value(); }
    const T* operator->() const& { return &value(); }
    T* operator->() && = delete;
    const T* operator->() const&& = delete;

    // The error; calling this on a value aborts.
    const Diagnostic& error() const {
        if (const Diagnostic* error = std::get_if<1>(&state_)) return *error;
        detail::expected_misuse("Expected::error() called on a value", nullptr);
    }

  private:
    T* checked_value() {
        if (T* value = std::get_if<0>(&state_)) return value;
        detail::expected_misuse("Expected::value() called on an error", std::get_if<1>(&state_));
    }
    const T* checked_value() const {
        if (const T* value = std::get_if<0>(&state_)) return value;
        detail::expected_misuse("Expected::value() called on an error", std::get_if<1>(&state_));
    }

    std::variant<T, Diagnostic> state_;
};

// Expected<void>: success or a Diagnostic.
template <>
class [[nodiscard]] Expected<void> {
  public:
    Expected() = default;
    Expected(Unexpected error) : error_(std::move(error.error)), failed_(true) {}

    bool has_value() const { return !failed_; }
    explicit operator bool() const { return has_value(); }
    // The error; calling this on success aborts.
    const Diagnostic& error() const {
        if (!failed_) detail::expected_misuse("Expected<void>::error() called on success", nullptr);
        return error_;
    }

  private:
    Diagnostic error_;
    bool failed_ = false;
};

}  // namespace castkit
