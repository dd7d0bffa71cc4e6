// An RW1C field's named setter explains the access type (like the generic
// `w.set(FIELD, ..)`) instead of reporting a missing method: `ov` is cleared
// with `clear_ov()`.
use perfregs::hal::{ivt, AlwaysAwake, Bits, Device, Ivt, SliceBus};

fn main() {
    let mut mem = [0u32; 0x100 / 4];
    let dev = Device::<Ivt, _>::new(SliceBus::new(&mut mem));
    dev.write(ivt::R2_PCI_PMON_BOX_STATUS, &AlwaysAwake, |w| w.ov(Bits::truncate(1)));
}
