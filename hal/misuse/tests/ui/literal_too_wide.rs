// Timer Period is 6 bits: 70 does not fit, and the literal is rejected at compile time.
use perfregs::bits;
use perfregs::hal::{hsw, Device, Hsw, SliceBus};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    gpu.write(hsw::OACONTROL, &rw, |w| w.timer_period(bits!(70)));
}
