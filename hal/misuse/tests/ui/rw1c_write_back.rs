// A modify that copies a read RW1C bit into the write does not compile:
// clearing is only `clear`/`clear_<field>`.
use perfregs::hal::prelude::*;
use perfregs::hal::{Device, Hsw, SliceBus};

perfregs::regdefs!(mod regs, r#"
block: status
space: mmio
source: compile-fail test
registers:
  - { name: STATUS, projects: hsw, address: 0x100,
      fields: [ { name: overflow, bits: 1, access: RW1C }, { name: enable, bits: 0, access: RW } ] }
"#);

fn main() {
    let mut mem = [0u32; 0x200 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    // Below 0x40000 a user register is in HSW's render domain, like the built-in ones.
    let rw = gpu.assume_awake::<perfregs::hal::hsw::domains::Render>();
    gpu.modify(regs::hsw::STATUS, &rw, |r, w| {
        w.set(regs::hsw::status::OVERFLOW, r.overflow())
            .enable(true)
    });
}
