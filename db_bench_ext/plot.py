#!/usr/bin/python3
"""Draws db_bench_ext's JSON results as a chart (PNG or SVG, by extension).

Usage: db_bench_ext/plot.py results.json chart.png

One row per workload: read throughput per phase, build throughput, and
file bytes per entry, one bar per table format, each labelled with its
ratio to RobinHoodTable. Uses Debian's python3-matplotlib (run with
/usr/bin/python3 if another python3 comes first on PATH).
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"robinhood": "#d62728", "cuckoo": "#1f77b4", "plain": "#2ca02c",
          "block": "#7f7f7f"}
READ_PHASES = ["readrandom", "multireadrandom", "readmissing", "seekrandom"]
BUILD_PHASES = ["fill", "ingest"]


def bars(ax, results, phases, metric, scale, ylabel, title, formats):
    width = 0.8 / max(1, len(formats))
    shown = [p for p in phases
             if any(r["phase"] == p and not r["skipped"] for r in results)]
    if not shown:
        ax.set_visible(False)
        return
    for i, fmt in enumerate(formats):
        xs, ys, labels = [], [], []
        for j, phase in enumerate(shown):
            r = next((r for r in results if r["format"] == fmt and
                      r["phase"] == phase and not r["skipped"]), None)
            if r is None or r.get(metric) is None:
                continue
            rh = next((x for x in results if x["format"] == "robinhood" and
                       x["phase"] == phase and not x["skipped"]), None)
            xs.append(j + (i - (len(formats) - 1) / 2) * width)
            ys.append(r[metric] / scale)
            ratio = ""
            if rh and rh.get(metric):
                ratio = "%.2fx" % (r[metric] / rh[metric])
            labels.append(ratio)
        b = ax.bar(xs, ys, width, label=fmt, color=COLORS.get(fmt))
        ax.bar_label(b, labels=labels, fontsize=6, rotation=90, padding=2)
    ax.set_xticks(range(len(shown)))
    ax.set_xticklabels(shown, fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_title(title, fontsize=9)
    ax.margins(y=0.25)
    ax.tick_params(axis="y", labelsize=7)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py results.json chart.png|chart.svg")
    with open(sys.argv[1]) as f:
        data = json.load(f)
    results = data["results"]
    workloads = list(data["workloads"].keys())
    formats = []
    for r in results:
        if r["format"] not in formats:
            formats.append(r["format"])
    fig, axes = plt.subplots(len(workloads), 3, squeeze=False,
                             figsize=(15, 4.2 * len(workloads)),
                             gridspec_kw={"width_ratios": [3, 1.4, 1.2]})
    cfg = data["config"]
    for row, w in enumerate(workloads):
        rs = [r for r in results if r["workload"] == w]
        bars(axes[row][0], rs, READ_PHASES, "ops_per_sec", 1e6,
             "M ops/s (median)", "%s: reads (labels: ratio to robinhood)" % w,
             formats)
        bars(axes[row][1], rs, BUILD_PHASES, "entries_per_sec", 1e6,
             "M entries/s (median)", "%s: build" % w, formats)
        bars(axes[row][2], rs, ["fill"], "bytes_per_entry", 1,
             "bytes per entry", "%s: file size" % w, formats)
        axes[row][0].legend(fontsize=7, loc="upper right")
    fig.suptitle("db_bench_ext: %d keys, %d reads/phase, %d thread(s), "
                 "medians of %d; RocksDB %s; %s"
                 % (cfg["num"], cfg["reads"], cfg["threads"],
                    cfg["repetitions"], data.get("rocksdb_version", "?"),
                    data.get("machine", "")), fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
