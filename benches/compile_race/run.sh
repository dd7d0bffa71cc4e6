#!/usr/bin/env bash
# Compile race: perfregs' generated registers vs svd2rust's PAC of the same
# registers (exported as CMSIS-SVD by `perfregs export`). See README.md here.
#
#   benches/compile_race/run.sh [synthetic] [outside|inside] [enums|no-enums]
#                                          synthetic: 1,000 registers on tgl
#   benches/compile_race/run.sh variants   both synthetic variants of issue 16:
#                                          outside+enums, then inside+no-enums
#   benches/compile_race/run.sh shipped    the shipped descriptions (regdefs/)
#
# Environment: RUNS (default 3), REGISTERS (1000), LAYOUTS (100),
# PLACEMENT (outside|inside, default outside), ENUMS (on|off, default on),
# MACRO_PROFILE (default|optimized: the race workspace as cargo makes it, or
# with the optimized build dependencies the regdefs! docs recommend),
# CARGO_TARGET_DIR (the work folder is <target dir>/compile_race).
# Tracked files are never modified: everything is written under the target dir.
set -euo pipefail

usage() { echo "usage: $0 [synthetic [outside|inside] [enums|no-enums] | variants | shipped]" >&2; }
MODE=synthetic
PLACEMENT=${PLACEMENT:-outside}
ENUMS=${ENUMS:-on}
for arg in "$@"; do
    case "$arg" in
        synthetic | variants | shipped) MODE=$arg ;;
        outside | inside) PLACEMENT=$arg ;;
        enums) ENUMS=on ;;
        no-enums) ENUMS=off ;;
        -h | --help)
            sed -n '2,14p' "$0"
            exit 0
            ;;
        *)
            usage
            exit 2
            ;;
    esac
done
case "$PLACEMENT/$ENUMS" in
    outside/on | outside/off | inside/on | inside/off) ;;
    *)
        echo "PLACEMENT must be outside or inside, ENUMS on or off (got $PLACEMENT, $ENUMS)" >&2
        exit 2
        ;;
esac
MACRO_PROFILE=${MACRO_PROFILE:-default}
case "$MACRO_PROFILE" in
    default | optimized) ;;
    *)
        echo "MACRO_PROFILE must be default or optimized (got $MACRO_PROFILE)" >&2
        exit 2
        ;;
esac
RUNS=${RUNS:-3}
REGISTERS=${REGISTERS:-1000}
LAYOUTS=${LAYOUTS:-100}
SHIPPED_PROJECTS=(snb ivb vlv hsw bdw tgl p4 ivt)

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# The CLI and the HAL's build script both read PERFREGS_REGDEFS: never inherit it.
unset PERFREGS_REGDEFS

say() { printf '\n== %s\n' "$*" >&2; }
now() { date +%s.%N; }
# elapsed START END -> seconds with 2 decimals
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# median of the arguments
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }

REPO_TARGET=$(cd "$REPO" && cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
WORK="$REPO_TARGET/compile_race"
mkdir -p "$WORK"
CPU_FILE="$WORK/last-cpu"

say "building the perfregs CLI (dev profile; $REPO)"
(cd "$REPO" && cargo build -q -p perfregs-cli --bin perfregs)
PERFREGS="$REPO_TARGET/debug/perfregs"

if ! command -v svd2rust >/dev/null 2>&1; then
    say "svd2rust not found: cargo install svd2rust --locked"
    cargo install svd2rust --locked
fi
SVD2RUST_VERSION=$(svd2rust --version | awk '{ print $2 }')
RUSTC_VERSION=$(rustc --version)
echo "svd2rust $SVD2RUST_VERSION, $RUSTC_VERSION, $(nproc) cores" >&2

# write_pac_crate DIR NAME SVD: svd2rust --target none into a crate
# (dependencies as svd2rust's docs give them for `--target none`: vcell, and
# critical-section behind the optional `critical-section` feature).
write_pac_crate() {
    local dir=$1 name=$2 svd=$3
    rm -rf "$dir"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "$name"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
vcell = "0.1.3"
critical-section = { version = "1.0", optional = true }

[features]
critical-section = ["dep:critical-section"]
EOF
    (cd "$dir/src" && svd2rust --target none -i "$svd" 2>/dev/null)
    test -s "$dir/src/lib.rs"
}

# timed_clean_build WORKSPACE TARGET PKG... -> seconds for `cargo build` of
# just those packages after `cargo clean -p` of them (dependencies stay built);
# the CPU seconds it took (user + sys) are written to $CPU_FILE.
timed_clean_build() {
    local ws=$1 target=$2
    shift 2
    local pkgs=() p
    for p in "$@"; do pkgs+=(-p "$p"); done
    (cd "$ws" && CARGO_TARGET_DIR="$target" cargo clean -q "${pkgs[@]}")
    local t0 t1 cpu
    t0=$(now)
    # CPU seconds (user + sys of cargo and the compilers it ran) go to CPU_FILE.
    local log="$WORK/last-build.log"
    if ! cpu=$( { TIMEFORMAT='%U %S'; time (cd "$ws" && CARGO_TARGET_DIR="$target" cargo build -q "${pkgs[@]}" 2>"$log"); } 2>&1); then
        cat "$log" >&2
        return 1
    fi
    t1=$(now)
    echo "$cpu" | tail -n1 | awk '{ printf "%.2f\n", $1 + $2 }' >"$CPU_FILE"
    elapsed "$t0" "$t1"
}

# time_passes WORKSPACE TARGET VARIANT: one more clean build of perfregs-race
# with rustc's `-Z time-passes` (RUSTC_BOOTSTRAP=1); the whole output goes to
# WORKSPACE/time-passes.txt, the main passes to stdout.
time_passes() {
    local ws=$1 target=$2 variant=$3 out="$1/time-passes.txt"
    say "time passes ($variant): cargo rustc -p perfregs-race -- -Z time-passes"
    (cd "$ws" && CARGO_TARGET_DIR="$target" cargo clean -q -p perfregs-race)
    (cd "$ws" && RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$target" cargo rustc -q -p perfregs-race -- -Z time-passes) 2>"$out"
    echo "time-passes $variant (seconds; all passes in $out):"
    grep -E 'time: +[0-9.]+;.*[[:space:]](total|macro_expand_crate|type_check_crate|coherence_checking|MIR_borrow_checking|MIR_effect_checking|codegen_crate|LLVM_passes|link|generate_crate_metadata|monomorphization_collector|hir_lowering|resolve_crate|lint_checking|misc_checking_[0-9]|analysis)$' "$out" |
        awk '{ printf "  %-28s %s\n", $NF, $2 }' | tr -d ';'
}

synthetic() {
    local variant="$PLACEMENT-$([ "$ENUMS" = on ] && echo enums || echo no-enums)"
    local dir="$WORK/synthetic-$variant" target="$WORK/target"
    [ "$MACRO_PROFILE" = default ] || dir="$dir-$MACRO_PROFILE"
    mkdir -p "$dir"
    local yaml_dir="$dir/regdefs"
    rm -rf "$yaml_dir" "$dir/perfregs-race" "$dir/svd-race"
    mkdir -p "$yaml_dir"

    local place=(--placement "$PLACEMENT")
    if [ "$PLACEMENT" = inside ]; then
        # Inside: the wake rows of the TGL map, avoiding the shipped registers' addresses.
        "$PERFREGS" export tgl --format markdown >"$dir/shipped-tgl.md"
        place+=(--map "$REPO/regdefs/tgl_gt_map.yaml" --avoid "$dir/shipped-tgl.md")
    fi
    local enums=(--enums)
    [ "$ENUMS" = on ] || enums=(--no-enums)
    say "generating $REGISTERS registers, $LAYOUTS layouts on tgl ($variant) -> $yaml_dir/regs.yaml"
    python3 "$HERE/gen_yaml.py" --registers "$REGISTERS" --layouts "$LAYOUTS" \
        --project tgl "${place[@]}" "${enums[@]}" -o "$yaml_dir/regs.yaml"
    say "validating: cargo run -q -- check $yaml_dir/regs.yaml"
    (cd "$REPO" && cargo run -q -- check "$yaml_dir/regs.yaml") >&2

    say "perfregs crate: perfregs::regdefs!(pub mod regs, \"regs.yaml\")"
    mkdir -p "$dir/perfregs-race/src"
    cp "$yaml_dir/regs.yaml" "$dir/perfregs-race/regs.yaml"
    cat >"$dir/perfregs-race/Cargo.toml" <<EOF
[package]
name = "perfregs-race"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
perfregs = { path = "$REPO", default-features = false, features = ["all-projects"] }
EOF
    cat >"$dir/perfregs-race/src/lib.rs" <<'EOF'
//! The synthetic registers through `perfregs::regdefs!` (compile race).
#![no_std]
perfregs::regdefs!(pub mod regs, "regs.yaml");
EOF

    # A description folder holds the project catalogue (issue 24); the
    # `regdefs!` macro adds the shipped one to its file itself.
    cp "$REPO/regdefs/projects.yaml" "$yaml_dir/"
    say "svd2rust crate: PERFREGS_REGDEFS=$yaml_dir perfregs export tgl --format svd | svd2rust --target none"
    PERFREGS_REGDEFS="$yaml_dir" "$PERFREGS" export tgl --format svd >"$dir/regs.svd"
    write_pac_crate "$dir/svd-race" svd-race "$dir/regs.svd"
    echo "regs.svd: $(wc -c <"$dir/regs.svd") bytes; svd2rust lib.rs: $(wc -c <"$dir/svd-race/src/lib.rs") bytes" >&2

    cat >"$dir/Cargo.toml" <<'EOF'
# Generated by benches/compile_race/run.sh
[workspace]
members = ["perfregs-race", "svd-race"]
resolver = "2"
EOF
    if [ "$MACRO_PROFILE" = optimized ]; then
        # What the regdefs! docs recommend (codegen/macros/src/lib.rs): the
        # proc-macro and what it runs, optimized. svd-race has no build
        # dependencies, so only perfregs-race changes.
        cat >>"$dir/Cargo.toml" <<'EOF'

[profile.dev.build-override]
opt-level = 2
EOF
    fi

    say "warm-up: building both crates and their dependencies (target $target)"
    (cd "$dir" && CARGO_TARGET_DIR="$target" cargo build -q --workspace)

    local a=() b=() ac=() bc=() i t
    for i in $(seq 1 "$RUNS"); do
        say "run $i/$RUNS: cargo clean -p perfregs-race && cargo build -p perfregs-race"
        t=$(timed_clean_build "$dir" "$target" perfregs-race)
        echo "perfregs-race: $t s (CPU $(cat "$CPU_FILE") s)" >&2
        a+=("$t")
        ac+=("$(cat "$CPU_FILE")")
        say "run $i/$RUNS: cargo clean -p svd-race && cargo build -p svd-race"
        t=$(timed_clean_build "$dir" "$target" svd-race)
        echo "svd-race: $t s (CPU $(cat "$CPU_FILE") s)" >&2
        b+=("$t")
        bc+=("$(cat "$CPU_FILE")")
    done
    [ "${TIME_PASSES:-0}" = 0 ] || time_passes "$dir" "$target" "$variant"
    local ma mb
    ma=$(median "${a[@]}")
    mb=$(median "${b[@]}")
    echo
    echo "synthetic $variant ($REGISTERS registers, $LAYOUTS layouts, tgl; dev profile, build dependencies: $MACRO_PROFILE; median of $RUNS)"
    echo "runs perfregs: ${a[*]} s; svd2rust: ${b[*]} s"
    local mac mbc
    mac=$(median "${ac[@]}")
    mbc=$(median "${bc[@]}")
    echo "CPU (user + sys) perfregs: ${ac[*]} s; svd2rust: ${bc[*]} s"
    echo "perfregs: $ma s, svd2rust: $mb s, ratio svd2rust/perfregs: $(ratio "$mb" "$ma") (CPU $mac s, $mbc s, ratio $(ratio "$mbc" "$mac"))"
    echo "RESULT mode=synthetic placement=$PLACEMENT enums=$ENUMS macro_profile=$MACRO_PROFILE registers=$REGISTERS layouts=$LAYOUTS runs=$RUNS perfregs_s=$ma svd2rust_s=$mb ratio=$(ratio "$mb" "$ma") perfregs_cpu_s=$mac svd2rust_cpu_s=$mbc cpu_ratio=$(ratio "$mbc" "$mac") svd2rust_version=$SVD2RUST_VERSION"
}

shipped() {
    local dir="$WORK/shipped" target="$WORK/target-shipped"
    mkdir -p "$dir"
    local regdefs="$dir/regdefs"
    rm -rf "$regdefs" "$dir/pacs"
    say "copying $REPO/regdefs -> $regdefs (the HAL is built with PERFREGS_REGDEFS=$regdefs)"
    cp -r "$REPO/regdefs" "$regdefs"
    local touched
    touched=$(find "$regdefs" -name 'oa_gen7.yaml' | head -n1)
    [ -n "$touched" ] || touched=$(find "$regdefs" -name '*.yaml' ! -name projects.yaml | sort | head -n1)

    say "exporting SVD: perfregs export <p> --format svd for ${SHIPPED_PROJECTS[*]}"
    mkdir -p "$dir/pacs"
    local members=() skipped=() p
    for p in "${SHIPPED_PROJECTS[@]}"; do
        if ! PERFREGS_REGDEFS="$regdefs" "$PERFREGS" export "$p" --format svd >"$dir/pacs/$p.svd" 2>"$dir/pacs/$p.err"; then
            echo "export $p failed (skipped): $(head -n3 "$dir/pacs/$p.err")" >&2
            skipped+=("$p")
            continue
        fi
        if ! write_pac_crate "$dir/pacs/pac-$p" "pac-$p" "$dir/pacs/$p.svd"; then
            echo "svd2rust failed on $p (skipped)" >&2
            skipped+=("$p")
            continue
        fi
        members+=("pac-$p")
    done
    [ "${#members[@]}" -gt 0 ] || { echo "no PAC could be generated" >&2; exit 1; }
    {
        echo "# Generated by benches/compile_race/run.sh"
        echo "[workspace]"
        printf 'members = ['
        printf '"%s", ' "${members[@]}"
        echo ']'
        echo 'resolver = "2"'
    } >"$dir/pacs/Cargo.toml"

    say "warm-up: perfregs-hal (PERFREGS_REGDEFS=$regdefs) and the ${#members[@]} PACs (target $target)"
    (cd "$REPO" && PERFREGS_REGDEFS="$regdefs" CARGO_TARGET_DIR="$target" cargo build -q --locked -p perfregs-hal)
    (cd "$dir/pacs" && CARGO_TARGET_DIR="$target" cargo build -q --workspace)

    local a=() b=() i t0 t1 t
    for i in $(seq 1 "$RUNS"); do
        say "run $i/$RUNS: touch $(basename "$touched") && cargo build -p perfregs-hal"
        touch "$touched"
        t0=$(now)
        (cd "$REPO" && PERFREGS_REGDEFS="$regdefs" CARGO_TARGET_DIR="$target" cargo build -q --locked -p perfregs-hal)
        t1=$(now)
        t=$(elapsed "$t0" "$t1")
        echo "perfregs-hal: $t s" >&2
        a+=("$t")
        say "run $i/$RUNS: cargo clean -p <each PAC> && cargo build (${#members[@]} PACs)"
        t=$(timed_clean_build "$dir/pacs" "$target" "${members[@]}")
        echo "PACs: $t s" >&2
        b+=("$t")
    done
    local ma mb
    ma=$(median "${a[@]}")
    mb=$(median "${b[@]}")
    echo
    echo "shipped descriptions (dev profile; median of $RUNS)"
    echo "perfregs-hal rebuild after touching $(basename "$touched"): runs ${a[*]} s"
    echo "svd2rust PACs (${members[*]}): runs ${b[*]} s"
    [ "${#skipped[@]}" -eq 0 ] || echo "skipped (export or svd2rust failed): ${skipped[*]}"
    echo "perfregs: $ma s, svd2rust: $mb s, ratio svd2rust/perfregs: $(ratio "$mb" "$ma")"
    echo "RESULT mode=shipped pacs=${#members[@]} skipped=${skipped[*]:-none} runs=$RUNS perfregs_s=$ma svd2rust_s=$mb ratio=$(ratio "$mb" "$ma") svd2rust_version=$SVD2RUST_VERSION"
}

# The two synthetic variants issue 16 names, one after the other (same target folder).
variants() {
    PLACEMENT=outside ENUMS=on synthetic
    PLACEMENT=inside ENUMS=off synthetic
}

"$MODE"
