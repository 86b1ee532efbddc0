// A Diagnostic for the animation layer's own errors (job misuse, impossible bakes), which have
// no file or node to name.
#pragma once

#include <castkit/diagnostic.hpp>
#include <string>

namespace castkit::anim {

inline Diagnostic problem(std::string rule, std::string message) {
    Diagnostic diagnostic;
    diagnostic.rule = std::move(rule);
    diagnostic.message = std::move(message);
    return diagnostic;
}

}  // namespace castkit::anim
