# The two entry points a newcomer needs:
#   make demo   install what castkit needs, build the CLI, run it on the bundled example files
#   make test   set up, build, and run every test (plus, when CI=true, the Windows build and its
#               tests under Wine, the release archives, the sanitizer build and every fuzzer for
#               45 s from libFuzzer seed 1)
# then, to put castkit on PATH:
#   make install   the CLI, the library, headers and CMake package of $(BUILD) into PREFIX
#                  (/usr/local: as root, or `sudo make install`; PREFIX=DIR, any folder you can
#                  write, needs neither)
# and for releases:
#   make windows   cross-build castkit.exe, the library, tests and examples for x86_64 Windows
#   make dist      the five release artefacts in $(BUILD)-dist (scripts/dist.sh): the Linux
#                  tar.gz and Windows zip (each with the static viewer page, make viewer), the
#                  Blender add-on zip for each, the Python wheel; each with NAME.sha256, and
#                  SHA256SUMS. A tag v* runs `make test-dist` (.github/workflows/release.yml)
#                  and attaches them to the GitHub release.
# and for the browser viewer:
#   make viewer        viewer/dist/: the viewer page as static files, castkit compiled to
#                      WebAssembly inside (open index.html from disk, or host it anywhere)
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# ccache, where installed (scripts/setup.sh installs it), keeps compiled objects outside the
# clone (~/.cache/ccache): paths are taken relative to the checkout, so a build in another clone
# of the same sources (CI's fresh one) is mostly cache hits; a machine without it builds as usual.
# The launcher is looked up when each command runs (a recursive variable, which also overrides
# the empty value a parent make exported), not when make starts: on a fresh machine setup
# installs ccache during the first build, and a launcher that appears between two configures of
# one tree changes every compile command, so the whole Release tree was compiled twice in a cold
# CI run. `make CMAKE_CXX_COMPILER_LAUNCHER=` builds without it.
export CMAKE_C_COMPILER_LAUNCHER = $(shell command -v ccache 2>/dev/null)
export CMAKE_CXX_COMPILER_LAUNCHER = $(shell command -v ccache 2>/dev/null)
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= true
export CCACHE_MAXSIZE ?= 20G
CASTKIT = $(BUILD)/tools/castkit/castkit
PREFIX ?= /usr/local

.PHONY: setup setup-run build demo install test configure-sanitize build-sanitize test-sanitize build-fuzz fuzz \
  windows test-windows dist test-dist bench viewer viewer-wasm test-viewer clean

# Everything the tests need; setup-run only what building and running castkit needs.
setup:
	@bash scripts/setup.sh

setup-run:
	@bash scripts/setup.sh --run

build: setup
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASTKIT_WERROR=ON \
	  -DCASTKIT_BUILD_TESTS=ON -DCASTKIT_BUILD_BENCH=ON
	cmake --build $(BUILD) -j $(JOBS)

# The library, the CLI (with `castkit view`), the Python module and the examples: no tests and
# no benchmarks, so nothing of the test lab is installed.
demo: setup-run
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASTKIT_WERROR=ON \
	  -DCASTKIT_BUILD_TESTS=OFF -DCASTKIT_BUILD_BENCH=OFF
	cmake --build $(BUILD) -j $(JOBS)
	bash scripts/demo.sh $(CASTKIT)
	@echo "== castkit is built: $(CASTKIT). To run it as castkit from anywhere:"
	@echo "   make install    (into $(PREFIX): as root, else sudo make install; or PREFIX=DIR, a folder you can write)"

# What `cmake --install` puts in PREFIX (bin/castkit, lib/libcastkit.a, include/castkit,
# lib/cmake/castkit, share/doc/castkit) from the build folder as it is: it builds nothing, so
# `sudo make install` after `make demo` or `make build` leaves the build folder the user's (the
# list of installed files, $(BUILD)/install_manifest.txt, is given back to the sudo user).
# It never calls sudo itself: as root, or into a PREFIX the user can write, it just installs;
# into one the user cannot write it says so before anything is copied.
# DESTDIR stages the files under another root (packaging).
install:
	@test -f $(BUILD)/CMakeCache.txt || \
	  { echo "make install: no build in $(BUILD); run make demo (or make build) first" >&2; exit 1; }
	@where="$(DESTDIR)$(PREFIX)"; while [ ! -e "$$where" ]; do where=$$(dirname "$$where"); done; \
	  [ -w "$$where" ] || { echo "make install: $$where is not writable by $$(id -un): run it as" \
	  "root (sudo make install), or give a folder you can write (make install PREFIX=$$HOME/.local)" >&2; exit 1; }
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"
	@if [ -n "$$SUDO_UID" ] && [ -f $(BUILD)/install_manifest.txt ]; then \
	  chown "$$SUDO_UID:$$SUDO_GID" $(BUILD)/install_manifest.txt; fi

# Each stage is timed (scripts/ci/stage.sh) into $(STAGE_LOG), each CTest run prints its slowest
# tests (scripts/ci/ctest.sh), and the run ends with the stage table and a warning past 45
# minutes (scripts/ci/summary.sh; docs/testing.md, "How long it takes").
STAGE_LOG = $(CURDIR)/$(BUILD)/stage-times.tsv
STAGE = bash scripts/ci/stage.sh $(STAGE_LOG)
CTEST = bash scripts/ci/ctest.sh
test:
	@mkdir -p $(BUILD) && rm -f $(STAGE_LOG)
	@$(STAGE) "Release build" $(MAKE) --no-print-directory build
	@$(STAGE) "Release tests" $(CTEST) $(BUILD) --output-on-failure -j $(JOBS)
	@$(STAGE) "viewer page build" $(MAKE) --no-print-directory viewer
	@$(STAGE) "viewer page tests" $(MAKE) --no-print-directory test-viewer
ifeq ($(CI),true)
	@$(STAGE) "Windows build" $(MAKE) --no-print-directory windows
	@$(STAGE) "Windows tests (Wine)" $(MAKE) --no-print-directory test-windows
	@$(STAGE) "release archives" $(MAKE) --no-print-directory test-dist
	@$(STAGE) "ASan+UBSan build" $(MAKE) --no-print-directory build-sanitize
	@$(STAGE) "ASan+UBSan tests" $(MAKE) --no-print-directory test-sanitize
	@$(STAGE) "fuzzers build" $(MAKE) --no-print-directory build-fuzz
	@$(STAGE) "fuzzers" $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=45 FUZZ_SEED=1
endif
	@bash scripts/ci/summary.sh $(STAGE_LOG)

# AddressSanitizer + UndefinedBehaviorSanitizer build of the library and tests. The tests that
# drive whole programs written elsewhere over files the Release stage already converted (the
# Python round-trip checks, Blender's importer, a CMake consumer build) are left out here: under
# the sanitizers they cost CI minutes and find nothing the C++ tests and fuzzers do not. The
# viewer's browser test and the Blender add-on's imports are left out for the same reason: the
# programs they time are Chromium and Blender, and the Release stage runs them. The compile-fail
# tests run the compiler, not castkit; the doc test runs the documented commands, which the
# Release stage runs and the C++ tests cover under the sanitizers. The two DmfJsonWindows damage sweeps (a few hundred damaged
# megabyte texts, 3 minutes under the sanitizers) are left to the Release stage and to the
# dmf_json fuzzer, which runs the same reader under the sanitizers.
SANITIZE_SKIP = ^((GltfSamples|Blender|BlenderAddon|Package|Viewer|CompileFail|Docs)\.|DmfJsonWindows\.Damage)
# One clang tree for the sanitizer stage and the fuzzers (libFuzzer is clang's): the library is
# compiled once, with ASan, UBSan and the fuzzers' coverage, for both the tests and the harnesses.
# Under the sanitizers clang compiles it in about half GCC's time, and GCC builds the Release and
# Windows stages. Debug (assertions on, so a fuzzer also stops on a broken invariant) at -O1, as
# AddressSanitizer's documentation advises for speed, with line tables only (-g1): file and line
# are what the sanitizers' reports need.
configure-sanitize: setup
	cmake -S . -B $(BUILD)-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCASTKIT_WERROR=ON \
	  "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DCMAKE_CXX_COMPILER=clang++ \
	  -DCASTKIT_SANITIZE=address,undefined -DCASTKIT_FUZZ=ON -DCASTKIT_BUILD_BENCH=OFF \
	  -DCASTKIT_UNITY_LIBRARY=ON

build-sanitize: configure-sanitize
	cmake --build $(BUILD)-asan -j $(JOBS)

test-sanitize: build-sanitize
	$(CTEST) $(BUILD)-asan --output-on-failure -j $(JOBS) -E '$(SANITIZE_SKIP)'

# Every libFuzzer harness in fuzz/ for FUZZ_SECONDS each, JOBS at a time, after replaying
# fuzz/regressions/; fails on any crash, sanitizer report, failed assertion, broken invariant,
# timeout or out-of-memory (docs/fuzzing.md). Random seeds, unless FUZZ_SEED is set: then the
# same inputs on every machine (the CI gate; check it with a longer FUZZ_SECONDS before pushing).
# Statistics in $(BUILD)-asan/fuzz-stats.tsv.
FUZZ_SECONDS ?= 60
FUZZ_SEED ?=
build-fuzz: configure-sanitize
	cmake --build $(BUILD)-asan -j $(JOBS) --target fuzzers

fuzz: build-fuzz
	bash fuzz/run.sh $(BUILD)-asan $(FUZZ_SECONDS) $(JOBS) $(FUZZ_SEED)

# Windows x86_64 with Debian's mingw-w64 (cmake/mingw-w64-x86_64.cmake); static runtime.
windows: setup
	bash scripts/debian-source.sh simdjson $(BUILD)-windows/debian-sources
	bash scripts/debian-source.sh libsquish $(BUILD)-windows/debian-sources
	bash scripts/debian-source.sh meshoptimizer $(BUILD)-windows/debian-sources
	cmake -S . -B $(BUILD)-windows -G Ninja --toolchain cmake/mingw-w64-x86_64.cmake \
	  -DCMAKE_BUILD_TYPE=Release -DCASTKIT_WERROR=ON -DCASTKIT_BUILD_BENCH=OFF \
	  -DCASTKIT_UNITY_LIBRARY=ON
	cmake --build $(BUILD)-windows -j $(JOBS)

# The whole CTest suite against the Windows programs, run under Wine (scripts/wine-run.sh).
# Wine now and then fails to start a process on a loaded machine (a test's _wsystem giving -1,
# or a test program ending at once with no output: twice in one of two clean CI runs of the
# same code, never when run again), so a failing test runs once more; a failure that repeats
# still fails.
# Every test runs first in JOBS Wine processes at once (Wine.EveryTestInShards,
# scripts/wine-batch.py): starting Wine once per test cost more than the tests themselves.
test-windows: windows
	CASTKIT_WINE_BATCH=1 CASTKIT_WINE_SHARDS=$(JOBS) \
	  $(CTEST) $(BUILD)-windows --output-on-failure -j $(JOBS) --repeat until-pass:2

# The archives carry the static viewer page (viewer/dist, from make viewer) too; the wheel
# takes the Release tree's module and CLI as they are built.
dist: build windows viewer
	bash scripts/dist.sh $(BUILD) $(BUILD)-windows $(BUILD)-dist

# Checks the five artefacts' checksums and the release workflow, unpacks the archives and add-ons
# and runs their CLIs (Windows under Wine), installs the wheel into a fresh virtual environment
# and runs it; a consumer builds against the Linux archive; packing again gives the same bytes.
test-dist: dist
	cmake -DDIST_DIR=$(CURDIR)/$(BUILD)-dist -DWORK_DIR=$(CURDIR)/$(BUILD)-dist/test \
	  -DSOURCE_DIR=$(CURDIR) -DWINE_PREFIX=$(CURDIR)/$(BUILD)-windows/wine-prefix \
	  -DLINUX_BUILD=$(CURDIR)/$(BUILD) -DWINDOWS_BUILD=$(CURDIR)/$(BUILD)-windows \
	  -P tests/dist/dist_test.cmake

bench: build
	bash bench/run.sh $(BUILD)

# The browser viewer's module (viewer/wasm/), with Debian's Emscripten in $(BUILD)-wasm
# (cmake/emscripten-wasm32.cmake; simdjson from Debian's sources): one classic script,
# viewer/dist/castkit.js, with the WebAssembly inside. ccache does not know Emscripten's compiler
# driver, so CMake's launcher is off here and emcc runs its clang through ccache instead
# (EM_COMPILER_WRAPPER): a warm build takes 23 s of the 120 s a cold one takes.
viewer-wasm: setup
	bash scripts/debian-source.sh simdjson $(BUILD)-wasm/debian-sources
	cmake -S . -B $(BUILD)-wasm -G Ninja --toolchain cmake/emscripten-wasm32.cmake \
	  -DCMAKE_C_COMPILER_LAUNCHER= -DCMAKE_CXX_COMPILER_LAUNCHER= -DCMAKE_BUILD_TYPE=Release -DCASTKIT_WERROR=ON -DCASTKIT_BUILD_TOOLS=OFF \
	  -DCASTKIT_BUILD_TESTS=OFF -DCASTKIT_BUILD_BENCH=OFF -DCASTKIT_BUILD_EXAMPLES=OFF \
	  -DCASTKIT_INSTALL=OFF -DCASTKIT_PYTHON=OFF -DCASTKIT_UNITY_LIBRARY=ON
	EM_COMPILER_WRAPPER=$(CMAKE_CXX_COMPILER_LAUNCHER) \
	  cmake --build $(BUILD)-wasm -j $(JOBS) --target castkit_wasm
	mkdir -p viewer/dist
	cp $(BUILD)-wasm/viewer/wasm/castkit.js viewer/dist/castkit.js

# The static viewer page: the page bundled (npm packages installed in $(BUILD)-wasm) with
# castkit.js beside it.
viewer: viewer-wasm
	mkdir -p $(BUILD)-wasm/viewer-page
	cp viewer/package.json viewer/package-lock.json $(BUILD)-wasm/viewer-page/
	cd $(BUILD)-wasm/viewer-page && npm ci --no-audit --no-fund --loglevel=error
	node viewer/build.mjs --out viewer/dist --node-modules $(BUILD)-wasm/viewer-page/node_modules \
	  --wasm $(BUILD)-wasm/viewer/wasm/castkit.js

# The WebAssembly module in Node through the page's API (its glb compared with the CLI's), and
# the static page in headless Chromium opened from disk, files dropped on it.
test-viewer: viewer build
	CASTKIT=$(CURDIR)/$(CASTKIT) node --test viewer/wasm/test_wasm.mjs
	CASTKIT=$(CURDIR)/$(CASTKIT) SOURCE_DIR=$(CURDIR) ARTIFACTS=$(CURDIR)/$(BUILD)/viewer-artifacts \
	  VIEWER_NODE_MODULES=$(CURDIR)/$(BUILD)-wasm/viewer-page/node_modules \
	  node --test --test-concurrency=1 tests/viewer/static_page_test.mjs

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-windows $(BUILD)-dist $(BUILD)-wasm \
	  $(BUILD)-subproject-test \
	  viewer/dist
