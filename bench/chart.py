#!/usr/bin/env python3
"""Draws bench/chart.svg from bench/results/*.tsv (standard library only).

Usage: python3 bench/chart.py bench/results bench/chart.svg
       python3 bench/chart.py bench/results --tables   (BENCHMARKS.md's message tables)

Left panel: instructions per byte (callgrind; stable on a busy machine), right panel:
wall-clock MB/s (median of interleaved rounds), for each codec, operation and corpus.
"""

import csv
import re
import sys
from pathlib import Path
from xml.sax.saxutils import escape

CODECS = ["mcp-typed", "mcp-typed-envelope", "rmcp", "rust-mcp-schema", "typify",
          "serde_json::Value", "serde_json::Value (default features)", "IgnoredAny"]
SERIES = [("real", "decode"), ("real", "decode+encode"),
          ("synthetic", "decode"), ("synthetic", "decode+encode")]
COLORS = ["#4e79a7", "#a0cbe8", "#f28e2b", "#ffbe7d"]


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def panel(x0, y0, width, title, values, unit, lower_is_better):
    """A horizontal grouped bar chart; values[(codec, corpus, op)] -> float."""
    row_h, bar_h, label_w = 64, 13, 150
    top = y0 + 40
    plot_w = width - label_w - 70
    vmax = max(values.values()) if values else 1
    out = [f'<text x="{x0}" y="{y0 + 18}" font-size="15" font-weight="bold">{escape(title)}</text>',
           f'<text x="{x0}" y="{y0 + 34}" font-size="11" fill="#555">'
           f'{escape(unit)} ({"lower" if lower_is_better else "higher"} is better)</text>']
    for i, codec in enumerate(CODECS):
        y = top + i * row_h
        # A parenthesised qualifier goes on a line of its own: the label column is narrow.
        name, qualifier = codec.split(" (", 1) if " (" in codec else (codec, None)
        out.append(f'<text x="{x0 + label_w - 8}" y="{y + row_h / 2}" font-size="12" '
                   f'text-anchor="end">{escape(name)}</text>')
        if qualifier:
            out.append(f'<text x="{x0 + label_w - 8}" y="{y + row_h / 2 + 14}" font-size="11" '
                       f'text-anchor="end" fill="#555">({escape(qualifier)}</text>')
        for j, (corpus, op) in enumerate(SERIES):
            v = values.get((codec, corpus, op))
            by = y + 4 + j * bar_h
            if v is None:
                out.append(f'<text x="{x0 + label_w + 4}" y="{by + bar_h - 3}" font-size="10" '
                           f'fill="#999">n/a</text>')
                continue
            w = max(1.0, plot_w * v / vmax)
            out.append(f'<rect x="{x0 + label_w}" y="{by}" width="{w:.1f}" height="{bar_h - 2}" '
                       f'fill="{COLORS[j]}"/>')
            out.append(f'<text x="{x0 + label_w + w + 4:.1f}" y="{by + bar_h - 3}" '
                       f'font-size="10">{v:,.0f}</text>')
    return out, top + len(CODECS) * row_h


def tables(results):
    """Markdown tables: per corpus, codec rows, instructions/byte and MB/s per operation."""
    instr = {(r["corpus"], r["codec"], r["op"]): r for r in read(results / "instructions.tsv")}
    wall = {(r["corpus"], r["codec"], r["op"]): r for r in read(results / "messages.tsv")}
    trips = {(r["corpus"], r["codec"]): r for r in read(results / "round-trip.tsv")}
    ops = ["decode", "encode", "decode+encode"]
    for corpus in ["real", "synthetic"]:
        rows = [r for r in instr.values() if r["corpus"] == corpus]
        if not rows:
            continue
        size, count = int(rows[0]["bytes"]), int(rows[0]["messages"])
        print(f"\n**{corpus}** ({count:,} messages, {size:,} bytes)\n")
        print("| codec | " + " | ".join(f"{op} instr/B" for op in ops)
              + " | decode+encode vs mcp-typed | " + " | ".join(f"{op} MB/s" for op in ops)
              + " | decode+encode msg/s | refused | changed |")
        print("|---" * (2 * len(ops) + 5) + "|")
        ours = float(instr[(corpus, "mcp-typed", "decode+encode")]["instructions"])
        for codec in CODECS:
            cells = [codec]
            for op in ops:
                r = instr.get((corpus, codec, op))
                cells.append(r["instructions_per_byte"] if r else "–")
            r = instr.get((corpus, codec, "decode+encode"))
            cells.append(f"{float(r['instructions']) / ours:.2f}×" if r else "–")
            for op in ops:
                w = wall.get((corpus, codec, op))
                cells.append(f"{float(w['MB_per_s']):.0f}" if w else "–")
            w = wall.get((corpus, codec, "decode+encode"))
            cells.append(f"{float(w['msgs_per_s']):,.0f}" if w else "–")
            t = trips.get((corpus, codec))
            cells += [t["failed"], t["changed"]] if t else ["–", "–"]
            print("| " + " | ".join(cells) + " |")


USAGE = """usage: chart.py RESULTS_DIR OUT.svg     draw the chart from RESULTS_DIR/*.tsv
       chart.py RESULTS_DIR --tables    print BENCHMARKS.md's message tables"""


def main():
    if len(sys.argv) != 3:
        sys.exit(USAGE)
    if sys.argv[2] == "--tables":
        tables(Path(sys.argv[1]))
        return
    results, target = Path(sys.argv[1]), Path(sys.argv[2])
    instr = {(r["codec"], r["corpus"], r["op"]): float(r["instructions_per_byte"])
             for r in read(results / "instructions.tsv")}
    wall = {(r["codec"], r["corpus"], r["op"]): float(r["MB_per_s"])
            for r in read(results / "messages.tsv")}
    # The load the wall clock ran under, as measure.sh's messages step recorded it.
    machine = results / "machine.txt"
    load = re.search(r"^load average at messages: ([0-9.]+)", machine.read_text(), re.M) \
        if machine.exists() else None
    wall_title = f"Throughput (wall clock, load {load[1]})" if load else "Throughput (wall clock)"
    width = 560
    left, bottom_l = panel(10, 10, width, "Instructions per byte (callgrind)", instr,
                           "instructions / input byte", True)
    right, bottom_r = panel(10 + width, 10, width, wall_title, wall, "MB/s of JSON text", False)
    bottom = max(bottom_l, bottom_r) + 10
    legend = []
    for j, (corpus, op) in enumerate(SERIES):
        x = 160 + j * 220
        legend.append(f'<rect x="{x}" y="{bottom}" width="12" height="12" fill="{COLORS[j]}"/>')
        legend.append(f'<text x="{x + 16}" y="{bottom + 10}" font-size="12">'
                      f'{escape(corpus)} traffic, {escape(op)}</text>')
    height = bottom + 30
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * width + 20}" height="{height}" '
           f'font-family="sans-serif">',
           f'<rect width="100%" height="100%" fill="white"/>'] + left + right + legend + ["</svg>"]
    target.write_text("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
