// A WO field cannot be read, even through the generic API.
use perfregs::hal::prelude::*;
use perfregs::hal::{AlwaysAwake, Bits, Device, Hsw, SliceBus};

perfregs::regdefs!(mod regs, r#"
block: wo
space: mmio
source: compile-fail test
registers:
  - name: DOORBELL
    projects: hsw
    address: 0x100
    fields:
      - { name: ring, bits: "7:0", access: WO }
      - { name: state, bits: 8, access: RO }
"#);

fn main() {
    let mut mem = [0u32; 0x200 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let v = gpu.read(regs::hsw::DOORBELL, &AlwaysAwake);
    let _: Bits<8> = v.get(regs::hsw::doorbell::RING);
}
