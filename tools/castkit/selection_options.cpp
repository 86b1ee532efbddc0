// --within, --box, --include and --exclude on `castkit convert`.
#include "selection_options.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace castkit::cli {
namespace {

// The numbers of "1,-2.5,3e2": each a whole decimal number, comma-separated; nullopt for
// anything else.
std::optional<std::vector<double>> numbers_of(const std::string& text) {
    std::vector<double> numbers;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string piece = text.substr(start, comma - start);
        char* end = nullptr;
        const double value = std::strtod(piece.c_str(), &end);
        if (piece.empty() || end != piece.c_str() + piece.size()) return std::nullopt;
        numbers.push_back(value);
        start = comma + 1;
    }
    return numbers;
}

// The `count` numbers `text` lists, else nullopt with the mistake printed.
std::optional<std::vector<double>> listed(const std::string& option, const std::string& text,
                                          std::size_t count, const char* shape) {
    auto numbers = numbers_of(text);
    if (numbers && numbers->size() == count) return numbers;
    fmt::print(stderr, "castkit: convert: {} takes {} ({} numbers, commas between), not '{}'\n",
               option, shape, count, text);
    return std::nullopt;
}

}  // namespace

void add_selection_options(CLI::App* command, SelectionWords& words) {
    command->add_option("--within", words.within,
                        "Maps: keep the Instances within R of the point X,Y,Z (X,Y,Z,R, in the "
                        "map's own units and axes)");
    command->add_option("--box", words.box,
                        "Maps: keep the Instances inside the box X0,Y0,Z0,X1,Y1,Z1 (its min and "
                        "max corners, in the map's own units and axes)");
    command->add_option("--include", words.include,
                        "Maps: keep only the Instances whose name or model file's stem matches "
                        "this glob (*, ?, [a-z]; any case; repeatable)");
    command->add_option("--exclude", words.exclude,
                        "Maps: leave out the Instances whose name or model file's stem matches "
                        "this glob (repeatable; wins over --include)");
}

std::optional<scene::InstanceSelection> selection_of(const SelectionWords& words) {
    scene::InstanceSelection selection{.include = words.include, .exclude = words.exclude};
    if (!words.within.empty()) {
        auto n = listed("--within", words.within, 4, "X,Y,Z,R");
        if (!n) return std::nullopt;
        selection.within = {{.centre = {(*n)[0], (*n)[1], (*n)[2]}, .radius = (*n)[3]}};
    }
    if (!words.box.empty()) {
        auto n = listed("--box", words.box, 6, "X0,Y0,Z0,X1,Y1,Z1");
        if (!n) return std::nullopt;
        selection.box = {{.min = {(*n)[0], (*n)[1], (*n)[2]}, .max = {(*n)[3], (*n)[4], (*n)[5]}}};
    }
    if (auto valid = selection.validate(); !valid) {
        fmt::print(stderr, "castkit: convert: --{} [{}]\n", valid.error().message,
                   valid.error().rule);
        return std::nullopt;
    }
    return selection;
}

}  // namespace castkit::cli
