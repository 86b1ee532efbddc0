// stb_image's and stb_image_write's implementations for a cross-build
// (cmake/cross/stb-config.cmake): Debian's libstb-dev gives the headers, but compiles the
// implementations into libstb for Linux only, so they are compiled for the target here from the
// same headers.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
