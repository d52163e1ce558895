#!/usr/bin/env python3
"""Writes Pillow LANCZOS resizes of Kodak images as raw RGBA, for Tests/ImageProcessingTests/ResizeQualityTests.

Usage: make_lanczos_references.py CORPUS_DIR OUT_DIR

For each case it writes OUT_DIR/<name>.source.rgba (the decoded source), OUT_DIR/<name>.<W>x<H>.rgba
(Pillow's Image.resize with Image.Resampling.LANCZOS, a plain separable convolution with no
reducing_gap) and a manifest.json describing them. Exits non-zero when Pillow is missing, so the
Swift test fails instead of silently skipping. Requires: python3, Pillow (pip install pillow).
"""
import json
import os
import sys

from PIL import Image  # ImportError (exit 1) is deliberate: the test must fail without Pillow.

IMAGES = ["kodim01", "kodim04", "kodim13", "kodim23"]
# Targets for a 768x512 landscape; portrait images get the transposed sizes.
LANDSCAPE_TARGETS = [(256, 171), (300, 200), (1000, 667)]


def main():
    corpus, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    cases = []
    for name in IMAGES:
        source = Image.open(os.path.join(corpus, "kodak", name + ".png")).convert("RGB")
        width, height = source.size
        with open(os.path.join(out, name + ".source.rgba"), "wb") as f:
            f.write(source.convert("RGBA").tobytes())
        for tw, th in LANDSCAPE_TARGETS:
            if height > width:
                tw, th = th, tw
            resized = source.resize((tw, th), Image.Resampling.LANCZOS)
            file = "%s.%dx%d.rgba" % (name, tw, th)
            with open(os.path.join(out, file), "wb") as f:
                f.write(resized.convert("RGBA").tobytes())
            cases.append({"name": name, "source": name + ".source.rgba", "sourceWidth": width,
                          "sourceHeight": height, "reference": file, "width": tw, "height": th})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(cases, f, indent=1)


if __name__ == "__main__":
    main()
