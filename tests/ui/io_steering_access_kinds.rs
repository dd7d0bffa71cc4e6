// The access types hold on every path to the bus, not only on the device's
// accessors (read_wo_register.rs, write_ro_register.rs): through an `Io`
// and through the steering handle, a write-only register cannot be read and
// a read-only one cannot be written.
perfregs::regdefs!(mod regs, r#"
block: kinds
space: mmio
source: tests/ui/io_steering_access_kinds.rs
registers:
  - { name: DSS_DOORBELL, projects: tgl, address: 0x8150, fields: [ { name: ring, bits: "7:0", access: WO } ] }
  - { name: DSS_STATE, projects: tgl, address: 0x8154, fields: [ { name: state, bits: "7:0", access: RO } ] }
"#);

use perfregs::hal::{hsw, snb, tgl, AlwaysAwake, Device, Hsw, SliceBus, Snb, Tgl};

fn main() {
    let mut mem = vec![0u32; 0x130100 / 4];
    let gpu = Device::<Snb, _>::new(SliceBus::new(&mut mem));
    let _ = gpu.io().read(snb::OABUFFER, &AlwaysAwake);
    let mut mem = vec![0u32; 0x130100 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    gpu.io().write(hsw::FORCEWAKE_ACK_HSW, &AlwaysAwake, |w| w);

    let mut mem = vec![0u32; 0x9200 / 4];
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let gt = gpu.assume_awake::<tgl::domains::Gt>();
    let rw = gpu.assume_awake::<tgl::domains::Render>();
    let mut mcr = gpu.steering(&gt);
    let _ = mcr.read(regs::tgl::DSS_DOORBELL, 0, &rw);
    mcr.write(regs::tgl::DSS_STATE, &rw, |w| w);
    let _ = mcr.modify(regs::tgl::DSS_STATE, 0, &rw, |_, w| w);
}
