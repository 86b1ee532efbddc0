// The OBJ and MTL text streamed into the sink a block at a time.
#include <algorithm>

#include "../common/number_text.hpp"
#include "shared.hpp"

namespace castkit::obj {
namespace {

// A block this large goes to the sink at once: few system calls, little memory.
constexpr std::size_t kBlock = std::size_t{1} << 20;

}  // namespace

TextWriter::TextWriter(Sink& sink) : sink_(sink), block_(kBlock + formats::kFloatRoom, '\0') {}

void TextWriter::make_room(std::size_t bytes) {
    if (used_ + bytes <= kBlock || failure_) return;
    if (auto written = sink_.write(std::as_bytes(std::span(block_.data(), used_))); !written)
        failure_ = written.error();
    used_ = 0;
}

void TextWriter::text(std::string_view text) {
    while (!text.empty() && !failure_) {
        make_room(std::min(text.size(), kBlock));
        const std::size_t part = std::min(text.size(), kBlock - used_);
        std::copy_n(text.data(), part, block_.data() + used_);
        used_ += part;
        text.remove_prefix(part);
    }
}

void TextWriter::number(float v) {
    make_room(formats::kFloatRoom);
    if (failure_) return;
    used_ =
        static_cast<std::size_t>(formats::write_float(block_.data() + used_, v) - block_.data());
}

void TextWriter::integer(std::uint64_t v) {
    make_room(formats::kIntegerRoom);
    if (failure_) return;
    // Indices and counts stay far below 2^63.
    used_ = static_cast<std::size_t>(
        formats::write_integer(block_.data() + used_, static_cast<std::int64_t>(v)) -
        block_.data());
}

Expected<void> TextWriter::finish() {
    if (!failure_ && used_ > 0) {
        if (auto written = sink_.write(std::as_bytes(std::span(block_.data(), used_))); !written)
            failure_ = written.error();
        used_ = 0;
    }
    if (failure_) return make_error(*failure_);
    return {};
}

std::string token(std::string_view name, std::string_view fallback) {
    std::string out(name.empty() ? fallback : name);
    for (char& c : out)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7F) c = '_';
    return out;
}

Diagnostic warning(std::string_view file, std::string path, std::string_view rule,
                   std::string message) {
    return Diagnostic{Severity::Warning, std::string(file), Diagnostic::kNoOffset,
                      std::move(path),   std::string(rule), std::move(message)};
}

}  // namespace castkit::obj
