// OAR_OACONTROL lies in TGL's RENDER domain: a GT guard does not prove it awake.
use perfregs::hal::{tgl, Device, SliceBus, Tgl};

fn main() {
    let mut mem = vec![0u32; 0x4000];
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let gt = gpu.forcewake::<tgl::domains::Gt>().expect("GT awake");
    let _ = gpu.read(tgl::OAR_OACONTROL, &gt);
}
