//! Zero-copy report views on hand-built buffers, and the force-wake /
//! replication metadata, for a layout described inline.

use perfregs::hal::{reports, Report, ReportFormat};

perfregs::regdefs!(mod layouts, r#"
block: test_formats
space: mmio
source: tests/all/report_views.rs
registers:
  - { name: OA_CTL, projects: tgl, address: 0x2B00 }
  - { name: DSS_REG, projects: tgl, address: 0x8150 }
  - { name: FW_REQ, projects: tgl, address: 0x1000, fields: [ { name: kernel, bits: 0, access: RW } ] }
  - { name: FW_ACK, projects: tgl, address: 0x1004 }
power_domains:
  - projects: tgl
    request_field: kernel
    domains:
      - { name: aon, always_on: true }
      - { name: render, request: FW_REQ, ack: FW_ACK }
replication_groups:
  - projects: tgl
    groups: [ { name: dss, instances: 6 } ]
address_map:
  - projects: tgl
    rows:
      - { start: 0x0, end: 0x1FFF, bytes: 0x2000, wake: aon }
      - { start: 0x2000, end: 0x814F, wake: render }
      - { start: 0x8150, end: 0x815F, bytes: 16, wake: render, group: dss, instances: 6, steering: "subsliceid[0..5]" }
      - { start: 0x8160, end: 0x817F }
report_formats:
  - name: SPLIT40
    projects: tgl
    select: 5
    size: 64
    layout:
      - { name: RPT_ID, offset: 0x0, bits: 32 }
      - { name: TIME_STAMP, offset: 0x4, bits: 32 }
      - { name: CTX_ID, offset: 0x8, bits: 32 }
      - { name: GPU_TICKS, offset: 0xC, bits: 32 }
      - { name: "A{n}", count: 4, offset: 0x10, bits: 40, high_byte_offset: 0x20 }
      - { name: "A{n}", first: 4, count: 2, offset: 0x24, bits: 32 }
      - { name: "B{n}", count: 2, offset: 0x30, bits: 32 }
      - { name: "C{n}", first: 1, count: 1, offset: 0x3C, bits: 32 }
"#);

use layouts::tgl::reports::Split40;

fn put32(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn sample() -> [u8; 64] {
    let mut r = [0u8; 64];
    put32(&mut r, 0x0, 0x1234_0001);
    put32(&mut r, 0x4, 0xDEAD_BEEF);
    put32(&mut r, 0x8, 42);
    put32(&mut r, 0xC, 1_000_000);
    for n in 0..4u32 {
        put32(&mut r, 0x10 + 4 * n as usize, 0xF000_0000 + n);
        r[0x20 + n as usize] = 0xA0 + n as u8; // high bytes
    }
    put32(&mut r, 0x24, 4);
    put32(&mut r, 0x28, 5);
    put32(&mut r, 0x30, 100);
    put32(&mut r, 0x34, 101);
    put32(&mut r, 0x3C, 7);
    r
}

#[test]
fn header_and_split_counters() {
    let bytes = sample();
    let r = Report::<Split40>::new(&bytes).expect("64 bytes");
    assert_eq!(r.rpt_id(), Some(0x1234_0001));
    assert_eq!(r.timestamp(), Some(0xDEAD_BEEF));
    assert_eq!(r.ctx_id(), Some(42));
    assert_eq!(r.gpu_ticks(), Some(1_000_000));
    // 40-bit: high byte << 32 | low dword.
    assert_eq!(r.a(0), Some(0xA0_F000_0000));
    assert_eq!(r.a(3), Some(0xA3_F000_0003));
    assert_eq!(r.a(4), Some(4));
    assert_eq!(r.a(5), Some(5));
    assert_eq!(r.a(6), None);
    assert_eq!((r.b(0), r.b(1), r.b(2)), (Some(100), Some(101), None));
    assert_eq!((r.c(0), r.c(1)), (None, Some(7)));
    assert_eq!(r.counter("A2"), Some(0xA2_F000_0002));
    assert_eq!(r.counter("NOPE"), None);
    // Zero copy: the view borrows the caller's bytes.
    assert!(std::ptr::eq(r.bytes().as_ptr(), bytes.as_ptr()));
}

#[test]
fn buffers_split_into_reports() {
    let mut buf = Vec::new();
    for i in 0..3u32 {
        let mut r = sample();
        put32(&mut r, 0x4, i);
        buf.extend_from_slice(&r);
    }
    buf.extend_from_slice(&[0u8; 10]); // a partial report is not yielded
    let stamps: Vec<_> = reports::<Split40>(&buf).map(|r| r.timestamp()).collect();
    assert_eq!(stamps, [Some(0), Some(1), Some(2)]);
    assert!(Report::<Split40>::new(&buf[..63]).is_none());
}

#[test]
fn format_constants() {
    assert_eq!(Split40::INFO.size, 64);
    assert_eq!(Split40::INFO.select, 5);
    assert_eq!(Split40::INFO.counters.len(), 4 + 4 + 2 + 2 + 1);
    let text = format!("{:?}", Report::<Split40>::new(&sample()).unwrap());
    assert!(text.contains("\"A0\": 691221299200"), "{text}");
}

#[test]
fn registers_know_their_domain_and_replication() {
    use perfregs::hal::Register;
    let ctl = <layouts::tgl::OA_CTL as Register>::INFO;
    assert_eq!((ctl.domain, ctl.replication), (Some("render"), None));
    let dss = <layouts::tgl::DSS_REG as Register>::INFO;
    assert_eq!(
        (dss.domain, dss.replication),
        (Some("render"), Some(("dss", 6)))
    );
    let p = &layouts::tgl::PROJECT;
    assert_eq!(p.row_at(0x8155).map(|r| r.group), Some(Some("dss")));
    assert_eq!(p.row_at(0x8170).map(|r| r.wake), Some(None)); // reserved
    assert_eq!(p.row_at(0x1_0000), None);
    assert_eq!(p.row_at(0x0).map(|r| r.wake), Some(Some("aon")));
    assert_eq!(p.domain("render").and_then(|d| d.request), Some("FW_REQ"));
    // A request register needs no force-wake, whatever its row says.
    let req = <layouts::tgl::FW_REQ as Register>::INFO;
    assert_eq!(req.domain, None);
    assert_eq!(<layouts::tgl::FW_ACK as Register>::INFO.domain, Some("aon"));
    assert_eq!(p.group("dss").map(|g| g.instances), Some(6));
    assert_eq!(p.format("split40").map(|f| f.size), Some(64));
}
