// The SDM: counter 16 can be cascaded from 14 only, not from 12.
use perfregs::emu::{Emulator, Sku};
use perfregs::hal::{p4, Device, P4Counter, P4};

fn main() {
    let gpu = Device::<P4, _>::new(Emulator::new(&p4::PROJECT, Sku::default()));
    gpu.cascade(P4Counter::<16>, P4Counter::<12>);
}
