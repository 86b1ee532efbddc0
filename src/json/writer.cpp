#include <fmt/format.h>

#include <castkit/json.hpp>
#include <cmath>
#include <iterator>

namespace castkit::json {
namespace {

constexpr std::size_t kFlushAt = 64 * 1024;

// Length of the valid UTF-8 sequence at `text[i]`, or 0 when the bytes there are not one
// (overlong forms, surrogates and code points past U+10FFFF included). O(1).
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;   // overlong
        if (lead == 0xED) high = 0x9F;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;   // overlong
        if (lead == 0xF4) high = 0x8F;  // past U+10FFFF
    } else {
        return 0;
    }
    if (text.size() - i < length) return 0;
    if (byte(i + 1) < low || byte(i + 1) > high) return 0;
    for (std::size_t k = 2; k < length; ++k)
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
    return length;
}

}  // namespace

void append_string(std::string& out, std::string_view text) {
    out += '"';
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            if (std::size_t length = utf8_sequence(text, i)) {
                out.append(text.substr(i, length));
                i += length;
            } else {
                fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
                ++i;
            }
            continue;
        }
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20)
                    fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
                else
                    out += static_cast<char>(c);
        }
        ++i;
    }
    out += '"';
}

Writer::Writer(std::string& out, int indent) : out_(out), indent_(indent) {}

Writer::Writer(Sink& sink, int indent) : out_(own_), sink_(&sink), indent_(indent) {
    own_.reserve(kFlushAt + 1024);
}

void Writer::newline() {
    out_ += '\n';
    out_.append(has_value_.size() * static_cast<std::size_t>(indent_), ' ');
}

void Writer::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (has_value_.empty()) return;
    if (has_value_.back()) out_ += ',';
    has_value_.back() = true;
    if (indent_ > 0) newline();
}

void Writer::close(char bracket) {
    const bool had_values = has_value_.back();
    has_value_.pop_back();
    if (indent_ > 0 && had_values) newline();
    out_ += bracket;
    maybe_flush();
}

void Writer::maybe_flush() {
    if (sink_ != nullptr && out_.size() >= kFlushAt) (void)finish();
}

void Writer::begin_object() {
    before_value();
    out_ += '{';
    has_value_.push_back(false);
}

void Writer::end_object() { close('}'); }

void Writer::begin_array() {
    before_value();
    out_ += '[';
    has_value_.push_back(false);
}

void Writer::end_array() { close(']'); }

void Writer::key(std::string_view name) {
    before_value();
    append_string(out_, name);
    out_ += indent_ > 0 ? ": " : ":";
    after_key_ = true;
}

void Writer::string(std::string_view text) {
    before_value();
    append_string(out_, text);
    maybe_flush();
}

void Writer::boolean(bool value) {
    before_value();
    out_ += value ? "true" : "false";
}

void Writer::null() {
    before_value();
    out_ += "null";
}

void Writer::integer(std::int64_t value) {
    before_value();
    fmt::format_to(std::back_inserter(out_), "{}", value);
}

void Writer::unsigned_integer(std::uint64_t value) {
    before_value();
    fmt::format_to(std::back_inserter(out_), "{}", value);
}

namespace {
// NaN and the infinities as strings (JSON has no literal for them); a finite value as the
// shortest text that reads back to the same value of its own type, float or double.
template <typename Float>
void append_number(std::string& out, Float value) {
    if (std::isnan(value))
        out += "\"nan\"";
    else if (std::isinf(value))
        out += value > 0 ? "\"inf\"" : "\"-inf\"";
    else
        fmt::format_to(std::back_inserter(out), "{}", value);
}
}  // namespace

void Writer::number(double value) {
    before_value();
    append_number(out_, value);
}

void Writer::number(float value) {
    before_value();
    append_number(out_, value);
}

void Writer::raw(std::string_view json) {
    before_value();
    out_ += json;
    maybe_flush();
}

Expected<void> Writer::finish() {
    if (sink_ == nullptr || !status_) return status_;
    if (!out_.empty()) {
        auto written = sink_->write(std::as_bytes(std::span(out_.data(), out_.size())));
        out_.clear();
        if (!written) status_ = written;
    }
    return status_;
}

}  // namespace castkit::json
