// A modify that copies a read RW1C bit into the write does not compile:
// clearing is only `clear`/`clear_<field>`.
use perfregs::hal::prelude::*;
use perfregs::hal::{AlwaysAwake, Device, Hsw, SliceBus};

perfregs::regdefs!(mod regs, r#"
block: status
space: mmio
source: compile-fail test
registers:
  - name: STATUS
    projects: hsw
    address: 0x100
    fields:
      - { name: overflow, bits: 1, access: RW1C }
      - { name: enable, bits: 0, access: RW }
"#);

fn main() {
    let mut mem = [0u32; 0x200 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    gpu.modify(regs::hsw::STATUS, &AlwaysAwake, |r, w| {
        w.set(regs::hsw::status::OVERFLOW, r.overflow())
            .enable(true)
    });
}
