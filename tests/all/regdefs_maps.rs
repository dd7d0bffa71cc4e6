//! Registers described with `regdefs!` are first-class: they are
//! cross-referenced with the built-in force-wake and replication maps of
//! their project, so a register in TGL's GT range needs a GT proof and one in
//! a DSS range is `Replicated` (the steering API), exactly like built-in ones.
//! (Misuse is in `hal/misuse/tests/ui/regdefs_gt_range.rs` and `regdefs_dss_range.rs`.)

use perfregs::hal::register::ReplicationGroup;
use perfregs::hal::{tgl, Device, Register, Replicated, SliceBus, Tgl};

perfregs::regdefs!(mod mine, r#"
block: mine
space: mmio
source: tests/all/regdefs_maps.rs
registers:
  - name: MY_GT_REG
    projects: tgl
    address: 0x9400
    fields: [ { name: go, bits: 0, access: RW }, { name: level, bits: "7:4", access: RW } ]
  - name: MY_DSS_REG
    projects: tgl
    address: 0x8150
    fields: [ { name: value, bits: "15:0", access: RW } ]
  - name: MY_PLAIN_REG
    projects: tgl
    address: 0x300000
    fields: [ { name: value, bits: "31:0", access: RW } ]
"#);

#[test]
fn user_registers_learn_domain_and_replication() {
    assert_eq!(mine::tgl::MY_GT_REG.info().domain, Some("gt"));
    assert_eq!(mine::tgl::MY_GT_REG.info().replication, None);
    assert_eq!(mine::tgl::MY_DSS_REG.info().domain, Some("render"));
    assert_eq!(mine::tgl::MY_DSS_REG.info().replication, Some(("dss", 6)));
    assert_eq!(<mine::tgl::MY_DSS_REG as Replicated>::Group::NAME, "dss");
    // Outside every row of the map: no domain, any proof (or none) will do.
    assert_eq!(mine::tgl::MY_PLAIN_REG.info().domain, None);
    // The built-in items are referred to, not repeated.
    assert!(mine::tgl::PROJECT.domains.is_empty() && mine::tgl::PROJECT.map.is_empty());
    assert_eq!(mine::tgl::PROJECT.registers.len(), 3);
}

#[test]
fn user_registers_need_the_built_in_proofs() {
    let mut mem = vec![0u32; 0x9500 / 4];
    mem[0x913C / 4] = 0x3F; // every DSS present
    let gpu = Device::<Tgl, _>::new(SliceBus::new(&mut mem));
    let gt = gpu.assume_awake::<tgl::domains::Gt>();
    let rw = gpu.assume_awake::<tgl::domains::Render>();
    gpu.write(mine::tgl::MY_GT_REG, &gt, |w| {
        w.go(true).level(perfregs::bits!(5))
    });
    assert_eq!(gpu.read(mine::tgl::MY_GT_REG, &gt).level(), 5);
    let mut mcr = gpu.steering(&gt);
    mcr.write(mine::tgl::MY_DSS_REG, &rw, |w| {
        w.value(perfregs::bits!(0x1234))
    });
    let seen: Vec<u32> = mcr
        .read_each(mine::tgl::MY_DSS_REG, &rw)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(seen, [0, 1, 2, 3, 4, 5]);
}
