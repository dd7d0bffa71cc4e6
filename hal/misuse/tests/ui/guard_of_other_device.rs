// Two branded GPUs of the same project: a force-wake guard of GPU 0 does not
// prove anything to GPU 1.
use perfregs::hal::{brand, tgl, Device, SliceBus, Tgl};

fn main() {
    let (mut mem0, mut mem1) = (vec![0u32; 0x4000], vec![0u32; 0x4000]);
    brand!(id0);
    brand!(id1);
    let gpu0 = Device::<Tgl, _>::branded(SliceBus::new(&mut mem0), id0);
    let gpu1 = Device::<Tgl, _>::branded(SliceBus::new(&mut mem1), id1);
    let rw0 = gpu0.forcewake::<tgl::domains::Render>().expect("render awake");
    let _ = gpu1.read(tgl::OAR_OACONTROL, &rw0);
}

// The brands stay distinct when nothing after them returns (here the process
// exits): GPU 0's assumed proof still does not open GPU 1.
#[allow(dead_code)]
fn diverging() {
    // Here the two GPUs' memories are the halves of one allocation.
    let mut mem = vec![0u32; 0x8000];
    let (mem0, mem1) = mem.split_at_mut(0x4000);
    brand!(id0);
    brand!(id1);
    let gpu0 = Device::<Tgl, _>::branded(SliceBus::new(mem0), id0);
    let gpu1 = Device::<Tgl, _>::branded(SliceBus::new(mem1), id1);
    let rw0 = gpu0.assume_awake::<tgl::domains::Render>();
    let _ = gpu1.read(tgl::OAR_OACONTROL, &rw0);
    std::process::exit(0);
}
