// Without a guard there is no proof: `AlwaysAwake` only covers always-on domains.
use perfregs::hal::{tgl, AlwaysAwake, Device, SliceBus, Tgl};

fn main() {
    let mut mem = vec![0u32; 0x4000];
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let _ = gpu.read(tgl::OAR_OACONTROL, &AlwaysAwake);
}
