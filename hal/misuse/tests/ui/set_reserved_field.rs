// CEC0-0 bits 31:21 are reserved.
use perfregs::hal::prelude::*;
use perfregs::hal::{hsw, Bits, Device, Hsw, SliceBus};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    gpu.write(hsw::CEC0_0, &rw, |w| {
        w.set(hsw::cecn_0::RESERVED_31_21, Bits::truncate(1))
    });
}
