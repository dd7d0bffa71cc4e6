//! `start_periodic` of the OA unit (`emu.unit_mut::<OaUnit>()`): periodic sampling started by register writes in
//! the PRMs' order, on every GPU project; bad arguments write nothing.

use perfregs_emu::*;

fn awake(p: &'static hal::meta::ProjectInfo) -> Emulator {
    let mut e = Emulator::new(p, Sku::default());
    // Wake every domain: write each request register's kernel bit.
    for d in p.domains.iter().filter(|d| !d.always_on) {
        if let Some(req) = d.request.and_then(|r| p.register(r)) {
            e.write32(req.address, 0x0001_0001);
        }
    }
    e.advance(100);
    e.take_trace();
    e.take_warnings();
    e
}

#[test]
fn every_gpu_project_samples() {
    for p in [
        &hal::snb::PROJECT,
        &hal::ivb::PROJECT,
        &hal::hsw::PROJECT,
        &hal::bdw::PROJECT,
        &hal::tgl::PROJECT,
    ] {
        let mut e = awake(p);
        let format = p.formats.last().expect("a format");
        e.unit_mut::<OaUnit>()
            .start_periodic(0x0100_0000, 128 << 10, 5, format.select)
            .unwrap_or_else(|x| panic!("{}: {x}", p.name));
        e.advance(512 * 10); // SNB: 2^(5+4) ticks a report; others 2^(5+1)
        let stats = e.unit::<OaUnit>().stats().expect("OA on");
        assert!(stats.timer_reports >= 9, "{}: {stats:?}", p.name);
        assert_eq!(
            e.unit::<OaUnit>().format().map(|f| f.name),
            Some(format.name),
            "{}",
            p.name
        );
        assert!(e.warnings().is_empty(), "{}: {:?}", p.name, e.warnings());
    }
}

#[test]
fn bad_arguments_write_nothing() {
    let mut e = awake(&hal::bdw::PROJECT);
    let cases = [
        ((0x0100_0000, 1000, 5, 5), StartError::Size(1000)),
        ((0x0100_0040, 16 << 20, 5, 5), StartError::Base(0x0100_0040)),
        ((0x0100_0000, 16 << 20, 5, 99), StartError::Format(99)),
        ((0x0100_0000, 16 << 20, 1000, 5), StartError::Period(1000)),
    ];
    for ((base, size, exp, fmt), want) in cases {
        assert_eq!(
            e.unit_mut::<OaUnit>().start_periodic(base, size, exp, fmt),
            Err(want)
        );
        assert!(!want.to_string().is_empty());
    }
    assert!(e.take_trace().is_empty(), "nothing written");
    e.unit_mut::<OaUnit>().disable();
    assert_eq!(
        e.unit_mut::<OaUnit>()
            .start_periodic(0x0100_0000, 16 << 20, 5, 5),
        Err(StartError::NoOaUnit)
    );
}

#[test]
fn start_error_is_an_error_with_a_message() {
    fn error<E: core::error::Error + core::fmt::Display>(e: E) -> String {
        e.to_string()
    }
    for e in [
        StartError::NoOaUnit,
        StartError::Size(3),
        StartError::Base(0x40),
        StartError::Format(99),
        StartError::Period(99),
    ] {
        assert!(!error(e).is_empty(), "{e:?}");
    }
}
