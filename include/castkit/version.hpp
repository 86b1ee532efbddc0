// The version of castkit these headers belong to, for a plug-in or a program to check at
// compile time: `#if CASTKIT_VERSION >= 10000` (1.0.0). Kept equal to project(VERSION) in
// CMakeLists.txt (the installed package's consumer test checks both).
#pragma once

#define CASTKIT_VERSION_MAJOR 0
#define CASTKIT_VERSION_MINOR 1
#define CASTKIT_VERSION_PATCH 0
// One number: major × 10000 + minor × 100 + patch (0.1.0 is 100), as fmt's FMT_VERSION.
#define CASTKIT_VERSION \
    (CASTKIT_VERSION_MAJOR * 10000 + CASTKIT_VERSION_MINOR * 100 + CASTKIT_VERSION_PATCH)
// "0.1.0", what `castkit --version` prints.
#define CASTKIT_VERSION_STRING "0.1.0"
