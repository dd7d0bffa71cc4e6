// Bit 23 of an R2PCIe counter control is reserved: writing a 1 there does not compile.
use perfregs::hal::prelude::*;
use perfregs::hal::{ivt, AlwaysAwake, Device, Ivt, SliceBus};

fn main() {
    let mut mem = [0u32; 0x100 / 4];
    let dev = Device::<Ivt, _>::new(SliceBus::new(&mut mem));
    dev.write(ivt::R2_PCI_PMON_CTL0, &AlwaysAwake, |w| {
        w.en(true).set(ivt::r2_pci_pmon_ctln::RSV_23, true)
    });
}
