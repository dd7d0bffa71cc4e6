#!/usr/bin/env python3
"""Write a synthetic perfregs block file (regdefs/SCHEMA.md, schema v1).

N registers on one project, built from L distinct field layouts (4-6 fields
each; access types mixed among RW, RO, RW1C and WO; with --enums, the
default, some fields use file-level enums). Register i uses layout i % L.

Placement `outside` (the default): register i sits at base + 4 * i. The
default base, 0x300000, lies above every row of the TGL force-wake and
steering table (regdefs/tgl_gt_map.yaml ends at 0x23FFFF), so the registers
have no wake domain and no replication: plain accesses.

Placement `inside` (needs --map): the registers are dealt round robin over
the rows of the map that have a wake domain (`wake:`), at each row's next
free 32-bit address, skipping the addresses given by --avoid (the shipped
registers, which an address clash would reject). So they spread over every
power domain of the map, and the rows with `group:` make some of them
replicated (steering API).

Deterministic: the same arguments always give the same file.
"""

import argparse
import random
import re
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
            elif enum_defs and rng.random() < 0.25:
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


def wake_rows(path):
    """(start, end) of every row of the map file at `path` with a wake domain."""
    row = re.compile(r"start:\s*(0x[0-9A-Fa-f]+),\s*end:\s*(0x[0-9A-Fa-f]+),.*\bwake:\s*\w+")
    out = []
    with open(path) as f:
        for line in f:
            m = row.search(line)
            if m:
                out.append((int(m.group(1), 16), int(m.group(2), 16)))
    return out


def taken(path):
    """Addresses in the first column of a `perfregs export --format markdown` table."""
    if not path:
        return set()
    cell = re.compile(r"^\|\s*(0x[0-9A-Fa-f]+)\s*\|")
    with open(path) as f:
        return {int(m.group(1), 16) for m in map(cell.match, f) if m}


def inside_addresses(count, rows, avoid):
    """`count` free 32-bit addresses dealt round robin over `rows`."""
    nxt = [start for start, _ in rows]
    out = []
    while len(out) < count:
        placed = False
        for k, (_, end) in enumerate(rows):
            if len(out) == count:
                break
            while nxt[k] + 3 <= end and nxt[k] in avoid:
                nxt[k] += 4
            if nxt[k] + 3 <= end:
                out.append(nxt[k])
                nxt[k] += 4
                placed = True
        if not placed:
            sys.exit(f"the map's wake rows hold fewer than {count} free addresses")
    return out


def bits(lsb, msb):
    return f"{lsb}" if lsb == msb else f'"{msb}:{lsb}"'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--registers", type=int, default=1000)
    ap.add_argument("--layouts", type=int, default=100)
    ap.add_argument("--project", default="tgl")
    ap.add_argument("--base", type=lambda s: int(s, 0), default=0x300000)
    ap.add_argument("--placement", choices=["outside", "inside"], default="outside")
    ap.add_argument("--map", help="the project's force-wake and steering map (for --placement inside)")
    ap.add_argument("--avoid", help="markdown export of the shipped registers: addresses to skip")
    ap.add_argument("--enums", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()

    rng = random.Random(a.seed)
    enum_defs = enums() if a.enums else []
    lays = layouts(a.layouts, enum_defs, rng)
    if a.placement == "inside":
        if not a.map:
            sys.exit("--placement inside needs --map")
        addresses = inside_addresses(a.registers, wake_rows(a.map), taken(a.avoid))
    else:
        addresses = [a.base + 4 * i for i in range(a.registers)]

    w = []
    w.append("# Synthetic description for the compile race (benches/compile_race/gen_yaml.py).")
    w.append(
        f"# {a.registers} registers on {a.project}, {a.layouts} field layouts, seed {a.seed},"
        f" placement {a.placement}, enums {'on' if a.enums else 'off'}."
    )
    w.append("block: synthetic")
    w.append("space: mmio")
    w.append('source: "synthetic (benches/compile_race/gen_yaml.py)"')
    if enum_defs:
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
        w.append(f"    address: {addresses[i]:#x}")
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
