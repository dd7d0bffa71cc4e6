//! The typed HAL on an in-memory bus: reads decode fields, writes start from
//! the reset value, `modify` never writes back RW1C/MBZ/reserved bits (each
//! checked through every way users have: the device, an `Io`, the steering
//! handle), per-project addresses and fields, masked writes, runtime metadata.

use perfregs::bits;
use perfregs::hal::enums::{MemorySelect, ReportFormatHsw, ReportFormatIvb, TimerEnable};
use perfregs::hal::prelude::*;
use perfregs::hal::{
    hsw, ivb, snb, tgl, AlwaysAwake, Assumed, Bits, Bus, Device, Hsw, Ivb, Mmio, RawMmio, SliceBus,
    Snb, Tgl,
};

perfregs::regdefs!(mod extra, "tests/fixtures/extra.yaml");

// `STATUS` of extra.yaml again, with a reset value that sets bits no write
// may carry (RW1C 2:1, RW1S 3), on HSW and in one of TGL's DSS ranges
// (replicated: reached through `Steering`).
perfregs::regdefs!(mod kinds, r#"
block: kinds
space: mmio
source: tests/all/hal.rs
registers:
  - name: STATUS
    projects: hsw
    address: 0x110
    reset: 0x000000FE
    fields: &status
      - { name: enable, bits: 0, access: RW }
      - { name: overflow, bits: 1, access: RW1C }
      - { name: lost, bits: 2, access: RW1C }
      - { name: kick, bits: 3, access: RW1S }
      - { name: level, bits: "7:4", access: RW }
      - { name: busy, bits: 8, access: RO-V }
      - { name: keep, bits: "11:9", access: PBC }
      - { name: zero, bits: "15:12", access: MBZ }
      - { name: spare, bits: "19:16", access: RSVD }
      - { name: magic, bits: "27:20", access: WO }
  - name: STEERED_STATUS
    projects: tgl
    address: 0x8150
    reset: 0x000000FE
    fields: *status
"#);

/// The ways to a unicast register's accessors: the device, and an `Io`.
#[derive(Clone, Copy, Debug)]
enum Path {
    Device,
    Io,
}
const PATHS: [Path; 2] = [Path::Device, Path::Io];

/// `$gpu.$method(args)` through `$path` (`$gpu` directly, or `$gpu.io()`).
macro_rules! via {
    ($path:expr, $gpu:expr, $method:ident($($arg:expr),* $(,)?)) => {
        match $path {
            Path::Device => $gpu.$method($($arg),*),
            Path::Io => $gpu.io().$method($($arg),*),
        }
    };
}

const WORDS: usize = 0x3000 / 4;

/// Run `check` once per path, each time as [`with_hsw`] does (user registers
/// below 0x40000 lie in HSW's render domain, like the built-in ones).
fn each_path(
    init: &[(u64, u32)],
    check: impl Fn(Path, &Device<Hsw, SliceBus<'_>>, &Assumed<'_, hsw::domains::Render>),
) {
    for path in PATHS {
        with_hsw(init, |gpu, rw| check(path, gpu, rw));
    }
}

/// Run `f` on a fresh HSW device whose memory holds the `init` words
/// (address, value), with the render domain assumed awake.
fn with_hsw(
    init: &[(u64, u32)],
    f: impl FnOnce(&Device<Hsw, SliceBus<'_>>, &Assumed<'_, hsw::domains::Render>),
) {
    let mut mem = [0u32; WORDS];
    for &(addr, value) in init {
        mem[addr as usize / 4] = value;
    }
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    f(&gpu, &rw);
}

fn word<P: perfregs::hal::Project, B: Bus<Mmio>>(gpu: &Device<P, B>, addr: u64) -> u32 {
    gpu.with_bus(|b| b.read32(addr))
}

fn poke<P: perfregs::hal::Project, B: Bus<Mmio>>(gpu: &Device<P, B>, addr: u64, value: u32) {
    gpu.with_bus(|b| b.write32(addr, value));
}

#[test]
fn read_decodes_fields() {
    with_hsw(&[(0x2360, 0xABD)], |gpu, rw| {
        let ctl = gpu.read(hsw::OACONTROL, rw);
        assert_eq!(ctl.bits(), 0xABD);
        assert_eq!(ctl.timer_period(), 42);
        assert_eq!(ctl.timer_enable(), TimerEnable::Enable);
        assert_eq!(ctl.counter_select(), ReportFormatHsw::C4B8);
        assert!(ctl.counter_enable());
        assert_eq!(ctl.select_context_id(), 0);
        // Generic field API gives the same.
        assert_eq!(
            ctl.get(hsw::oacontrol::TIMER_PERIOD),
            Bits::<6>::new(42).unwrap()
        );
    });
}

#[test]
fn debug_prints_named_fields() {
    with_hsw(&[(0x2360, 0xABD)], |gpu, rw| {
        let text = format!("{:?}", gpu.read(hsw::OACONTROL, rw));
        assert_eq!(
            text,
            "OACONTROL { counter_enable: true, specific_context_enable: Disable, counter_select: C4B8, timer_enable: Enable, timer_period: 0x2a, select_context_id: 0x0 }"
        );
    });
}

#[test]
fn write_builds_from_reset_value() {
    with_hsw(&[], |gpu, rw| {
        gpu.write(hsw::OACONTROL, rw, |w| {
            w.timer_period(bits!(5))
                .timer_enable(TimerEnable::Enable)
                .counter_select(ReportFormatHsw::A45B8C8)
                .counter_enable(true)
        });
        // OASTATUS2 resets to 1 on HSW (GGTT, RO): a write carries it, as drivers do.
        gpu.write(hsw::OASTATUS2, rw, |w| {
            w.head_pointer(Bits::new(0x10_0000 >> 6).unwrap())
        });
        assert_eq!(word(gpu, 0x2360), 5 << 6 | 1 << 5 | 5 << 2 | 1);
        assert_eq!(word(gpu, 0x2368), 0x10_0000 | 1);
    });
}

#[test]
fn reset_and_fields_differ_per_project() {
    let mut mem = [0u32; WORDS];
    let gpu = Device::<Ivb, _>::new(SliceBus::new(&mut mem));
    // Below 0x40000 IVB's registers lie in its render domain (the kernel's Gen6/7 rule).
    let rw = gpu.assume_awake::<ivb::domains::Render>();
    // On IVB OASTATUS2 resets to 0 and memory select is RW.
    gpu.write(ivb::OASTATUS2, &rw, |w| w.memory_select(MemorySelect::Ggtt));
    gpu.write(ivb::OACONTROL, &rw, |w| {
        w.counter_select(ReportFormatIvb::A45B4)
    });
    assert_eq!(word(&gpu, 0x2368), 1);
    assert_eq!(word(&gpu, 0x2360) >> 2 & 7, 5);
}

#[test]
fn one_register_moves_between_projects() {
    let (mut a, mut b) = ([0u32; WORDS], [0u32; WORDS]);
    let ivb_gpu = Device::<Ivb, _>::new(SliceBus::new(&mut a));
    let hsw_gpu = Device::<Hsw, _>::new(SliceBus::new(&mut b));
    let hsw_rw = hsw_gpu.assume_awake::<hsw::domains::Render>();
    let ivb_rw = ivb_gpu.assume_awake::<ivb::domains::Render>();
    ivb_gpu.write(ivb::CEC0_0, &ivb_rw, |w| w.compare_value(bits!(0x1234)));
    hsw_gpu.write(hsw::CEC0_0, &hsw_rw, |w| w.compare_value(bits!(0x1234)));
    hsw_gpu.write(hsw::CEC7_1, &hsw_rw, |w| w.mask(bits!(0xFFFE)));
    assert_eq!(word(&ivb_gpu, 0x2390), 0x1234 << 3);
    assert_eq!(word(&hsw_gpu, 0x2770), 0x1234 << 3);
    assert_eq!(word(&hsw_gpu, 0x27AC), 0xFFFE);
    assert_eq!(ivb::CEC0_0.address(), 0x2390);
    assert_eq!(hsw::CEC0_0.address(), 0x2770);
}

#[test]
fn modify_keeps_fields_and_zeroes_mbz_bits() {
    each_path(&[(0x2368, 0xFFFF_FFFF)], |path, gpu, rw| {
        via!(
            path,
            gpu,
            modify(hsw::OASTATUS2, rw, |r, w| {
                assert_eq!(r.memory_select(), MemorySelect::Ggtt);
                w.head_pointer(Bits::new(0x40).unwrap())
            })
        );
        // head 31:6 = 0x40; bit 5 (MBZ) written 0; bits 4:0 written back as read.
        assert_eq!(word(gpu, 0x2368), 0x40 << 6 | 0x1F, "{path:?}");
    });
}

/// What `modify` setting `level` to 3 writes to a `STATUS` layout that read
/// all ones: RW1C (2:1) and RW1S (3) 0, MBZ 15:12 and RSVD 19:16 0,
/// undescribed 31:28 0; RW (enable), RO-V (8), PBC (11:9) and WO (27:20)
/// written back as read.
const STATUS_MODIFIED: u32 = 0x0FF0_0F31;
/// What clearing `overflow` writes to it: the same kept bits, and bit 1.
const STATUS_CLEARED: u32 = 0x0FF0_0FF3;

#[test]
fn modify_never_writes_back_rw1c_and_clear_is_explicit() {
    // Hardware state: overflow and lost set, kick reads 1, every other bit set too.
    each_path(&[(0x100, 0xFFFF_FFFF)], |path, gpu, rw| {
        via!(
            path,
            gpu,
            modify(extra::hsw::STATUS, rw, |r, w| {
                assert!(r.overflow() && r.lost());
                w.level(bits!(3))
            })
        );
        let written = word(gpu, 0x100);
        assert_eq!(written, STATUS_MODIFIED, "{path:?}: {written:#x}");
        // Clearing one RW1C bit writes exactly that one.
        poke(gpu, 0x100, 0xFFFF_FFFF);
        via!(
            path,
            gpu,
            clear(extra::hsw::STATUS, rw, extra::hsw::status::OVERFLOW)
        );
        let written = word(gpu, 0x100);
        assert_eq!(written, STATUS_CLEARED, "{path:?}: {written:#x}");
        // Named forms do the same.
        via!(
            path,
            gpu,
            write(extra::hsw::STATUS, rw, |w| w.clear_lost().set_kick())
        );
        assert_eq!(word(gpu, 0x100) & 0b1110, 0b1100, "{path:?}");
    });
}

#[test]
fn write_from_reset_drops_rw1c_and_reserved_reset_bits() {
    each_path(&[], |path, gpu, rw| {
        via!(path, gpu, write(extra::hsw::STATUS, rw, |w| w.enable(true)));
        // reset 0xF0 is level = 0xF; enable set.
        assert_eq!(word(gpu, 0x100), 0xF1, "{path:?}");
        via!(
            path,
            gpu,
            write_from_zero(extra::hsw::STATUS, rw, |w| w.magic(bits!(0xAB)))
        );
        assert_eq!(word(gpu, 0x100), 0xAB << 20, "{path:?}");
        // A reset value with RW1C (2:1) and RW1S (3) bits: a write does not carry them.
        via!(path, gpu, write(kinds::hsw::STATUS, rw, |w| w.enable(true)));
        assert_eq!(word(gpu, 0x110), 0xF1, "{path:?}");
    });
}

/// The steering handle's writes and read-modify-writes mask as the device's:
/// reset bits no write may carry are dropped, and `modify` never writes back
/// RW1C, RW1S, MBZ, reserved or undescribed bits; each reaches the instance
/// it names.
#[test]
fn steering_masks_as_the_device_does() {
    let mut mem = vec![0u32; 0x9200 / 4];
    mem[0x913C / 4] = 0x3F; // fuse mirror: all six DSS present
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<tgl::domains::Render>();
    let gt = gpu.assume_awake::<tgl::domains::Gt>();
    // A register is not `Copy`; a reference to it is a register too.
    let reg = &kinds::tgl::STEERED_STATUS;
    let subslice = |gpu: &Device<Tgl, _>| gpu.read(tgl::MCR_SELECTOR, &AlwaysAwake).subslice_id();
    let mut mcr = gpu.steering(&gt);

    poke(&gpu, 0x8150, 0xFFFF_FFFF);
    assert!(mcr.modify(reg, 2, &rw, |r, w| {
        assert!(r.overflow() && r.lost());
        w.level(bits!(3))
    }));
    let written = word(&gpu, 0x8150);
    assert_eq!(written, STATUS_MODIFIED, "{written:#x}");
    assert_eq!(subslice(&gpu), 2);

    // The reset value 0xFE without its RW1C and RW1S bits, enable set.
    mcr.write(reg, &rw, |w| w.enable(true));
    assert_eq!(word(&gpu, 0x8150), 0xF1);
    assert!(gpu.read(tgl::MCR_SELECTOR, &AlwaysAwake).multicast());
    assert!(mcr.write_one(reg, 4, &rw, |w| w.clear_lost()));
    assert_eq!(word(&gpu, 0x8150), 0xF4);
    assert_eq!(subslice(&gpu), 4);

    // Absent instances: nothing read or written.
    poke(&gpu, 0x8150, 0);
    assert!(!mcr.modify(reg, 6, &rw, |_, w| w.enable(true)));
    assert_eq!(word(&gpu, 0x8150), 0);
}

#[test]
fn sixty_four_bit_registers() {
    let mut mem = [0u32; WORDS];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    // User registers below 0x40000 lie in HSW's render domain, like the built-in ones.
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    gpu.write(extra::hsw::COUNTER64, &rw, |w| {
        w.value(Bits::new((1 << 44) - 1000).unwrap())
    });
    assert_eq!(word(&gpu, 0x108), ((1u64 << 44) - 1000) as u32);
    assert_eq!(word(&gpu, 0x10C), (((1u64 << 44) - 1000) >> 32) as u32);
    assert_eq!(
        gpu.read(extra::hsw::COUNTER64, &rw).value(),
        (1 << 44) - 1000
    );
}

#[test]
fn masked_register_writes_enable_bits() {
    for path in PATHS {
        let mut mem = vec![0u32; 0x130100 / 4];
        let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
        via!(
            path,
            gpu,
            write_masked(hsw::FORCEWAKE_MT, &AlwaysAwake, |w| w.kernel(true))
        );
        assert_eq!(word(&gpu, 0xA188), 0x0001_0001, "{path:?}");
        via!(
            path,
            gpu,
            write_masked(hsw::FORCEWAKE_MT, &AlwaysAwake, |w| {
                w.kernel(false).fallback(true)
            })
        );
        assert_eq!(word(&gpu, 0xA188), 0x8001_8000, "{path:?}");
    }
}

#[test]
fn incomplete_enums_decode_to_err() {
    let mut mem = [0u32; WORDS];
    mem[0x2360 / 4] = 4 << 2; // Counter Select 100: no IVB layout
    let gpu = Device::<Ivb, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<ivb::domains::Render>();
    assert_eq!(gpu.read(ivb::OACONTROL, &rw).counter_select(), Err(4));
    assert_eq!(ReportFormatIvb::from_bits(5), Some(ReportFormatIvb::A45B4));
    assert_eq!(ReportFormatIvb::A45B4.bits(), 5);
}

#[test]
fn checked_field_values() {
    assert!(Bits::<6>::new(63).is_some());
    assert!(Bits::<6>::new(64).is_none());
    assert_eq!(Bits::<6>::truncate(0x7F), 0x3F);
    assert_eq!(Bits::<26>::MAX, (1 << 26) - 1);
}

#[test]
fn truncated_values_are_their_low_bits_everywhere() {
    use std::collections::HashSet;
    // `truncate` keeps the high bits in the word; every accessor ignores them.
    let t = Bits::<6>::truncate(0xFFC1);
    let one = Bits::<6>::new(1).unwrap();
    assert_eq!(t.get(), 1);
    assert_eq!(u64::from(t), 1);
    assert_eq!(t, one);
    assert_eq!(t, 1);
    assert!(Bits::<6>::truncate(0x40) < Bits::<6>::truncate(0x3F));
    assert_eq!(t.cmp(&one), std::cmp::Ordering::Equal);
    assert_eq!(HashSet::from([t, one]).len(), 1);
    assert_eq!(format!("{t:?} {t}"), "0x1 1");
    // A setter writes only the low bits, into its own field.
    let mut mem = [0u32; WORDS];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    gpu.write(hsw::OACONTROL, &rw, |w| {
        w.timer_period(Bits::truncate(u64::MAX))
    });
    assert_eq!(word(&gpu, 0x2360), 0x3F << 6);
    gpu.write(hsw::OASTATUS1, &rw, |w| {
        w.tail_pointer(Bits::truncate(0xFFFF_FFFF_FC00_0005))
    });
    assert_eq!(word(&gpu, 0x2364), 5 << 6);
    let status = gpu.read(hsw::OASTATUS1, &rw);
    assert_eq!(status.tail_pointer(), 5);
}

#[test]
fn complete_enums_decode_every_encoding() {
    // Every 3-bit encoding names a HSW report format: decoding is a cast.
    for v in 0..8 {
        let f = <ReportFormatHsw as FieldValue>::from_bits(v);
        assert_eq!(f.bits(), v);
        assert_eq!(Some(f), ReportFormatHsw::from_bits(v));
    }
    // Wider values (no field read yields them) decode as the highest.
    for v in [8, 0xFF, u64::MAX] {
        assert_eq!(
            <ReportFormatHsw as FieldValue>::from_bits(v),
            ReportFormatHsw::C4B8
        );
    }
    assert_eq!(
        <TimerEnable as FieldValue>::from_bits(1),
        TimerEnable::Enable
    );
}

#[test]
fn io_is_the_bus_behind_its_guard() {
    use perfregs::hal::Io;
    // `&mut Io` is a pointer to the bus itself, not to a handle holding one.
    assert_eq!(
        std::mem::size_of::<Io<'_, Hsw, SliceBus<'_>>>(),
        std::mem::size_of::<SliceBus<'_>>()
    );
    fn program(io: &mut Io<'_, Hsw, SliceBus<'_>>) -> u64 {
        let rw = io.assume_awake::<hsw::domains::Render>();
        io.write(hsw::OACONTROL, &rw, |w| w.timer_period(bits!(9)));
        io.modify(hsw::OACONTROL, &rw, |_, w| w.counter_enable(true));
        io.read(hsw::OACONTROL, &rw).bits()
    }
    let mut mem = [0u32; WORDS];
    let mut gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let mut io = gpu.io();
    assert!(gpu.try_io().is_err(), "one borrower at a time");
    assert_eq!(program(&mut io), 9 << 6 | 1);
    let at = &*io as *const Io<'_, Hsw, SliceBus<'_>> as usize;
    drop(io);
    assert!(gpu.try_io().is_ok(), "the guard frees the bus");
    assert_eq!(at, gpu.bus_mut() as *mut SliceBus<'_> as usize);
    assert_eq!(word(&gpu, 0x2360), 9 << 6 | 1);
}

#[test]
fn snb_has_its_own_formula_and_write_only_buffer() {
    let mut mem = [0u32; WORDS];
    let gpu = Device::<Snb, _>::new(SliceBus::new(&mut mem));
    // Below 0x40000 SNB's registers lie in its render domain (the kernel's Gen6 rule).
    let rw = gpu.assume_awake::<snb::domains::Render>();
    gpu.write(snb::OABUFFER, &rw, |w| {
        w.report_buffer_offset(Bits::new(0x80_0000 >> 6).unwrap())
    });
    assert_eq!(word(&gpu, 0x23B0), 0x80_0000);
    for (project, period) in [
        (&snb::PROJECT, "2^(TimerPeriod + 4)"),
        (&hsw::PROJECT, "2^(TimerPeriod + 1)"),
    ] {
        let info = project
            .register("OACONTROL")
            .unwrap()
            .field("timer_period")
            .unwrap();
        assert!(info.description.contains(period), "{}", info.description);
    }
}

#[test]
fn runtime_metadata_matches_types() {
    // PROJECTS is the catalogue, in its order: metrics/tests/same_descriptions.rs.
    let r = hsw::PROJECT.register("oaperf-a44").unwrap();
    assert_eq!(r.address, 0x2800 + 44 * 4);
    assert_eq!(r.address, hsw::OAPERF_A44.address());
    assert!(ivb::PROJECT.register("OAPERF_A0").is_none());
    assert_eq!(
        hsw::PROJECT
            .event("A41")
            .unwrap()
            .event
            .split_whitespace()
            .next(),
        Some("Render")
    );
    let ctl = hsw::PROJECT.register("OACONTROL").unwrap();
    assert_eq!(
        ctl.field("counter_select").unwrap().value_name(5),
        Some("a45_b8_c8")
    );
}

#[test]
fn raw_mmio_backend_is_bounded() {
    let mut mem = [0u32; 16];
    // SAFETY: `mem` outlives `bus` and is only accessed through it meanwhile.
    let mut bus = unsafe { RawMmio::new(mem.as_mut_ptr().cast(), 64) };
    Bus::<Mmio>::write32(&mut bus, 8, 0xDEAD_BEEF);
    assert_eq!(Bus::<Mmio>::read32(&mut bus, 8), 0xDEAD_BEEF);
    assert_eq!(Bus::<Mmio>::read32(&mut bus, 64), u32::MAX);
    assert_eq!(Bus::<Mmio>::read32(&mut bus, 2), u32::MAX);
    Bus::<Mmio>::write32(&mut bus, 1 << 40, 1);
    assert_eq!(mem[2], 0xDEAD_BEEF);
}

/// Arrays are one type: a loop over CEC0..CEC7 through the typed API, the
/// element count per project (8 on HSW, 4 on IVB), constant and run-time
/// indices, and the element names in the runtime metadata.
#[test]
fn loop_over_cec_array() {
    use perfregs::hal::enums::{CecCompareFunction, CecSelect};
    let mut mem = [0u32; WORDS];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    assert_eq!(hsw::CECn_0.iter().count(), 8);
    for n in 0..8 {
        let cec = hsw::CECn_0.get(n).expect("8 CECs on HSW");
        gpu.write(cec, &rw, |w| {
            w.compare_function(CecCompareFunction::GreaterOrEqual)
                .compare_value(Bits::new(n as u64 * 3).unwrap())
                .select(CecSelect::Noa)
        });
        assert_eq!(cec.address(), 0x2770 + 8 * n as u64);
        assert_eq!(cec.info().name, format!("CEC{n}_0"));
    }
    assert!(hsw::CECn_0.get(8).is_none());
    for (n, cec) in hsw::CECn_0.iter().enumerate() {
        let v = gpu.read(cec, &rw);
        assert_eq!(v.compare_value(), n as u64 * 3);
        assert_eq!(v.compare_function(), CecCompareFunction::GreaterOrEqual);
        assert_eq!(word(&gpu, 0x2770 + 8 * n as u64), 3 | (n as u32 * 3) << 3);
    }
    // Constant index, and the named element constants, are the same element.
    assert_eq!(hsw::CECn_0.at::<7>(), hsw::CEC7_0);
    assert_eq!(gpu.read(hsw::CEC7_0, &rw).compare_value(), 21);
    // IVB has four CECs, at its own addresses.
    assert_eq!(ivb::CECn_0.iter().count(), 4);
    assert!(ivb::CECn_0.get(4).is_none());
    assert_eq!(ivb::CECn_0.at::<3>().address(), 0x2390 + 3 * 8);
}

/// One naming rule across projects: each project's `enums` module names the
/// enums its registers use without project words, and an enum whose
/// encodings agree on several projects is one type.
#[test]
fn project_scoped_enum_names() {
    fn same<T>(_: T, _: T) {}
    same(
        perfregs::hal::hsw::enums::ReportFormat::A45B8C8,
        perfregs::hal::enums::ReportFormatHsw::A45B8C8,
    );
    same(
        perfregs::hal::tgl::enums::BufferSize::Size16m,
        perfregs::hal::enums::BufferSizeTgl::Size16m,
    );
    // HSW's and BDW's memory select encodings agree: one type.
    same(
        perfregs::hal::hsw::enums::MemorySelect::Ggtt,
        perfregs::hal::bdw::enums::MemorySelect::Ggtt,
    );
    assert_eq!(
        perfregs::hal::bdw::enums::ReportFormat::A32u40A4u32B8C8.bits(),
        5
    );
}
