// The named setter of an RO field explains the access type, as the generic
// `w.set(FIELD, ..)` does.
use perfregs::hal::enums::MemorySelect;
use perfregs::hal::{hsw, Device, Hsw, SliceBus};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    gpu.write(hsw::OASTATUS2, &rw, |w| w.memory_select(MemorySelect::Ggtt));
}
