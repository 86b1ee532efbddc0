// Validation: every rule of the Cast spec and castkit's rulings, checked over a whole document,
// each finding a Diagnostic with its rule id, node path and byte offset.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <span>
#include <string_view>

namespace castkit::cast {

// One validation rule: a stable id ("mesh.face-index"), the severity of its findings, and what
// it checks in one line. The same table feeds the code, the docs and the tests.
struct ValidationRule {
    std::string_view id;
    Severity severity;
    std::string_view meaning;
};

// Every rule validate() checks, in the order the docs list them.
std::span<const ValidationRule> validation_rules();
// The rule with this id, or nullptr.
const ValidationRule* find_validation_rule(std::string_view id);

struct ValidateOptions {
    // Report this check's warnings as errors.
    bool strict = false;
};

// Checks `document` against every rule in validation_rules() and adds the findings, in document
// order, to `diagnostics`: pass the sink the document was read with, and a user sees the
// reader's findings first, then the validator's. One pass over every node and every array
// payload: O(file size), no allocation proportional to the payloads.
void validate(const Document& document, Diagnostics& diagnostics,
              const ValidateOptions& options = {});

}  // namespace castkit::cast
