//! `perfregs devices` on fake sysfs/procfs trees (`perfregs_linux`'s
//! test-support `FakeTree`, as discovery's tests): an i915 TGL card blocked by
//! the paranoid sysctl, an xe TGL card judged by xe's sysctl, an undescribed PVC, an SNB without OA streams,
//! the Gen9..Gen12 parts described since issue 18 (CML as cfl, RPL as adl), no
//! card at all, and the JSON form.
#![cfg(unix)]

use crate::common;

use common::says;

use perfregs_linux::test_support::FakeTree;
use std::fs;

/// `perfregs devices` on the fake tree `t`, with `extra` arguments: the
/// exit code, stdout and stderr.
fn devices(t: &FakeTree, extra: &[&str]) -> (i32, String, String) {
    let roots = t.roots();
    common::run(
        common::perfregs()
            .arg("devices")
            .arg("--sys")
            .arg(&roots.sys)
            .arg("--proc")
            .arg(&roots.proc)
            .args(extra),
    )
}

/// `perfregs devices` on the fake tree `t`, which must succeed: its stdout.
fn listed(t: &FakeTree) -> String {
    let (code, out, err) = devices(t, &[]);
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// The line after the one that contains `needle`.
fn line_after<'a>(out: &'a str, needle: &str) -> &'a str {
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with `{needle}` in\n{out}"));
    lines.get(at + 1).copied().unwrap_or("")
}

#[test]
fn an_i915_tgl_card_with_paranoid_1_and_no_caps_gets_the_sysctl_remedy() {
    let t = FakeTree::tgl_i915("tgl", 1);
    let out = listed(&t);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "card0  0000:00:02.0  TGL GT2 (0x9a49) rev 0x01",
        "{out}"
    );
    assert_eq!(
        lines[1], "  project tgl GT2, driver i915, render node renderD128",
        "{out}"
    );
    assert!(
        out.contains(
            "OA streams: no: dev.i915.perf_stream_paranoid is 1 and the process has neither CAP_PERFMON nor CAP_SYS_ADMIN"
        ),
        "{out}"
    );
    let remedy = line_after(&out, "OA streams: no:");
    assert!(
        remedy.trim_start().starts_with("remedy: ")
            && remedy.contains("sudo sysctl dev.i915.perf_stream_paranoid=0")
            && remedy.contains("CAP_PERFMON"),
        "{remedy}"
    );
    // A fake tree is not probed: no line about the render node's answers.
    assert!(!out.contains("perf revision"), "{out}");

    // Paranoid 0: allowed, no remedy.
    t.paranoid("i915", 0);
    let out = listed(&t);
    says(&out, "OA streams: yes (dev.i915.perf_stream_paranoid is 0)");
    assert!(!out.contains("remedy"), "{out}");
}

#[test]
fn an_xe_tgl_card_is_judged_by_the_observation_sysctl() {
    let t = FakeTree::new("xe");
    t.card(0, "0000:00:02.0", 0x8086, 0x9A49, Some("xe"));
    // Only xe's sysctl: the i915 one must not be what decides.
    t.write("proc/sys/dev/xe/observation_paranoid", "1\n");
    t.caps(1000, 0);
    let out = listed(&t);
    says(&out, "  project tgl GT2, driver xe, render node renderD128");
    says(&out, "OA streams: no: dev.xe.observation_paranoid is 1");
    let remedy = line_after(&out, "OA streams: no:");
    says(remedy, "sysctl dev.xe.observation_paranoid=0");
    assert!(!out.contains("perf_stream_paranoid"), "{out}");

    // observation_paranoid 0: streams can be opened, no remedy; the i915
    // sysctl at 1 beside it changes nothing.
    t.write("proc/sys/dev/xe/observation_paranoid", "0\n");
    t.paranoid("i915", 1);
    let out = listed(&t);
    says(&out, "OA streams: yes (dev.xe.observation_paranoid is 0)");
    assert!(!out.contains("remedy"), "{out}");
    // CAP_PERFMON (bit 38) with paranoid 1: allowed too.
    t.write("proc/sys/dev/xe/observation_paranoid", "1\n");
    t.caps(1000, 1 << 38);
    let out = listed(&t);
    says(&out, "OA streams: yes (CAP_PERFMON)");
}

#[test]
fn dg2_is_not_described_yet_and_snb_has_no_oa_stream() {
    let t = FakeTree::new("mix");
    t.card(0, "0000:00:02.0", 0x8086, 0x0BD5, Some("i915")); // PVC
    t.card(1, "0000:01:00.0", 0x8086, 0x0116, Some("i915")); // SNB GT2
    t.paranoid("i915", 0);
    t.caps(1000, 0);
    let out = listed(&t);
    let cards: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(cards.len(), 2, "a blank line between cards: {out}");
    // Each card: its first line, what it says, and the remedy after "OA streams: no:".
    for (card, (first, said, remedy)) in cards.iter().zip([
        (
            "card0  0000:00:02.0  PVC (0x0bd5)",
            [
                "  not described yet, driver i915",
                "OA streams: no: platform not described yet (PVC, PCI id 0x0bd5)",
            ],
            "not described in regdefs/ yet",
        ),
        (
            "card1  0000:01:00.0  SNB GT2 (0x0116)",
            [
                "project snb GT2",
                "no OA stream under Linux (the catalogue gives this GPU no OA unit",
            ],
            "MI_REPORT_PERF_COUNT",
        ),
    ]) {
        assert!(card.starts_with(first), "{out}");
        for part in said {
            assert!(card.contains(part), "{out}");
        }
        let after = line_after(card, "OA streams: no:");
        assert!(after.contains(remedy), "{out}");
    }

    // The same as JSON.
    let (code, out, err) = devices(&t, &["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let cards = doc["cards"].as_array().expect("cards");
    assert_eq!(cards.len(), 2);
    assert_eq!(cards[0]["pci_id"], "0x0bd5");
    assert_eq!(cards[0]["platform"], "PVC");
    assert_eq!(cards[0]["described"], false);
    assert_eq!(cards[0]["oa_streams"]["allowed"], false);
    assert_eq!(cards[0]["oa_streams"]["kind"], "not_described");
    assert_eq!(cards[1]["project"], "snb");
    assert_eq!(cards[1]["gt"], 2);
    assert_eq!(cards[1]["oa_streams"]["kind"], "no_oa_stream");
    assert_eq!(cards[1]["paranoid"]["value"], 0);
    assert!(cards[1]["oa_streams"]["remedy"]
        .as_str()
        .is_some_and(|r| r.contains("MI_REPORT_PERF_COUNT")));
}

#[test]
fn no_card_says_so() {
    let t = FakeTree::new("none");
    fs::create_dir_all(t.0.join("sys/class/drm")).expect("mkdir");
    t.caps(1000, 0);
    let out = listed(&t);
    let drm = t.0.join("sys/class/drm");
    let first = out.lines().next().unwrap_or_default();
    assert_eq!(first, format!("no DRM cards under {}", drm.display()));
    // What to do without a GPU: each suggested command runs.
    says(&out, "devices --known");
    for hint in out.lines().skip(1) {
        let cmd: Vec<&str> = hint
            .split("   ")
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        assert_eq!(cmd.first(), Some(&"perfregs"), "{hint}");
        if cmd.contains(&"record") {
            continue; // run by the record tests
        }
        common::exits(0, &cmd[1..]);
    }
    // No class/drm at all (no DRM driver loaded): the same.
    let t = FakeTree::new("empty");
    let out = listed(&t);
    assert!(out.starts_with("no DRM cards under "), "{out}");
    let (code, out, err) = devices(&t, &["--format", "json"]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["cards"], serde_json::json!([]));
    says(&err, "no DRM cards under");
}

#[test]
fn an_unreadable_card_is_an_error_and_the_others_are_listed() {
    let t = FakeTree::with_damaged_card1("bad");
    t.paranoid("i915", 0);
    t.caps(1000, 0);
    let (code, out, err) = devices(&t, &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("card0  0000:00:02.0  TGL GT2"), "{out}");
    says(&err, "banana");
}

#[test]
fn the_fake_roots_are_hidden_from_help() {
    let (code, help, _) = common::run(common::perfregs().args(["devices", "--help"]));
    assert_eq!(code, 0);
    says(&help, "--format");
    assert!(!help.contains("--sys"), "{help}");
}

/// `--dev`: the render node is asked. A regular file in its place opens
/// but answers no ioctl: every answer says why it is missing (this is the
/// probe's path without hardware; a missing node says it cannot be opened).
#[cfg(target_os = "linux")]
#[test]
fn the_probe_reports_each_missing_answer() {
    let t = FakeTree::tgl_i915("probe", 0);
    let dev = t.0.join("dev");
    let dev_arg = dev.to_string_lossy().into_owned();
    // No node under --dev.
    let (code, out, err) = devices(&t, &["--dev", &dev_arg]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "  driver not asked: cannot open {}/dri/renderD128: ",
            dev.display()
        )),
        "{out}"
    );
    // A regular file as the node: opened, every ioctl refused.
    t.write("dev/dri/renderD128", "");
    let (code, out, err) = devices(&t, &["--dev", &dev_arg]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[2].starts_with("  perf revision unknown (GETPARAM: ")
            && lines[2].contains(", timestamp frequency unknown (GETPARAM: "),
        "{out}"
    );
    assert!(
        lines[3].starts_with("  no device values: QUERY topology: "),
        "{out}"
    );
    assert!(lines[4].starts_with("  OA streams: yes"), "{out}");
    let (_, out, _) = devices(&t, &["--dev", &dev_arg, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let probe = &doc["cards"][0]["probe"];
    assert!(probe["perf_revision_error"].is_string(), "{probe}");
    assert!(probe["device_values_error"].is_string(), "{probe}");
}

#[test]
fn gen9_to_gen12_cards_name_their_project_and_gt() {
    let t = FakeTree::new("gen9-12");
    t.card(0, "0000:00:02.0", 0x8086, 0x1926, Some("i915")); // SKL GT3 (ULT GT3e)
    t.card(1, "0000:01:00.0", 0x8086, 0x9BC5, Some("i915")); // CML GT2: cfl
    t.card(2, "0000:02:00.0", 0x8086, 0xA780, Some("i915")); // RPL-S: adl
    t.card(3, "0000:03:00.0", 0x8086, 0x4E71, Some("i915")); // JSL: ehl
    t.paranoid("i915", 0);
    t.caps(1000, 0);
    let out = listed(&t);
    let cards: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(cards.len(), 4, "{out}");
    for (card, head, identity) in [
        (
            cards[0],
            "card0  0000:00:02.0  SKL GT3 (0x1926)",
            "  project skl GT3, driver i915",
        ),
        (
            cards[1],
            "card1  0000:01:00.0  CML GT2 (0x9bc5)",
            "  project cfl GT2, driver i915",
        ),
        (
            cards[2],
            "card2  0000:02:00.0  RPL-S (0xa780)",
            "  project adl, driver i915",
        ),
        (
            cards[3],
            "card3  0000:03:00.0  JSL (0x4e71)",
            "  project ehl, driver i915",
        ),
    ] {
        assert!(card.starts_with(head), "{out}");
        assert!(card.contains(identity), "{out}");
        assert!(
            card.contains("OA streams: yes (dev.i915.perf_stream_paranoid is 0)"),
            "{out}"
        );
    }
    let (code, out, err) = devices(&t, &["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let cards = doc["cards"].as_array().expect("cards");
    let got: Vec<(&str, &str, Option<u64>)> = cards
        .iter()
        .map(|c| {
            (
                c["platform"].as_str().unwrap_or(""),
                c["project"].as_str().unwrap_or(""),
                c["gt"].as_u64(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("SKL", "skl", Some(3)),
            ("CML", "cfl", Some(2)),
            ("RPL-S", "adl", None),
            ("JSL", "ehl", None),
        ]
    );
}

/// `devices PCI_ID` answers from the device table without a GPU: every
/// spelling of an id names its platform, project and part (the catalogue's
/// part for its GT), drivers and the emulator command; an undescribed id
/// says so; an unknown id fails (exit 1) with the remedy; a bad id is a
/// usage error.
#[test]
fn a_pci_id_names_its_part() {
    let part_of = |d: &hal::meta::DeviceId| {
        d.project
            .and_then(hal::project)
            .and_then(|p| p.gpu)
            .and_then(|g| g.part_or_default(d.gt))
    };
    // Ids with a GT, of a project with several parts, then of one part.
    let several = |d: &&hal::meta::DeviceId| {
        d.project
            .is_some_and(|p| hal::PARTS.iter().filter(|x| x.project == p).count() > 1)
    };
    let rows = [
        hal::DEVICES
            .iter()
            .find(|d| d.gt.is_some() && part_of(d).is_some() && several(d)),
        hal::DEVICES
            .iter()
            .find(|d| part_of(d).is_some() && !several(d)),
    ];
    for row in rows.into_iter().map(|r| r.expect("such an id")) {
        let project = row.project.expect("described");
        let part = part_of(row).expect("its part");
        for spelling in [
            format!("{:#06x}", row.pci_id),
            format!("{:04X}", row.pci_id),
            format!("8086:{:04x}", row.pci_id),
        ] {
            let (out, _) = common::exits(0, &["devices", &spelling]);
            says(&out, row.platform);
            says(&out, &format!("project {project}, part {part}"));
            says(&out, part.chipset);
            let several = hal::PARTS.iter().filter(|p| p.project == project).count() > 1;
            match several {
                true => says(&out, &format!("--emulate {project} --gt {} ", part.gt)),
                false => says(&out, &format!("--emulate {project} --metric-set")),
            }
        }
    }
    // Every described project's drivers, as the catalogue gives them.
    for d in hal::DEVICES
        .iter()
        .filter(|d| d.project.is_some())
        .step_by(37)
    {
        let (out, _) = common::exits(0, &["devices", &format!("{:#06x}", d.pci_id)]);
        let gpu = d.project.and_then(hal::project).and_then(|p| p.gpu);
        if let Some(g) = gpu {
            let names: Vec<&str> = g.drivers.iter().map(|d| d.name()).collect();
            says(&out, &format!("drivers: {}", names.join(", ")));
        }
    }
    if let Some(u) = hal::DEVICES.iter().find(|d| d.project.is_none()) {
        let (out, _) = common::exits(0, &["devices", &format!("{:#06x}", u.pci_id)]);
        says(&out, "not described yet");
    }
    let unknown = (0..=u16::MAX)
        .find(|id| hal::device(*id).is_none())
        .expect("an id not in the table");
    let (_, err) = common::exits(1, &["devices", &format!("{unknown:#06x}")]);
    says(&err, "unknown Intel device");
    says(&err, "regdefs/devices.yaml");
    let (_, err) = common::exits(2, &["devices", "0xZZ"]);
    says(&err, "not a PCI device id");
    let (_, err) = common::exits(2, &["devices", "10de:1234"]);
    says(&err, "not Intel's");
}

/// `devices --known` lists every id of the device table once, with its
/// project where described; `--format json` gives the same rows.
#[test]
fn known_lists_the_device_table() {
    let (out, _) = common::exits(0, &["devices", "--known"]);
    let described = hal::DEVICES.iter().filter(|d| d.described()).count();
    says(
        &out,
        &format!(
            "{} PCI ids, {described} on described projects",
            hal::DEVICES.len()
        ),
    );
    for d in hal::DEVICES {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{:#06x} ", d.pci_id)))
            .unwrap_or_else(|| panic!("{:#06x} not listed", d.pci_id));
        match d.project {
            Some(p) => assert!(
                line.contains(&format!(" {p} ")) || line.contains(&format!(" {p}\t")),
                "{line}"
            ),
            None => assert!(line.contains("not described yet"), "{line}"),
        }
    }
    let (json, _) = common::exits(0, &["devices", "--known", "--format", "json"]);
    let rows: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let rows = rows.as_array().expect("an array");
    assert_eq!(rows.len(), hal::DEVICES.len());
    assert!(rows
        .iter()
        .zip(hal::DEVICES)
        .all(|(r, d)| r["pci_id"] == format!("{:#06x}", d.pci_id)
            && r["project"] == serde_json::json!(d.project)));
}

/// `--format` takes any case.
#[test]
fn the_format_takes_any_case() {
    let (out, _) = common::exits(0, &["devices", "0x9a49", "--format", "JSON"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["pci_id"], "0x9a49");
}
