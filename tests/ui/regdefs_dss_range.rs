// A register described with regdefs! at 0x8150 on TGL lies in a DSS
// multicast range of the built-in map: a plain read does not compile.
perfregs::regdefs!(mod mine, r#"
block: mine
space: mmio
source: tests/ui/regdefs_dss_range.rs
registers:
  - { name: MY_DSS_REG, projects: tgl, address: 0x8150, fields: [ { name: value, bits: "15:0", access: RW } ] }
"#);

use perfregs::hal::{tgl, Device, SliceBus, Tgl};

fn main() {
    let mut mem = vec![0u32; 0x9500 / 4];
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<tgl::domains::Render>();
    let _ = gpu.read(mine::tgl::MY_DSS_REG, &rw);
}
