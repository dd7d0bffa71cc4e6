//! `perfregs reg read|write|dump` on a regular file mapped as a BAR (16 MiB,
//! sparse), as the built binary runs it; one ignored test on a real GPU.
//! Linux only, as the command.
#![cfg(target_os = "linux")]

use crate::common;
use common::{in_root as perfregs, says, TempFile};

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

/// A sparse file standing in for a BAR, removed on drop.
struct BarFile(TempFile);

impl BarFile {
    fn new(name: &str, len: u64) -> Self {
        let file = TempFile::new(&format!("{name}.bar"));
        File::create(&file.0).unwrap().set_len(len).unwrap();
        BarFile(file)
    }
    fn path(&self) -> &str {
        self.0.path()
    }
    fn u32_at(&self, offset: u64) -> u32 {
        let mut f = File::open(self.path()).unwrap();
        f.seek(SeekFrom::Start(offset)).unwrap();
        let mut b = [0u8; 4];
        f.read_exact(&mut b).unwrap();
        u32::from_le_bytes(b)
    }
    fn put_u32(&self, offset: u64, value: u32) {
        let mut f = OpenOptions::new().write(true).open(self.path()).unwrap();
        f.seek(SeekFrom::Start(offset)).unwrap();
        f.write_all(&value.to_le_bytes()).unwrap();
    }
    /// `reg write` with `rest`, which must succeed: its stdout.
    fn write_ok(&self, rest: &[&str]) -> String {
        self.ok("write", rest)
    }
    /// `reg <op>` with `rest`, which must succeed: its stdout.
    fn ok(&self, op: &str, rest: &[&str]) -> String {
        let (out, _) = self.fails(op, rest, 0);
        out
    }
    /// `reg <op>` with `rest`, which must exit with `code`: its stdout and
    /// stderr.
    fn fails(&self, op: &str, rest: &[&str], code: i32) -> (String, String) {
        self.with(
            op,
            &[&["--project", "tgl", "--no-forcewake"][..], rest].concat(),
            code,
        )
    }
    /// `perfregs reg <op> <this file> <rest>` (options of its own), which
    /// must exit with `code`: its stdout and stderr.
    fn with(&self, op: &str, rest: &[&str], code: i32) -> (String, String) {
        let mut args = vec!["reg", op, self.path()];
        args.extend_from_slice(rest);
        let (got, out, err) = perfregs(&args);
        assert_eq!(got, code, "{args:?}: {out}{err}");
        (out, err)
    }
}

const MIB16: u64 = 16 << 20;
/// tgl OAG_OACONTROL, OAG_OA_DEBUG (masked).
const OACONTROL: u64 = 0xDAF4;
const OA_DEBUG: u64 = 0xDAF8;

#[test]
fn read_decodes_as_decode_does() {
    let bar = BarFile::new("read", MIB16);
    bar.put_u32(OACONTROL, 0x9);
    let out = bar.ok("read", &["OAG_OACONTROL"]);
    let (_, decoded, _) = perfregs(&["decode", "tgl", "OAG_OACONTROL", "0x9"]);
    assert_eq!(out, decoded);
    says(&out, "report_format            = 2 (0x2) (a12_b8_c8)");
    // A misspelt name gets the close ones.
    let (_, err) = bar.fails("read", &["OAG_OACONTRL"], 1);
    says(&err, "did you mean OAG_OACONTROL");
    // By address, the same register.
    let by_addr = bar.ok("read", &["0xdaf4"]);
    assert_eq!(by_addr, out);
}

#[test]
fn read_past_the_end_of_the_bar_is_a_located_fault() {
    let bar = BarFile::new("small", 4096);
    let (out, err) = bar.fails("read", &["OAG_OACONTROL"], 1);
    assert!(out.is_empty(), "no value printed: {out}");
    assert!(
        err.contains("OAG_OACONTROL")
            && err.contains("mmio read32 at 0xdaf4 failed: address out of range"),
        "{err}"
    );
}

#[test]
fn read_of_an_undescribed_address_needs_raw() {
    let bar = BarFile::new("rawread", MIB16);
    bar.put_u32(0x1000, 0xDEAD_BEEF);
    let (_, err) = bar.fails("read", &["0x1000"], 1);
    assert!(
        err.contains("no register at 0x1000") && err.contains("--raw"),
        "{err}"
    );
    let out = bar.ok("read", &["0x1000", "--raw"]);
    says(&out, "0x1000 on tgl = 0xdeadbeef (undescribed");
}

#[test]
fn replicated_reads_say_the_instance_is_not_known() {
    let bar = BarFile::new("mcr", MIB16);
    let out = bar.ok("read", &["EU_PERF_CNT_CTL0"]);
    assert!(
        out.contains("replicated over 6 dss instances")
            && out.contains("which one is not known; steering belongs to the kernel"),
        "{out}"
    );
    let (_, err) = bar.fails("write", &["EU_PERF_CNT_CTL0", "value=1"], 1);
    says(&err, "steering belongs to the kernel");
    assert_eq!(bar.u32_at(0xE458), 0, "nothing written");
}

#[test]
fn the_device_and_force_wake_are_explicit() {
    let bar = BarFile::new("fw", MIB16);
    // A file has no kernel force-wake file.
    let (_, err) = bar.with("read", &["--project", "tgl", "OAG_OACONTROL"], 2);
    says(&err, "--forcewake PATH or --no-forcewake");
    // A file given as the force-wake file is held.
    let fw = BarFile::new("fw-file", 0);
    bar.with(
        "read",
        &[
            "--project",
            "tgl",
            "--forcewake",
            fw.path(),
            "OAG_OACONTROL",
        ],
        0,
    );
    // A missing one is an error naming it.
    let (_, err) = bar.with(
        "read",
        &[
            "--project",
            "tgl",
            "--forcewake",
            "/no/such/forcewake",
            "OAG_OACONTROL",
        ],
        1,
    );
    says(&err, "/no/such/forcewake");
    // The project is required; a project is not a device.
    let (_, err) = bar.with("read", &["--no-forcewake", "OAG_OACONTROL"], 2);
    says(&err, "pass --project");
    let (code, _, err) = perfregs(&["reg", "read", "tgl", "OAG_OACONTROL"]);
    assert_eq!(code, 2);
    says(&err, "`tgl` is a project, not a device");
}

#[test]
fn a_bar_that_cannot_be_opened_says_to_run_as_root() {
    let bar = BarFile::new("ro", MIB16);
    let mut perms = std::fs::metadata(bar.path()).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o400);
    std::fs::set_permissions(bar.path(), perms).unwrap();
    if OpenOptions::new().write(true).open(bar.path()).is_ok() {
        eprintln!("skipped: running as root, a read-only file opens for writing anyway");
        return;
    }
    let (_, err) = bar.fails("read", &["OAG_OACONTROL"], 1);
    says(&err, "run as root");
}

#[test]
fn dump_decodes_every_register_of_a_filter_one_line_each() {
    let bar = BarFile::new("dump", MIB16);
    bar.put_u32(OACONTROL, 0x9);
    let out = bar.ok("dump", &["OAG_"]);
    let lines: Vec<&str> = out.lines().collect();
    let ctl = lines
        .iter()
        .find(|l| l.contains(" OAG_OACONTROL "))
        .expect("OAG_OACONTROL dumped");
    assert_eq!(
        *ctl,
        "0x00daf4  OAG_OACONTROL            = 0x00000009 counter_enable=0x1 report_format=0x2(a12_b8_c8)"
    );
    let read = lines.len() - 1;
    assert!(read > 10, "{out}");
    assert!(
        lines.iter().take(read).all(|l| l.contains(" OAG_")),
        "{out}"
    );
    assert_eq!(
        lines[read],
        format!(
            "{read} register(s) read, 0 skipped, 0 fault(s) on {} as tgl",
            bar.path()
        )
    );
    // A block by name.
    let out = bar.ok("dump", &["oa_tgl"]);
    says(&out, " OAG_OACONTROL ");
    // An unknown filter lists the blocks.
    let (_, err) = bar.fails("dump", &["NOTHING_LIKE_IT"], 1);
    assert!(err.contains("blocks: ") && err.contains("oa_tgl"), "{err}");
}

/// The (address, name) of each register line of a `reg dump`.
fn dumped(out: &str) -> Vec<(u64, String)> {
    out.lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let addr = u64::from_str_radix(words.next()?.strip_prefix("0x")?, 16).ok()?;
            Some((addr, words.next()?.to_string()))
        })
        .collect()
}

#[test]
fn dump_is_by_address_and_flags_reserved_bits_as_read_does() {
    let bar = BarFile::new("dump-sorted", MIB16);
    // Bit 31 of OAG_OACONTROL is in no field on tgl.
    bar.put_u32(OACONTROL, 0x8000_0009);
    for filter in [&["OAG_"][..], &[]] {
        let out = bar.ok("dump", filter);
        let regs = dumped(&out);
        assert!(regs.len() > 10, "{out}");
        let mut sorted = regs.clone();
        sorted.sort();
        assert_eq!(regs, sorted, "by address, then name: {out}");
        let ctl = out
            .lines()
            .find(|l| l.contains(" OAG_OACONTROL "))
            .expect("OAG_OACONTROL dumped");
        assert_eq!(
            ctl,
            "0x00daf4  OAG_OACONTROL            = 0x80000009 counter_enable=0x1 \
             report_format=0x2(a12_b8_c8)  [bits 0x80000000 set outside every field (reserved)]"
        );
    }
    // `reg read` flags the same bits.
    let out = bar.ok("read", &["OAG_OACONTROL"]);
    says(&out, "bits 0x80000000 set outside every field (reserved)");
}

#[test]
fn dump_of_the_whole_project_reports_faults_past_the_end() {
    // 64 KiB: the OAG registers (0xd900..0xdc40) are inside, registers at
    // 0x130000 are not.
    let bar = BarFile::new("dump-small", 64 << 10);
    let (out, err) = bar.fails("dump", &[], 1);
    says(&out, " OAG_OACONTROL ");
    let summary = out.lines().last().unwrap();
    // "N register(s) read, M skipped, K fault(s) on FILE as tgl"
    let faults: usize = summary
        .split(", ")
        .nth(2)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("fault count");
    assert!(faults > 0, "{summary}");
    assert_eq!(err.lines().count(), faults, "one line per fault: {err}");
    says(&err, "address out of range");
    // No faulting register is printed as data.
    for line in err.lines() {
        let name = line
            .trim_start_matches("perfregs: ")
            .split(':')
            .next()
            .unwrap();
        assert!(
            !out.lines()
                .any(|l| l.split_whitespace().nth(1) == Some(name)),
            "{name} printed: {out}"
        );
    }
}

#[test]
fn write_sets_fields_and_echoes_before_and_after() {
    let bar = BarFile::new("write", MIB16);
    bar.put_u32(OACONTROL, 0x1);
    let out = bar.write_ok(&["OAG_OACONTROL", "report_format=a12_b8_c8"]);
    assert_eq!(
        bar.u32_at(OACONTROL),
        0x9,
        "counter_enable kept, format set"
    );
    assert_eq!(
        out,
        "OAG_OACONTROL (OAG Control) @ 0xdaf4 on tgl\n  before 0x1\n  write  0x9\n  after  0x9\n  \
         report_format: 0 (0x0) (a12) -> 2 (0x2) (a12_b8_c8)\n"
    );
    // A number works as well as a name; fields unchanged are said.
    let out = bar.write_ok(&["OAG_OACONTROL", "report_format=2", "counter_enable=0"]);
    assert_eq!(bar.u32_at(OACONTROL), 0x8);
    says(&out, "report_format: 2 (0x2) (a12_b8_c8) (unchanged)");
    says(&out, "counter_enable: 1 (0x1) -> 0 (0x0)");
}

#[test]
fn a_write_that_clears_reserved_bits_lists_them() {
    let bar = BarFile::new("reserved", MIB16);
    // Bits 31 and 1 of OAG_OACONTROL are in no field on tgl.
    bar.put_u32(OACONTROL, 0x8000_0003);
    let out = bar.write_ok(&["OAG_OACONTROL", "report_format=a12_b8_c8"]);
    assert_eq!(bar.u32_at(OACONTROL), 0x9, "reserved bits not written back");
    says(
        &out,
        "  reserved bits 31, 1 (no field covers them): 0x80000002 -> 0x0\n",
    );
    // Reserved bits already clear: no line.
    let out = bar.write_ok(&["OAG_OACONTROL", "counter_enable=0"]);
    assert!(!out.contains("reserved bits"), "{out}");
}

#[test]
fn masked_writes_carry_the_enable_bits_of_the_fields_set() {
    let bar = BarFile::new("masked", MIB16);
    let out = bar.write_ok(&[
        "OAG_OA_DEBUG",
        "include_clk_ratio=1",
        "disable_ctx_switch_reports=1",
    ]);
    // bits 6 and 1, and their enables 22 and 17.
    assert_eq!(bar.u32_at(OA_DEBUG), 0x0042_0042);
    says(
        &out,
        "write  0x420042 (masked: bits 31:16 enable the fields set)",
    );
}

#[test]
fn writes_are_refused_by_the_typed_checks() {
    let bar = BarFile::new("refused", MIB16);
    bar.put_u32(OACONTROL, 0x5);
    let refused = |args: &[&str], expect: &str| {
        let (out, err) = bar.fails("write", args, 1);
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(out.is_empty(), "{out}");
    };
    refused(
        &["MIRROR_FUSE_DSS_ENABLE", "dss_enable=1"],
        "MIRROR_FUSE_DSS_ENABLE.dss_enable is RO: not writable",
    );
    refused(
        &["OA_IMR", "reserved_27_0=1"],
        "OA_IMR.reserved_27_0 is MBZ: not writable",
    );
    refused(
        &["OAG_OACONTROL", "counter_enable=2"],
        "OAG_OACONTROL.counter_enable: 0x2 does not fit its 1 bit(s) (at most 0x1)",
    );
    refused(
        &["OAG_OACONTROL", "report_format=a13"],
        "neither a number nor one of its encodings",
    );
    refused(
        &["OAG_OACONTROL", "no_field=1"],
        "OAG_OACONTROL has no field `no_field`",
    );
    refused(&["OAG_OACONTROL=0x1"], "add --raw");
    refused(
        &["0x1000=0x1"],
        "--raw accesses it as an undescribed 32-bit register",
    );
    refused(
        &["OAG_OACONTROL=0x100000000", "--raw"],
        "does not fit the 32-bit register",
    );
    assert_eq!(bar.u32_at(OACONTROL), 0x5, "nothing written");
    assert_eq!(bar.u32_at(0x1000), 0);
    // A word that is not field=value is a usage error.
    bar.fails("write", &["OAG_OACONTROL", "counter_enable"], 2);
}

#[test]
fn raw_writes_need_raw_and_are_echoed() {
    let bar = BarFile::new("raw", MIB16);
    let out = bar.write_ok(&["0x1000=0xcafe", "--raw"]);
    assert_eq!(bar.u32_at(0x1000), 0xCAFE);
    assert_eq!(
        out,
        "0x1000 on tgl (undescribed)\n  before 0x0\n  write  0xcafe\n  after  0xcafe\n"
    );
    let out = bar.write_ok(&["OAG_OACONTROL=0xd", "--raw"]);
    assert_eq!(bar.u32_at(OACONTROL), 0xD);
    says(
        &out,
        "report_format: 0 (0x0) (a12) -> 3 (0x3) (no named encoding)",
    );
}

#[test]
fn a_write_past_the_end_of_the_bar_is_a_located_fault() {
    let bar = BarFile::new("write-small", 4096);
    let (out, err) = bar.fails("write", &["OAG_OACONTROL", "counter_enable=1"], 1);
    assert!(out.is_empty());
    assert!(
        err.contains("OAG_OACONTROL: ") && err.contains("at 0xdaf4 failed: address out of range"),
        "{err}"
    );
}

/// On a machine with an Intel GPU bound to i915 or xe, as root with debugfs:
/// `PERFREGS_REG_DEVICE` (default `card0`) of project `PERFREGS_REG_PROJECT`
/// (default `tgl`): the render ring's TIMESTAMP (0x2358) moves between two
/// reads while the kernel's force-wake file is held.
#[test]
#[ignore = "needs root, debugfs and an Intel GPU (PERFREGS_REG_DEVICE=card0 PERFREGS_REG_PROJECT=tgl)"]
fn smoke_reads_a_live_gpu() {
    let device = std::env::var("PERFREGS_REG_DEVICE").unwrap_or_else(|_| "card0".into());
    let project = std::env::var("PERFREGS_REG_PROJECT").unwrap_or_else(|_| "tgl".into());
    let read = || {
        let (code, out, err) = perfregs(&[
            "reg",
            "read",
            &device,
            "--project",
            &project,
            "--raw",
            "0x2358",
        ]);
        assert_eq!(code, 0, "{out}{err}");
        out
    };
    let t0 = read();
    std::thread::sleep(std::time::Duration::from_millis(2));
    assert_ne!(t0, read(), "the render TIMESTAMP counts while awake");
    let (code, out, err) = perfregs(&["reg", "dump", &device, "--project", &project]);
    assert_eq!(code, 0, "{out}{err}");
}

/// A directory laid out as a PCI function's in sysfs (`vendor`, `resource0`,
/// and optionally a `driver` link and `drm/cardN`), removed on drop.
struct FakeFunction(PathBuf);

impl FakeFunction {
    fn new(name: &str, vendor: &str, driver: Option<&str>, card: Option<u32>) -> Self {
        let root =
            std::env::temp_dir().join(format!("perfregs-cli-reg-{}-{name}", std::process::id()));
        let dir = root.join("0000:00:02.0");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("vendor"), format!("{vendor}\n")).unwrap();
        File::create(dir.join("resource0"))
            .unwrap()
            .set_len(MIB16)
            .unwrap();
        if let Some(driver) = driver {
            let target = root.join("drivers").join(driver);
            std::fs::create_dir_all(&target).unwrap();
            std::os::unix::fs::symlink(&target, dir.join("driver")).unwrap();
        }
        if let Some(n) = card {
            std::fs::create_dir_all(dir.join("drm").join(format!("card{n}"))).unwrap();
        }
        FakeFunction(root)
    }
    fn resource0(&self) -> String {
        self.0
            .join("0000:00:02.0/resource0")
            .to_str()
            .unwrap()
            .to_string()
    }
}

impl Drop for FakeFunction {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_sysfs_resource_is_checked_and_its_card_gives_the_force_wake_file() {
    let read = |f: &FakeFunction, extra: &[&str]| {
        let r = f.resource0();
        let mut args = vec!["reg", "read", r.as_str(), "--project", "tgl"];
        args.extend_from_slice(extra);
        args.push("OAG_OACONTROL");
        perfregs(&args)
    };
    // Not Intel: refused before mapping.
    let other = FakeFunction::new("virtio", "0x1af4", None, None);
    let (code, _, err) = read(&other, &["--no-forcewake"]);
    assert_eq!(code, 1);
    says(&err, "is not an Intel device (PCI vendor 0x1af4)");
    // Intel, bound to i915 as card 3: the default force-wake file is card 3's.
    let i915 = FakeFunction::new("i915", "0x8086", Some("i915"), Some(3));
    let (code, _, err) = read(&i915, &[]);
    assert_eq!(code, 1, "{err}");
    says(&err, "/sys/kernel/debug/dri/3/i915_forcewake_user");
    // Bound to xe as card 1.
    let xe = FakeFunction::new("xe", "0x8086", Some("xe"), Some(1));
    let (_, _, err) = read(&xe, &[]);
    says(&err, "/sys/kernel/debug/dri/1/forcewake_all");
    // Without force-wake on a device a driver owns: read, with a warning.
    let (code, out, err) = read(&i915, &["--no-forcewake"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("OAG_OACONTROL (OAG Control) @ 0xdaf4 on tgl = 0x0"),
        "{out}"
    );
    says(&err, "warning: no force-wake held");
    // No driver: nothing owns it, no warning.
    let unbound = FakeFunction::new("unbound", "0x8086", None, None);
    let (code, _, err) = read(&unbound, &["--no-forcewake"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn write_only_registers_are_skipped_with_a_note_and_not_read() {
    let bar = BarFile::new("wo", MIB16);
    let snb = ["--project", "snb", "--no-forcewake"];
    let (out, _) = bar.with("dump", &snb, 0);
    assert!(
        out.lines()
            .any(|l| l.starts_with("0x0023b0  OABUFFER") && l.ends_with("skipped: write-only")),
        "{out}"
    );
    says(&out, ", 1 skipped, 0 fault(s)");
    let (out, err) = bar.with("read", &[&snb[..], &["OABUFFER"]].concat(), 1);
    assert!(out.is_empty());
    says(&err, "OABUFFER is write-only");
    // A register of another address space.
    let (_, err) = bar.with(
        "read",
        &["--project", "p4", "--no-forcewake", "P4_COUNTER0"],
        1,
    );
    says(&err, "not in the GPU's MMIO space");
}

#[test]
fn the_pci_id_names_the_project_through_the_device_table() {
    // 0x9a49 is a TGL GT2 id (regdefs/devices.yaml); 0x0bd5 a PVC (not described).
    let tgl = FakeFunction::new("by-id-tgl", "0x8086", None, None);
    std::fs::write(tgl.0.join("0000:00:02.0/device"), "0x9a49\n").unwrap();
    let r = tgl.resource0();
    let (code, out, err) = perfregs(&["reg", "read", &r, "--no-forcewake", "OAG_OACONTROL"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("OAG_OACONTROL (OAG Control) @ 0xdaf4 on tgl"),
        "{out}"
    );
    let pvc = FakeFunction::new("by-id-pvc", "0x8086", None, None);
    std::fs::write(pvc.0.join("0000:00:02.0/device"), "0x0bd5\n").unwrap();
    let r = pvc.resource0();
    let (code, _, err) = perfregs(&["reg", "read", &r, "--no-forcewake", "OACONTROL"]);
    assert_eq!(code, 2, "{err}");
    says(&err, "PVC (0x0bd5): platform not described yet");
}

#[test]
fn a_card_that_does_not_exist_is_said_before_asking_for_the_project() {
    use perfregs_linux::test_support::FakeTree;
    let read = |t: &FakeTree, card: &str| {
        let sys = t.roots().sys;
        let sys = sys.to_str().unwrap();
        perfregs(&[
            "reg",
            "read",
            card,
            "--sys",
            sys,
            "--no-forcewake",
            "OAG_OACONTROL",
        ])
    };
    // No card at all.
    let empty = FakeTree::new("reg-no-card");
    let (code, _, err) = read(&empty, "card0");
    assert_eq!(code, 1, "{err}");
    says(
        &err,
        "no such card `card0` (cards here: none); `perfregs devices` lists them",
    );
    assert!(!err.contains("--project"), "{err}");
    // Another card exists: it is named.
    let t = FakeTree::new("reg-other-card");
    t.card(0, "0000:00:02.0", 0x8086, 0x1234, None);
    let (code, _, err) = read(&t, "card3");
    assert_eq!(code, 1, "{err}");
    says(&err, "no such card `card3` (cards here: card0)");
    // The card exists but the device table does not know its id: only then
    // is --project asked for.
    let (code, _, err) = read(&t, "card0");
    assert_eq!(code, 2, "{err}");
    says(
        &err,
        "which project is card0 (its PCI device id is 0x1234)? pass --project",
    );
    // A known id: the card's BAR under the sysfs root is read as its project's.
    let tgl = FakeTree::tgl_i915("reg-tgl-card", 2);
    let bar = tgl.0.join("sys/devices/pci0000:00/0000:00:02.0/resource0");
    File::create(&bar).unwrap().set_len(MIB16).unwrap();
    let (code, out, err) = read(&tgl, "card0");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("OAG_OACONTROL (OAG Control) @ 0xdaf4 on tgl"),
        "{out}"
    );
}
