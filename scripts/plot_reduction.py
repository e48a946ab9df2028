#!/usr/bin/env python3
"""Writes docs/reduction_plot.svg: one rotation channel before and after `convert --reduce`.

Usage: scripts/plot_reduction.py ANIMCONV [INPUT] [--clip N] [--track NAME] [-o SVG]
INPUT defaults to ../shared/data/skeletal/khronos_Fox.glb; the track defaults to the rotation
track that loses the most keys and is still there. The plotted value is each key's rotation angle away from the track's first
key, in degrees, so one number per key shows the curve's shape.
"""
import argparse
import json
import math
import os
import subprocess
import tempfile


def angle_from(first, q):
    dot = abs(sum(a * b for a, b in zip(first, q)))
    return math.degrees(2 * math.acos(min(1.0, dot)))


def track_points(clip, name):
    track = next(t for t in clip["tracks"] if t["name"] == name)
    values = [track["values"][i:i + 4] for i in range(0, len(track["values"]), 4)]
    return [(t, angle_from(values[0], q)) for t, q in zip(track["times"], values)]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("animconv")
    parser.add_argument("input", nargs="?",
                        default=os.path.join(root, "../shared/data/skeletal/khronos_Fox.glb"))
    parser.add_argument("--clip", default="0")
    parser.add_argument("--track")
    parser.add_argument("-o", default=os.path.join(root, "docs/reduction_plot.svg"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        clips = []
        for extra in ([], ["--reduce"]):
            out = os.path.join(folder, f"clip{len(clips)}.json")
            subprocess.run([args.animconv, "convert", args.input, "-o", out, "--clip", args.clip]
                           + extra, check=True, capture_output=True)
            with open(out) as f:
                clips.append(json.load(f))
    before, after = clips
    if args.track:
        name = args.track
    else:
        kept = {t["name"]: len(t["times"]) for t in after["tracks"]}
        name = max((t for t in before["tracks"]
                    if t["name"].endswith(".quaternion") and t["name"] in kept),
                   key=lambda t: len(t["times"]) - kept.get(t["name"], 0))["name"]
    original = track_points(before, name)
    reduced = track_points(after, name)

    width, height, margin = 760, 300, 50
    t_end = original[-1][0] or 1
    low = min(v for _, v in original)
    high = max(v for _, v in original)
    span = (high - low) or 1

    def x(t):
        return margin + (width - 2 * margin) * t / t_end

    def y(v):
        return height - margin - (height - 2 * margin) * (v - low) / span

    def polyline(points, colour, stroke):
        text = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in points)
        return f'<polyline fill="none" stroke="{colour}" stroke-width="{stroke}" points="{text}"/>'

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{margin}" y="20">{name} ({os.path.basename(args.input)}, clip '
             f'{before["name"]}): angle from the first key, degrees</text>',
             f'<text x="{margin}" y="36" fill="#777">original: {len(original)} keys (grey '
             f'dots)</text>',
             f'<text x="{margin + 230}" y="36" fill="#c0392b">--reduce (0.1°): {len(reduced)} '
             f'keys (red)</text>',
             f'<line x1="{margin}" y1="{height - margin}" x2="{width - margin}" '
             f'y2="{height - margin}" stroke="black"/>',
             f'<text x="{width - margin}" y="{height - margin + 18}" text-anchor="end">'
             f'{t_end:.2f} s</text>',
             f'<text x="{margin - 6}" y="{y(high) + 4:.1f}" text-anchor="end">{high:.1f}</text>',
             f'<text x="{margin - 6}" y="{y(low) + 4:.1f}" text-anchor="end">{low:.1f}</text>',
             polyline(original, "#999", 1)]
    parts += [f'<circle cx="{x(t):.1f}" cy="{y(v):.1f}" r="2" fill="#999"/>' for t, v in original]
    parts.append(polyline(reduced, "#c0392b", 1.5))
    parts += [f'<circle cx="{x(t):.1f}" cy="{y(v):.1f}" r="4" fill="none" stroke="#c0392b"/>'
              for t, v in reduced]
    parts.append("</svg>")
    with open(args.o, "w") as f:
        f.write("\n".join(parts) + "\n")
    print(f"{args.o}: {name}, {len(original)} -> {len(reduced)} keys")


if __name__ == "__main__":
    main()
