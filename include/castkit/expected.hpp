// Expected<T>: a value or the Diagnostic that explains why there is none. castkit never throws
// across its API; every fallible call returns one of these.
#pragma once

#include <cassert>
#include <castkit/diagnostic.hpp>
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

template <class T>
class [[nodiscard]] Expected {
  public:
    using value_type = T;

    Expected() requires std::is_default_constructible_v<T> : state_(std::in_place_index<0>) {}
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Expected(Unexpected error) : state_(std::in_place_index<1>, std::move(error.error)) {}

    bool has_value() const { return state_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    T& value() & {
        assert(has_value());
        return std::get<0>(state_);
    }
    const T& value() const& {
        assert(has_value());
        return std::get<0>(state_);
    }
    T&& value() && {
        assert(has_value());
        return std::get<0>(std::move(state_));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T&& operator*() && { return std::move(*this).value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Diagnostic& error() const {
        assert(!has_value());
        return std::get<1>(state_);
    }

  private:
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
    const Diagnostic& error() const {
        assert(failed_);
        return error_;
    }

  private:
    Diagnostic error_;
    bool failed_ = false;
};

}  // namespace castkit
