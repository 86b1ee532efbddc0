// The side-output writer as the readers and writers use it (castkit/io/side_outputs.hpp): the
// run's writer or one of their own, the extension an unpacked image's bytes call for, and the
// warning every name other than the one asked for gets.
#pragma once

#include <castkit/io/context.hpp>
#include <castkit/io/side_outputs.hpp>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace castkit::formats {

// Whether the regular file at `path` holds exactly `bytes` (its size is compared first, so a
// large file is not read): a side output reuses such a file instead of taking another name.
// O(size).
bool holds(const std::filesystem::path& path, std::span<const std::byte> bytes);

// options.side_outputs, or a writer of its own for one read or write when the caller gave none.
std::shared_ptr<SideOutputs> side_outputs_for(const FormatOptions& options);

// The extension the bytes of an image call for by their signature: ".png", ".jpg", ".ktx2",
// ".webp" or ".dds"; ".bin" for anything else (never what a MIME type or a name claims). O(1).
std::string_view image_extension_of(std::span<const std::byte> bytes);

// The id of the warning every side file written under another name than the one asked for
// gets (docs/diagnostics.md).
inline constexpr const char* kRenamedRule = "texture.renamed";

// That warning's text: `what` (such as "embedded image 'victim'") was written as `written`
// because `wanted` was taken.
std::string renamed_message(std::string_view what, const std::filesystem::path& wanted,
                            const SideOutputs::Written& written);

}  // namespace castkit::formats
