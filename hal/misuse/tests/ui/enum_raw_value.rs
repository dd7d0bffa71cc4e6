// Counter Select takes a ReportFormatHsw, not a raw number.
use perfregs::hal::{hsw, Device, Hsw, SliceBus};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    gpu.write(hsw::OACONTROL, &rw, |w| w.counter_select(9));
}
