//! The device API fails loudly: a second borrow of the bus panics with a
//! message saying so (or is a `BusyError` from the `try_` forms), a proof
//! made by another unbranded device panics, and what a guard or steering
//! handle dropped while the bus is borrowed must write is written when the
//! bus is freed. Branded devices accept their own proofs.

use perfregs::hal::{
    brand, hsw, tgl, AlwaysAwake, Bits, Bus, BusyError, Device, Hsw, Mmio, SliceBus, Tgl,
};
use perfregs_testkit::says;
use std::panic::{catch_unwind, AssertUnwindSafe};

const WORDS: usize = 0x3000 / 4;

/// The panic message of `f`, which must panic.
fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

fn assert_bus_busy_panic(f: impl FnOnce()) {
    let msg = panic_message(f);
    assert!(
        msg.contains("bus is already borrowed") && msg.contains("Io"),
        "unexpected message: {msg}"
    );
}

fn assert_foreign_proof_panic(f: impl FnOnce()) {
    let msg = panic_message(f);
    assert!(
        msg.contains("made by another device"),
        "unexpected message: {msg}"
    );
}

#[test]
fn accessors_panic_while_an_io_is_alive() {
    let mut mem = [0u32; WORDS];
    mem[0x2360 / 4] = 0xABD;
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    let io = gpu.io();
    // Never a made-up 0, never a dropped write.
    assert_bus_busy_panic(|| {
        let _ = gpu.read(hsw::OACONTROL, &rw);
    });
    assert_bus_busy_panic(|| gpu.write(hsw::OACONTROL, &rw, |w| w.counter_enable(true)));
    assert_bus_busy_panic(|| gpu.modify(hsw::OACONTROL, &rw, |_, w| w.counter_enable(false)));
    assert_bus_busy_panic(|| {
        let _ = gpu.read_counter(hsw::OACONTROL, &rw);
    });
    assert_bus_busy_panic(|| gpu.with_bus(|b| b.write32(0x2360, 0)));
    assert_bus_busy_panic(|| {
        let _second = gpu.io();
    });
    assert_eq!(gpu.try_io().err(), Some(BusyError::Bus));
    assert_eq!(gpu.try_with_bus(|_| ()), Err(BusyError::Bus));
    drop(io);
    // Free again, and nothing was written meanwhile.
    assert_eq!(gpu.read(hsw::OACONTROL, &rw).bits(), 0xABD);
    assert!(gpu.try_io().is_ok());
}

#[test]
fn nested_with_bus_panics_and_try_with_bus_says_why() {
    let mut mem = [0u32; WORDS];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    let inner = gpu.with_bus(|_| gpu.try_with_bus(|b| Bus::<Mmio>::read32(b, 0x2360)));
    assert_eq!(inner, Err(BusyError::Bus));
    assert_bus_busy_panic(|| {
        gpu.with_bus(|_| {
            let _ = gpu.read(hsw::OACONTROL, &rw);
        })
    });
    // The panic inside `with_bus` freed the bus on its way out.
    assert_eq!(gpu.read(hsw::OACONTROL, &rw).bits(), 0);
}

/// Every public error type of the HAL is a `std::error::Error` (with or
/// without feature `std`), so `?` turns it into a `Box<dyn Error>`.
#[test]
fn hal_errors_are_std_errors() {
    use perfregs::hal::config::ProgramError;
    use perfregs::hal::meta::CommandError;
    use perfregs::hal::WakeError;
    use std::error::Error;
    fn boxed(e: impl Error + 'static) -> Result<(), Box<dyn Error>> {
        Err(e)?
    }
    let errors = [
        boxed(BusyError::Bus),
        boxed(WakeError::Timeout {
            domain: "render",
            polls: 3,
        }),
        boxed(ProgramError::NoMetadata),
        boxed(CommandError::Length {
            command: "MI_REPORT_PERF_COUNT",
            expected: 4,
            got: 3,
        }),
    ];
    let texts: Vec<String> = errors
        .into_iter()
        .map(|e| e.expect_err("an error").to_string())
        .collect();
    assert!(texts[0].contains("bus is already borrowed"), "{texts:?}");
    assert_eq!(texts[1], "force-wake render: no ack after 3 polls");
    assert_eq!(texts[2], "the project has no register metadata");
    assert!(texts[3].contains("3 dwords"), "{texts:?}");
}

#[test]
fn busy_errors_display_clearly() {
    let bus = BusyError::Bus.to_string();
    says(&bus, "bus is already borrowed");
    says(&bus, "drop it first");
    let steering = BusyError::Steering.to_string();
    says(&steering, "steering selector is already taken");
}

#[test]
fn io_accessors_and_its_own_proof() {
    let mut mem = [0u32; WORDS];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let kept = {
        let mut io = gpu.io();
        let rw = io.assume_awake::<hsw::domains::Render>();
        io.write(hsw::OACONTROL, &rw, |w| {
            w.timer_period(Bits::new(9).expect("fits"))
        });
        assert_eq!(io.read(hsw::OACONTROL, &rw).timer_period(), 9);
        io.bus_mut().write32(0x2364, 0x40);
        rw
    };
    // The proof borrows the device, not the `Io`: still good on the device.
    assert_eq!(gpu.read(hsw::OASTATUS1, &kept).tail_pointer(), 1);
}

#[test]
fn a_proof_of_another_unbranded_device_panics() {
    // Unbranded devices share their proof types (here made in a loop): the
    // device a proof belongs to is checked on every access.
    let mut mems = vec![[0u32; WORDS]; 2];
    let gpus: Vec<_> = mems
        .iter_mut()
        .map(|m| Device::<Hsw, _>::new(SliceBus::new(m)))
        .collect();
    let rw0 = gpus[0].assume_awake::<hsw::domains::Render>();
    let rw1 = gpus[1].assume_awake::<hsw::domains::Render>();
    assert_foreign_proof_panic(|| {
        let _ = gpus[1].read(hsw::OACONTROL, &rw0);
    });
    assert_foreign_proof_panic(|| gpus[1].write(hsw::OACONTROL, &rw0, |w| w.counter_enable(true)));
    assert_foreign_proof_panic(|| gpus[1].modify(hsw::OACONTROL, &rw0, |_, w| w));
    assert_foreign_proof_panic(|| {
        let mut io = gpus[1].io();
        let _ = io.read(hsw::OACONTROL, &rw0);
    });
    assert_foreign_proof_panic(|| {
        let mut io = gpus[0].io();
        let theirs = gpus[1].assume_awake::<hsw::domains::Render>();
        io.write(hsw::OACONTROL, &theirs, |w| w.counter_enable(true));
    });
    // Nothing reached either bus, and each device takes its own proof.
    assert!(!gpus[1].read(hsw::OACONTROL, &rw1).counter_enable());
    assert!(!gpus[0].read(hsw::OACONTROL, &rw0).counter_enable());
    // `AlwaysAwake` belongs to no device: every device takes it.
    for gpu in &gpus {
        let _ = gpu.read(hsw::FORCEWAKE_MT, &AlwaysAwake);
    }
}

#[test]
fn branded_devices_take_their_own_proofs() {
    let (mut a, mut b) = ([0u32; WORDS], [0u32; WORDS]);
    brand!(first);
    brand!(second);
    let gpu0 = Device::<Hsw, _>::branded(SliceBus::new(&mut a), first);
    let gpu1 = Device::<Hsw, _>::branded(SliceBus::new(&mut b), second);
    let rw0 = gpu0.assume_awake::<hsw::domains::Render>();
    let rw1 = gpu1.assume_awake::<hsw::domains::Render>();
    gpu0.write(hsw::OACONTROL, &rw0, |w| {
        w.timer_period(Bits::new(3).expect("fits"))
    });
    gpu1.write(hsw::OACONTROL, &rw1, |w| {
        w.timer_period(Bits::new(4).expect("fits"))
    });
    {
        let mut io = gpu0.io();
        assert_eq!(io.read(hsw::OACONTROL, &rw0).timer_period(), 3);
        let _ = io.read(hsw::FORCEWAKE_MT, &AlwaysAwake);
    }
    assert_eq!(gpu1.read(hsw::OACONTROL, &rw1).timer_period(), 4);
    assert_bus_busy_panic(|| {
        let _io = gpu1.io();
        let _ = gpu1.read(hsw::OACONTROL, &rw1);
    });
    // Branding is for the block it is made in; the bus comes back as usual.
    let _ = gpu0.into_bus();
}

#[test]
fn branded_devices_in_a_closure_with_a_return_type() {
    let periods: Vec<u64> = (1..=3u64)
        .map(|n| -> u64 {
            let mut mem = [0u32; WORDS];
            brand!(id);
            let gpu = Device::<Hsw, _>::branded(SliceBus::new(&mut mem), id);
            let rw = gpu.assume_awake::<hsw::domains::Render>();
            gpu.write(hsw::OACONTROL, &rw, |w| {
                w.timer_period(Bits::new(n).expect("fits"))
            });
            gpu.read(hsw::OACONTROL, &rw).timer_period().get()
        })
        .collect();
    assert_eq!(periods, [1, 2, 3]);
}

#[test]
fn bus_mut_frees_a_bus_left_borrowed_by_a_leaked_io() {
    let mut mem = [0u32; WORDS];
    let mut gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    std::mem::forget(gpu.io());
    assert_eq!(gpu.try_io().err(), Some(BusyError::Bus));
    Bus::<Mmio>::write32(gpu.bus_mut(), 0x2360, 0x40);
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    assert_eq!(gpu.read(hsw::OACONTROL, &rw).timer_period(), 1);
}

#[cfg(feature = "emu")]
mod emulated {
    use super::*;
    use perfregs::emu::{Emulator, Sku};

    fn tgl_gpu() -> Device<Tgl, Emulator> {
        Device::new(Emulator::new(&tgl::PROJECT, Sku::default()))
    }

    #[test]
    fn forcewake_panics_when_it_must_wake_while_an_io_is_alive() {
        let gpu = tgl_gpu();
        {
            let _io = gpu.io();
            assert_bus_busy_panic(|| {
                let _ = gpu.forcewake::<tgl::domains::Render>();
            });
        }
        assert_eq!(gpu.wake_count::<tgl::domains::Render>(), 0);
        // With the domain already held, another guard needs no bus access.
        let held = gpu.forcewake::<tgl::domains::Render>().expect("render");
        let io = gpu.io();
        let again = gpu.forcewake::<tgl::domains::Render>().expect("counted");
        assert_eq!(gpu.wake_count::<tgl::domains::Render>(), 2);
        drop((again, io, held));
        assert!(!gpu.with_bus(|e| e.awake::<tgl::domains::Render>()));
    }

    #[test]
    fn a_guard_dropped_while_an_io_is_alive_releases_when_it_is_freed() {
        let gpu = tgl_gpu();
        let rw = gpu.forcewake::<tgl::domains::Render>().expect("render");
        let mut io = gpu.io();
        drop(rw);
        assert_eq!(gpu.wake_count::<tgl::domains::Render>(), 0);
        assert!(
            io.bus_mut().awake::<tgl::domains::Render>(),
            "release waits for the bus"
        );
        drop(io);
        assert!(
            !gpu.with_bus(|e| e.awake::<tgl::domains::Render>()),
            "released with the Io"
        );
        // And the domain wakes again as usual.
        let rw = gpu
            .forcewake::<tgl::domains::Render>()
            .expect("render again");
        assert!(gpu.read(tgl::OAR_OACONTROL, &rw).bits() == 0);
    }

    #[test]
    fn a_guard_dropped_inside_with_bus_releases_on_the_way_out() {
        let gpu = tgl_gpu();
        let rw = gpu.forcewake::<tgl::domains::Render>().expect("render");
        let still_awake = gpu.with_bus(|e| {
            drop(rw);
            e.awake::<tgl::domains::Render>()
        });
        assert!(still_awake);
        assert!(!gpu.with_bus(|e| e.awake::<tgl::domains::Render>()));
    }

    #[test]
    fn steering_is_exclusive_and_fails_loudly() {
        let gpu = tgl_gpu();
        let gt = gpu.forcewake::<tgl::domains::Gt>().expect("gt");
        let mcr = gpu.steering(&gt);
        assert_eq!(gpu.try_steering(&gt).err(), Some(BusyError::Steering));
        let msg = panic_message(|| {
            let _ = gpu.steering(&gt);
        });
        says(&msg, "steering selector is already taken");
        drop(mcr);
        // The bus borrowed: an error, and the selector is not left taken.
        {
            let _io = gpu.io();
            assert_eq!(gpu.try_steering(&gt).err(), Some(BusyError::Bus));
        }
        assert!(gpu.try_steering(&gt).is_ok());
    }

    #[test]
    fn steering_dropped_while_an_io_is_alive_restores_multicast_when_it_is_freed() {
        let gpu = tgl_gpu();
        let gt = gpu.forcewake::<tgl::domains::Gt>().expect("gt");
        let rw = gpu.forcewake::<tgl::domains::Render>().expect("render");
        let mut mcr = gpu.steering(&gt);
        let _ = mcr.read(tgl::EU_PERF_CNT_CTL0, 3, &rw);
        let mut io = gpu.io();
        drop(mcr);
        assert!(!io.read(tgl::MCR_SELECTOR, &AlwaysAwake).multicast());
        drop(io);
        assert!(gpu.read(tgl::MCR_SELECTOR, &AlwaysAwake).multicast());
        assert!(gpu.try_steering(&gt).is_ok());
    }

    #[test]
    fn a_guard_of_another_unbranded_device_panics() {
        let (gpu0, gpu1) = (tgl_gpu(), tgl_gpu());
        let rw0 = gpu0.forcewake::<tgl::domains::Render>().expect("render");
        let gt0 = gpu0.forcewake::<tgl::domains::Gt>().expect("gt");
        let gt1 = gpu1.forcewake::<tgl::domains::Gt>().expect("gt");
        assert_foreign_proof_panic(|| {
            let _ = gpu1.read(tgl::OAR_OACONTROL, &rw0);
        });
        assert_foreign_proof_panic(|| {
            let _ = gpu1.steering(&gt0);
        });
        // A register outside every domain takes any proof of this device only.
        assert_foreign_proof_panic(|| {
            let _ = gpu1.read(tgl::FORCEWAKE_RENDER, &gt0);
        });
        let rw1 = gpu1.forcewake::<tgl::domains::Render>().expect("render");
        let mut mcr = gpu1.steering(&gt1);
        assert_foreign_proof_panic(|| {
            let _ = mcr.read(tgl::EU_PERF_CNT_CTL0, 0, &rw0);
        });
        assert!(mcr.read(tgl::EU_PERF_CNT_CTL0, 0, &rw1).is_some());
    }

    #[test]
    fn branded_guards_hold_and_release() {
        brand!(id);
        let gpu = Device::<Tgl, _>::branded(Emulator::new(&tgl::PROJECT, Sku::default()), id);
        {
            let gt = gpu.forcewake::<tgl::domains::Gt>().expect("gt");
            let rw = gpu.forcewake::<tgl::domains::Render>().expect("render");
            let mut mcr = gpu.steering(&gt);
            mcr.write(tgl::EU_PERF_CNT_CTL0, &rw, |w| {
                w.value(Bits::new(5).expect("fits"))
            });
            assert_eq!(mcr.read_each(tgl::EU_PERF_CNT_CTL0, &rw).count(), 6);
            assert!(gpu.with_bus(|e| e.awake::<tgl::domains::Render>()));
        }
        assert!(!gpu.with_bus(|e| e.awake::<tgl::domains::Render>()));
    }
}
