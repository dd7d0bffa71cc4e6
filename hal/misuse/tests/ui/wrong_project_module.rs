// ... and the IVB module has no OAPERF_A0 at all.
use perfregs::hal::{ivb, AlwaysAwake, Device, Ivb, SliceBus};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Ivb, _>::new(SliceBus::new(&mut mem));
    let _ = gpu.read(ivb::OAPERF_A0, &AlwaysAwake);
}
