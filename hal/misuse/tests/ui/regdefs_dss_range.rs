// A register described with regdefs! at 0x8150 on TGL lies in a DSS
// multicast range of the built-in map: a plain read does not compile. Through
// the steering handle its access type holds as everywhere: a write-only DSS
// register cannot be read, a read-only one cannot be written or modified.
perfregs::regdefs!(mod mine, r#"
block: mine
space: mmio
source: tests/ui/regdefs_dss_range.rs
registers:
  - { name: MY_DSS_REG, projects: tgl, address: 0x8150, fields: [ { name: value, bits: "15:0", access: RW } ] }
  - { name: MY_DSS_DOORBELL, projects: tgl, address: 0x8154, fields: [ { name: ring, bits: "7:0", access: WO } ] }
  - { name: MY_DSS_STATE, projects: tgl, address: 0x8158, fields: [ { name: state, bits: "7:0", access: RO } ] }
"#);

use perfregs::hal::{tgl, Device, SliceBus, Tgl};

fn main() {
    let mut mem = vec![0u32; 0x9500 / 4];
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<tgl::domains::Render>();
    let _ = gpu.read(mine::tgl::MY_DSS_REG, &rw);

    let gt = gpu.assume_awake::<tgl::domains::Gt>();
    let mut mcr = gpu.steering(&gt);
    let _ = mcr.read(mine::tgl::MY_DSS_DOORBELL, 0, &rw);
    mcr.write(mine::tgl::MY_DSS_STATE, &rw, |w| w);
    let _ = mcr.modify(mine::tgl::MY_DSS_STATE, 0, &rw, |_, w| w);
}
