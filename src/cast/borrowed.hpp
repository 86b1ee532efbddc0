// What a reader left borrowed in a document, held on its own (formats::read, for readers that
// forgot their input's owner): the library's way into the payloads the public members keep as
// they were made.
#pragma once

#include <castkit/cast/document.hpp>

namespace castkit::cast {

// Every payload of `document` a reader of `input` left without an owner (a Property's, a node's
// opaque tail, the trailing bytes, an embedded file's): a view of `input` shares input.owner (and
// stays borrowed when it has none: the caller keeps those bytes), one of any other bytes is
// copied. Payloads that share an owner or own their bytes are left as they are. O(nodes +
// properties + bytes copied).
void hold_borrowed(Document& document, const SharedBytes& input);

}  // namespace castkit::cast
