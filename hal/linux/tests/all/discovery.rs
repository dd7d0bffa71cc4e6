//! Discovery on fake sysfs/procfs trees: i915 and xe cards, a non-Intel
//! card, an SNB id, an undescribed id, an unknown id, paranoid 0 and 1,
//! capabilities present and absent, damaged files. And one `#[ignore]`d run
//! on the real `/sys`.
#![cfg(unix)]

use perfregs_linux::discovery::{
    cards, discover, gt_frequencies, Allowed, Blocked, Discovered, DiscoveryError, Driver,
    GtFrequencies, OaAccess, Roots,
};
use perfregs_linux::test_support::FakeTree;
use std::fs;
use std::path::Path;

const PERFMON: u64 = 1 << 38;
const SYS_ADMIN: u64 = 1 << 21;

fn discovered(t: &FakeTree) -> Vec<Discovered> {
    discover(&t.roots())
        .expect("class/drm readable")
        .into_iter()
        .map(|r| r.expect("card readable"))
        .collect()
}

#[test]
fn an_i915_tgl_card_is_described_and_blocked_by_paranoid() {
    let t = FakeTree::tgl_i915("tgl", 1);
    let d = discovered(&t);
    assert_eq!(d.len(), 1, "the connector is not a card");
    let c = &d[0].card;
    assert_eq!(c.name, "card0");
    assert_eq!(c.pci_address.as_deref(), Some("0000:00:02.0"));
    assert_eq!((c.vendor, c.pci_id, c.revision), (0x8086, 0x9A49, Some(1)));
    assert_eq!(c.subsystem_device, Some(0x3034));
    assert_eq!(c.driver, Some(Driver::I915));
    assert_eq!(c.render_node.as_deref(), Some("renderD128"));
    assert_eq!(c.project(), Some("tgl"));
    assert_eq!(c.id.and_then(|i| i.gt), Some(2));
    assert_eq!(
        d[0].access,
        OaAccess::No(Blocked::NeedsPermission {
            sysctl: "dev.i915.perf_stream_paranoid",
            value: 1,
            root: false
        })
    );
    let line = d[0].to_string();
    assert!(
        line.contains("sysctl dev.i915.perf_stream_paranoid=0") && line.contains("CAP_PERFMON"),
        "{line}"
    );
    assert!(
        line.starts_with(
            "card0 0000:00:02.0 TGL GT2 (0x9a49) rev 0x01, tgl, i915, renderD128: OA streams: no: "
        ),
        "{line}"
    );

    // Paranoid 0: any user.
    t.paranoid("i915", 0);
    let d = discovered(&t);
    assert_eq!(
        d[0].access,
        OaAccess::Yes(Allowed::ParanoidOff {
            sysctl: "dev.i915.perf_stream_paranoid"
        })
    );
    // Paranoid 1 with CAP_PERFMON, or with CAP_SYS_ADMIN.
    t.paranoid("i915", 1);
    t.caps(1000, PERFMON);
    assert_eq!(discovered(&t)[0].access, OaAccess::Yes(Allowed::Perfmon));
    t.caps(1000, SYS_ADMIN);
    assert_eq!(discovered(&t)[0].access, OaAccess::Yes(Allowed::SysAdmin));
    // Root with the capabilities dropped is still refused, and says so.
    t.caps(0, 0);
    let d = discovered(&t);
    assert_eq!(
        d[0].access,
        OaAccess::No(Blocked::NeedsPermission {
            sysctl: "dev.i915.perf_stream_paranoid",
            value: 1,
            root: true
        })
    );
    assert!(d[0].access.to_string().contains("runs as root"));
}

#[test]
fn an_xe_card_reads_the_xe_sysctl() {
    let t = FakeTree::new("xe");
    t.card(1, "0000:03:00.0", 0x8086, 0x9A60, Some("xe"));
    t.paranoid("i915", 0); // the i915 sysctl does not matter for xe
    t.paranoid("xe", 1);
    t.caps(1000, 0);
    let d = discovered(&t);
    assert_eq!(d[0].card.driver, Some(Driver::Xe));
    assert_eq!(d[0].card.render_node.as_deref(), Some("renderD129"));
    assert_eq!(
        d[0].access,
        OaAccess::No(Blocked::NeedsPermission {
            sysctl: "dev.xe.observation_paranoid",
            value: 1,
            root: false
        })
    );
    t.paranoid("xe", 0);
    assert_eq!(
        discovered(&t)[0].access,
        OaAccess::Yes(Allowed::ParanoidOff {
            sysctl: "dev.xe.observation_paranoid"
        })
    );
}

#[test]
fn every_reason_to_refuse() {
    let t = FakeTree::new("mix");
    t.card(0, "0000:00:02.0", 0x8086, 0x0116, Some("i915")); // SNB GT2
    t.card(1, "0000:01:00.0", 0x10DE, 0x1C82, Some("nouveau")); // not Intel
    t.card(2, "0000:02:00.0", 0x8086, 0x0BD5, Some("i915")); // PVC
    t.card(3, "0000:03:00.0", 0x8086, 0x1234, Some("i915")); // not in the table
    t.card(4, "0000:04:00.0", 0x8086, 0x0416, None); // HSW, no driver
    t.card(10, "0000:05:00.0", 0x8086, 0x1616, Some("vfio-pci")); // BDW, other driver
    t.paranoid("i915", 0);
    t.caps(0, u64::MAX >> 23);
    let d = discovered(&t);
    let names: Vec<&str> = d.iter().map(|x| x.card.name.as_str()).collect();
    assert_eq!(
        names,
        ["card0", "card1", "card2", "card3", "card4", "card10"]
    );
    let reasons: Vec<String> = d.iter().map(|x| x.access.to_string()).collect();
    let expect = [
        "no: SNB GT2 (0x0116): no OA stream under Linux (the catalogue gives this GPU no OA unit; MI_REPORT_PERF_COUNT only)",
        "no: not an Intel device (vendor 0x10de)",
        "no: platform not described yet (PVC, PCI id 0x0bd5)",
        "no: unknown Intel device 0x1234",
        "no: no kernel driver bound to the device",
        "no: driver `vfio-pci` has no OA streams",
    ];
    for (got, want) in reasons.iter().zip(expect) {
        assert!(
            got.starts_with(want),
            "{got}\n  expected to start with\n{want}"
        );
        assert!(got.contains("; "), "a remedy follows: {got}");
    }
    assert!(matches!(d[0].access, OaAccess::No(Blocked::NoOaStream(_))));
    assert!(d[1].card.id.is_none(), "no table lookup for other vendors");
    assert!(d[4].paranoid.is_none() && d[5].paranoid.is_none());
}

#[test]
fn unreadable_or_damaged_files_are_reported_not_guessed() {
    let t = FakeTree::with_damaged_card1("bad");
    // No paranoid file, no status file.
    let list = discover(&t.roots()).expect("class/drm readable");
    let first = list[0].as_ref().expect("card0 reads");
    match &first.access {
        OaAccess::No(Blocked::PrivilegesUnreadable { error }) => {
            assert!(error.contains("self/status"), "{error}")
        }
        other => panic!("{other:?}"),
    }
    match &list[1] {
        Err(DiscoveryError::Parse { path, why }) => {
            assert!(path.ends_with("card1/device/device"), "{}", path.display());
            assert!(why.contains("banana"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // With privileges but no paranoid file: the sysctl is named.
    t.caps(1000, 0);
    let d = discovered_first(&t);
    match d.access {
        OaAccess::No(Blocked::ParanoidUnreadable { sysctl, error }) => {
            assert_eq!(sysctl, "dev.i915.perf_stream_paranoid");
            assert!(error.contains("perf_stream_paranoid"), "{error}");
        }
        other => panic!("{other:?}"),
    }
    t.paranoid("i915", 1);
    t.write("proc/sys/dev/i915/perf_stream_paranoid", "one\n");
    match discovered_first(&t).access {
        OaAccess::No(Blocked::ParanoidUnreadable { error, .. }) => {
            assert!(error.contains("not a number"), "{error}")
        }
        other => panic!("{other:?}"),
    }
    // A PCI id wider than 16 bits is out of range, not truncated.
    t.write("sys/devices/pci0000:00/0000:00:02.0/device", "0x19a49\n");
    match &discover(&t.roots()).expect("readable")[0] {
        Err(DiscoveryError::Parse { why, .. }) => assert!(why.contains("out of range"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn gt_frequencies_of_i915_and_xe() {
    let t = FakeTree::new("freq");
    t.card(0, "0000:00:02.0", 0x8086, 0x9A49, Some("i915"));
    t.card(1, "0000:03:00.0", 0x8086, 0x9A60, Some("xe"));
    let sys = t.roots().sys;
    let list: Vec<_> = cards(&sys)
        .expect("readable")
        .into_iter()
        .map(|c| c.expect("card"))
        .collect();
    // Neither driver's files: none (the preset is used, and says so).
    assert_eq!(gt_frequencies(&sys, &list[0]).expect("no error"), None);
    t.write("sys/class/drm/card0/gt_min_freq_mhz", "100\n");
    t.write("sys/class/drm/card0/gt_max_freq_mhz", "1300\n");
    t.write(
        "sys/devices/pci0000:00/0000:03:00.0/tile0/gt0/freq0/min_freq",
        "350\n",
    );
    t.write(
        "sys/devices/pci0000:00/0000:03:00.0/tile0/gt0/freq0/max_freq",
        "1450\n",
    );
    assert_eq!(
        gt_frequencies(&sys, &list[0]).expect("i915"),
        Some(GtFrequencies {
            min_mhz: 100,
            max_mhz: 1300
        })
    );
    assert_eq!(
        gt_frequencies(&sys, &list[1]).expect("xe"),
        Some(GtFrequencies {
            min_mhz: 350,
            max_mhz: 1450
        })
    );
    // One file without the other, or a non-number: errors naming the file.
    fs::remove_file(sys.join("class/drm/card0/gt_max_freq_mhz")).expect("rm");
    let e = gt_frequencies(&sys, &list[0]).expect_err("half a range");
    assert!(e.to_string().contains("gt_max_freq_mhz"), "{e}");
    t.write("sys/class/drm/card0/gt_max_freq_mhz", "fast\n");
    let e = gt_frequencies(&sys, &list[0]).expect_err("not a number");
    assert!(e.to_string().contains("not a number of MHz"), "{e}");
}

fn discovered_first(t: &FakeTree) -> Discovered {
    discover(&t.roots())
        .expect("readable")
        .into_iter()
        .next()
        .expect("a card")
        .expect("card0 reads")
}

#[test]
fn no_drm_folder_is_no_card() {
    let t = FakeTree::new("empty");
    assert!(cards(&t.roots().sys).expect("empty").is_empty());
    let missing = Path::new("/nonexistent-perfregs-root");
    assert!(cards(missing).expect("empty").is_empty());
}

/// Run discovery on this machine's `/sys` and `/proc` and print it.
#[test]
#[ignore = "reads the real /sys and /proc: run with --ignored --nocapture on a machine with a GPU"]
fn real_machine() {
    let list = discover(&Roots::default()).expect("/sys/class/drm readable");
    if list.is_empty() {
        println!("no DRM card under /sys/class/drm");
    }
    for d in &list {
        match d {
            Ok(d) => {
                println!("{d}");
                #[cfg(target_os = "linux")]
                if d.card.project().is_some() {
                    match perfregs_linux::discovery::probe::probe(Path::new("/dev"), &d.card) {
                        Ok(p) => {
                            println!("  probe: {p:?}");
                            let f = perfregs_linux::discovery::gt_frequencies(
                                Path::new("/sys"),
                                &d.card,
                            );
                            println!("  frequencies: {f:?}");
                            let f = f.ok().flatten();
                            println!("  device values: {:?}", p.device_values(&d.card, f));
                        }
                        Err(e) => println!("  probe: {e}"),
                    }
                }
            }
            Err(e) => println!("error: {e}"),
        }
    }
}
