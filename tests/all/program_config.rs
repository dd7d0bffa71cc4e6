//! `Device::program`: configuration lists (metric-set programming) checked
//! against the descriptions before anything is written.

use perfregs::emu::{Emulator, OaConfig, OaUnit, Sku};
use perfregs::hal::config::ProgramError;
use perfregs::hal::{bdw, hsw, tgl, Device};
use perfregs::metrics::{DeviceInfo, SetInfo};

fn bdw_gpu() -> Device<perfregs::hal::Bdw, Emulator> {
    Device::new(
        Emulator::builder(&bdw::PROJECT, Sku::default())
            .with::<OaUnit>(OaConfig::default())
            .build(),
    )
}

/// Program every block of `sets` available on `device` with `program`; the
/// number of writes made. Panics, naming the set, on a refused block.
fn program_sets(
    sets: &[SetInfo],
    device: &DeviceInfo,
    program: impl Fn(&[(u64, u64)]) -> Result<usize, ProgramError>,
) -> usize {
    let mut total = 0;
    for set in sets {
        for b in set.configs.iter().filter(|b| b.is_available(device)) {
            total += program(b.writes).unwrap_or_else(|e| panic!("{}: {e}", set.symbol));
        }
    }
    total
}

#[test]
fn every_shipped_set_programs_on_its_emulated_project() {
    let all = DeviceInfo {
        slice_mask: u64::MAX,
        subslice_mask: u64::MAX,
        dual_subslice_mask: u64::MAX,
        ..DeviceInfo::default()
    };
    let mut total = 0;
    let gpu = bdw_gpu();
    let rw = gpu
        .forcewake::<bdw::domains::Render>()
        .expect("render wakes");
    total += program_sets(perfregs::metrics::bdw::ALL, &all, |w| {
        gpu.program(w, &[&rw])
    });
    drop(rw);
    let gpu = Device::<perfregs::hal::Hsw, _>::new(Emulator::new(&hsw::PROJECT, Sku::default()));
    let rw = gpu
        .forcewake::<hsw::domains::Render>()
        .expect("render wakes");
    total += program_sets(perfregs::metrics::hsw::ALL, &all, |w| {
        gpu.program(w, &[&rw])
    });
    // HSW's NOA unit writes land in the opaque range and read back.
    assert_eq!(gpu.with_bus(|e| e.warnings().len()), 0);
    drop(rw);
    let gpu = Device::<perfregs::hal::Tgl, _>::new(Emulator::new(&tgl::PROJECT, Sku::default()));
    let gt = gpu.forcewake::<tgl::domains::Gt>().expect("gt wakes");
    let render = gpu
        .forcewake::<tgl::domains::Render>()
        .expect("render wakes");
    for sets in [
        perfregs::metrics::tgl_gt2::ALL,
        perfregs::metrics::tgl_gt1::ALL,
    ] {
        total += program_sets(sets, &all, |w| gpu.program(w, &[&gt, &render]));
    }
    assert_eq!(
        gpu.with_bus(|e| e.warnings().len()),
        0,
        "{:?}",
        gpu.with_bus(|e| e.warnings().to_vec())
    );
    // Every write of the four files (availability conditions all true here).
    assert_eq!(total, 3525 + 302 + 1642 + 2420);
}

#[test]
fn a_missing_domain_is_refused_and_nothing_is_written() {
    let gpu = Device::<perfregs::hal::Tgl, _>::new(Emulator::new(&tgl::PROJECT, Sku::default()));
    let gt = gpu.forcewake::<tgl::domains::Gt>().expect("gt wakes");
    // OAG CEC0 (GT domain), then SCEC0 (render domain): only GT is held.
    let writes = [(0xD940, 0x4), (0xDC00, 0x4)];
    let err = gpu.program(&writes, &[&gt]).expect_err("render is asleep");
    assert_eq!(
        err,
        ProgramError::NotAwake {
            index: 1,
            register: "SCEC0_0",
            domain: "render"
        }
    );
    assert!(err.to_string().contains("SCEC0_0"), "{err}");
    let cec0 = gpu.with_bus(|e| e.peek(0xD940, 0));
    assert_eq!(cec0, Some(0), "the first write was not made either");
}

#[test]
fn bad_writes_are_refused_with_their_index() {
    let gpu = bdw_gpu();
    let rw = gpu
        .forcewake::<bdw::domains::Render>()
        .expect("render wakes");
    let cases: [(&[(u64, u64)], ProgramError); 5] = [
        (
            &[(0x2744, 0x0080_0000), (0x2F00, 1)],
            ProgramError::Undescribed {
                index: 1,
                address: 0x2F00,
            },
        ),
        (
            &[(0x2746, 0)],
            ProgramError::Undescribed {
                index: 0,
                address: 0x2746,
            },
        ),
        // OASTARTTRIG2 bit 24 is must-be-zero.
        (
            &[(0x2714, 0xF180_0000)],
            ProgramError::BadBits {
                index: 0,
                register: "OASTARTTRIG2",
                value: 0xF180_0000,
                bits: 1 << 24,
            },
        ),
        (
            &[(0x2714, 1 << 32)],
            ProgramError::BadBits {
                index: 0,
                register: "OASTARTTRIG2",
                value: 1 << 32,
                bits: 1 << 32,
            },
        ),
        // WAIT_FOR_RC6_EXIT is masked: bit 0 without its enable.
        (
            &[(0x20CC, 1)],
            ProgramError::MissingEnables {
                index: 0,
                register: "WAIT_FOR_RC6_EXIT",
                value: 1,
            },
        ),
    ];
    for (writes, want) in cases {
        assert_eq!(gpu.program(writes, &[&rw]), Err(want));
    }
    assert_eq!(
        gpu.with_bus(|e| e.peek(0x2744, 0)),
        Some(0),
        "nothing written"
    );
    assert_eq!(gpu.program(&[(0x20CC, 0x0001_0001)], &[&rw]), Ok(1));
}

/// CHV's 0x9800..0xAFFF row wakes render and media together (the kernel's
/// `FORCEWAKE_RENDER | FORCEWAKE_MEDIA`): a write there needs a proof of
/// both, and a missing one is named.
#[test]
fn a_two_domain_register_needs_both_proofs() {
    use perfregs::hal::chv;
    let gpu = Device::<perfregs::hal::Chv, _>::new(Emulator::new(&chv::PROJECT, Sku::default()));
    let info = chv::PROJECT
        .register("GDT_CHICKEN_BITS")
        .expect("described");
    assert_eq!(info.domain, Some("render+media"));
    let writes = [(info.address, 0xA0)];
    let rw = gpu
        .forcewake::<chv::domains::Render>()
        .expect("render wakes");
    assert_eq!(
        gpu.program(&writes, &[&rw]),
        Err(ProgramError::NotAwake {
            index: 0,
            register: "GDT_CHICKEN_BITS",
            domain: "media"
        })
    );
    let media = gpu.forcewake::<chv::domains::Media>().expect("media wakes");
    assert_eq!(
        gpu.program(&writes, &[&media]),
        Err(ProgramError::NotAwake {
            index: 0,
            register: "GDT_CHICKEN_BITS",
            domain: "render"
        })
    );
    assert_eq!(gpu.program(&writes, &[&rw, &media]), Ok(1));
    // The typed accessor takes the pair of guards.
    use perfregs::hal::ReadValue;
    let both = (&rw, &media);
    assert_eq!(gpu.read(chv::GDT_CHICKEN_BITS, &both).raw(), 0xA0);
    assert_eq!(gpu.with_bus(|e| e.warnings().len()), 0);
}
