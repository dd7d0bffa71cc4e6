//! The BAR bus and the force-wake holder on regular files: a sparse file the
//! size of a BAR stands in for sysfs `resource0`, a plain file for the
//! kernel's user force-wake file.
#![cfg(target_os = "linux")]

use std::fs::{self, File};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

use hal::bus::{Bus, BusFault, FaultKind, Mmio};
use hal::{tgl, BusyError, Device, Register, Tgl, WakeError};
use perfregs_linux::bar::{Bar, Owner};
use perfregs_linux::forcewake::ForcewakeHolder;
use perfregs_testkit::TempFile;

/// 16 MiB, the size of a TGL GTTMMADR BAR's register half.
const BAR_SIZE: u64 = 16 << 20;

/// A file of `len` zero bytes in the temp folder, removed on drop.
fn temp(name: &str, len: u64) -> TempFile {
    let t = TempFile::new(name);
    File::create(&t.0).unwrap().set_len(len).unwrap();
    t
}

fn file_u32(path: &PathBuf, offset: u64) -> u32 {
    let mut b = [0u8; 4];
    File::open(path)
        .unwrap()
        .read_exact_at(&mut b, offset)
        .unwrap();
    u32::from_le_bytes(b)
}

#[test]
fn writes_land_in_the_file_and_reads_see_it() {
    let file = temp("bar-rw", BAR_SIZE);
    let mut bar = Bar::open(&file.0, Owner::Hal).unwrap();
    assert_eq!(bar.len() as u64, BAR_SIZE);
    Bus::<Mmio>::write32(&mut bar, 0xDAF4, 0x1234_5678);
    Bus::<Mmio>::write64(&mut bar, BAR_SIZE - 8, 0xAABB_CCDD_0011_2233);
    assert_eq!(file_u32(&file.0, 0xDAF4), 0x1234_5678);
    assert_eq!(file_u32(&file.0, BAR_SIZE - 8), 0x0011_2233);
    assert_eq!(file_u32(&file.0, BAR_SIZE - 4), 0xAABB_CCDD);
    // The file written behind the mapping's back: the bus sees it.
    File::options()
        .write(true)
        .open(&file.0)
        .unwrap()
        .write_all_at(&0xCAFE_F00Du32.to_le_bytes(), 0x2000)
        .unwrap();
    assert_eq!(Bus::<Mmio>::read32(&mut bar, 0x2000), 0xCAFE_F00D);
    assert_eq!(Bus::<Mmio>::read32(&mut bar, 0x3000), 0, "sparse: zero");
    assert_eq!(Bus::<Mmio>::take_fault(&mut bar), None);
}

#[test]
fn out_of_range_and_unaligned_accesses_fault_and_never_reach_memory() {
    let file = temp("bar-oob", BAR_SIZE);
    let mut bar = Bar::open(&file.0, Owner::Hal).unwrap();
    assert_eq!(Bus::<Mmio>::read32(&mut bar, BAR_SIZE), u32::MAX);
    let fault = Bus::<Mmio>::take_fault(&mut bar).expect("out of range");
    assert_eq!(
        fault,
        BusFault::new::<Mmio>(BAR_SIZE, 32, false, FaultKind::OutOfRange)
    );
    assert_eq!(fault.space, "mmio");
    Bus::<Mmio>::write64(&mut bar, u64::MAX - 3, 1);
    assert_eq!(
        Bus::<Mmio>::take_fault(&mut bar).map(|f| (f.kind, f.write)),
        Some((FaultKind::OutOfRange, true))
    );
    Bus::<Mmio>::write32(&mut bar, 0x102, 7);
    assert_eq!(
        Bus::<Mmio>::take_fault(&mut bar).map(|f| f.kind),
        Some(FaultKind::Unaligned)
    );
    assert_eq!(
        file_u32(&file.0, 0x100),
        0,
        "the unaligned write was dropped"
    );
}

/// A read past the end of the mapping reaches the caller of `try_read` as
/// the fault, not as all ones.
#[test]
fn typed_try_read_past_the_end_is_an_error() {
    let file = temp("bar-small", 4096);
    let gpu = Device::<Tgl, _>::new(Bar::open(&file.0, Owner::Hal).unwrap());
    let rw = gpu.assume_awake::<tgl::domains::Gt>();
    let addr = tgl::OAG_OACONTROL.address();
    assert!(addr >= 4096);
    let fault = gpu.try_read(tgl::OAG_OACONTROL, &rw).unwrap_err();
    assert_eq!((fault.addr, fault.kind), (addr, FaultKind::OutOfRange));
    assert_eq!(
        perfregs_linux::fault::fault_error(fault).kind(),
        std::io::ErrorKind::UnexpectedEof
    );
}

#[test]
fn the_mapping_is_gone_after_drop() {
    let file = temp("bar-drop", BAR_SIZE);
    let name = file.0.to_str().unwrap().to_owned();
    let mapped = || {
        fs::read_to_string("/proc/self/maps")
            .unwrap()
            .contains(&name)
    };
    let bar = Bar::open(&file.0, Owner::Hal).unwrap();
    assert!(mapped());
    drop(bar);
    assert!(!mapped());
}

#[test]
fn the_bus_has_a_monotonic_clock_and_opening_bad_paths_fails() {
    let file = temp("bar-clock", 4096);
    let mut bar = Bar::open(&file.0, Owner::Hal).unwrap();
    let t0 = Bus::<Mmio>::now_ns(&mut bar).expect("a real bus tells time");
    Bus::<Mmio>::pause(&mut bar);
    let t1 = Bus::<Mmio>::now_ns(&mut bar).unwrap();
    assert!(t1 >= t0 + perfregs_linux::bar::PAUSE.as_nanos() as u64);
    let empty = temp("bar-empty", 0);
    let err = Bar::open(&empty.0, Owner::Hal).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    let err = Bar::open("/nonexistent/perfregs/resource0", Owner::Kernel).unwrap_err();
    assert!(err.to_string().contains("/nonexistent/perfregs/resource0"));
    let err = Bar::open_pci("../../../etc").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
}

/// On a bus the kernel owns, the holder's proof reaches every domain, while
/// force-wake and steering are refused and nothing is written.
#[test]
fn the_holder_proves_every_domain_awake_on_a_kernel_owned_bar() {
    let file = temp("bar-live", BAR_SIZE);
    let fw_file = temp("forcewake-user", 0);
    let gpu = Device::<Tgl, _>::new(Bar::open(&file.0, Owner::Kernel).unwrap());
    assert_eq!(
        gpu.forcewake::<tgl::domains::Render>().err(),
        Some(WakeError::KernelOwned { domain: "render" })
    );
    let holder = ForcewakeHolder::open(&fw_file.0).unwrap();
    assert_eq!(holder.path(), fw_file.0.as_path());
    let awake = gpu.assume_awake_all(&holder);
    assert_eq!(gpu.try_steering(&awake).err(), Some(BusyError::KernelOwned));
    // A GT register and a Render one, through the one proof.
    gpu.write(tgl::OAG_OACONTROL, &awake, |w| w.counter_enable(true));
    let oactl = file_u32(&file.0, tgl::OAG_OACONTROL.address());
    assert_ne!(oactl, 0, "the write landed");
    assert_eq!(oactl, 1, "counter_enable is bit 0");
    assert!(gpu
        .try_read(tgl::OAG_OACONTROL, &awake)
        .unwrap()
        .counter_enable());
    let scec0 = tgl::SCECn_0.get(0).expect("SCEC0");
    assert_eq!(scec0.info().domain, Some("render"));
    let _ = gpu.try_read(scec0, &awake).unwrap();
    // Nothing but the register written: no force-wake request, no selector.
    let bytes = fs::read(&file.0).unwrap();
    let nonzero = bytes
        .chunks_exact(4)
        .enumerate()
        .filter(|(_, w)| w.iter().any(|&b| b != 0))
        .map(|(i, _)| i as u64 * 4)
        .collect::<Vec<_>>();
    assert_eq!(nonzero, [tgl::OAG_OACONTROL.address()]);
}

#[test]
fn holding_a_missing_force_wake_file_says_what_is_needed() {
    let err = ForcewakeHolder::open("/nonexistent/dri/0/i915_forcewake_user").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    assert!(err.to_string().contains("needs root and debugfs"), "{err}");
}

/// On a machine with an Intel GPU bound to i915 at 0000:00:02.0 (card 0),
/// as root: the BAR maps as kernel-owned, and the render ring's TIMESTAMP
/// (0x2358 on every generation the project describes) moves while the
/// force-wake file is held.
#[test]
#[ignore = "needs root, debugfs and an Intel GPU at 0000:00:02.0 bound to i915 (DRM minor 0)"]
fn smoke_live_bar_with_the_kernel_force_wake_held() {
    let mut bar = Bar::open_pci("0000:00:02.0").expect("map BAR 0 (root?)");
    assert_eq!(bar.owner(), Owner::Kernel, "i915 is bound");
    let _holder = ForcewakeHolder::i915(0).expect("hold i915_forcewake_user");
    let t0 = Bus::<Mmio>::read32(&mut bar, 0x2358);
    std::thread::sleep(std::time::Duration::from_millis(1));
    let t1 = Bus::<Mmio>::read32(&mut bar, 0x2358);
    assert_eq!(Bus::<Mmio>::take_fault(&mut bar), None);
    assert_ne!(t0, t1, "the render TIMESTAMP counts while awake");
}

/// A metric set's programming list (registers of the render and GT domains)
/// passes the HAL's checks with the holder's one proof, and lands in the BAR.
#[test]
fn the_holder_proof_covers_every_domain_of_a_programming_list() {
    use perfregs_metrics::tgl_gt2;
    let file = temp("bar-program", BAR_SIZE);
    let fw_file = temp("forcewake-program", 0);
    let gpu = Device::<Tgl, _>::new(Bar::open(&file.0, Owner::Kernel).unwrap());
    let holder = ForcewakeHolder::open(&fw_file.0).unwrap();
    let awake = gpu.assume_awake_all(&holder);
    let set = tgl_gt2::all()
        .iter()
        .find(|s| s.symbol == "TestOa")
        .expect("TGL GT2 TestOa");
    let device = hal::part("tgl", 2).expect("a TGL GT2 part").device;
    let domains: std::collections::BTreeSet<_> = set
        .configs
        .iter()
        .flat_map(|b| b.writes)
        .filter_map(|&(a, _)| {
            tgl::PROJECT
                .registers
                .iter()
                .find(|r| r.address == a)
                .and_then(|r| r.domain)
        })
        .collect();
    assert!(domains.len() >= 2, "the list spans domains: {domains:?}");
    let n = perfregs_metrics::rt::program(&gpu, set, &device, &[&awake]).expect("checked");
    assert!(n > 0);
    let &(addr, value) = set
        .configs
        .iter()
        .flat_map(|b| b.writes)
        .last()
        .expect("writes");
    assert_eq!(
        u64::from(file_u32(&file.0, addr)),
        value,
        "the last write landed"
    );
}
