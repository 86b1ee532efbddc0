"""Feeds castkit malformed inputs in its own process, so that a crash is a failed test rather
than a dead test run (test_errors.py runs it). Every input must either read, or raise
castkit.Error naming where; whatever reads must then survive every getter, validation and a
rewrite. Prints one line per format; exits 1 on the first wrong outcome.

    python3 malformed_worker.py SEED FORMAT=FILE...
    python3 malformed_worker.py --corpus FORMAT=FOLDER...   (every file as it is)
"""

import os
import random
import sys

import numpy as np

import castkit


def touch(node, depth=0):
    """Every property, attribute and child of `node`."""
    for name in node.properties:
        values = node[name]
        if isinstance(values, np.ndarray):
            with np.errstate(all="ignore"):  # NaN and infinity are fine values here
                values.sum(dtype=np.float64) if values.dtype.kind == "f" else values.sum()
    for name in dir(type(node)):
        if name.startswith(("_", "set_", "add_")):
            continue
        if isinstance(getattr(type(node), name), property):
            try:
                getattr(node, name)
            except castkit.Error:
                pass  # a value the file holds wrongly (an unknown mode, ...)
    if isinstance(node, castkit.Mesh):
        for layer in range(min(node.uv_layer_count, 8)):
            node.uv_layer(layer)
        for layer in range(min(node.color_layer_count, 8)):
            node.color_layer(layer)
    for child in node.children:
        touch(child, depth + 1)


def attempt(data, fmt):
    """'ok' or 'error'; raises anything else."""
    try:
        doc = castkit.read(data, fmt, name="fuzz")
    except castkit.Error as error:
        assert error.file == "fuzz" or error.file == "", error.file
        assert str(error) and error.message and error.rule, str(error)
        assert error.offset is None or isinstance(error.offset, int)
        return "error"
    for root in doc.roots:
        touch(root)
    doc.validate()
    castkit.validate(doc, strict=True)
    for out in ("cast", fmt):
        try:
            doc.to_bytes(out, textures="reference")
        except castkit.Error:
            pass  # a format may not hold what was read (SEAnim without animations)
    if doc.animations and doc.models:
        try:
            castkit.pose(doc, doc, 1.5)
        except castkit.Error:
            pass
    return "ok"


def corpus(specs):
    """Every file of each folder (a fuzzer's seeds and reproducers) read as it is."""
    for spec in specs:
        fmt, folder = spec.split("=", 1)
        counts = {"ok": 0, "error": 0}
        for path in sorted(os.listdir(folder)):
            with open(os.path.join(folder, path), "rb") as file:
                counts[attempt(file.read(), fmt)] += 1
        print(f"{fmt} {folder}: {counts['ok']} read, {counts['error']} refused")
        sys.stdout.flush()


def main():
    if sys.argv[1] == "--corpus":
        corpus(sys.argv[2:])
        return
    rng = random.Random(int(sys.argv[1]))
    for spec in sys.argv[2:]:
        fmt, path = spec.split("=", 1)
        data = open(path, "rb").read()
        counts = {"ok": 0, "error": 0}
        cuts = range(len(data)) if len(data) <= 4096 else sorted(rng.sample(range(len(data)), 4096))
        inputs = [data[:n] for n in cuts]
        for _ in range(400):  # bytes changed in place
            mutated = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(len(mutated))
                mutated[i] = rng.choice([0, 0xFF, 0x7F, 0x80, rng.randrange(256), mutated[i] ^ (1 << rng.randrange(8))])
            inputs.append(bytes(mutated))
        for _ in range(100):  # noise, with and without the file's first bytes
            noise = bytes(rng.randrange(256) for _ in range(rng.randint(0, 512)))
            inputs.append(noise)
            inputs.append(data[:rng.randint(4, 32)] + noise)
        for data_in in inputs:
            counts[attempt(data_in, fmt)] += 1
        assert attempt(data, fmt) == "ok"
        print(f"{fmt}: {len(inputs)} inputs, {counts['ok']} read, {counts['error']} refused")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
