// OASTATUS2 memory select is RO on HSW: setting it does not compile.
use perfregs::hal::enums::MemorySelect;
use perfregs::hal::prelude::*;
use perfregs::hal::{hsw, Device, Hsw, SliceBus};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    gpu.write(hsw::OASTATUS2, &rw, |w| {
        w.set(hsw::oastatus2::MEMORY_SELECT, MemorySelect::Ggtt)
    });
}
