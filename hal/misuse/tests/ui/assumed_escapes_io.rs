// A proof from `Io::assume_awake` borrows the device: it cannot be returned
// from a function that drops the device.
use perfregs::hal::{hsw, Assumed, Device, Hsw, SliceBus};

fn proof(mem: &mut [u32]) -> Assumed<'static, hsw::domains::Render> {
    let gpu = Device::<Hsw, _>::new(SliceBus::new(mem));
    let io = gpu.io();
    io.assume_awake::<hsw::domains::Render>()
}

fn main() {
    let mut mem = vec![0u32; 0x3000 / 4];
    let _ = proof(&mut mem);
}
