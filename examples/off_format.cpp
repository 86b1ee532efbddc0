// OFF read into and written from the Cast document through castkit's public API alone: what a
// user writes to add a format of their own (off_format.hpp says what maps to what).
#include "off_format.hpp"

#include <castkit/cast/nodes.hpp>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace off_format {
namespace {

using castkit::Diagnostic;
using castkit::Diagnostics;
using castkit::Expected;
namespace cast = castkit::cast;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The words of an OFF text, with the byte offset of each: whitespace and '#' comments (to the
// end of the line) are skipped between them.
class Words {
  public:
    explicit Words(std::string_view text) : text_(text) {}

    // The next word; empty at the end of the text. offset() is then where it starts.
    std::string_view next() {
        while (at_ < text_.size() && (is_space(text_[at_]) || text_[at_] == '#'))
            at_ = text_[at_] == '#' ? line_end() : at_ + 1;
        word_ = at_;
        while (at_ < text_.size() && !is_space(text_[at_]) && text_[at_] != '#') ++at_;
        return text_.substr(word_, at_ - word_);
    }
    std::size_t offset() const { return word_; }
    // Bytes not yet read: what bounds every count before anything is allocated.
    std::size_t left() const { return text_.size() - at_; }
    // Skips to the end of the line; whether anything but blanks and a comment was on it.
    bool skip_line() {
        const std::size_t end = line_end();
        const std::string_view rest = text_.substr(at_, end - at_);
        at_ = end;
        for (char c : rest) {
            if (c == '#') return false;
            if (!is_space(c)) return true;
        }
        return false;
    }

  private:
    std::size_t line_end() const {
        const std::size_t end = text_.find('\n', at_);
        return end == std::string_view::npos ? text_.size() : end;
    }

    std::string_view text_;
    std::size_t at_ = 0, word_ = 0;
};

// A reading error at the word `words` gave last: file, byte offset, where in the file, id.
castkit::Unexpected fail(const Words& words, const std::string& file, std::string path,
                         std::string rule, std::string message) {
    return castkit::make_error(Diagnostic{.file = file,
                                          .offset = words.offset(),
                                          .path = std::move(path),
                                          .rule = std::move(rule),
                                          .message = std::move(message)});
}

template <class T>
bool parse(std::string_view word, T& value) {
    const char* end = word.data() + word.size();
    auto [stop, error] = std::from_chars(word.data(), end, value);
    return error == std::errc() && stop == end;
}

// The next word as a number of type T, or an off.number error naming `path`.
template <class T>
Expected<T> number(Words& words, const std::string& file, const std::string& path) {
    const std::string_view word = words.next();
    T value{};
    if (parse(word, value)) return value;
    if (word.empty()) return fail(words, file, path, "off.truncated", "the file ends here");
    return fail(words, file, path, "off.number", "'" + std::string(word) + "' is not a number");
}

struct Counts {
    std::uint32_t vertices = 0, faces = 0;
};

// "OFF", then the vertex, face and edge counts. Each vertex takes at least 6 bytes ("0 0 0\n")
// and each face 8 ("3 0 0 0\n"): larger counts than the bytes left can hold are refused.
Expected<Counts> read_header(Words& words, const std::string& file) {
    if (words.next() != "OFF")
        return fail(words, file, "header", "off.magic", "the file does not start with OFF");
    Counts counts;
    for (std::uint32_t* count : {&counts.vertices, &counts.faces}) {
        auto value = number<std::uint32_t>(words, file, "header");
        if (!value) return castkit::make_error(value.error());
        *count = *value;
    }
    if (auto edges = number<std::uint32_t>(words, file, "header"); !edges)
        return castkit::make_error(edges.error());
    if (counts.vertices > words.left() / 6 || counts.faces > words.left() / 8)
        return fail(words, file, "header", "off.count",
                    "the counts promise more vertices or faces than the file holds");
    return counts;
}

Expected<std::vector<glm::vec3>> read_vertices(Words& words, const std::string& file,
                                               std::uint32_t count) {
    std::vector<glm::vec3> positions(count);
    for (std::uint32_t i = 0; i < count; ++i)
        for (int axis = 0; axis < 3; ++axis) {
            auto value = number<float>(words, file, "vertex[" + std::to_string(i) + "]");
            if (!value) return castkit::make_error(value.error());
            positions[i][axis] = *value;
        }
    return positions;
}

// What the faces' triangles may hold: 4-byte indices taking at most twice the bytes of the file
// plus 16 MiB. A triangle's line ("3 0 1 2\n") holds its 12 bytes of indices in 8 bytes or more,
// but a polygon of k corners makes 3 (k - 2) indices from k words of 2 bytes each: a file of one
// large polygon would make 6 bytes of indices per byte of the file without this bound.
std::size_t index_budget(std::size_t file_size) {
    return (2 * file_size + (std::size_t{16} << 20)) / sizeof(std::uint32_t);
}

// The next word as a vertex index below `vertices`.
Expected<std::uint32_t> vertex_index(Words& words, const std::string& file, const std::string& path,
                                     std::uint32_t vertices) {
    auto value = number<std::uint32_t>(words, file, path);
    if (!value) return value;
    if (*value >= vertices)
        return fail(words, file, path, "off.index",
                    "vertex " + std::to_string(*value) + " of " + std::to_string(vertices));
    return value;
}

// One face, cut into a fan of triangles appended to `triangles` as its corners are read (a fan
// needs the first corner and the last one only, so a face of many corners allocates nothing of
// its own), within `budget` indices in all.
Expected<void> read_face(Words& words, const std::string& file, std::uint32_t face,
                         std::uint32_t vertices, std::size_t budget,
                         std::vector<std::uint32_t>& triangles, Diagnostics& diagnostics) {
    const std::string path = "face[" + std::to_string(face) + "]";
    auto corners = number<std::uint32_t>(words, file, path);
    if (!corners) return castkit::make_error(corners.error());
    if (*corners < 3 || *corners > words.left() / 2)
        return fail(words, file, path, "off.face",
                    std::to_string(*corners) + " corners: a face has 3 or more, each in the file");
    if (3 * (std::size_t{*corners} - 2) > budget - triangles.size())
        return fail(words, file, path, "off.budget",
                    "the faces make more than " + std::to_string(budget / 3) +
                        " triangles, the most 4-byte indices in twice the file's bytes plus "
                        "16 MiB hold");
    std::uint32_t first = 0, last = 0;
    for (std::uint32_t corner = 0; corner < *corners; ++corner) {
        auto index = vertex_index(words, file, path, vertices);
        if (!index) return castkit::make_error(index.error());
        if (corner >= 2) triangles.insert(triangles.end(), {first, last, *index});
        (corner == 0 ? first : last) = *index;
    }
    if (*corners > 3)
        diagnostics.push_back({castkit::Severity::Warning, file, words.offset(), path,
                               "off.polygon", "a polygon of more than 3 corners, cut into a fan"});
    if (words.skip_line())
        diagnostics.push_back({castkit::Severity::Warning, file, words.offset(), path,
                               "off.dropped", "the face's colour is not read"});
    return {};
}

// The positions go into the document as soon as they are read, so that their vector is freed
// before the faces are; the triangles are reserved for one a face (the header's count is bounded
// by the bytes left) and grow only as polygons need.
Expected<cast::Document> read_off(const cast::SharedBytes& bytes,
                                  const castkit::ReadContext& context, Diagnostics& diagnostics) {
    Words words({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
    auto counts = read_header(words, context.name);
    if (!counts) return castkit::make_error(counts.error());
    cast::Document document;
    cast::Mesh mesh = document.add_root().add_model().add_mesh();
    if (auto positions = read_vertices(words, context.name, counts->vertices); positions)
        mesh.set_positions(*positions);
    else
        return castkit::make_error(positions.error());
    std::vector<std::uint32_t> triangles;
    triangles.reserve(3 * std::size_t{counts->faces});
    const std::size_t budget = index_budget(bytes.size());
    for (std::uint32_t face = 0; face < counts->faces; ++face)
        if (auto read = read_face(words, context.name, face, counts->vertices, budget, triangles,
                                  diagnostics);
            !read)
            return castkit::make_error(read.error());
    mesh.set_faces(triangles);
    return document;
}

// Names in one off.dropped warning what OFF cannot hold: `node`'s properties but positions and
// faces (with `keep_geometry`: a Mesh) and its children but Meshes (a Model's skeleton,
// materials).
void warn_dropped(const cast::Node& node, const std::string& path, bool keep_geometry,
                  const std::string& file, Diagnostics& diagnostics) {
    std::string dropped;
    for (const cast::Property& property : node.properties)
        if (!keep_geometry || (property.name() != "vp" && property.name() != "f"))
            dropped += " " + property.name();
    std::size_t children = 0;
    for (const cast::Node& child : node.children()) children += !child.is(cast::NodeId::Mesh);
    if (children > 0) dropped += " and " + std::to_string(children) + " child nodes";
    if (!dropped.empty())
        diagnostics.push_back({castkit::Severity::Warning, file, Diagnostic::kNoOffset, path,
                               "off.dropped",
                               "OFF holds positions and faces; not written:" + dropped});
}

void append_number(std::string& out, float value) {
    char text[32];
    out.append(text, std::to_chars(text, text + sizeof text, value).ptr);
}

// The first Model's meshes, merged into one vertex and face list.
struct Merged {
    std::vector<glm::vec3> positions;
    std::vector<std::uint32_t> triangles;
};

Merged merge_meshes(const cast::ConstModel& model, const std::string& file,
                    Diagnostics& diagnostics) {
    Merged merged;
    warn_dropped(model.node(), "root[0]/model[0]", false, file, diagnostics);
    std::size_t index = 0;
    for (const cast::ConstMesh& mesh : model.meshes()) {
        warn_dropped(mesh.node(), "root[0]/model[0]/mesh[" + std::to_string(index++) + "]", true,
                     file, diagnostics);
        const auto first = static_cast<std::uint32_t>(merged.positions.size());
        const auto positions = mesh.positions();
        const auto faces = mesh.faces();
        for (std::size_t i = 0; i < positions.size(); ++i) merged.positions.push_back(positions[i]);
        for (std::size_t i = 0; i < faces.size(); ++i) merged.triangles.push_back(first + faces[i]);
    }
    return merged;
}

Expected<void> write_off(const cast::Document& document, castkit::Sink& sink,
                         const castkit::WriteContext& context, Diagnostics& diagnostics) {
    Merged merged;
    const std::vector<cast::ConstModel> models = document.models();
    if (!models.empty()) merged = merge_meshes(models.front(), context.name, diagnostics);
    if (models.size() > 1 || !document.animations().empty())
        diagnostics.push_back({castkit::Severity::Warning, context.name, Diagnostic::kNoOffset, "/",
                               "off.dropped",
                               "OFF holds one model: the other models and the animations are "
                               "not written"});
    std::string out = "OFF\n" + std::to_string(merged.positions.size()) + " " +
                      std::to_string(merged.triangles.size() / 3) + " 0\n";
    for (const glm::vec3& p : merged.positions) {
        for (int axis = 0; axis < 3; ++axis) {
            append_number(out, p[axis]);
            out += axis < 2 ? ' ' : '\n';
        }
    }
    for (std::size_t i = 0; i + 2 < merged.triangles.size(); i += 3)
        out += "3 " + std::to_string(merged.triangles[i]) + " " +
               std::to_string(merged.triangles[i + 1]) + " " +
               std::to_string(merged.triangles[i + 2]) + "\n";
    return sink.write(std::as_bytes(std::span(out)));
}

}  // namespace

castkit::FormatInfo format_info() {
    return {.name = "off", .extensions = {".off"}, .read = read_off, .write = write_off};
}

}  // namespace off_format
