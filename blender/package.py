"""Packs castkit's Blender add-on into one zip that installs both as a legacy add-on (Blender
2.93 to 4.1: bl_info) and as a Blender 4.2+ extension (blender_manifest.toml), with the build's
castkit inside:

    package.py --package blender/castkit_blender --castkit build/tools/castkit/castkit \
        --platform linux-x64 --version 0.1.0 [--strip strip] --out ADDON.zip

The zip holds one top folder, castkit_blender/: the add-on's Python files and manifest, the
CLI as bin/castkit (bin/castkit.exe for windows-x64) and, on Linux, the shared libraries it
loads apart from glibc's own in lib/castkit, where its RPATH ($ORIGIN/../lib/castkit) looks.
Entries are sorted and dated from SOURCE_DATE_EPOCH (else 1980), so the same inputs give the
same zip. Fails when bl_info's or the manifest's version is not the project's.
"""

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

TOP = "castkit_blender"
# glibc's own libraries: every Linux system has them, and they must match its loader.
SYSTEM_LIBRARIES = re.compile(r"^(libc|libm|libpthread|libdl|librt|libresolv)\.so|^ld-linux")


def arguments():
    parser = argparse.ArgumentParser()
    for name in ("--package", "--castkit", "--platform", "--version", "--out"):
        parser.add_argument(name, required=True)
    parser.add_argument("--strip", default="")
    return parser.parse_args()


def check_versions(package, version):
    with open(os.path.join(package, "__init__.py")) as f:
        tree = ast.parse(f.read())
    bl_info = next(ast.literal_eval(node.value) for node in tree.body
                   if isinstance(node, ast.Assign) and node.targets[0].id == "bl_info")
    with open(os.path.join(package, "blender_manifest.toml")) as f:
        manifest = re.search(r'^version = "([^"]+)"', f.read(), re.M).group(1)
    have = {"bl_info": ".".join(map(str, bl_info["version"])), "manifest": manifest}
    wrong = {k: v for k, v in have.items() if v != version}
    if wrong:
        sys.exit(f"package.py: {wrong} differ from the project's version {version}")


def shared_libraries(binary):
    """(name, path) of what `binary` loads, glibc's own left out."""
    listed = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    for line in listed.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "=>" and parts[2].startswith("/"):
            if not SYSTEM_LIBRARIES.match(parts[0]):
                yield parts[0], parts[2]


def stage(args, root):
    folder = os.path.join(root, TOP)
    os.makedirs(os.path.join(folder, "bin"))
    for name in sorted(os.listdir(args.package)):
        if name.endswith(".py"):
            shutil.copy(os.path.join(args.package, name), folder)
    with open(os.path.join(args.package, "blender_manifest.toml")) as f:
        manifest = re.sub(r"^platforms = .*$", f'platforms = ["{args.platform}"]', f.read(),
                          flags=re.M)
    with open(os.path.join(folder, "blender_manifest.toml"), "w") as f:
        f.write(manifest)
    windows = args.platform.startswith("windows")
    binary = os.path.join(folder, "bin", "castkit.exe" if windows else "castkit")
    shutil.copy(args.castkit, binary)
    if args.strip:
        subprocess.run([args.strip, binary], check=True)
    if not windows:
        os.makedirs(os.path.join(folder, "lib", "castkit"))
        for name, path in shared_libraries(args.castkit):
            shutil.copy(path, os.path.join(folder, "lib", "castkit", name))
    return binary


def pack(root, binary, out):
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    files = sorted(os.path.relpath(os.path.join(d, f), root)
                   for d, _, names in os.walk(root) for f in names)
    partial = out + ".part"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name in files:
            entry = zipfile.ZipInfo(name.replace(os.sep, "/"), time.gmtime(epoch)[:6])
            runnable = os.path.join(root, name) == binary
            entry.external_attr = (0o100755 if runnable else 0o100644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            with open(os.path.join(root, name), "rb") as data:
                archive.writestr(entry, data.read())
    os.replace(partial, out)


def main():
    args = arguments()
    check_versions(args.package, args.version)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with tempfile.TemporaryDirectory() as root:
        pack(root, stage(args, root), args.out)


main()
