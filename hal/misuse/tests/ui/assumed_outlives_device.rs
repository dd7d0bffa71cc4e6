// An assumed-awake proof borrows its device: it cannot be kept after the
// device is dropped.
use perfregs::hal::{hsw, Device, Hsw, SliceBus};

fn main() {
    let mut mem = vec![0u32; 0x3000 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    drop(gpu);
    let _kept = rw;
}
