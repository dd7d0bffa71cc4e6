// FORCEWAKE_MT is masked: no read-modify-write, use write_masked.
use perfregs::hal::{hsw, AlwaysAwake, Device, Hsw, SliceBus};

fn main() {
    let mut mem = [0u32; 0xA200 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    gpu.modify(hsw::FORCEWAKE_MT, &AlwaysAwake, |_, w| w.kernel(true));
}
