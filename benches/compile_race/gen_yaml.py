#!/usr/bin/env python3
"""Write a synthetic perfregs block file (regdefs/SCHEMA.md, schema v1).

N registers on one project, built from L distinct field layouts (4-6 fields
each; access types mixed among RW, RO, RW1C and WO; some fields use
file-level enums). Register i uses layout i % L and sits at
base + 4 * i. The default base, 0x300000, lies above every row of the TGL
force-wake and steering table (regdefs/tgl_gt_map.yaml ends at 0x23FFFF), so
the registers have no wake domain and no replication: plain accesses.

Deterministic: the same arguments always give the same file.
"""

import argparse
import random
import sys

ACCESS = ["RW", "RO", "RW1C", "WO"]
WIDTHS = [1, 2, 3, 4, 5, 6, 8]
N_ENUMS = 10


def enums():
    """N_ENUMS file-level enums, 2 or 3 bits wide, 3..5 values each."""
    out = []
    for e in range(N_ENUMS):
        width = 2 + e % 2
        nvals = 3 + e % 3
        values = [(f"mode_{v}", v) for v in range(min(nvals, 1 << width))]
        out.append((f"SynMode{e}", width, values))
    return out


def layouts(count, enum_defs, rng):
    """`count` distinct layouts: lists of (name, lsb, msb, access, enum or None)."""
    seen = set()
    out = []
    while len(out) < count:
        i = len(out)
        nfields = 4 + i % 3
        fields = []
        bit = 0
        for f in range(nfields):
            access = ACCESS[(i + f) % len(ACCESS)] if rng.random() < 0.7 else rng.choice(ACCESS)
            enum = None
            if access == "RW1C":
                width = 1
            elif rng.random() < 0.25:
                name, width, _ = enum_defs[rng.randrange(len(enum_defs))]
                enum = name
                access = rng.choice(["RW", "RO"])
            else:
                width = rng.choice(WIDTHS)
            bit += rng.choice([0, 0, 1, 2])  # occasional reserved gaps
            if bit + width > 32:
                break
            fields.append((f"f{f}_{access.lower()}", bit, bit + width - 1, access, enum))
            bit += width
        key = tuple(fields)
        if len(fields) < 4 or key in seen:
            continue
        seen.add(key)
        out.append(fields)
    return out


def bits(lsb, msb):
    return f"{lsb}" if lsb == msb else f'"{msb}:{lsb}"'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--registers", type=int, default=1000)
    ap.add_argument("--layouts", type=int, default=100)
    ap.add_argument("--project", default="tgl")
    ap.add_argument("--base", type=lambda s: int(s, 0), default=0x300000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()

    rng = random.Random(a.seed)
    enum_defs = enums()
    lays = layouts(a.layouts, enum_defs, rng)

    w = []
    w.append("# Synthetic description for the compile race (benches/compile_race/gen_yaml.py).")
    w.append(f"# {a.registers} registers on {a.project}, {a.layouts} field layouts, seed {a.seed}.")
    w.append("block: synthetic")
    w.append("space: mmio")
    w.append('source: "synthetic (benches/compile_race/gen_yaml.py)"')
    w.append("enums:")
    for name, _width, values in enum_defs:
        w.append(f"  - name: {name}")
        w.append(f"    description: Synthetic enum {name}.")
        w.append("    values:")
        for vname, v in values:
            w.append(f'      - {{ name: {vname}, value: {v}, description: "Mode {v}" }}')
    w.append("registers:")
    for i in range(a.registers):
        li = i % len(lays)
        w.append(f"  - name: SYN_REG_{i:04}")
        w.append(f"    title: Synthetic register {i} (layout {li})")
        w.append(f"    description: Synthetic register {i}, field layout {li}.")
        w.append(f"    projects: {a.project}")
        w.append(f"    address: {a.base + 4 * i:#x}")
        w.append("    fields:")
        for name, lsb, msb, access, enum in lays[li]:
            extra = f", enum: {enum}" if enum else ""
            w.append(
                f"      - {{ name: {name}, bits: {bits(lsb, msb)}, access: {access}{extra},"
                f' description: "Field {name} of layout {li}." }}'
            )
    text = "\n".join(w) + "\n"
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
