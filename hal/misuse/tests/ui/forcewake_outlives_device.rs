// A guard borrows its device: it cannot outlive it.
use perfregs::hal::{tgl, Device, SliceBus, Tgl};

fn main() {
    let mut mem = vec![0u32; 0x4000];
    let guard = {
        let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
        gpu.forcewake::<tgl::domains::Render>()
            .expect("render awake")
    };
    drop(guard);
}
