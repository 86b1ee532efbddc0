// One JSON writer for every JSON castkit prints or writes: a streaming writer that appends to a
// string, or through a buffer into a Sink, with commas and indentation handled for the caller.
// Strings may hold any bytes: the output is always valid JSON and valid UTF-8 (invalid UTF-8 is
// escaped by the rule in docs/json.md).
#pragma once

#include <castkit/sink.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::json {

// Appends `text` as a JSON string literal (quotes included). Valid UTF-8 is copied; '"', '\\'
// and control characters are escaped; every byte that is not part of a valid UTF-8 sequence
// becomes \u00XX, its Latin-1 reading. O(length).
void append_string(std::string& out, std::string_view text);

class Writer {
  public:
    // Appends to `out`. `indent` > 0 pretty-prints with that many spaces per level, the layout
    // of nlohmann::json::dump(indent); 0 writes compactly.
    explicit Writer(std::string& out, int indent = 0);
    // Streams into `sink` through a 64 KiB buffer; call finish() at the end.
    explicit Writer(Sink& sink, int indent = 0);

    void begin_object();
    void end_object();
    void begin_array();
    void end_array();
    // The name of the next value inside an object.
    void key(std::string_view name);

    void string(std::string_view text);
    void boolean(bool value);
    void null();
    void integer(std::int64_t value);
    void unsigned_integer(std::uint64_t value);
    // The shortest text that reads back to the value; NaN and infinities, which JSON cannot
    // hold, as the strings "nan", "inf" and "-inf" (castkit's dump schema).
    void number(double value);
    void number(float value);
    // Text the caller guarantees is one valid JSON value.
    void raw(std::string_view json);

    // Sends what is buffered to the sink; returns the first write failure. O(buffered bytes).
    Expected<void> finish();

  private:
    void before_value();
    void close(char bracket);
    void newline();
    void maybe_flush();

    std::string own_;
    std::string& out_;
    Sink* sink_ = nullptr;
    Expected<void> status_;
    int indent_ = 0;
    // One entry per open object/array: whether it holds a value yet.
    std::vector<bool> has_value_;
    bool after_key_ = false;
};

}  // namespace castkit::json
