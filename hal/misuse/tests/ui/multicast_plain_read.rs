// EU_PERF_CNT_CTL0 is replicated per DSS on TGL: plain reads do not compile.
use perfregs::hal::{tgl, Device, SliceBus, Tgl};

fn main() {
    let mut mem = vec![0u32; 0x4000];
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<tgl::domains::Render>();
    let _ = gpu.read(tgl::EU_PERF_CNT_CTL0, &rw);
}
