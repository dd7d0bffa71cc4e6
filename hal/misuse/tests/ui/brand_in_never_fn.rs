// A brand's uniqueness needs a function that can return: `brand!` in a
// function returning `!` is refused.
use perfregs::hal::{brand, tgl, Device, SliceBus, Tgl};

fn run(mem: &mut [u32]) -> ! {
    brand!(id);
    let gpu = Device::<Tgl, _>::branded(SliceBus::new(mem), id);
    let _ = gpu.read(tgl::OAR_OACONTROL, &gpu.assume_awake::<tgl::domains::Render>());
    loop {}
}

fn main() {
    let mut mem = vec![0u32; 0x4000];
    run(&mut mem)
}
