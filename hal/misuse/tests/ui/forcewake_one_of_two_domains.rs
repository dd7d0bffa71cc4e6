// GDT_CHICKEN_BITS (0x9840) lies in a CHV row the kernel wakes with
// FORCEWAKE_RENDER | FORCEWAKE_MEDIA: a render guard alone does not prove
// it awake (the proof is a pair of guards, `&(&rw, &media)`).
use perfregs::hal::{chv, Chv, Device, SliceBus};

fn main() {
    let mut mem = vec![0u32; 0x4000];
    let gpu = Device::<Chv, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.forcewake::<chv::domains::Render>().expect("render awake");
    let _ = gpu.read(chv::GDT_CHICKEN_BITS, &rw);
}
