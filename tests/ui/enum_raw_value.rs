// Counter Select takes a ReportFormatHsw, not a raw number.
use perfregs::hal::{hsw, Device, Hsw, SliceBus};

fn main() {
    let mut mem = [0u32; 0x3000 / 4];
    let mut gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    gpu.write(hsw::OACONTROL, |w| w.counter_select(9));
}
