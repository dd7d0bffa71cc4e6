// The legitimate counterparts of the compile-fail cases compile and run.
use perfregs::bits;
use perfregs::hal::enums::{ReportFormatHsw, TimerEnable};
use perfregs::hal::prelude::*;
use perfregs::hal::{hsw, Bits, Device, Hsw, SliceBus};

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
    let mut gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    // Literals that fit, enums by name.
    gpu.write(hsw::OACONTROL, |w| {
        w.timer_period(bits!(63)).timer_enable(TimerEnable::Enable).counter_select(ReportFormatHsw::A45B8C8)
    });
    // Runtime values go through a checked constructor.
    let period = Bits::<6>::new(std::env::args().count() as u64).expect("fits");
    gpu.modify(hsw::OACONTROL, |_, w| w.timer_period(period));
    // Reading an RO field is fine.
    let _ = gpu.read(hsw::OASTATUS2).memory_select();
    // Clearing an RW1C bit is explicit.
    gpu.modify(regs::hsw::STATUS, |r, w| if r.overflow() { w.clear_overflow() } else { w.enable(true) });
    gpu.clear(regs::hsw::STATUS, regs::hsw::status::Overflow);
    // Masked registers are written without a read.
    gpu.write_masked(hsw::FORCEWAKE_MT, |w| w.kernel(true));
}
