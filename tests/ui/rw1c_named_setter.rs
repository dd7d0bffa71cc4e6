// An RW1C field's named setter explains the access type (like the generic
// `w.set(FIELD, ..)`) instead of reporting a missing method: the field is
// cleared with `clear_overflow()`.
use perfregs::hal::{Device, Hsw, SliceBus};

perfregs::regdefs!(mod regs, r#"
block: status
space: mmio
source: compile-fail test
registers:
  - name: STATUS
    projects: hsw
    address: 0x100
    fields:
      - { name: overflow, bits: 1, access: RW1C }
      - { name: enable, bits: 0, access: RW }
"#);

fn main() {
    let mut mem = [0u32; 0x200 / 4];
    let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<perfregs::hal::hsw::domains::Render>();
    gpu.write(regs::hsw::STATUS, &rw, |w| w.overflow(false).enable(true));
}
