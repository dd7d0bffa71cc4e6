// Counter 0 (BPU) and counter 4 (MS) are in different blocks.
use perfregs::emu::{Emulator, Sku};
use perfregs::hal::{p4, Device, P4Counter, P4};

fn main() {
    let gpu = Device::<P4, _>::new(Emulator::new(&p4::PROJECT, Sku::default()));
    gpu.cascade(P4Counter::<0>, P4Counter::<4>);
}
