// OABUFFER is write-only on SNB: not readable through the device, nor
// through its bus borrowed once (`Io`).
use perfregs::hal::{snb, Device, SliceBus, Snb};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Snb, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<snb::domains::Render>();
    let _ = gpu.read(snb::OABUFFER, &rw);
    let _ = gpu.io().read(snb::OABUFFER, &rw);
}
