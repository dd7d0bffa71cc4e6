//! Smoke tests on a real Intel GPU (ignored by default):
//!
//! ```text
//! sudo sysctl dev.i915.perf_stream_paranoid=0   # or run as root / with CAP_PERFMON
//! cargo test -p perfregs-linux --test all hardware:: -- --ignored --nocapture
//! ```
//!
//! Each test prints why it skips when no Intel device with a built-in
//! config is found; an open or read that fails on a device that exists is
//! a failure, with the kernel's errno explained.
#![cfg(target_os = "linux")]

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use perfregs_linux::record::Record;
use perfregs_linux::stream::i915::{I915Params, I915Stream};
use perfregs_linux::stream::{Item, StreamReader};
use perfregs_linux::uapi::i915;

/// An Intel DRM card (vendor 0x8086) driven by i915 or xe: its sysfs
/// directory, device node, driver and a built-in config id.
struct Card {
    sysfs: PathBuf,
    node: PathBuf,
    driver: String,
    config: Option<(String, u64)>,
}

fn intel_cards() -> Vec<Card> {
    let Ok(dir) = fs::read_dir("/sys/class/drm") else {
        return Vec::new();
    };
    let mut cards = Vec::new();
    for e in dir.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with("card") || name.contains('-') {
            continue;
        }
        let sysfs = e.path();
        let vendor = fs::read_to_string(sysfs.join("device/vendor")).unwrap_or_default();
        if vendor.trim() != "0x8086" {
            continue;
        }
        let driver = fs::read_link(sysfs.join("device/driver"))
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        let config = builtin_config(&sysfs);
        cards.push(Card {
            node: Path::new("/dev/dri").join(&name),
            sysfs,
            driver,
            config,
        });
    }
    cards
}

/// A config the kernel lists under `<card>/metrics/<uuid>/id` (the
/// built-in test config, or any other).
fn builtin_config(card: &Path) -> Option<(String, u64)> {
    let mut found = Vec::new();
    for e in fs::read_dir(card.join("metrics")).ok()?.flatten() {
        let uuid = e.file_name().to_string_lossy().into_owned();
        if let Ok(Some(id)) = perfregs_linux::config::find_id(card, &uuid) {
            found.push((uuid, id));
        }
    }
    found.sort_by_key(|(_, id)| *id);
    found.into_iter().next()
}

/// The report format i915 uses for the card: A45_B8_C8 on HSW (device ids
/// 0x04xx, 0x0Axx, 0x0Cxx, 0x0Dxx), A32u40_A4u32_B8_C8 on Gen8..Gen12.
fn format_for(card: &Card) -> u32 {
    let id = fs::read_to_string(card.sysfs.join("device/device")).unwrap_or_default();
    let id = u32::from_str_radix(id.trim().trim_start_matches("0x"), 16).unwrap_or(0);
    let name = match id >> 8 {
        0x04 | 0x0A | 0x0C | 0x0D => "A45_B8_C8",
        _ => "A32u40_A4u32_B8_C8",
    };
    i915::oa_format_by_name(name).map_or(0, |f| f.id)
}

/// The card's render node, opened read-write.
fn open_node(card: &Card) -> fs::File {
    fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&card.node)
        .unwrap_or_else(|e| panic!("opening {}: {e}", card.node.display()))
}

fn i915_card() -> Option<Card> {
    let cards = intel_cards();
    if cards.is_empty() {
        eprintln!("SKIPPED: no Intel GPU under /sys/class/drm");
        return None;
    }
    let Some(card) = cards.into_iter().find(|c| c.driver == "i915") else {
        eprintln!("SKIPPED: no Intel GPU driven by i915 (xe streams need OA unit queries, not covered here)");
        return None;
    };
    if card.config.is_none() {
        eprintln!(
            "SKIPPED: {} lists no config under metrics/ (i915 perf unavailable on this platform?)",
            card.sysfs.display()
        );
        return None;
    }
    Some(card)
}

/// The i915 card of [`i915_card`], its config `(uuid, id)` and its node
/// opened read-write.
fn open_i915() -> Option<(Card, (String, u64), fs::File)> {
    let card = i915_card()?;
    let config = card.config.clone().expect("checked");
    let drm = open_node(&card);
    Some((card, config, drm))
}

#[test]
#[ignore = "needs an Intel GPU with i915 perf and perf_stream_paranoid=0 or CAP_PERFMON"]
fn i915_stream_opens_and_reads_reports() {
    let Some((card, (uuid, id), drm)) = open_i915() else {
        return;
    };
    let format = format_for(&card);
    let params = I915Params::new(id, format, 16); // about every 5 ms
    let stream = I915Stream::open(&drm, &params, None).unwrap_or_else(|e| panic!("{e}"));
    let size = params.report_size().expect("a sized format");
    let mut r = StreamReader::new(stream);
    perfregs_linux::stream::OaStream::enable(r.stream_mut()).unwrap_or_else(|e| panic!("{e}"));
    let mut samples = 0;
    for _ in 0..50 {
        if !r
            .wait(Some(Duration::from_millis(100)))
            .unwrap_or_else(|e| panic!("{e}"))
        {
            continue;
        }
        r.drain(|item| {
            if let Item::Record(Record::Sample(b)) = item {
                assert_eq!(b.len(), size);
                samples += 1;
            }
        })
        .unwrap_or_else(|e| panic!("{e}"));
        if samples >= 10 {
            break;
        }
    }
    println!(
        "{}: config {uuid} (id {id}), {samples} reports, counts {:?}",
        card.node.display(),
        r.counts()
    );
    assert!(samples >= 10, "fewer than 10 reports in 5 s");
}

#[test]
#[ignore = "needs an Intel GPU with i915 perf and perf_stream_paranoid=0 or CAP_PERFMON"]
fn i915_disabled_stream_reads_eio_and_bad_config_is_named() {
    let Some((card, (_, id), drm)) = open_i915() else {
        return;
    };
    let params = I915Params::new(id, format_for(&card), 16);
    let mut s = I915Stream::open(&drm, &params, None).unwrap_or_else(|e| panic!("{e}"));
    let mut buf = vec![0u8; 4096];
    let e = perfregs_linux::stream::OaStream::read(&mut s, &mut buf).unwrap_err();
    println!("read of a disabled stream: {e}");
    assert_eq!(e.errno(), Some(perfregs_linux::errno::code::EIO));
    drop(s);
    let bad = I915Params::new(u64::from(u32::MAX), format_for(&card), 16);
    let e = I915Stream::open(&drm, &bad, None).unwrap_err();
    println!("unknown config: {e}");
    assert!(e.to_string().contains("OA_METRICS_SET"), "{e}");
}
