// OAPERF_A0 exists on HSW only: not with an IVB device handle.
use perfregs::hal::{hsw, AlwaysAwake, Device, Ivb, SliceBus};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Ivb, _>::new(SliceBus::new(&mut mem));
    let _ = gpu.read(hsw::OAPERF_A0, &AlwaysAwake);
}
