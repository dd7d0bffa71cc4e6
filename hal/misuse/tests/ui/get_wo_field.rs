// A WO field cannot be read, even through the generic API.
use perfregs::hal::prelude::*;
use perfregs::hal::{Bits, Device, Hsw, SliceBus};

perfregs::regdefs!(mod regs, r#"
block: wo
space: mmio
source: compile-fail test
registers:
  - { name: DOORBELL, projects: hsw, address: 0x100, fields: [
      { name: ring, bits: "7:0", access: WO },
      { name: state, bits: 8, access: RO } ] }
"#);

fn main() {
    let mut mem = [0u32; 0x200 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    // Below 0x40000 a user register is in HSW's render domain, like the built-in ones.
    let rw = gpu.assume_awake::<perfregs::hal::hsw::domains::Render>();
    let v = gpu.read(regs::hsw::DOORBELL, &rw);
    let _: Bits<8> = v.get(regs::hsw::doorbell::RING);
}
