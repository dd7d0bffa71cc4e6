// A Broadwell metric set programmed on a Tiger Lake device: its generated
// `program` takes a BDW device only.
use perfregs::hal::{tgl, Device, SliceBus, Tgl};
use perfregs::metrics::{bdw::test_oa, DeviceInfo};

fn main() {
    let mut mem = [0u32; 0x1000];
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let gt = gpu.assume_awake::<tgl::domains::Gt>();
    let _ = test_oa::program(&gpu, &DeviceInfo::default(), &[&gt]);
}
