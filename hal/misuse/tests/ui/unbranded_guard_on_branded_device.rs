// A branded device accepts only its own proofs: not an unbranded device's.
use perfregs::hal::{brand, tgl, Device, SliceBus, Tgl};

fn main() {
    let (mut mem0, mut mem1) = (vec![0u32; 0x4000], vec![0u32; 0x4000]);
    let gpu0 = Device::<Tgl, _>::new(SliceBus::new(&mut mem0));
    brand!(id);
    let gpu1 = Device::<Tgl, _>::branded(SliceBus::new(&mut mem1), id);
    let rw0 = gpu0.forcewake::<tgl::domains::Render>().expect("render awake");
    let _ = gpu1.read(tgl::OAR_OACONTROL, &rw0);
}
