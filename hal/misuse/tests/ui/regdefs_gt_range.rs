// A register described with regdefs! at 0x9400 on TGL lies in the GT
// force-wake range of the built-in map: `&AlwaysAwake` does not prove GT awake.
perfregs::regdefs!(mod mine, r#"
block: mine
space: mmio
source: tests/ui/regdefs_gt_range.rs
registers:
  - { name: MY_GT_REG, projects: tgl, address: 0x9400, fields: [ { name: go, bits: 0, access: RW } ] }
"#);

use perfregs::hal::{AlwaysAwake, Device, SliceBus, Tgl};

fn main() {
    let mut mem = vec![0u32; 0x9500 / 4];
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let _ = gpu.read(mine::tgl::MY_GT_REG, &AlwaysAwake);
}
