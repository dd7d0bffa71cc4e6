// The force-wake ack is read-only: it cannot be written, through the device
// or through its bus borrowed once (`Io`).
use perfregs::hal::{hsw, AlwaysAwake, Device, Hsw, SliceBus};

fn main() {
    let mut mem = [0u32; 0x130100 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    gpu.write(hsw::FORCEWAKE_ACK_HSW, &AlwaysAwake, |w| w);
    gpu.io().write(hsw::FORCEWAKE_ACK_HSW, &AlwaysAwake, |w| w);
}
