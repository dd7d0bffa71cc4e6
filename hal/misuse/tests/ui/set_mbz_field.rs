// OASTATUS2 bit 5 is MBZ: software cannot set it.
use perfregs::hal::prelude::*;
use perfregs::hal::{hsw, Device, Hsw, SliceBus};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    gpu.write(hsw::OASTATUS2, &rw, |w| {
        w.set(hsw::oastatus2::RESERVED_5, true)
    });
}
