// The legitimate counterparts of the compile-fail cases compile and run.
use perfregs::bits;
use perfregs::hal::enums::{ReportFormatHsw, TimerEnable};
use perfregs::hal::{hsw, AlwaysAwake, Bits, Device, Hsw, SliceBus};

perfregs::regdefs!(mod regs, r#"
block: status
space: mmio
source: trybuild pass case
registers:
  - name: STATUS
    projects: hsw
    address: 0x100
    fields:
      - { name: overflow, bits: 1, access: RW1C }
      - { name: enable, bits: 0, access: RW }
"#);

fn main() {
    let mut mem = vec![0u32; 0xA200 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    // Literals that fit, enums by name.
    gpu.write(hsw::OACONTROL, &rw, |w| {
        w.counter_select(ReportFormatHsw::A45B8C8)
            .timer_enable(TimerEnable::Enable)
            .timer_period(bits!(63))
    });
    // Runtime values go through a checked constructor.
    let period = Bits::<6>::new(std::env::args().count() as u64).expect("fits");
    gpu.modify(hsw::OACONTROL, &rw, |_, w| w.timer_period(period));
    // Reading an RO field is fine.
    let _ = gpu.read(hsw::OASTATUS2, &rw).memory_select();
    // Clearing an RW1C bit is explicit.
    gpu.modify(regs::hsw::STATUS, &rw, |r, w| {
        if r.overflow() {
            w.clear_overflow()
        } else {
            w.enable(true)
        }
    });
    gpu.clear(regs::hsw::STATUS, &rw, regs::hsw::status::OVERFLOW);
    // Masked registers are written without a read.
    gpu.write_masked(hsw::FORCEWAKE_MT, &AlwaysAwake, |w| w.kernel(true));
}

// Force-wake guards and the steering API on TGL (compiles; not run against hardware).
#[allow(dead_code)]
fn tgl_usage<B: perfregs::hal::Bus<perfregs::hal::Mmio>>(
    gpu: &Device<perfregs::hal::Tgl, B>,
) -> Option<()> {
    use perfregs::hal::tgl;
    let rw = gpu.forcewake::<tgl::domains::Render>().ok()?;
    let gt = gpu.forcewake::<tgl::domains::Gt>().ok()?;
    let _ = gpu.read(tgl::OAR_OACONTROL, &rw);
    let _ = gpu.read(tgl::OAG_OACONTROL, &gt);
    let mut mcr = gpu.try_steering(&gt).ok()?;
    mcr.write(tgl::EU_PERF_CNT_CTL0, &rw, |w| {
        w.value(Bits::new(0x1234).expect("fits"))
    });
    let _first = mcr.read_any(tgl::EU_PERF_CNT_CTL0, &rw);
    let _all: Vec<_> = mcr.read_each(tgl::EU_PERF_CNT_CTL0, &rw).collect();
    let _written = mcr.write_one(tgl::EU_PERF_CNT_CTL0, 1, &rw, |w| {
        w.value(Bits::new(1).expect("fits"))
    });
    Some(())
}

// Legal P4 cascade pairs compile.
#[allow(dead_code)]
fn p4_usage<B: perfregs::hal::Bus<perfregs::hal::Msr>>(cpu: &Device<perfregs::hal::P4, B>) {
    use perfregs::hal::P4Counter;
    cpu.cascade(P4Counter::<2>, P4Counter::<0>);
    cpu.cascade(P4Counter::<16>, P4Counter::<14>);
    cpu.cascade(P4Counter::<15>, P4Counter::<13>);
}
