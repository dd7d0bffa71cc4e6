// Counters 16 and 17 cannot start another counter.
use perfregs::emu::{Emulator, Sku};
use perfregs::hal::{p4, Device, P4Counter, P4};

fn main() {
    let gpu = Device::<P4, _>::new(Emulator::new(&p4::PROJECT, Sku::default()));
    gpu.cascade(P4Counter::<14>, P4Counter::<16>);
}
