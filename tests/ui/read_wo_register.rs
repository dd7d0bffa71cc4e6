// OABUFFER is write-only on SNB: not readable through the device, nor
// through its bus borrowed once (`Io`).
use perfregs::hal::{snb, AlwaysAwake, Device, SliceBus, Snb};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Snb, _>::new(SliceBus::new(&mut mem));
    let _ = gpu.read(snb::OABUFFER, &AlwaysAwake);
    let _ = gpu.io().read(snb::OABUFFER, &AlwaysAwake);
}
